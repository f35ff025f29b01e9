import type { WebSocket } from 'ws';
import { DEEP_LINK_BASE } from '../deep-links/deep-link-templates.js';
import { Chunker, MAX_ODDS_PER_FRAME } from './chunks.js';
import { CLOSE_GRACE_MS, SOCKET_HIGH_WATER, type CloseReason, type Frame, type Transport } from './stream-client.js';
import { WS_CLOSE, WsTransport } from './transports.js';
import { dict } from '../../domain/dict.js';

/** Close codes of the AsyncAPI profile: the WebSocket's, and 4000 for a refused filter. */
const CLOSE_CODES: Readonly<Record<string, number>> = dict({ ...WS_CLOSE, invalid_filter: 4000 });

/** The AsyncAPI name of an error code: a refused filter or subscription (the REST API's invalid_request) is `invalid_filter`. */
export function asyncApiErrorCode(code: string): string {
  return code === 'invalid_request' ? 'invalid_filter' : code;
}

/** A resolver path (`/api/v1/deeplink/<id>`) as a JSON string without a query string. */
const DEEP_LINK = new RegExp(`"(${DEEP_LINK_BASE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[^"?]*)"`, 'g');

/** JSON text with every deep link carrying the state (`?state=nj`, as GET /deeplink/{id} reads it). */
export function withState(json: string, state: string | undefined): string {
  return state ? json.replace(DEEP_LINK, `"$1?state=${state}"`) : json;
}

/** One message: its type and the JSON members after the envelope (`"source":"x","data":[...]`, may be empty). */
interface Message {
  type: string;
  body: string;
  globalSeq?: number;
  replay?: boolean;
}

/** The live frames' translations, per Frame object (shared by the streams of a view) and state. */
const translated = new WeakMap<Frame, Map<string, string>>();

/** What a snapshot being sent has produced so far. */
interface SnapshotProgress {
  initial: number;
  /** Per opportunity type, its frames' item arrays (JSON) until the last one arrives (`chunk` / `totalChunks`). */
  opportunities: Map<string, string[]>;
}

export interface AsyncApiOptions {
  timestamp: () => string;
  /** The channel of each opportunity type (kind): the key of its `opportunities_snapshot`. */
  channelOfKind: ReadonlyMap<string, string>;
  graceMs?: number;
}

/**
 * A WebSocket speaking the AsyncAPI document: the hub's frames (SSE names and payloads) become its messages,
 * each in the envelope `{type, seq, global_seq?, replay?, timestamp, ...}` with `seq` counting this connection's
 * messages from 1 and `global_seq` the hub's sequence number (the replay log's):
 *
 * - `snapshot` frames of prices: `initial{source, data[], count}` per book (at most 1000 rows and 256 KB each);
 *   of opportunities: one `opportunities_snapshot{<channel>: [...]}` per type, with `chunk` / `totalChunks` when
 *   the type took several frames;
 * - `snapshot:complete{books, resumed, progressive}`;
 * - `odds:update` / `odds:locked` `{source, data[], count}`, `odds:removed{source, ids, count}`;
 * - everything else `{data}` (the opportunity types' `*:detected` arrays and `*:expired{expired}`, game states);
 * - `heartbeat` and `pong` the envelope alone, `error{code, message}`.
 *
 * Live frames of a resumed connection up to the sequence it connected at are tagged `replay: true`. Deep links
 * carry the connection's `state`. Sockets, batches, back-pressure and the drain timer are WsTransport's.
 */
export class AsyncApiTransport implements Transport {
  readonly opportunitiesFirst = true;
  private readonly inner: WsTransport;
  private seq = 0;
  private closing = false;
  private gone = false;
  private graceTimer: NodeJS.Timeout | null = null;
  private progress: SnapshotProgress = { initial: 0, opportunities: new Map() };
  /** The state (two letters) deep links carry. */
  state: string | undefined;
  /** Live frames up to this sequence number are replays (the connection resumed); -1: none are. */
  replayUpTo = -1;
  /** The next snapshot leaves out the prices (resume=true without a replay point): its `snapshot:complete` says `resumed`. */
  skipOdds = false;
  /** `snapshot:complete` messages sent so far. */
  completed = 0;

  constructor(
    private readonly ws: WebSocket,
    private readonly opts: AsyncApiOptions,
  ) {
    this.inner = new WsTransport(ws, opts.timestamp, opts.graceMs ?? CLOSE_GRACE_MS);
    this.inner.onGone(() => {
      this.gone = true;
      if (this.graceTimer) clearTimeout(this.graceTimer);
    });
  }

  private get open(): boolean {
    return this.ws.readyState === this.ws.OPEN && !this.closing;
  }

  write(f: Frame): boolean {
    if (!this.open) return false;
    for (const m of this.translate(f)) this.send(m);
    return this.ws.bufferedAmount <= SOCKET_HIGH_WATER;
  }

  /** Sends a message of the session (pong, subscribed, error): the envelope and these members. */
  message(type: string, members: Record<string, unknown> = dict()): void {
    if (this.open) this.send({ type, body: JSON.stringify(members).slice(1, -1) });
  }

  error(code: string, message: string): void {
    this.message('error', { code: asyncApiErrorCode(code), message });
  }

  private send(m: Message): void {
    let head = `{"type":${JSON.stringify(m.type)},"seq":${++this.seq}`;
    if (m.globalSeq !== undefined) head += `,"global_seq":${m.globalSeq}`;
    if (m.replay) head += ',"replay":true';
    head += `,"timestamp":${JSON.stringify(this.opts.timestamp())}`;
    this.inner.writeRaw(m.body ? `${head},${m.body}}` : `${head}}`);
  }

  batch(fn: () => void): void {
    this.inner.batch(fn);
  }

  buffered(): number {
    return this.inner.buffered();
  }

  onDrain(fn: () => void): void {
    this.inner.onDrain(fn);
  }

  onGone(fn: () => void): void {
    this.inner.onGone(fn);
  }

  /** Sends the `error` message of the reason and closes with its code; a client that does not answer is terminated. */
  close(reason?: CloseReason): void {
    if (this.gone || this.closing) return;
    const code = reason ? asyncApiErrorCode(reason.code) : undefined;
    if (reason && this.open) this.error(reason.code, reason.message);
    this.closing = true;
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(code ? (CLOSE_CODES[code] ?? 1011) : 1000, code);
    this.graceTimer = setTimeout(() => this.ws.terminate(), this.opts.graceMs ?? CLOSE_GRACE_MS);
    this.graceTimer.unref();
  }

  // ---------------------------------------------------------------- translation

  private translate(f: Frame): Message[] {
    const m = /^(\d+)-(.*)$/.exec(f.id);
    const globalSeq = m ? Number(m[1]) : undefined;
    const tail = m?.[2] ?? '';
    switch (f.event) {
      case 'connected':
        return [this.connected(f.data, globalSeq)];
      case 'snapshot':
        if (tail === 's0') this.progress = { initial: 0, opportunities: new Map() };
        return this.snapshot(f.data, globalSeq);
      case 'snapshot:complete':
        return [this.complete(f.data, globalSeq)];
      case 'heartbeat':
        return [{ type: 'heartbeat', body: '' }];
      default: {
        // Live frames (`<seq>-<k>`), replayed ones tagged; other frames (game-state snapshots) as they are.
        const live = /^\d+$/.test(tail);
        const replay = live && globalSeq !== undefined && globalSeq <= this.replayUpTo;
        return [{ type: f.event, body: this.liveBody(f), globalSeq, ...(replay ? { replay } : {}) }];
      }
    }
  }

  /** A live frame's members, rendered once per Frame object and state. */
  private liveBody(f: Frame): string {
    const key = this.state ?? '';
    let byState = translated.get(f);
    let body = byState?.get(key);
    if (body !== undefined) return body;
    body = withState(this.reshape(f), this.state);
    if (!byState) translated.set(f, (byState = new Map()));
    byState.set(key, body);
    return body;
  }

  private reshape(f: Frame): string {
    if (f.event === 'odds:update' || f.event === 'odds:locked') {
      const d = JSON.parse(f.data) as { odds: unknown[]; book: string };
      return `"source":${JSON.stringify(d.book)},"data":${JSON.stringify(d.odds)},"count":${d.odds.length}`;
    }
    if (f.event === 'odds:removed') {
      const d = JSON.parse(f.data) as { ids: string[]; book: string };
      return `"source":${JSON.stringify(d.book)},"ids":${JSON.stringify(d.ids)},"count":${d.ids.length}`;
    }
    return `"data":${f.data}`;
  }

  private connected(data: string, globalSeq: number | undefined): Message {
    const d = JSON.parse(data) as Record<string, unknown>;
    const members = {
      message: d.message,
      stream_id: d.stream_id,
      tier: d.tier,
      features: d.features,
      channels: d.channels ?? null,
      books: d.books,
      resumed: d.resumed,
      heartbeat_seconds: d.heartbeat_seconds,
    };
    return { type: 'connected', body: JSON.stringify(members).slice(1, -1), globalSeq: globalSeq ?? 0 };
  }

  private snapshot(data: string, globalSeq: number | undefined): Message[] {
    const d = JSON.parse(data) as { odds?: Array<{ sportsbook?: unknown }>; kind?: string; opportunities?: unknown[]; has_more?: boolean };
    if (d.odds) return this.skipOdds ? [] : this.initial(d.odds, globalSeq);
    if (d.opportunities && d.kind) {
      const kind = d.kind;
      const frames = this.progress.opportunities.get(kind) ?? [];
      frames.push(withState(JSON.stringify(d.opportunities), this.state));
      if (d.has_more) {
        this.progress.opportunities.set(kind, frames);
        return [];
      }
      this.progress.opportunities.delete(kind);
      const channel = JSON.stringify(this.opts.channelOfKind.get(kind) ?? kind);
      return frames.map((items, i) => ({
        type: 'opportunities_snapshot',
        body: `${channel}:${items}${frames.length > 1 ? `,"chunk":${i + 1},"totalChunks":${frames.length}` : ''}`,
        globalSeq,
      }));
    }
    return [{ type: 'snapshot', body: `"data":${data}`, globalSeq }];
  }

  /** A snapshot frame's prices as `initial` messages, one per book (split past 1000 rows or the frame size). */
  private initial(rows: Array<{ sportsbook?: unknown }>, globalSeq: number | undefined): Message[] {
    const byBook = new Map<string, string[]>();
    for (const r of rows) {
      const book = String(r.sportsbook);
      (byBook.get(book) ?? byBook.set(book, []).get(book)!).push(withState(JSON.stringify(r), this.state));
    }
    const out: Message[] = [];
    for (const [book, items] of byBook) {
      const chunker = new Chunker(MAX_ODDS_PER_FRAME);
      const flush = () => {
        const group = chunker.take();
        out.push({
          type: 'initial',
          body: `"source":${JSON.stringify(book)},"data":[${group.join(',')}],"count":${group.length}`,
          globalSeq,
        });
      };
      for (const item of items) {
        const n = Buffer.byteLength(item);
        if (!chunker.fits(n)) flush();
        chunker.push(item, n);
      }
      if (chunker.size) flush();
    }
    this.progress.initial += out.length;
    return out;
  }

  private complete(data: string, globalSeq: number | undefined): Message {
    const d = JSON.parse(data) as { books?: string[]; resumed?: boolean };
    const resumed = d.resumed === true || this.skipOdds;
    const members = { books: resumed ? [] : (d.books ?? []), resumed, progressive: this.progress.initial > 0 };
    this.progress = { initial: 0, opportunities: new Map() };
    this.skipOdds = false;
    this.completed++;
    return { type: 'snapshot:complete', body: JSON.stringify(members).slice(1, -1), globalSeq };
  }
}

import { randomBytes } from 'node:crypto';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { EventBus } from '../../common/bus/event-bus.js';
import { Clock } from '../../common/time/clock.js';
import { Jobs } from '../cluster/jobs.service.js';
import { Leadership } from '../cluster/leadership.service.js';
import type { BoardEvent, ChangeSet, OddsRow } from '../../domain/odds-row.js';
import { BoardService } from '../board/board.service.js';
import { gameStateObject } from '../game-state/game-state-object.js';
import { OddsItemBuilder } from '../odds/odds-item.js';
import { DetectionEngine, refOf } from '../detection/detection.engine.js';
import type { Detector, Json } from '../detection/detector.js';
import type { Account } from '../../common/auth/account.js';
import { badRequest } from '../../common/http/api-error.js';
import { Chunker, MAX_ODDS_PER_FRAME, MAX_OPPORTUNITIES_PER_FRAME } from './chunks.js';
import type { OddsBoard } from '../board/odds-board.js';
import { StreamClient, type CloseReason, type Frame, type StreamFilter, type Transport } from './stream-client.js';
import { STREAM_LEASE_RENEW_MS, StreamCaps } from './stream-caps.js';
import { LOG_MAX_ROWS, MemoryStreamLog, REPLAY_MS, SharedStreamLog, type LogEntry, type LogPart } from './stream-log.js';
import {
  ODDS_TOPIC,
  OPPORTUNITIES_TOPIC,
  type OpportunityEvent,
  type OpportunityRef,
  STREAMS_DISPLACED_TOPIC,
} from '../../domain/topics.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';

export { REPLAY_MAX, REPLAY_MS } from './stream-log.js';

export const HEARTBEAT_MS = 30_000;
/** The most prices one stream's snapshot may hold; a broader filter is refused with a message saying so. */
export const MAX_SNAPSHOT_ODDS = 150_000;
/** One sequence number's worth of source events (LogEntry), with the rows rendered for it so far. */
type Entry = LogEntry & { rowJson: Map<string, string> };

interface Displaced {
  ids: string[];
  cap: number;
  tier: string;
}

/** One view's frames of an entry, and the shared Frame objects per first frame number (see broadcast). */
interface View {
  frames: Array<{ event: string; data: string }>;
  at: Map<number, Frame[]>;
}

/** Where a reconnecting client stands: after frame k of sequence seq (k = Infinity: all of it). */
export interface ResumePoint {
  seq: number;
  k: number;
}

export function parseLastEventId(raw: string | undefined): ResumePoint | 'snapshot' | null {
  if (!raw) return null;
  const m = /^(\d{10,20})-(\d+|s\d+|sc|h\d+|c)$/.exec(raw.trim());
  if (!m) return null;
  const seq = Number(m[1]);
  const tail = m[2]!;
  if (/^\d+$/.test(tail)) return { seq, k: Number(tail) };
  if (tail.startsWith('s') && tail !== 'sc') return 'snapshot';
  return { seq, k: Number.POSITIVE_INFINITY };
}

/**
 * The stream hub: every SSE and WebSocket client is fed from here. It listens to the bus (price change sets,
 * and the opportunity changes this instance's detection derives from them), renders frames per client
 * filter, keeps a bounded replay buffer keyed by sequence number for Last-Event-ID, and enforces the per-key
 * stream caps. Rendering work is shared: each row and each opportunity is serialised once per event, and each
 * frame once per view (streams with the same filter and tier), its bytes written as they are to each stream.
 * What one change set causes (its prices, then the opportunities its evaluation found) reaches a stream in one
 * write (one system call), once that evaluation is over.
 */
@Injectable()
export class StreamHub implements OnModuleInit, OnApplicationShutdown {
  private readonly clients = new Set<StreamClient>();
  /** Streams closed but whose connection is not gone yet (at most CLOSE_GRACE_MS): they still hold a socket. */
  private readonly closing = new Set<StreamClient>();
  private readonly byKey = new Map<string, StreamClient[]>();
  private readonly byId = new Map<string, StreamClient>();
  /** Streams whose slot is taken in the (shared) caps: their leases are renewed, their slot released on close. */
  private readonly slotted = new Set<StreamClient>();
  private readonly logger = new Logger('stream');
  /** This instance's replay window (every entry it saw); the shared log (services mode) covers the others'. */
  private readonly buffer: MemoryStreamLog<Entry>;
  private lastSeq = 0;
  /** The first sequence number this instance saw (what came before is only in the shared log). */
  private firstSeq = Number.POSITIVE_INFINITY;
  private leaseTimer: NodeJS.Timeout | null = null;
  /**
   * Opportunity frames are rendered (and kept for replay) only while this instance serves streams: from the
   * first client until the replay window has passed since the last one left. Replays start at this sequence
   * at the earliest; a client resuming from before it gets a fresh snapshot.
   */
  private renderedFrom = 0;
  private lastClientLeftAt = Number.NEGATIVE_INFINITY;
  private readonly signatures = new Map<string, string>();
  /** Streams handed frames by this turn's broadcasts, written once the turn's work is done (see deliver). */
  private readonly outgoing = new Set<StreamClient>();
  private deliveryQueued = false;
  /** viewsRendered: live frame lists rendered (once per entry and view, whatever the number of streams in it). */
  stats = { opened: 0, closedSlow: 0, framesSent: 0, viewsRendered: 0 };
  /** The most prices one snapshot may hold (MAX_SNAPSHOT_ODDS; tests lower it to exercise the refusal). */
  maxSnapshotOdds = MAX_SNAPSHOT_ODDS;

  constructor(
    private readonly bus: EventBus,
    private readonly boards: BoardService,
    private readonly engine: DetectionEngine,
    private readonly items: OddsItemBuilder,
    private readonly policy: AccessPolicy,
    private readonly clock: Clock,
    private readonly jobs: Jobs,
    private readonly metrics: MetricsService,
    private readonly caps: StreamCaps,
    private readonly sharedLog: SharedStreamLog,
    private readonly leadership: Leadership,
  ) {
    this.buffer = new MemoryStreamLog<Entry>(() => this.clock.now());
  }

  onModuleInit(): void {
    this.bus.subscribe<ChangeSet>(ODDS_TOPIC, (cs, remote) => this.onChangeSet(cs, remote));
    this.bus.subscribe<OpportunityEvent>(OPPORTUNITIES_TOPIC, (evt) => this.onOpportunities(evt));
    this.bus.subscribe<Displaced>(STREAMS_DISPLACED_TOPIC, (d) => this.closeDisplaced(d));
    this.jobs.every('stream:heartbeat', HEARTBEAT_MS, () => this.heartbeat());
    // Leases are wall time (compared across processes), so they are renewed on a real timer, not the clock.
    this.leaseTimer = setInterval(() => void this.renewLeases(), STREAM_LEASE_RENEW_MS);
    this.leaseTimer.unref();
  }

  onApplicationShutdown(): void {
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    this.deliver();
    for (const c of [...this.clients])
      c.close({ code: 'service_unavailable', message: 'The server is shutting down; reconnect with Last-Event-ID' });
  }

  get openStreams(): number {
    return this.clients.size;
  }

  /** Streams that were closed and whose connection is still being torn down. */
  get closingStreams(): number {
    return this.closing.size;
  }

  /** A new stream of an account, timed by the hub's clock. */
  client(account: Account, filter: StreamFilter, transport: Transport): StreamClient {
    return new StreamClient(this.newStreamId(), account, filter, transport, () => this.clock.now());
  }

  /**
   * The channel of an opportunity type, by its kind or one of its lifecycle event names (`arb:detected` ->
   * `arbitrage`), for the client profiles that group opportunities by channel.
   */
  channelOf(kindOrEvent: string): string | undefined {
    for (const d of this.engine.types())
      if (d.kind === kindOrEvent || d.stream.detected === kindOrEvent || d.stream.expired === kindOrEvent) return d.stream.channel;
    return undefined;
  }

  /** The keys that have a stream open here. */
  streamingKeys(): string[] {
    return [...this.byKey.keys()];
  }

  /** The streams a key holds open here. */
  streamsOfKey(keyId: string): number {
    return (this.byKey.get(keyId) ?? []).filter((c) => !c.closed).length;
  }

  /** The streams a key holds open on every instance (the caps' count; this instance's own if that fails). */
  async activeStreamsOfKey(keyId: string): Promise<number> {
    try {
      return await this.caps.count(keyId);
    } catch {
      return this.streamsOfKey(keyId);
    }
  }

  /** Closes every stream of a key (revoked or expired keys). */
  closeKey(keyId: string, reason: CloseReason): number {
    const list = [...(this.byKey.get(keyId) ?? [])];
    for (const c of list) c.close(reason);
    return list.length;
  }

  /** The largest outbound queue any stream holds now (bytes). */
  maxQueuedBytes(): number {
    let max = 0;
    for (const c of this.clients) max = Math.max(max, c.queuedBytes);
    return max;
  }

  currentSeq(): number {
    return this.lastSeq;
  }

  // ---------------------------------------------------------------- buffer

  private entry(seq: number, at: number): Entry {
    let e = this.buffer.get(seq);
    if (!e) {
      e = { seq, at, removedRows: [], events: new Map(), opps: [], rowJson: new Map() };
      this.buffer.add(e);
      if (seq > this.lastSeq) this.lastSeq = seq;
      if (seq < this.firstSeq) this.firstSeq = seq;
    }
    return e;
  }

  /** The shared log, when this instance appends to one (services mode). */
  private get shared() {
    return this.sharedLog.log;
  }

  /**
   * Copies a change set this instance published into the shared log (oversized ones as a gap marker: a resume
   * across it gets a snapshot). Other instances' change sets are their publishers' to append.
   */
  private share(e: Entry, cs: ChangeSet, remote: boolean): void {
    const log = this.shared;
    if (!log || remote) return;
    const rows = cs.upserted.length + cs.removed.length + e.removedRows.length;
    if (rows > LOG_MAX_ROWS) return log.append({ seq: e.seq, at: e.at, part: 'gap' });
    // The events the rows belong to, as they are now: an instance reading the entry later renders the rows as
    // they were sent (its board may not hold the event yet, or hold it as it is later).
    const events = new Map(e.events);
    for (const ev of cs.events) events.delete(ev.id);
    const board = this.boards.board;
    for (const r of cs.upserted)
      if (!e.events.has(r.eventId) && !events.has(r.eventId)) {
        const ev = board.events.get(r.eventId);
        if (ev) events.set(ev.id, ev);
      }
    // What frames are rendered from; not the ids confirmed unchanged (`seen`, often most of a poll) nor the catalog.
    const { version, seq, at, upserted, removed, events: csEvents, eventsRemoved } = cs;
    const slim: ChangeSet = { version, seq, at, upserted, removed, events: csEvents, eventsRemoved, seen: [] };
    const part: LogPart = { seq: e.seq, at: e.at, part: 'cs', cs: slim, removedRows: e.removedRows, events: [...events.values()] };
    log.append(part);
  }

  /** Whether this instance writes opportunity events to the shared log: the active worker does. */
  private get sharesOpportunities(): boolean {
    return this.shared !== null && this.leadership.isLeader;
  }

  private onChangeSet(cs: ChangeSet, remote = false): void {
    if (cs.seq === undefined) return;
    const e = this.entry(cs.seq, cs.at);
    e.cs = cs;
    for (const ev of cs.events) e.events.set(ev.id, ev);
    const board = this.boards.board;
    for (const id of cs.eventsRemoved) {
      for (const r of board.eventRows(id)) e.removedRows.push({ id: r.id, sportsbook: r.sportsbook, eventId: id });
      const ev = board.events.get(id);
      if (ev) e.events.set(id, ev);
    }
    this.share(e, cs, remote);
    // A stream that takes no opportunities waits for no evaluation: its frames of the change set leave at once.
    this.broadcast(
      e.seq,
      (c) => this.oddsFrames(c, e),
      (c) => !this.takesOpportunities(c),
    );
  }

  private onOpportunities(evt: OpportunityEvent): void {
    if (this.clients.size === 0 && this.clock.now() - this.lastClientLeftAt > REPLAY_MS && !this.sharesOpportunities) {
      // Nobody to send to or to resume here: not rendered (a worker, or an instance that serves no streams).
      for (const ref of evt.expired) this.signatures.delete(ref.id);
      this.renderedFrom = evt.seq + 1;
      return;
    }
    const e = this.entry(evt.seq, evt.at);
    // Render what was detected or changed now, while the records are live: the payload is kept for replays.
    const payloads = new Map<string, Json>();
    const board = this.boards.board;
    const now = this.clock.now();
    const detector = this.engine.detector(evt.kind);
    const render = (ref: { id: string }, updated: boolean) => {
      const rec = this.engine.record(evt.kind, evt.scope, ref.id);
      if (!rec || !detector) return;
      // A re-evaluated opportunity whose prices did not move is not sent again (nor rendered).
      const sig = JSON.stringify(detector.signature(rec));
      if (updated && this.signatures.get(rec.id) === sig) return;
      this.signatures.set(rec.id, sig);
      payloads.set(ref.id, detector.present(rec, { board, now }));
    };
    for (const ref of evt.detected) render(ref, false);
    for (const ref of evt.updated) render(ref, true);
    for (const ref of evt.expired) this.signatures.delete(ref.id);
    const item = { evt, payloads };
    e.opps.push(item);
    if (this.sharesOpportunities) this.shared!.append({ seq: e.seq, at: e.at, part: 'opp', evt, payloads: [...payloads] });
    this.broadcast(e.seq, (c) => this.oppFrames(c, item));
  }

  // ---------------------------------------------------------------- filters

  private eventOf(e: Entry, id: string): BoardEvent | undefined {
    return e.events.get(id) ?? this.boards.board.events.get(id);
  }

  private rowVisible(f: StreamFilter, r: OddsRow): boolean {
    if (!f.books.has(r.sportsbook)) return false;
    if (f.events && !f.events.has(r.eventId)) return false;
    if (f.sports && !f.sports.has(r.sport)) return false;
    if (f.leagues && !f.leagues.has(r.league)) return false;
    if (f.markets && !f.markets.has(r.marketType)) return false;
    if (f.live !== undefined && r.isLive !== f.live) return false;
    if (f.minOdds !== undefined && r.american < f.minOdds) return false;
    if (f.maxOdds !== undefined && r.american > f.maxOdds) return false;
    return true;
  }

  private refVisible(f: StreamFilter, ref: OpportunityRef): boolean {
    if (f.events && !f.events.has(ref.eventId)) return false;
    if (f.sports && !f.sports.has(ref.sport)) return false;
    if (f.leagues && !f.leagues.has(ref.league)) return false;
    if (f.markets && !f.markets.has(ref.marketType)) return false;
    if (!f.books.isDefault && !ref.books.every((b) => f.books.has(b))) return false;
    if (f.live !== undefined && (ref.live ?? false) !== f.live) return false;
    return true;
  }

  /** The detection scope a stream's opportunities of a type come from: its tier's default set, or all books. */
  scopeOf(c: StreamClient, kind: string): string {
    return this.engine.scopeFor(kind, c.account.tier, c.filter.books.isDefault);
  }

  /** Whether an item reaches the stream's threshold for its type (min_ev, min_profit), if the type has one. */
  private passesThreshold(f: StreamFilter, detector: Detector, json: Json): boolean {
    const t = detector.stream.threshold;
    return !t || t.value(json) >= f.thresholds[t.param];
  }

  // ---------------------------------------------------------------- rendering

  private rowJson(e: Entry, r: OddsRow): string {
    let s = e.rowJson.get(r.id);
    if (s === undefined) {
      s = JSON.stringify(this.items.build(this.boards.board, r, this.eventOf(e, r.eventId)));
      e.rowJson.set(r.id, s);
    }
    return s;
  }

  /** The price frames of an entry for one stream: odds:update (and odds:locked) per book, odds:removed. */
  private oddsFrames(c: StreamClient, e: Entry): Array<{ event: string; data: string }> {
    const f = c.filter;
    const out: Array<{ event: string; data: string }> = [];
    if (!e.cs) return out;
    if (f.channels.has('odds')) {
      const byBook = new Map<string, OddsRow[]>();
      for (const r of e.cs.upserted)
        if (this.rowVisible(f, r)) (byBook.get(r.sportsbook) ?? byBook.set(r.sportsbook, []).get(r.sportsbook)!).push(r);
      for (const [book, rows] of byBook) {
        out.push({
          event: 'odds:update',
          data: `{"odds":[${rows.map((r) => this.rowJson(e, r)).join(',')}],"count":${rows.length},"book":${JSON.stringify(book)},"partial":false}`,
        });
        const locked = rows.filter((r) => !r.isActive);
        if (locked.length)
          out.push({
            event: 'odds:locked',
            data: `{"odds":[${locked.map((r) => this.rowJson(e, r)).join(',')}],"count":${locked.length},"book":${JSON.stringify(book)},"partial":false}`,
          });
      }
      const removed = new Map<string, string[]>();
      for (const rm of [...e.cs.removed, ...e.removedRows]) {
        if (!f.books.has(rm.sportsbook) || (f.events && !f.events.has(rm.eventId))) continue;
        const ev = this.eventOf(e, rm.eventId);
        if (ev && ((f.sports && !f.sports.has(ev.sport)) || (f.leagues && !f.leagues.has(ev.league)))) continue;
        (removed.get(rm.sportsbook) ?? removed.set(rm.sportsbook, []).get(rm.sportsbook)!).push(rm.id);
      }
      for (const [book, ids] of removed) out.push({ event: 'odds:removed', data: JSON.stringify({ ids, count: ids.length, book }) });
    }
    if (f.channels.has('gamestate')) {
      for (const ev of e.cs.events) {
        if (
          !ev.gameState ||
          (f.events && !f.events.has(ev.id)) ||
          (f.sports && !f.sports.has(ev.sport)) ||
          (f.leagues && !f.leagues.has(ev.league))
        )
          continue;
        // Live: the game-state object /gamestate serves; otherwise (the final score) the state as last reported.
        const obj = gameStateObject(ev, this.boards.board.booksOf(ev.id).length, e.cs.at);
        out.push({
          event: 'gamestate:update',
          data: JSON.stringify(
            obj
              ? { event_id: ev.id, status: ev.status, ...obj }
              : {
                  event_id: ev.id,
                  sport: ev.sport,
                  league: ev.league,
                  home_team: ev.homeTeam,
                  away_team: ev.awayTeam,
                  status: ev.status,
                  is_live: false,
                  ...ev.gameState,
                },
          ),
        });
      }
      for (const id of e.cs.eventsRemoved) {
        if (f.events && !f.events.has(id)) continue;
        out.push({ event: 'gamestate:removed', data: JSON.stringify({ event_id: id }) });
      }
    }
    return out;
  }

  private oppFrames(c: StreamClient, item: Entry['opps'][number]): Array<{ event: string; data: string }> {
    const { evt, payloads } = item;
    const f = c.filter;
    const detector = this.engine.detector(evt.kind);
    if (!detector || !f.channels.has('opportunities') || !f.kinds.has(evt.kind) || this.scopeOf(c, evt.kind) !== evt.scope) return [];
    const out: Array<{ event: string; data: string }> = [];
    const shown: Json[] = [];
    for (const ref of [...evt.detected, ...evt.updated]) {
      const json = payloads.get(ref.id);
      if (json && this.refVisible(f, ref) && this.passesThreshold(f, detector, json)) shown.push(json);
    }
    if (shown.length) out.push({ event: detector.stream.detected, data: JSON.stringify(shown) });
    // An expiry is sent whatever the live filter: the opportunity may have been shown before its event went live.
    const anyLive = f.live === undefined ? f : { ...f, live: undefined };
    const expired = evt.expired.filter((r) => this.refVisible(anyLive, r)).map((r) => r.id);
    if (expired.length) {
      const data = detector.stream.expiredAt ? { expired, timestamp: new Date(evt.at).toISOString() } : { expired };
      out.push({ event: detector.stream.expired, data: JSON.stringify(data) });
    }
    return out;
  }

  /** All frames of an entry for one stream, in their fixed order (the order replays reproduce). */
  private framesOf(c: StreamClient, e: Entry): Array<{ event: string; data: string }> {
    return [...this.oddsFrames(c, e), ...e.opps.flatMap((o) => this.oppFrames(c, o))];
  }

  /** Sends frames of one entry with their ids; `paced`: straight to the socket (the caller awaits its drain). */
  private emit(c: StreamClient, seq: number, frames: Array<{ event: string; data: string }>, paced = false): void {
    for (const fr of frames) {
      if (seq === c.lastSeq) c.lastK++;
      else {
        c.lastSeq = seq;
        c.lastK = 0;
      }
      const frame = { id: `${seq}-${c.lastK}`, event: fr.event, data: fr.data };
      if (paced) c.transport.write(frame);
      else if (!c.send(frame)) return;
      this.stats.framesSent++;
      this.metrics.streamFrames.inc();
    }
  }

  /**
   * Live delivery of one entry's new frames to every stream: the frames are rendered once per view (streams
   * with the same filter and tier, StreamClient.viewKey) and each position's Frame object is shared by the
   * streams of that view, so its bytes are encoded once (Frame.wire) and the same bytes are written to each.
   * A stream taking its snapshot gets what happened meanwhile from the buffer when it is done.
   */
  private broadcast(
    seq: number,
    render: (c: StreamClient) => Array<{ event: string; data: string }>,
    now: (c: StreamClient) => boolean = () => false,
  ): void {
    const views = new Map<string, View>();
    let sent = 0;
    for (const c of this.clients) {
      if (c.closed || c.snapshotting || seq < c.lastSeq) continue;
      const key = c.viewKey;
      let v = views.get(key);
      if (!v) {
        v = { frames: render(c), at: new Map() };
        views.set(key, v);
        this.stats.viewsRendered++;
      }
      if (!v.frames.length) continue;
      // The stream's next frame number in this sequence: 0, unless it was sent frames of it already.
      const start = seq === c.lastSeq ? c.lastK + 1 : 0;
      let frames = v.at.get(start);
      if (!frames) {
        frames = v.frames.map((fr, i) => ({ id: `${seq}-${start + i}`, event: fr.event, data: fr.data }));
        v.at.set(start, frames);
      }
      // Numbered now (a later broadcast of the same sequence goes on from here); written at once (`now`), else once
      // the turn's work is done, with what else this turn brings the stream (see deliver).
      c.lastSeq = seq;
      c.lastK = start + frames.length - 1;
      c.defer(frames);
      if (now(c)) sent += c.deliver();
      else this.outgoing.add(c);
    }
    this.countSent(sent);
    if (this.outgoing.size && !this.deliveryQueued) {
      this.deliveryQueued = true;
      queueMicrotask(() => this.deliver());
    }
  }

  /**
   * Writes what this turn's broadcasts handed each stream, in one write per stream. It runs once the code that
   * published the change set has returned: BoardService.apply publishes the change set, then applies it to the
   * board, whose listeners run detection, which publishes the opportunity events; all of it synchronously. So the
   * prices and the opportunities they caused leave together, and the prices wait for nothing but that evaluation.
   */
  private deliver(): void {
    this.deliveryQueued = false;
    let sent = 0;
    for (const c of this.outgoing) {
      try {
        sent += c.deliver();
      } catch (err) {
        this.logger.warn({ msg: 'stream write failed', stream: c.id, error: (err as Error).message });
      }
    }
    this.outgoing.clear();
    this.countSent(sent);
  }

  private countSent(sent: number): void {
    if (!sent) return;
    this.stats.framesSent += sent;
    this.metrics.streamFrames.inc(sent);
  }

  /** Whether a stream receives opportunities (of some type): what a change set's evaluation may add to its write. */
  private takesOpportunities(c: StreamClient): boolean {
    return c.filter.channels.has('opportunities') && c.filter.kinds.size > 0;
  }

  // ---------------------------------------------------------------- connections

  /**
   * Registers a new stream and sends `connected`, then replays what a reconnecting client missed or sends a
   * fresh snapshot (SSE; the WebSocket starts on its first subscription, see register and start).
   */
  async open(c: StreamClient, lastEventId: string | undefined, extra: Json = {}): Promise<void> {
    const resume = this.register(c, lastEventId, extra);
    await this.start(c, resume);
  }

  /**
   * Registers a stream: takes a slot of its key's cap (on every instance: the key's oldest streams, wherever they
   * are, are closed to make room) and sends `connected`. Returns where a reconnecting client can resume from, when
   * this instance's replay buffer or the shared log still covers it.
   */
  register(c: StreamClient, lastEventId: string | undefined, extra: Json = {}): ResumePoint | null {
    const mine = (this.byKey.get(c.account.keyId) ?? []).filter((x) => !x.closed);
    mine.push(c);
    this.byKey.set(c.account.keyId, mine);
    this.byId.set(c.id, c);
    this.clients.add(c);
    this.stats.opened++;
    this.takeSlot(c);
    c.onClose = (reason) => {
      if (reason?.code === 'backpressure') this.stats.closedSlow++;
      this.clients.delete(c);
      this.byId.delete(c.id);
      if (this.slotted.delete(c)) this.releaseSlot(c);
      this.lastClientLeftAt = this.clock.now();
      const list = this.byKey.get(c.account.keyId)?.filter((x) => x !== c) ?? [];
      if (list.length) this.byKey.set(c.account.keyId, list);
      else this.byKey.delete(c.account.keyId);
      // Counted as closing until its connection is really gone.
      if (!c.gone) {
        this.closing.add(c);
        c.whenGone(() => this.closing.delete(c));
      }
    };
    const parsed = parseLastEventId(lastEventId);
    const resume = parsed !== null && parsed !== 'snapshot' && (this.canReplay(parsed) || this.mayReplayShared(parsed)) ? parsed : null;
    const f = c.filter;
    const connected = {
      stream_id: c.id,
      channel: [...f.channels].length === 3 ? 'all' : [...f.channels].join(','),
      tier: c.account.tier,
      filters: {
        sportsbook: f.books.isDefault ? null : f.books.books,
        sport: f.sports ? [...f.sports] : null,
        league: f.leagues ? [...f.leagues] : null,
        event: f.events ? [...f.events] : null,
        market: f.markets ? [...f.markets] : null,
        live: f.live ?? null,
        min_ev: f.thresholds.min_ev,
        min_profit: f.thresholds.min_profit,
      },
      reconnected: Boolean(lastEventId),
      resumed: resume !== null,
      heartbeat_seconds: HEARTBEAT_MS / 1000,
      ...extra,
    };
    c.transport.write({ id: `${this.lastSeq}-c`, event: 'connected', data: JSON.stringify(connected) });
    return resume;
  }

  /** The cap of a stream's key, by its tier. */
  private capOf(c: StreamClient): number {
    return this.policy.tier(c.account.tier).maxStreams;
  }

  /**
   * Takes the stream's slot in the caps (shared by every instance in services mode) and closes the streams it
   * displaced: here at once, elsewhere through the bus. Redis unreachable: the stream stays, uncounted (logged).
   */
  private takeSlot(c: StreamClient): void {
    const cap = this.capOf(c);
    const keyId = c.account.keyId;
    this.caps.acquire(keyId, c.id, cap).then(
      (displaced) => {
        if (c.closed) void this.releaseSlot(c);
        else this.slotted.add(c);
        const d: Displaced = { ids: displaced.filter((id) => id !== c.id), cap, tier: c.account.tier };
        if (!d.ids.length) return;
        const elsewhere = d.ids.filter((id) => !this.byId.has(id));
        this.closeDisplaced(d);
        if (elsewhere.length) this.bus.publish<Displaced>(STREAMS_DISPLACED_TOPIC, { ...d, ids: elsewhere }, { remoteOnly: true });
      },
      (err: unknown) => this.logger.warn({ msg: 'stream cap not counted', key: keyId, error: (err as Error).message }),
    );
  }

  private releaseSlot(c: StreamClient): Promise<void> {
    return this.caps.release(c.account.keyId, c.id).catch((err: unknown) => {
      // The lease runs out by itself (STREAM_LEASE_MS).
      this.logger.warn({ msg: 'stream slot not released', key: c.account.keyId, error: (err as Error).message });
    });
  }

  /** Closes this instance's streams that a newer stream of their key displaced. */
  private closeDisplaced(d: Displaced): void {
    for (const id of d.ids) {
      const c = this.byId.get(id);
      if (!c) continue;
      this.slotted.delete(c);
      c.close({
        code: 'too_many_streams',
        message: `This key may hold ${d.cap} stream${d.cap === 1 ? '' : 's'} at once (${d.tier} tier); a newer stream replaced this one`,
      });
    }
  }

  /** Renews this instance's leases; a stream whose slot is gone (displaced, or its lease ran out) is closed. */
  private async renewLeases(): Promise<void> {
    const held = [...this.slotted];
    if (!held.length) return;
    try {
      const lost = new Set(await this.caps.renew(held.map((c) => ({ keyId: c.account.keyId, streamId: c.id }))));
      for (const c of held)
        if (lost.has(c.id) && this.slotted.has(c)) this.closeDisplaced({ ids: [c.id], cap: this.capOf(c), tier: c.account.tier });
    } catch (err) {
      this.logger.warn({ msg: 'stream leases not renewed', error: (err as Error).message });
    }
  }

  /** Renews the leases now (tests; a timer does it every STREAM_LEASE_RENEW_MS). */
  renewLeasesNow(): Promise<void> {
    return this.renewLeases();
  }

  /** Replay only when everything after the client's last frame is still in the buffer. */
  private canReplay(p: ResumePoint): boolean {
    return this.buffer.covers(p.seq) && p.seq >= this.renderedFrom && p.seq <= this.lastSeq;
  }

  /**
   * Whether the shared log may hold a resume point this instance's buffer does not: within the window by its
   * sequence number (microseconds of wall time), and one this instance never had. start() reads the log and sends
   * a snapshot after all if it does not hold it (an oversized change set, or an append lost).
   */
  private mayReplayShared(p: ResumePoint): boolean {
    if (this.shared === null || p.seq / 1000 < Date.now() - REPLAY_MS) return false;
    // What this instance cannot replay itself: from before it saw its first entry, not arrived here yet, or held
    // without its opportunities (no stream was open). An entry it saw and dropped is past the window for the log too.
    return p.seq < this.firstSeq || p.seq > this.lastSeq || (this.buffer.covers(p.seq) && p.seq < this.renderedFrom);
  }

  /** Replays from a resume point (when the buffer or the shared log still covers it), else sends a fresh snapshot. */
  async start(c: StreamClient, resume: ResumePoint | null): Promise<void> {
    if (c.closed) return;
    if (resume && !this.canReplay(resume) && this.shared) return this.startShared(c, resume);
    if (!resume || !this.canReplay(resume)) return this.snapshot(c);
    const point = resume;
    c.lastSeq = point.seq;
    c.lastK = Number.isFinite(point.k) ? point.k : Number.MAX_SAFE_INTEGER;
    c.snapshotting = false;
    for (const e of this.buffer.range(point.seq, Number.POSITIVE_INFINITY)) this.replayEntry(c, e, point);
  }

  /** Sends an entry's frames past the resume point (all of them for later entries). */
  private replayEntry(c: StreamClient, e: Entry, point: ResumePoint, paced = false): void {
    const frames = this.framesOf(c, e);
    const skip = e.seq === point.seq ? (Number.isFinite(point.k) ? point.k + 1 : frames.length) : 0;
    const rest = frames.slice(skip);
    if (e.seq !== c.lastSeq) {
      c.lastSeq = e.seq;
      c.lastK = skip - 1;
    }
    this.emit(c, e.seq, rest, paced);
  }

  /**
   * Resumes from the shared log: what this instance's buffer no longer (or never) held, read from Redis, then the
   * rest from the buffer like a snapshot's catch-up (live frames wait meanwhile). Not all held: a snapshot.
   */
  private startShared(c: StreamClient, point: ResumePoint): Promise<void> {
    return c.snapshot(async (live) => {
      let entries = await this.readShared(point.seq);
      if (!live()) return;
      if (!entries) return this.writeSnapshot(c, live);
      c.lastSeq = point.seq;
      c.lastK = Number.isFinite(point.k) ? point.k : Number.MAX_SAFE_INTEGER;
      let last = point.seq - 1;
      // A few rounds at most: the log, then what was appended meanwhile, until this instance's buffer joins on.
      for (let round = 0; entries && round < 5; round++) {
        // This instance's own entries where it has them (an append the log lost is still replayed), the log's
        // where this instance did not render opportunities then (it served no streams).
        const merged = new Map<number, Entry>(entries.map((raw) => [raw.seq, { ...raw, rowJson: new Map() }]));
        const top = Math.max(last, ...merged.keys());
        for (const e of this.buffer.range(point.seq, top)) if (e.seq >= this.renderedFrom || !merged.has(e.seq)) merged.set(e.seq, e);
        for (const e of [...merged.values()].sort((x, y) => x.seq - y.seq)) {
          if (e.seq <= last) continue;
          if (!live()) return;
          this.replayEntry(c, e, point, true);
          last = e.seq;
          await nextTurn();
          await c.drained(() => !live());
        }
        // Joined: the buffer holds the last entry replayed (or nothing newer has arrived here); it goes on.
        if (this.lastSeq <= last || this.buffer.covers(last)) return this.catchUp(c, last, live);
        entries = await this.readShared(last);
        if (!live()) return;
      }
      c.close({ code: 'backpressure', message: 'The replay could not catch up with the stream; reconnect to start again' });
    });
  }

  /** The shared log's entries from a sequence number on (null: not held, or Redis unreachable). */
  private async readShared(from: number): Promise<LogEntry[] | null> {
    try {
      return await this.shared!.read(from, Number.POSITIVE_INFINITY);
    } catch (err) {
      this.logger.warn({ msg: 'stream log unreadable', error: (err as Error).message });
      return null;
    }
  }

  /**
   * Refuses a filter whose snapshot would hold more than MAX_SNAPSHOT_ODDS prices (400 on SSE, an `error` frame
   * on the WebSocket), so no stream makes the server serialise an unbounded snapshot.
   */
  assertSnapshotSize(f: StreamFilter): void {
    if (!f.channels.has('odds')) return;
    const n = this.snapshotOddsCount(f);
    if (n > this.maxSnapshotOdds) {
      throw badRequest(
        `This stream's snapshot would hold ${n} prices; a stream may hold at most ${this.maxSnapshotOdds}. Narrow it with sportsbook, sport, league, market or event (or stream opportunities only)`,
      );
    }
  }

  /** Rows a snapshot starts from: the events', the books' or the whole board's. */
  private candidates(f: StreamFilter): Iterable<OddsRow> {
    const board = this.boards.board;
    if (f.events) return board.rowsUnderKeys('event', f.events);
    return f.books.all ? board.rows.values() : board.rowsUnderKeys('book', f.books.books);
  }

  /** How many prices a snapshot would hold: exact past the limit, else a bound (no scan when the board is small). */
  private snapshotOddsCount(f: StreamFilter): number {
    const board = this.boards.board;
    if (board.rows.size <= this.maxSnapshotOdds) return board.rows.size;
    let n = 0;
    for (const r of this.candidates(f)) if (this.rowVisible(f, r)) n++;
    return n;
  }

  /**
   * Sends a snapshot, superseding one being sent: a stream has at most one snapshot in flight, and asking
   * again while one runs makes the running one stop at its next frame and start over with the stream's current
   * filter (StreamClient.snapshot). Resolves when the last requested snapshot is done (or the stream closed).
   */
  snapshot(c: StreamClient): Promise<void> {
    return c.snapshot((current) => this.writeSnapshot(c, current));
  }

  /**
   * One snapshot, paced by the socket, in frames of at most 256 KB, in this order: the prices (`snapshot`
   * frames with `odds`, grouped by book), the opportunities of each type (in registration order: ev, arbitrage,
   * middles, low_hold; at least one frame per type the stream receives; before the prices when the transport asks
   * for it, Transport.opportunitiesFirst), the live game states (`gamestate:snapshot`), `snapshot:complete`, then
   * what changed meanwhile.
   * Stops as soon as `live()` turns false: the stream closed, or a newer snapshot of it was asked for.
   */
  private async writeSnapshot(c: StreamClient, live: () => boolean): Promise<void> {
    const seq = this.lastSeq;
    c.lastSeq = seq;
    c.lastK = Number.MAX_SAFE_INTEGER;
    const f = c.filter;
    const board = this.boards.board;
    const now = this.clock.now();
    let frame = 0;
    const write: SnapshotWrite = async (event, data) => {
      // Each frame waits its turn in the event loop: a socket the kernel keeps accepting from must not let one
      // snapshot hold the process for all its frames (other streams, health and REST are served in between).
      await nextTurn();
      await c.drained(() => !live());
      if (!live()) return;
      c.transport.write({ id: `${seq}-s${frame++}`, event, data: data() });
    };
    const oppsFirst = c.transport.opportunitiesFirst === true;
    const opportunities = async () => (f.channels.has('opportunities') ? this.snapshotOpportunities(c, board, now, write, live) : 0);
    let totalOpps = oppsFirst ? await opportunities() : 0;
    const odds = f.channels.has('odds') ? await this.snapshotOdds(f, board, write, live) : { total: 0, books: new Set<string>() };
    if (!oppsFirst) totalOpps = await opportunities();
    if (f.channels.has('gamestate') && live()) await this.snapshotGameStates(f, board, write, live);
    if (!live()) return;
    const complete = { status: 'ready', books: [...odds.books].sort(), total_odds: odds.total, total_opportunities: totalOpps };
    c.transport.write({ id: `${seq}-sc`, event: 'snapshot:complete', data: JSON.stringify(complete) });
    await c.drained(() => !live());
    await this.catchUp(c, seq, live);
  }

  /** The snapshot's prices (`snapshot` frames with `odds`); the books they come from. */
  private async snapshotOdds(
    f: StreamFilter,
    board: OddsBoard,
    write: SnapshotWrite,
    live: () => boolean,
  ): Promise<{ total: number; books: Set<string> }> {
    // Grouped by book: a book's prices travel together (the AsyncAPI `initial` frames are per book).
    const byBook = new Map<string, OddsRow[]>();
    for (const r of this.candidates(f)) {
      if (this.rowVisible(f, r)) (byBook.get(r.sportsbook) ?? byBook.set(r.sportsbook, []).get(r.sportsbook)!).push(r);
    }
    const rows = [...byBook.values()].flat();
    const books = new Set<string>();
    const items = this.items;
    function* json(): Generator<string> {
      for (const r of rows) {
        const out = JSON.stringify(items.build(board, r));
        books.add(r.sportsbook);
        yield out;
      }
    }
    await writeInFrames(json(), MAX_ODDS_PER_FRAME, live, false, (odds, at) =>
      write(
        'snapshot',
        () =>
          `{"odds":[${odds.join(',')}],"count":${odds.length},"total":${rows.length},"offset":${at},"has_more":${at + odds.length < rows.length}}`,
      ),
    );
    return { total: rows.length, books };
  }

  /** The opportunities of each type the stream receives, in registration order; at least one frame per type. */
  private async snapshotOpportunities(
    c: StreamClient,
    board: OddsBoard,
    now: number,
    write: SnapshotWrite,
    live: () => boolean,
  ): Promise<number> {
    const f = c.filter;
    let total = 0;
    for (const detector of this.engine.types()) {
      const kind = detector.kind;
      if (!f.kinds.has(kind) || !live()) continue;
      const list: string[] = [];
      for (const rec of this.engine.live(kind, this.scopeOf(c, kind))?.values() ?? []) {
        if (!this.refVisible(f, refOf(detector, rec))) continue;
        const json = detector.present(rec, { board, now });
        if (this.passesThreshold(f, detector, json)) list.push(JSON.stringify(json));
      }
      total += list.length;
      const head = `{"type":${JSON.stringify(detector.stream.type)},"kind":${JSON.stringify(kind)}`;
      await writeInFrames(list, MAX_OPPORTUNITIES_PER_FRAME, live, true, (opps, at) =>
        write(
          'snapshot',
          () =>
            `${head},"opportunities":[${opps.join(',')}],"count":${opps.length},"total":${list.length},"offset":${at},"has_more":${at + opps.length < list.length}}`,
        ),
      );
    }
    return total;
  }

  /** The live game states (`gamestate:snapshot` frames) of the events the stream covers; at least one frame. */
  private async snapshotGameStates(f: StreamFilter, board: OddsBoard, write: SnapshotWrite, live: () => boolean): Promise<void> {
    const states: string[] = [];
    for (const e of board.events.values()) {
      if (
        !e.gameState ||
        e.status !== 'live' ||
        (f.events && !f.events.has(e.id)) ||
        (f.sports && !f.sports.has(e.sport)) ||
        (f.leagues && !f.leagues.has(e.league))
      )
        continue;
      const obj = gameStateObject(e, board.booksOf(e.id).length, this.clock.now());
      if (obj) states.push(`${JSON.stringify(e.id)}:${JSON.stringify(obj)}`);
    }
    await writeInFrames(states, MAX_ODDS_PER_FRAME, live, true, (events, at) =>
      write(
        'gamestate:snapshot',
        () =>
          `{"events":{${events.join(',')}},"count":${events.length},"total":${states.length},"offset":${at},"has_more":${at + events.length < states.length}}`,
      ),
    );
  }

  /**
   * After the snapshot: what changed while it was written, from the replay buffer and paced by the socket like the
   * snapshot (nothing is queued per client meanwhile, so a long snapshot of a busy market costs no memory); live
   * delivery starts once caught up. Gone from the buffer already: the client must start over.
   */
  private async catchUp(c: StreamClient, seq: number, live: () => boolean): Promise<void> {
    let last = seq;
    while (live() && this.lastSeq > last) {
      if (!this.buffer.size || this.buffer.first() > last) {
        c.close({ code: 'backpressure', message: 'The snapshot took longer than the replay buffer covers; reconnect to start again' });
        return;
      }
      const e = this.entryAfter(last);
      if (!e) break;
      this.emit(c, e.seq, this.framesOf(c, e), true);
      last = e.seq;
      await nextTurn();
      await c.drained(() => !live());
    }
    if (live()) c.endSnapshot();
  }

  /** The first buffered entry after a sequence number (the buffer is in sequence order). */
  private entryAfter(seq: number): Entry | undefined {
    return this.buffer.after(seq);
  }

  private heartbeat(): void {
    this.deliver();
    const data = JSON.stringify({ timestamp: this.clock.iso(), streams: this.clients.size });
    for (const c of this.clients)
      if (!c.snapshotting) c.send({ id: `${Math.max(c.lastSeq, this.lastSeq)}-h${c.heartbeats++}`, event: 'heartbeat', data });
  }

  /** Sends a heartbeat now (tests; the schedule sends one every 30 s). */
  heartbeatNow(): void {
    this.heartbeat();
  }

  newStreamId(): string {
    return `str_${randomBytes(8).toString('hex')}`;
  }
}

/** Writes one snapshot frame (its data rendered only if the stream is still live when its turn comes). */
type SnapshotWrite = (event: string, data: () => string) => Promise<void>;

/**
 * Writes JSON fragments in frames (at most `maxItems` and the frame byte cap each; `frame` renders one group
 * with its offset); stops when `live()` turns false. `atLeastOne`: an empty list still gets one (empty) frame.
 */
async function writeInFrames(
  items: Iterable<string>,
  maxItems: number,
  live: () => boolean,
  atLeastOne: boolean,
  frame: (group: string[], at: number) => Promise<void>,
): Promise<void> {
  const chunker = new Chunker(maxItems);
  let offset = 0;
  const flush = async (): Promise<void> => {
    const group = chunker.take();
    const at = offset;
    offset += group.length;
    await frame(group, at);
  };
  for (const item of items) {
    if (!live()) return;
    const n = Buffer.byteLength(item);
    if (!chunker.fits(n)) await flush();
    chunker.push(item, n);
  }
  if (chunker.size || (atLeastOne && offset === 0)) await flush();
}

/** Resolves on a later turn of the event loop (after pending I/O), unlike an already resolved promise. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

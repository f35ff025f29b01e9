/**
 * The `ts` profile of the SSE streams: what the official TypeScript client reads. Its stream listens to unnamed
 * `message` frames carrying `{type, data, timestamp}` (a frame whose `type` is `initial` is its snapshot, anything
 * else an update, and it hands on `data`) and to a named `heartbeat`. So:
 *
 * - the first snapshot frame is `initial`; the rest of the snapshot follows as `snapshot` frames (updates to it),
 *   in the spec stream's chunks: prices at most 1000 rows a frame, `data` being the rows; opportunities at most
 *   300 a frame, `data` = `{<channel>: [...]}` (`ev`, `arbitrage`, `middles`, `low_hold`), the same shape as a
 *   `<type>:detected` update, so a client merges both alike; an empty snapshot is one `initial` with `data: []`;
 * - `odds:update`: `data` = the changed rows (suspended ones with `is_active: false`, so `odds:locked`, which
 *   repeats them, is left out); `odds:removed`: `data` = `[{id, sportsbook, removed: true}]`;
 * - `<type>:detected`: `data` = `{<channel>: [...]}`; `<type>:expired`: `data` = `{expired: {<channel>: [ids]}}`;
 * - every other live frame (game state): `data` = its payload;
 * - `connected`, `snapshot:complete`, `heartbeat` and `error` stay named (the client reads `heartbeat` and its
 *   EventSource raises `error`; the other two are for people reading the raw stream).
 *
 * Every frame keeps its `id:`, so a reconnecting EventSource resumes with Last-Event-ID as on the spec's stream.
 */

/** A frame as the stream hub renders it (the SSE event name and its JSON payload). */
export interface SseFrame {
  id: string;
  event: string;
  data: string;
}

const NAMED = new Set(['connected', 'snapshot:complete', 'heartbeat', 'error']);

const named = (f: SseFrame): string => `id: ${f.id}\nevent: ${f.event}\ndata: ${f.data}\n\n`;
const unnamed = (id: string, type: string, data: string, timestamp: string): string =>
  `id: ${id}\ndata: {"type":${JSON.stringify(type)},"data":${data},"timestamp":${JSON.stringify(timestamp)}}\n\n`;

/**
 * One stream's encoder (it keeps whether the snapshot's `initial` went out). `channelOf` maps an opportunity type's kind and its lifecycle event names to its
 * channel (`arb:detected` -> `arbitrage`).
 */
export class TsSseEncoder {
  private initialSent = false;

  constructor(
    private readonly channelOf: (kindOrEvent: string) => string | undefined,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  /**
   * The text for a frame, or '' when nothing is sent. A live frame's text is the same for every stream that receives it: it is kept in `memo` (the frame's own cache,
   * shared by the streams of a view) and encoded once.
   */
  encode(f: SseFrame, memo: { ts?: string } = {}): string {
    if (f.event === 'snapshot') return this.snapshot(f);
    // A snapshot with nothing in it (no price matches the filter) still begins with an `initial`, empty.
    if (f.event === 'snapshot:complete' && !this.initialSent) {
      this.initialSent = true;
      return unnamed(f.id, 'initial', '[]', this.now()) + named(f);
    }
    if (NAMED.has(f.event)) return named(f);
    return (memo.ts ??= this.live(f));
  }

  private snapshot(f: SseFrame): string {
    const p = JSON.parse(f.data) as { odds?: unknown[]; kind?: string; opportunities?: unknown[] };
    const channel = p.kind === undefined ? undefined : (this.channelOf(p.kind) ?? p.kind);
    const data = p.odds ? JSON.stringify(p.odds) : JSON.stringify({ [channel ?? 'opportunities']: p.opportunities ?? [] });
    const type = this.initialSent ? 'snapshot' : 'initial';
    this.initialSent = true;
    return unnamed(f.id, type, data, this.now());
  }

  /** A live frame: the same text for every stream that receives it. */
  private live(f: SseFrame): string {
    const ts = this.now();
    if (f.event === 'odds:locked') return '';
    if (f.event === 'odds:update') return unnamed(f.id, f.event, JSON.stringify((JSON.parse(f.data) as { odds: unknown[] }).odds), ts);
    if (f.event === 'odds:removed') {
      const p = JSON.parse(f.data) as { ids: string[]; book: string };
      return unnamed(f.id, f.event, JSON.stringify(p.ids.map((id) => ({ id, sportsbook: p.book, removed: true }))), ts);
    }
    const channel = this.channelOf(f.event);
    if (channel && f.event.endsWith(':detected')) return unnamed(f.id, f.event, `{${JSON.stringify(channel)}:${f.data}}`, ts);
    if (channel && f.event.endsWith(':expired')) {
      const p = JSON.parse(f.data) as { expired: string[] };
      return unnamed(f.id, f.event, JSON.stringify({ expired: { [channel]: p.expired } }), ts);
    }
    return unnamed(f.id, f.event, f.data, ts);
  }
}

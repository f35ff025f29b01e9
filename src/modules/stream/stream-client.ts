import type { Account } from '../../common/auth/account.js';
import type { BookScope } from '../../common/auth/access-policy.js';
import type { StreamThreshold } from '../detection/detector.js';

export type Channel = 'odds' | 'opportunities' | 'gamestate';

/** What one stream wants and may see. */
export interface StreamFilter {
  channels: ReadonlySet<Channel>;
  /** Opportunity types (kinds) the stream receives (its tier's features, narrowed by the WebSocket's channels). */
  kinds: ReadonlySet<string>;
  books: BookScope;
  sports?: ReadonlySet<string>;
  leagues?: ReadonlySet<string>;
  markets?: ReadonlySet<string>;
  events?: ReadonlySet<string>;
  /** true: only live prices and opportunities with a live price; false: only pre-game ones; absent: both. */
  live?: boolean;
  /** Bounds on the American price of the odds rows sent (both included); absent: no bound. */
  minOdds?: number;
  maxOdds?: number;
  /** The minimums items of the types that have one must reach (min_ev for +EV, min_profit for arbitrage). */
  thresholds: Readonly<Record<StreamThreshold, number>>;
}

/**
 * One frame, transport-neutral: an id, an event name and its JSON data. The hub hands the same Frame object to
 * every stream of one view (same filter and tier) at the same position, so each transport encodes it once and
 * keeps its bytes here (`wire`) for the other streams.
 */
export interface Frame {
  id: string;
  event: string;
  data: string;
  /** The frame's bytes per encoding, filled by the first transport that writes it (see transports.ts). */
  wire?: { sse?: Buffer; ws?: Buffer; ts?: string };
}

const setKey = (s: ReadonlySet<string> | undefined): string => (s ? [...s].sort().join('\u0001') : '*');

/**
 * The equivalence key of what a stream is sent live: its filter and its tier (the tier picks the detection scope
 * of its opportunities). Streams with the same key get the same frames, rendered once for all of them.
 */
export function viewKey(f: StreamFilter, tier: string): string {
  return [
    tier,
    setKey(f.channels),
    setKey(f.kinds),
    f.books.all ? '*' : [...f.books.books].sort().join('\u0001'),
    f.books.isDefault ? 'd' : 'n',
    setKey(f.sports),
    setKey(f.leagues),
    setKey(f.markets),
    setKey(f.events),
    f.live === undefined ? '*' : String(f.live),
    `${f.minOdds ?? '*'}..${f.maxOdds ?? '*'}`,
    Object.entries(f.thresholds)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join(','),
  ].join('\u0002');
}

export interface CloseReason {
  code: string;
  message: string;
}

/** How frames leave: SSE or WebSocket. write() returns false when the socket's buffer is full. */
export interface Transport {
  write(frame: Frame): boolean;
  /**
   * Runs `fn`, whose writes leave together: the socket is corked meanwhile, so they reach the kernel in one
   * system call when it returns (absent: each write goes out by itself).
   */
  batch?(fn: () => void): void;
  /** Bytes the socket still holds. */
  buffered(): number;
  onDrain(fn: () => void): void;
  /**
   * Ends the stream (after an `error` frame when there is a reason). The connection is gone within
   * CLOSE_GRACE_MS: a client that has not taken the last frames by then has its socket destroyed, so a stalled
   * reader never keeps its socket, or the data queued for it, once its stream is closed.
   */
  close(reason?: CloseReason): void;
  /** Called once, when the connection is really gone (closed by either side, or destroyed). */
  onGone(fn: () => void): void;
  /** The snapshot sends the opportunities before the prices (the AsyncAPI order); absent: prices first. */
  readonly opportunitiesFirst?: boolean;
}

/** How long a paced write (snapshot, catch-up) waits for a client that reads nothing. */
export const STALL_TIMEOUT_MS = 30_000;
/** A bounded queue of frames waiting for the socket; past the limit the client is cut off. */
export const MAX_QUEUED_BYTES = 2 * 1024 * 1024;
export const SOCKET_HIGH_WATER = 256 * 1024;
/** How long a closed stream's connection may take to flush its last frames before it is destroyed. */
export const CLOSE_GRACE_MS = 2000;

/**
 * A connected stream: its filter, where it stands in the sequence (for resumable frame ids), and a bounded
 * outbound queue. A client that falls further behind than MAX_QUEUED_BYTES gets an error and is closed, so a
 * slow reader never makes the server's memory grow without bound.
 */
export class StreamClient {
  readonly queue: Frame[] = [];
  queuedBytes = 0;
  /**
   * Live frames handed over (`defer`) and not sent yet: the hub delivers what one change set causes (its prices and
   * the opportunities its evaluation found) in one write, once the evaluation is over (`deliver`).
   */
  private readonly outbox: Frame[] = [];
  closed = false;
  /** True once the connection is really gone (closed by either side or destroyed), not merely asked to close. */
  gone = false;
  /** Frames held back until the snapshot is done. */
  readonly pending: Frame[] = [];
  snapshotting = true;
  /** Snapshots asked for so far; a running snapshot that sees a newer number stops (it was superseded). */
  private snapshotGen = 0;
  /** The snapshot being written, if any: at most one per stream at a time. */
  private snapshotRun: Promise<void> | null = null;
  private snapshotWriter: ((current: () => boolean) => Promise<void>) | null = null;
  /** Per sequence number, how many live frames this stream has been sent (frame ids are `${seq}-${k}`). */
  lastSeq = 0;
  lastK = -1;
  heartbeats = 0;
  readonly openedAt: number;
  onClose: ((reason?: CloseReason) => void) | null = null;
  private readonly goneListeners: Array<() => void> = [];
  private view: string | null = null;

  constructor(
    readonly id: string,
    readonly account: Account,
    readonly filter: StreamFilter,
    readonly transport: Transport,
    private readonly now: () => number = Date.now,
  ) {
    this.openedAt = now();
    transport.onDrain(() => this.flush());
    transport.onGone(() => {
      this.gone = true;
      this.close();
      for (const fn of this.goneListeners.splice(0)) fn();
    });
  }

  /** The key of the stream's view (filter and tier): streams with equal keys are sent the same frames. */
  get viewKey(): string {
    return (this.view ??= viewKey(this.filter, this.account.tier));
  }

  /** Replaces the stream's filter (a WebSocket subscription), keeping the same filter object. */
  refilter(next: StreamFilter): void {
    Object.assign(this.filter, next);
    this.view = null;
  }

  /** Runs `fn` once the connection is gone (at once when it already is). */
  whenGone(fn: () => void): void {
    if (this.gone) fn();
    else this.goneListeners.push(fn);
  }

  /**
   * Runs a snapshot, at most one at a time per stream. Asked again while one runs, the running one sees its
   * `current()` turn false (the writer stops at its next frame) and the latest writer runs once more. Resolves
   * when the latest requested snapshot is done, or the stream closed.
   */
  snapshot(write: (current: () => boolean) => Promise<void>): Promise<void> {
    // What the stream was handed before goes out before the snapshot starts over.
    this.deliver();
    this.snapshotGen++;
    this.snapshotting = true;
    this.snapshotWriter = write;
    this.snapshotRun ??= this.runSnapshots().finally(() => (this.snapshotRun = null));
    return this.snapshotRun;
  }

  private async runSnapshots(): Promise<void> {
    let gen: number;
    do {
      gen = this.snapshotGen;
      const current = () => !this.closed && this.snapshotGen === gen;
      await this.snapshotWriter!(current);
    } while (!this.closed && gen !== this.snapshotGen);
  }

  /** Hands frames over to be sent with the others of this turn (`deliver`), after any handed over before. */
  defer(frames: readonly Frame[]): void {
    if (!this.closed) for (const f of frames) this.outbox.push(f);
  }

  /** Whether frames handed over with `defer` are waiting for `deliver`. */
  get deferred(): number {
    return this.outbox.length;
  }

  /**
   * Sends the frames handed over with `defer`, in order, in one write (Transport.batch): each is sent or queued as
   * `send` does, so back-pressure is the same. Returns how many were sent or queued (fewer: the client was cut off).
   */
  deliver(): number {
    if (!this.outbox.length) return 0;
    const frames = this.outbox.splice(0);
    let n = 0;
    const run = () => {
      for (const f of frames) {
        if (!this.sendNow(f)) return;
        n++;
      }
    };
    if (this.transport.batch) this.transport.batch(run);
    else run();
    return n;
  }

  /**
   * Sends now if the socket has room, else queues; false when the client had to be cut off. Frames handed over with
   * `defer` go first.
   */
  send(frame: Frame): boolean {
    this.deliver();
    return this.sendNow(frame);
  }

  private sendNow(frame: Frame): boolean {
    if (this.closed) return false;
    if (this.snapshotting) {
      this.pending.push(frame);
      this.queuedBytes += frame.data.length;
      return this.checkLimit();
    }
    if (this.queue.length || this.transport.buffered() > SOCKET_HIGH_WATER) {
      this.queue.push(frame);
      this.queuedBytes += frame.data.length;
      return this.checkLimit();
    }
    this.transport.write(frame);
    return true;
  }

  private checkLimit(): boolean {
    if (this.queuedBytes <= MAX_QUEUED_BYTES) return true;
    this.close({
      code: 'backpressure',
      message: `The client is reading too slowly (over ${MAX_QUEUED_BYTES} bytes behind); reconnect with Last-Event-ID to resume`,
    });
    return false;
  }

  /** Writes queued frames while the socket has room. */
  flush(): void {
    while (!this.closed && this.queue.length && this.transport.buffered() <= SOCKET_HIGH_WATER) {
      const f = this.queue.shift()!;
      this.queuedBytes -= f.data.length;
      this.transport.write(f);
    }
  }

  /** Ends the snapshot: frames that arrived meanwhile go out after it, in order. */
  endSnapshot(): void {
    this.snapshotting = false;
    for (const f of this.pending.splice(0)) {
      this.queuedBytes -= f.data.length;
      if (!this.send(f)) return;
    }
  }

  /**
   * Resolves when the socket can take more (for paced snapshots), or as soon as `cancelled()` turns true (a
   * newer snapshot superseded the waiting one). A client that reads nothing for STALL_TIMEOUT_MS is cut off
   * like any slow client.
   */
  async drained(cancelled: () => boolean = () => false): Promise<void> {
    if (this.transport.buffered() <= SOCKET_HIGH_WATER || this.closed) return;
    const deadline = this.now() + STALL_TIMEOUT_MS;
    await new Promise<void>((resolve) => {
      // Polling the socket's send buffer is I/O plumbing (real time); the stall deadline is on the clock.
      const t = setInterval(() => {
        if (!this.closed && this.transport.buffered() > SOCKET_HIGH_WATER && this.now() > deadline) {
          this.close({
            code: 'backpressure',
            message: `The client read nothing for ${STALL_TIMEOUT_MS / 1000} s; reconnect with Last-Event-ID to resume`,
          });
        }
        if (this.closed || cancelled() || this.transport.buffered() <= SOCKET_HIGH_WATER) {
          clearInterval(t);
          resolve();
        }
      }, 5);
    });
  }

  /** Closes the stream: nothing more is sent, its queues are freed, and the transport ends the connection. */
  close(reason?: CloseReason): void {
    if (this.closed) return;
    this.closed = true;
    this.outbox.length = 0;
    this.queue.length = 0;
    this.pending.length = 0;
    this.queuedBytes = 0;
    this.transport.close(reason);
    this.onClose?.(reason);
  }
}

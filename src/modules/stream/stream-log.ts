import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { BoardEvent, ChangeSet } from '../../domain/odds-row.js';
import type { Json } from '../detection/detector.js';
import { dict } from '../../domain/dict.js';
import type { OpportunityEvent } from '../../domain/topics.js';

/** Replay window: the last 2 minutes, at most 3000 sequence numbers. */
export const REPLAY_MS = 120_000;
export const REPLAY_MAX = 3000;
/**
 * A change set with more rows than this (a backfill can hold 50,000) is not copied into the shared log: a marker
 * takes its place, and a client resuming across it gets a fresh snapshot, as it does past the window.
 */
export const LOG_MAX_ROWS = 5000;

export interface RemovedRef {
  id: string;
  sportsbook: string;
  eventId: string;
}

export interface OppItem {
  evt: OpportunityEvent;
  payloads: Map<string, Json>;
}

/** One sequence number's worth of source events: a change set and the opportunities it caused. */
export interface LogEntry {
  seq: number;
  at: number;
  cs?: ChangeSet;
  /** Rows of events that left, captured before the board dropped them. */
  removedRows: RemovedRef[];
  events: Map<string, BoardEvent>;
  opps: OppItem[];
}

/** Where a stream can resume from: the entries from `from` (included) to `upto`, in order, or null if not all held. */
export interface StreamLog<T extends LogEntry = LogEntry> {
  read(from: number, upto: number): Promise<T[] | null>;
}

/**
 * The in-process replay buffer (embedded mode's log, and every instance's own window for catching a stream up
 * after its snapshot): entries in sequence order, the last REPLAY_MS, at most REPLAY_MAX.
 */
export class MemoryStreamLog<T extends LogEntry> implements StreamLog<T> {
  private readonly entries: T[] = [];
  private readonly bySeq = new Map<number, T>();
  last = 0;

  constructor(
    private readonly now: () => number,
    private readonly windowMs = REPLAY_MS,
    private readonly max = REPLAY_MAX,
  ) {}

  get size(): number {
    return this.entries.length;
  }

  get(seq: number): T | undefined {
    return this.bySeq.get(seq);
  }

  /** Adds an entry (sequence numbers arrive in order; a late one is placed where it belongs). */
  add(e: T): void {
    this.bySeq.set(e.seq, e);
    const n = this.entries.length;
    if (!n || this.entries[n - 1]!.seq < e.seq) this.entries.push(e);
    else this.entries.splice(this.indexAfter(e.seq), 0, e);
    if (e.seq > this.last) this.last = e.seq;
    this.trim();
  }

  trim(): void {
    const cutoff = this.now() - this.windowMs;
    while (this.entries.length > this.max || (this.entries.length > 1 && this.entries[0]!.at < cutoff)) {
      const e = this.entries.shift()!;
      this.bySeq.delete(e.seq);
    }
  }

  /** The oldest sequence number held (Infinity when empty). */
  first(): number {
    return this.entries[0]?.seq ?? Number.POSITIVE_INFINITY;
  }

  /** Whether every entry from `seq` on is still held. */
  covers(seq: number): boolean {
    return this.entries.length > 0 && seq >= this.entries[0]!.seq && seq <= this.last;
  }

  private indexAfter(seq: number): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.entries[mid]!.seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first entry after a sequence number. */
  after(seq: number): T | undefined {
    return this.entries[this.indexAfter(seq)];
  }

  /** The entries from `from` to `upto` (both included). */
  range(from: number, upto: number): T[] {
    const out: T[] = [];
    for (let i = this.indexAfter(from - 1); i < this.entries.length && this.entries[i]!.seq <= upto; i++) out.push(this.entries[i]!);
    return out;
  }

  read(from: number, upto: number): Promise<T[] | null> {
    return Promise.resolve(this.covers(from) ? this.range(from, upto) : null);
  }
}

/** The shared log of this instance: a RedisStreamLog in services mode, none in embedded mode (one process). */
export class SharedStreamLog {
  constructor(readonly log: RedisStreamLog | null) {}
}

/** A part of an entry as the shared log holds it: the change set, or one opportunity event, or a gap marker. */
export type LogPart =
  | { seq: number; at: number; part: 'cs'; cs: ChangeSet; removedRows: RemovedRef[]; events: BoardEvent[] }
  | { seq: number; at: number; part: 'opp'; evt: OpportunityEvent; payloads: Array<[string, Json]> }
  | { seq: number; at: number; part: 'gap' };

/** Clock skew tolerated between the instance that stamped a sequence number and Redis's own clock (stream ids). */
const SKEW_MS = 10_000;
const READ_BATCH = 200;

/**
 * The shared log (services mode): a Redis Stream of the source events each instance published (its change sets;
 * the active worker's opportunity events), so a stream resumes on any instance. Appends are batched into one
 * pipeline per turn of the event loop and never awaited by the publisher; the stream is bounded by length
 * (MAXLEN ~) and age (MINID, by the ids: Redis's clock). Entry ids are Redis's; the sequence number is a field.
 */
export class RedisStreamLog implements StreamLog {
  private readonly logger = new Logger('stream-log');
  private readonly key: string;
  private pending: LogPart[] = [];
  private scheduled = false;
  private failing = false;
  /** Appends written (for tests and metrics). */
  written = 0;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly windowMs = REPLAY_MS,
    private readonly max = REPLAY_MAX,
  ) {
    this.key = `${prefix}stream:log`;
  }

  append(part: LogPart): void {
    this.pending.push(part);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flushing = this.flushing.then(() => this.flush());
    });
  }

  /** Resolves when what was appended so far is written (tests). */
  async settled(): Promise<void> {
    while (this.scheduled || this.pending.length) {
      await new Promise((r) => setImmediate(r));
      await this.flushing;
    }
    await this.flushing;
  }

  private async flush(): Promise<void> {
    const parts = this.pending;
    this.pending = [];
    if (!parts.length) return;
    const pipe = this.redis.pipeline();
    for (const p of parts) {
      const { seq, part, ...rest } = p;
      pipe.xadd(this.key, 'MAXLEN', '~', String(this.max * 2), '*', 's', String(seq), 'p', part, 'd', JSON.stringify(rest));
    }
    // Exact by age (costs what it evicts), approximate by length (whole macro nodes, cheap).
    pipe.xtrim(this.key, 'MINID', String(Date.now() - this.windowMs - SKEW_MS));
    // Trimming happens on append: a log no one appends to any more (its worker stopped) would keep its last entries,
    // each a whole change set, for good. Once the window has passed since the last append, none is resumable from.
    pipe.pexpire(this.key, this.windowMs + SKEW_MS);
    try {
      const res = (await pipe.exec()) ?? [];
      const err = res.find(([e]) => e)?.[0];
      if (err) throw err;
      this.written += parts.length;
      if (this.failing) this.logger.log({ msg: 'stream log written to redis again' });
      this.failing = false;
    } catch (err) {
      // Lost parts only cost resumes across them a snapshot: a reader sees no entry for their sequence number.
      if (!this.failing) this.logger.warn({ msg: 'stream log append failed', error: (err as Error).message });
      this.failing = true;
    }
  }

  /**
   * The entries from `from` to `upto`, merged from their parts in sequence order; null when the log does not hold
   * `from` itself (trimmed, or never written) or holds a gap marker in the range.
   */
  async read(from: number, upto: number): Promise<LogEntry[] | null> {
    const bySeq = new Map<number, LogEntry>();
    let start = String(Math.max(0, Math.floor(from / 1000) - SKEW_MS));
    const stopMs = Math.floor(upto / 1000) + SKEW_MS;
    for (;;) {
      const batch = await this.redis.xrange(this.key, start, '+', 'COUNT', READ_BATCH);
      for (const [, fields] of batch) {
        const f: Record<string, string> = dict();
        for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
        const seq = Number(f.s);
        if (!(seq >= from && seq <= upto)) continue;
        if (f.p === 'gap') return null;
        let e = bySeq.get(seq);
        const d = JSON.parse(f.d ?? '{}') as Record<string, unknown>;
        if (!e) bySeq.set(seq, (e = { seq, at: Number(d.at), removedRows: [], events: new Map(), opps: [] }));
        if (f.p === 'cs') {
          const cs = d.cs as ChangeSet;
          e.cs = cs;
          e.removedRows = d.removedRows as RemovedRef[];
          for (const ev of cs.events) e.events.set(ev.id, ev);
          for (const ev of d.events as BoardEvent[]) e.events.set(ev.id, ev);
        } else if (f.p === 'opp') {
          e.opps.push({ evt: d.evt as OpportunityEvent, payloads: new Map(d.payloads as Array<[string, Json]>) });
        }
      }
      if (batch.length < READ_BATCH) break;
      const lastId = batch[batch.length - 1]![0];
      if (Number(lastId.split('-')[0]) > stopMs) break;
      start = `(${lastId}`;
      // Large ranges are parsed a batch per turn of the event loop.
      await new Promise((r) => setImmediate(r));
    }
    if (!bySeq.has(from)) return null;
    return [...bySeq.values()].sort((x, y) => x.seq - y.seq);
  }
}

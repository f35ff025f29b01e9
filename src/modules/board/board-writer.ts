import { Logger } from '@nestjs/common';
import type { BoardEvent, ChangeSet, OddsRow, RemovedRow } from '../../domain/odds-row.js';
import { Clock, SystemClock } from '../../common/time/clock.js';
import type { BoardRepository, HistoryEntry } from './board.repository.js';
import { DropOldestBuffer } from '../../common/drop-oldest-buffer.js';
import { PausableWrites } from '../../common/pausable-writes.js';

/** What the writer needs of the store. */
export type BoardStore = Pick<BoardRepository, 'write' | 'touch'>;

/** Most history entries kept while the database is unreachable; past it the oldest history is dropped (current prices never are). */
export const MAX_BUFFERED_HISTORY = 500_000;
/** Quarantined items kept for inspection (the count goes on). */
const QUARANTINE_KEPT = 200;
/** Quarantined items logged one by one per flush; past it, one summary line. */
const QUARANTINE_LOGGED = 20;

type Batch = { rows: OddsRow[]; removed: RemovedRow[]; history: HistoryEntry[]; events: BoardEvent[]; eventsRemoved: string[] };
type Kind = keyof Batch;
const KINDS: Kind[] = ['events', 'rows', 'removed', 'history', 'eventsRemoved'];

/** One item the database refused for its data: what it was, and why. */
export interface Quarantined {
  kind: Kind;
  id: string;
  eventId: string | null;
  sportsbook: string | null;
  error: string;
  code: string | null;
  at: number;
}

/**
 * True when the database refused a write because of the data in it (SQLSTATE class 22 data exception, 23
 * integrity violation, 54 limit exceeded: a NUL byte, an invalid escape, a value too large for an index), as
 * opposed to the database being unreachable or failing: retrying the same data can never succeed.
 */
export function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|23|54)[0-9A-Z]{3}$/.test(code);
}

function describe(kind: Kind, item: unknown): Pick<Quarantined, 'id' | 'eventId' | 'sportsbook'> {
  switch (kind) {
    case 'rows': {
      const r = item as OddsRow;
      return { id: r.id, eventId: r.eventId, sportsbook: r.sportsbook };
    }
    case 'history': {
      const h = item as HistoryEntry;
      return { id: h.row.id, eventId: h.row.eventId, sportsbook: h.row.sportsbook };
    }
    case 'removed': {
      const r = item as RemovedRow;
      return { id: r.id, eventId: r.eventId, sportsbook: r.sportsbook };
    }
    case 'events': {
      const e = item as BoardEvent;
      return { id: e.id, eventId: e.id, sportsbook: null };
    }
    default:
      return { id: String(item), eventId: String(item), sportsbook: null };
  }
}

/**
 * Buffers board changes and writes them in batches: the latest state of each changed row, every change to
 * the history, removals and events. While the database is unreachable the buffer keeps growing (bounded:
 * current rows are bounded by the board itself, history by MAX_BUFFERED_HISTORY) and is written when it
 * returns; nothing is dropped from a batch that failed. A batch the database refuses for its DATA (not its
 * availability) is bisected: every item it can store is written, the ones it refuses are quarantined (logged,
 * counted, kept for inspection) and never block later writes.
 */
export class BoardWriter extends PausableWrites {
  private readonly logger = new Logger('board-writer');
  private rows = new Map<string, OddsRow>();
  private removed = new Map<string, RemovedRow>();
  /** History entries not written yet, oldest first; past MAX_BUFFERED_HISTORY the oldest are dropped (counted). */
  private readonly history = new DropOldestBuffer<HistoryEntry>(MAX_BUFFERED_HISTORY);
  private events = new Map<string, BoardEvent>();
  private eventsRemoved = new Set<string>();
  private seen = new Map<string, number>();
  private flushing: Promise<void> | null = null;
  private failing = false;
  get droppedHistory(): number {
    return this.history.dropped;
  }
  written = 0;
  /** Items the database refused for their data since start, by kind. */
  readonly quarantinedByKind: Record<Kind, number> = { rows: 0, removed: 0, history: 0, events: 0, eventsRemoved: 0 };
  /** The latest quarantined items (at most QUARANTINE_KEPT). */
  readonly quarantine: Quarantined[] = [];

  /**
   * @param maxBatch the most prices, removals and history entries (each) one transaction writes; more is written
   *   in several transactions one after the other. On the embedded store a transaction holds its only session, so
   *   a bound lets other callers (a key lookup, a read) have their turn between them; with PostgreSQL a flush is
   *   one transaction whatever its size (replicas read the store as complete up to its newest history entry).
   */
  constructor(
    private readonly repo: BoardStore,
    private readonly clock: Clock = new SystemClock(),
    private readonly maxBatch = Infinity,
  ) {
    super();
  }

  get pending(): number {
    return this.rows.size + this.removed.size + this.history.size + this.events.size + this.eventsRemoved.size;
  }

  /**
   * Whether the database holds everything given to the writer since start, and nothing is on its way there: no
   * change, sighting or flush pending, nothing refused for its data, the last write successful.
   */
  get settled(): boolean {
    return !this.flushing && !this.failing && this.pending === 0 && this.seen.size === 0 && this.quarantined === 0;
  }

  get healthy(): boolean {
    return !this.failing;
  }

  /** Items quarantined since start (refused by the database for their data; not stored). */
  get quarantined(): number {
    return Object.values(this.quarantinedByKind).reduce((a, b) => a + b, 0);
  }

  /**
   * What was not (and now will not be) stored, for the shutdown log: the buffer still pending (the database was
   * unreachable) and what was quarantined. Null when everything reached the database.
   */
  lossReport(): {
    pending: { rows: number; removed: number; history: number; events: number; events_removed: number };
    quarantined: Record<Kind, number>;
    latest_quarantined: Quarantined[];
  } | null {
    if (!this.pending && !this.quarantined) return null;
    return {
      pending: {
        rows: this.rows.size,
        removed: this.removed.size,
        history: this.history.size,
        events: this.events.size,
        events_removed: this.eventsRemoved.size,
      },
      quarantined: { ...this.quarantinedByKind },
      latest_quarantined: this.quarantine.slice(-10),
    };
  }

  /**
   * Writes until nothing is buffered (a flush in progress at the call leaves what arrived meanwhile for the next
   * one), the database fails, or the time is up. For shutdown.
   */
  async drain(timeoutMs = 10_000): Promise<void> {
    // A time limit on database I/O: real time, whatever the clock says (see Clock).
    const until = Date.now() + timeoutMs;
    do {
      await this.flush({ force: true });
    } while ((this.pending || this.seen.size) && !this.failing && Date.now() < until);
  }

  /** Logs a warning naming what could not be written (call at shutdown, after the last flush). */
  warnIfLost(): void {
    const loss = this.lossReport();
    if (!loss) return;
    const { pending } = loss;
    const lost = pending.rows + pending.removed + pending.history + pending.events + pending.events_removed;
    this.logger.warn({
      msg: lost
        ? `shutting down with ${lost} board changes not written to the database (${this.failing ? 'it was unreachable' : 'they kept arriving until the end'}): they are lost; the store holds the state of the last successful write`
        : `${this.quarantined} items were refused by the database for their data since start and were never stored`,
      ...loss,
    });
  }

  /**
   * Queues prices (and their events) the store lacks or holds older, each with a history entry at its own change
   * time, and removals the store has not applied: what a worker that took over writes for the one before it.
   */
  enqueueRecovered(rows: OddsRow[], events: BoardEvent[], removed: RemovedRow[]): void {
    for (const e of events) if (!this.eventsRemoved.has(e.id)) this.events.set(e.id, e);
    for (const r of rows) {
      if (this.rows.has(r.id) || this.removed.has(r.id)) continue; // a newer change of its own is queued
      this.rows.set(r.id, r);
      this.history.push({ row: r, at: r.changedAt });
    }
    for (const rm of removed) if (!this.rows.has(rm.id)) this.removed.set(rm.id, rm);
  }

  enqueue(cs: ChangeSet): void {
    for (const e of cs.events) {
      this.events.set(e.id, e);
      this.eventsRemoved.delete(e.id);
    }
    for (const r of cs.upserted) {
      this.rows.set(r.id, r);
      this.removed.delete(r.id);
      this.history.push({ row: r, at: cs.at });
    }
    for (const rm of cs.removed) {
      this.rows.delete(rm.id);
      this.removed.set(rm.id, rm);
    }
    for (const id of cs.seen) this.seen.set(id, cs.at);
    for (const id of cs.eventsRemoved) {
      this.events.delete(id);
      this.eventsRemoved.add(id);
      for (const [rid, r] of this.rows) if (r.eventId === id) this.rows.delete(rid);
    }
  }

  /** Writes what is buffered; concurrent calls share one flush. Failures keep the buffer for the next try. */
  flush(opts: { force?: boolean } = {}): Promise<void> {
    if (this.held(opts)) return Promise.resolve();
    if (this.flushing) return this.flushing;
    if (!this.pending && !this.seen.size) return Promise.resolve();
    this.flushing = this.doFlush().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async doFlush(): Promise<void> {
    // Bounded batches (embedded store) one after the other, each leaving the session to waiting callers.
    while (await this.writeBatch()) await new Promise((r) => setImmediate(r));
  }

  /** Takes up to `maxBatch` of each kind out of a buffer (all of it when it holds no more). */
  private take<T>(buffer: Map<string, T>): T[] {
    if (buffer.size <= this.maxBatch) {
      const all = [...buffer.values()];
      buffer.clear();
      return all;
    }
    const part: T[] = [];
    for (const [id, v] of buffer) {
      if (part.length >= this.maxBatch) break;
      part.push(v);
      buffer.delete(id);
    }
    return part;
  }

  /** Writes one batch; true when it was a part of what is buffered and the rest should follow. */
  private async writeBatch(): Promise<boolean> {
    const rows = this.take(this.rows);
    const removed = this.take(this.removed);
    const history = this.history.take(this.maxBatch);
    const last = !this.rows.size && !this.removed.size && !this.history.size;
    // Event removals (they delete their prices) and confirmations go with the last part.
    const batch: Batch = { rows, removed, history, events: [...this.events.values()], eventsRemoved: last ? [...this.eventsRemoved] : [] };
    const seen = last ? this.seen : new Map<string, number>();
    this.events = new Map();
    if (last) {
      this.eventsRemoved = new Set();
      this.seen = new Map();
    }
    try {
      try {
        await this.repo.write(batch);
      } catch (err) {
        if (!isDataError(err)) throw err;
        await this.isolate(batch, err);
      }
      if (seen.size) {
        const byAt = new Map<number, string[]>();
        for (const [id, at] of seen) (byAt.get(at) ?? byAt.set(at, []).get(at)!).push(id);
        for (const [at, ids] of byAt) await this.repo.touch(ids, at);
      }
      this.written += batch.rows.length + batch.removed.length;
      if (this.failing) this.logger.log({ msg: 'database writes resumed', rows: batch.rows.length, history: batch.history.length });
      this.failing = false;
    } catch (err) {
      // Put back what was not written (all of it, or what a failure during isolation left) under anything that
      // arrived meanwhile (newer state wins).
      this.requeue((err as { unwritten?: Batch }).unwritten ?? batch);
      for (const [id, at] of seen) if (!this.seen.has(id)) this.seen.set(id, at);
      if (!this.failing)
        this.logger.warn({ msg: 'database write failed; buffering board changes', error: (err as Error).message, buffered: this.pending });
      this.failing = true;
      return false;
    }
    return !last;
  }

  private requeue(batch: Batch): void {
    for (const r of batch.rows) if (!this.rows.has(r.id) && !this.removed.has(r.id)) this.rows.set(r.id, r);
    for (const r of batch.removed) if (!this.rows.has(r.id) && !this.removed.has(r.id)) this.removed.set(r.id, r);
    this.history.putBack(batch.history);
    for (const e of batch.events) if (!this.events.has(e.id) && !this.eventsRemoved.has(e.id)) this.events.set(e.id, e);
    for (const id of batch.eventsRemoved) if (!this.events.has(id)) this.eventsRemoved.add(id);
  }

  /**
   * Writes a batch the database refused for its data piece by piece: each kind on its own, halves of what fails
   * until the refused items stand alone; those are quarantined, everything else is stored. A failure that is not
   * about the data (the database went away meanwhile) stops the isolation; what was not yet written is attached
   * to the error as `unwritten` and goes back to the buffer.
   */
  private async isolate(batch: Batch, first: unknown): Promise<void> {
    const empty = (): Batch => ({ rows: [], removed: [], history: [], events: [], eventsRemoved: [] });
    const jobs: Array<{ kind: Kind; items: unknown[] }> = [];
    for (const kind of [...KINDS].reverse()) if (batch[kind].length) jobs.push({ kind, items: batch[kind] as unknown[] });
    const refused: Quarantined[] = [];
    this.logger.warn({
      msg: 'the database refused a batch for its data; isolating the refused items and writing the rest',
      error: (first as Error).message,
      code: (first as { code?: string }).code ?? null,
    });
    while (jobs.length) {
      const job = jobs.pop()!;
      const part = empty();
      (part[job.kind] as unknown[]) = job.items;
      try {
        await this.repo.write(part);
      } catch (err) {
        if (!isDataError(err)) {
          const unwritten = empty();
          for (const j of [job, ...jobs]) (unwritten[j.kind] as unknown[]).push(...j.items);
          throw Object.assign(err as Error, { unwritten });
        }
        if (job.items.length === 1) {
          refused.push({
            kind: job.kind,
            ...describe(job.kind, job.items[0]),
            error: (err as Error).message,
            code: (err as { code?: string }).code ?? null,
            at: this.clock.now(),
          });
          continue;
        }
        const mid = job.items.length >> 1;
        jobs.push({ kind: job.kind, items: job.items.slice(mid) }, { kind: job.kind, items: job.items.slice(0, mid) });
      }
    }
    for (const q of refused) {
      this.quarantinedByKind[q.kind]++;
      this.quarantine.push(q);
    }
    if (this.quarantine.length > QUARANTINE_KEPT) this.quarantine.splice(0, this.quarantine.length - QUARANTINE_KEPT);
    for (const q of refused.slice(0, QUARANTINE_LOGGED))
      this.logger.warn({ msg: 'quarantined: the database refused this item for its data; it is not stored', ...q });
    if (refused.length > QUARANTINE_LOGGED)
      this.logger.warn({ msg: `quarantined ${refused.length - QUARANTINE_LOGGED} more items in this write`, total: refused.length });
  }
}

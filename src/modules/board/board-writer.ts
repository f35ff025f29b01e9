import { Logger } from '@nestjs/common';
import type { BoardEvent, ChangeSet, OddsRow, RemovedRow } from '../../domain/odds-row.js';
import type { BoardRepository, HistoryEntry } from './board.repository.js';

/** Most history entries kept while the database is unreachable; past it the oldest history is dropped (current prices never are). */
export const MAX_BUFFERED_HISTORY = 500_000;

/**
 * Buffers board changes and writes them in batches: the latest state of each changed row, every change to
 * the history, removals and events. While the database is unreachable the buffer keeps growing (bounded:
 * current rows are bounded by the board itself, history by MAX_BUFFERED_HISTORY) and is written when it
 * returns; nothing is dropped from a batch that failed.
 */
export class BoardWriter {
  private readonly logger = new Logger('board-writer');
  private rows = new Map<string, OddsRow>();
  private removed = new Map<string, RemovedRow>();
  private history: HistoryEntry[] = [];
  private events = new Map<string, BoardEvent>();
  private eventsRemoved = new Set<string>();
  private seen = new Map<string, number>();
  private flushing: Promise<void> | null = null;
  private failing = false;
  droppedHistory = 0;
  written = 0;

  constructor(private readonly repo: BoardRepository) {}

  get pending(): number {
    return this.rows.size + this.removed.size + this.history.length + this.events.size + this.eventsRemoved.size;
  }

  get healthy(): boolean {
    return !this.failing;
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
    if (this.history.length > MAX_BUFFERED_HISTORY) {
      const drop = this.history.length - MAX_BUFFERED_HISTORY;
      this.history = this.history.slice(drop);
      this.droppedHistory += drop;
    }
  }

  private paused = false;

  /** Holds periodic writes back (a large initial snapshot is written after it is on the board, not during). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  /** Writes what is buffered; concurrent calls share one flush. Failures keep the buffer for the next try. */
  flush(opts: { force?: boolean } = {}): Promise<void> {
    if (this.paused && !opts.force) return Promise.resolve();
    if (this.flushing) return this.flushing;
    if (!this.pending && !this.seen.size) return Promise.resolve();
    this.flushing = this.doFlush().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async doFlush(): Promise<void> {
    const batch = {
      rows: [...this.rows.values()],
      removed: [...this.removed.values()],
      history: this.history,
      events: [...this.events.values()],
      eventsRemoved: [...this.eventsRemoved],
    };
    const seen = this.seen;
    this.rows = new Map();
    this.removed = new Map();
    this.history = [];
    this.events = new Map();
    this.eventsRemoved = new Set();
    this.seen = new Map();
    try {
      await this.repo.write(batch);
      if (seen.size) {
        const byAt = new Map<number, string[]>();
        for (const [id, at] of seen) (byAt.get(at) ?? byAt.set(at, []).get(at)!).push(id);
        for (const [at, ids] of byAt) await this.repo.touch(ids, at);
      }
      this.written += batch.rows.length + batch.removed.length;
      if (this.failing) this.logger.log({ msg: 'database writes resumed', rows: batch.rows.length, history: batch.history.length });
      this.failing = false;
    } catch (err) {
      // Put the batch back under anything that arrived meanwhile (newer state wins).
      for (const r of batch.rows) if (!this.rows.has(r.id) && !this.removed.has(r.id)) this.rows.set(r.id, r);
      for (const r of batch.removed) if (!this.rows.has(r.id) && !this.removed.has(r.id)) this.removed.set(r.id, r);
      this.history = batch.history.concat(this.history);
      for (const e of batch.events) if (!this.events.has(e.id) && !this.eventsRemoved.has(e.id)) this.events.set(e.id, e);
      for (const id of batch.eventsRemoved) if (!this.events.has(id)) this.eventsRemoved.add(id);
      for (const [id, at] of seen) if (!this.seen.has(id)) this.seen.set(id, at);
      if (!this.failing) this.logger.warn({ msg: 'database write failed; buffering board changes', error: (err as Error).message, buffered: this.pending });
      this.failing = true;
    }
  }
}

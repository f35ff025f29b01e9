import { Logger } from '@nestjs/common';
import type { ChangeSet, OddsRow } from '../../../domain/odds-row.js';
import { isDataError } from '../../board/board-writer.js';
import type { ChangeRow, LineHistoryRepository, SeriesKey } from './line-history.repository.js';
import { DropOldestBuffer } from '../../../common/drop-oldest-buffer.js';
import { PausableWrites } from '../../../common/pausable-writes.js';

/** What the writer needs of the store. */
export type LineHistorySink = Pick<LineHistoryRepository, 'ensureSeries' | 'seriesIds' | 'insertChanges'>;

/** Most changes kept while the database is unreachable; past it the oldest are dropped (and counted). */
export const MAX_BUFFERED_CHANGES = 1_000_000;
/** Series ids remembered (about one per board row); past it the memo starts again (ids are read back from the store). */
const MAX_REMEMBERED_SERIES = 2_000_000;

/** One change to store: a row's new state (a price, a suspension, a line or live change), or its withdrawal. */
interface Entry {
  oddsId: string;
  eventId: string;
  at: number;
  /** The row as it changed; null: withdrawn (removed from the board). */
  row: OddsRow | null;
}

export function seriesKey(r: OddsRow): SeriesKey {
  return {
    oddsId: r.id,
    eventId: r.eventId,
    sportsbook: r.sportsbook,
    marketType: r.marketType,
    period: r.period,
    selection: r.selection,
    selectionType: r.selectionType,
    line: r.line,
    playerName: r.playerName,
  };
}

/** The stored price of a row: decimal x 10^4 (the board keeps 4 decimals, so it is exact). */
export function priceE4(decimal: number): number {
  return Math.round(decimal * 10_000);
}

/**
 * Buffers every price change the board publishes (a change set's upserted rows and removals: each is a change, a
 * row only confirmed unchanged is not) and writes them in batches: the series of rows first seen are created (one
 * statement per chunk), then the changes appended (one statement per chunk). Nothing is written per row on the
 * ingest path; enqueueing is a push per change. While the database is unreachable the buffer grows (bounded by
 * MAX_BUFFERED_CHANGES, the oldest dropped and counted past it) and is written when it returns. A batch the database
 * refuses for its data is halved until the refused items stand alone: those are dropped and counted, the rest stored.
 */
export class LineHistoryWriter extends PausableWrites {
  private readonly logger = new Logger('line-history');
  /** Changes not written yet, oldest first; past MAX_BUFFERED_CHANGES the oldest are dropped (and counted). */
  private readonly buffer = new DropOldestBuffer<Entry>(MAX_BUFFERED_CHANGES, (e) => {
    this.count(e.eventId, -1);
    this.stats.dropped++;
  });
  /** Events with changes in the buffer or in the write under way (a read of them waits for the write). */
  private pendingEvents = new Map<string, number>();
  private inFlight: Entry[] = [];
  private flushing: Promise<void> | null = null;
  private failing = false;
  /** Row id -> series id, for rows whose series is stored. */
  private readonly series = new Map<string, number>();
  stats = { stored: 0, dropped: 0, refused: 0, writeFailures: 0, batches: 0 };

  constructor(private readonly sink: LineHistorySink) {
    super();
  }

  get pending(): number {
    return this.buffer.size + this.inFlight.length;
  }

  get healthy(): boolean {
    return !this.failing;
  }

  /** Whether changes of this event are buffered or being written. */
  holds(eventId: string): boolean {
    return (this.pendingEvents.get(eventId) ?? 0) > 0;
  }

  private count(eventId: string, by: number): void {
    const n = (this.pendingEvents.get(eventId) ?? 0) + by;
    if (n > 0) this.pendingEvents.set(eventId, n);
    else this.pendingEvents.delete(eventId);
  }

  enqueue(cs: ChangeSet): void {
    for (const r of cs.upserted) this.push({ oddsId: r.id, eventId: r.eventId, at: cs.at, row: r });
    for (const rm of cs.removed) this.push({ oddsId: rm.id, eventId: rm.eventId, at: rm.removedAt, row: null });
    // An event that left the board: its series ids are not needed any more (they stay in the store).
    if (cs.eventsRemoved.length) {
      const gone = new Set(cs.eventsRemoved);
      for (const e of this.buffer) if (e.row && gone.has(e.eventId)) gone.delete(e.eventId);
      if (gone.size) this.forgetEvents(gone);
    }
  }

  private push(e: Entry): void {
    this.buffer.push(e);
    this.count(e.eventId, 1);
  }

  private readonly seriesEvent = new Map<string, string>();

  private forgetEvents(events: Set<string>): void {
    for (const [oddsId, eventId] of this.seriesEvent) {
      if (!events.has(eventId)) continue;
      this.series.delete(oddsId);
      this.seriesEvent.delete(oddsId);
    }
  }

  /** Forgets every remembered series id (after the retention job deleted series). */
  forgetSeries(): void {
    this.series.clear();
    this.seriesEvent.clear();
  }

  private remember(oddsId: string, eventId: string, id: number): void {
    if (this.series.size >= MAX_REMEMBERED_SERIES) this.forgetSeries();
    this.series.set(oddsId, id);
    this.seriesEvent.set(oddsId, eventId);
  }

  /**
   * Writes what is buffered; concurrent calls share one write, and a call during a write is followed by another.
   * While paused only a forced call writes (a read waiting for its event's changes, a shutdown).
   */
  flush(opts: { force?: boolean } = {}): Promise<void> {
    if (this.held(opts)) return Promise.resolve();
    if (this.flushing) return this.flushing.then(() => (this.buffer.size ? this.flush(opts) : undefined));
    if (!this.buffer.size) return Promise.resolve();
    this.flushing = this.doFlush().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Writes until nothing is buffered, the database fails, or the time is up. For shutdown. */
  async drain(timeoutMs = 10_000): Promise<void> {
    // A time limit on database I/O: real time, whatever the clock says (see Clock).
    const until = Date.now() + timeoutMs;
    do await this.flush({ force: true });
    while (this.buffer.size && !this.failing && Date.now() < until);
  }

  private async doFlush(): Promise<void> {
    const batch = this.buffer.take();
    this.inFlight = batch;
    try {
      await this.write(batch);
      this.stats.batches++;
      if (this.failing) this.logger.log({ msg: 'line history writes resumed', changes: batch.length });
      this.failing = false;
    } catch (err) {
      this.stats.writeFailures++;
      // Not written: back in front of what arrived meanwhile (still counted as pending for its events).
      this.buffer.putBack(batch);
      if (!this.failing)
        this.logger.warn({ msg: 'line history write failed; buffering', error: (err as Error).message, buffered: this.buffer.size });
      this.failing = true;
      this.inFlight = [];
      return;
    }
    this.inFlight = [];
    for (const e of batch) this.count(e.eventId, -1);
  }

  /** Resolves series (creating those first seen), then appends the changes. Refused items are dropped and counted. */
  private async write(batch: Entry[]): Promise<void> {
    const fresh = new Map<string, SeriesKey & { firstAt: number }>();
    const unknownRemoved = new Set<string>();
    for (const e of batch) {
      if (this.series.has(e.oddsId)) continue;
      if (e.row) {
        if (!fresh.has(e.oddsId)) fresh.set(e.oddsId, { ...seriesKey(e.row), firstAt: e.at });
      } else unknownRemoved.add(e.oddsId);
    }
    if (fresh.size) {
      const keys = [...fresh.values()];
      const ids = await this.bisect(keys, (part) => this.sink.ensureSeries(part));
      for (const [oddsId, id] of ids) this.remember(oddsId, fresh.get(oddsId)!.eventId, id);
    }
    // A withdrawal of a row first seen in the same batch has its series now; one never stored has nothing to end.
    for (const id of fresh.keys()) unknownRemoved.delete(id);
    if (unknownRemoved.size) {
      const ids = await this.sink.seriesIds([...unknownRemoved]);
      for (const e of batch) {
        const id = ids.get(e.oddsId);
        if (id !== undefined && !this.series.has(e.oddsId)) this.remember(e.oddsId, e.eventId, id);
      }
    }
    // One change per (series, instant): the later state of a row changed twice at one instant wins.
    const rows = new Map<string, ChangeRow>();
    for (const e of batch) {
      const seriesId = this.series.get(e.oddsId);
      if (seriesId === undefined) continue;
      const r = e.row;
      rows.set(`${seriesId}|${e.at}`, {
        seriesId,
        at: e.at,
        priceE4: r ? priceE4(r.decimal) : null,
        american: r ? r.american : null,
        isLive: r ? r.isLive : false,
        isActive: r ? r.isActive : false,
      });
    }
    const changes = [...rows.values()];
    if (changes.length) await this.bisect(changes, (part) => this.sink.insertChanges(part).then(() => new Map<string, number>()));
    this.stats.stored += changes.length;
  }

  /**
   * Writes `items` with `write`; when the database refuses them for their data, writes halves until the refused items
   * stand alone, drops and counts those. Any other failure propagates (the batch goes back to the buffer).
   */
  private async bisect<T>(items: T[], write: (part: T[]) => Promise<Map<string, number>>): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const jobs: T[][] = [items];
    while (jobs.length) {
      const part = jobs.pop()!;
      try {
        for (const [k, v] of await write(part)) out.set(k, v);
      } catch (err) {
        if (!isDataError(err)) throw err;
        if (part.length === 1) {
          this.stats.refused++;
          this.logger.warn({
            msg: 'line history: the database refused an item for its data; it is not stored',
            error: (err as Error).message,
          });
          continue;
        }
        const mid = part.length >> 1;
        jobs.push(part.slice(mid), part.slice(0, mid));
      }
    }
    return out;
  }
}

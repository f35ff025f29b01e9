import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { EventBus } from '../../../common/bus/event-bus.js';
import { Clock } from '../../../common/time/clock.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import type { AppConfig } from '../../../config/env.js';
import type { ChangeSet } from '../../../domain/odds-row.js';
import { ODDS_TOPIC } from '../../../domain/topics.js';
import { Jobs } from '../../cluster/jobs.service.js';
import { LineHistoryRepository, type ChangeRow, type SeriesFilter, type StoredSeries } from './line-history.repository.js';
import { LineHistoryWriter } from './line-history.writer.js';

const PURGE_INTERVAL_MS = 3600_000;

/**
 * The line history store: every price change of every board row, kept LINE_HISTORY_RETENTION_DAYS. The instance
 * that applies change sets (the active worker, or the one process) hears its own on the bus and writes them in
 * batches every PERSIST_INTERVAL_MS; every instance reads the database (a read of an event whose changes this
 * instance still buffers waits for their write first, so a change is readable once its ingest returned). The purge
 * runs hourly on the active worker.
 */
@Injectable()
export class LineHistoryStore implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('line-history');
  readonly writer: LineHistoryWriter;
  stats = { purgedChanges: 0, purgedSeries: 0 };

  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly jobs: Jobs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: LineHistoryRepository,
  ) {
    this.writer = new LineHistoryWriter(repo);
  }

  /** How long changes are kept (days). */
  get retentionDays(): number {
    return this.config.lineHistoryRetentionDays;
  }

  /** The oldest time the store keeps (now minus the retention). */
  oldest(now = this.clock.now()): number {
    return now - this.retentionDays * 86_400_000;
  }

  onApplicationBootstrap(): void {
    // Local change sets only: the instance that applies them writes them; replicas read the tables.
    this.bus.subscribe<ChangeSet>(ODDS_TOPIC, (cs, remote) => {
      if (!remote) this.writer.enqueue(cs);
    });
    this.jobs.every('line-history:flush', this.config.persistIntervalMs, () => this.writer.flush());
    this.jobs.every('line-history:purge', PURGE_INTERVAL_MS, () => this.purge(), { runsOn: 'leader' });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.writer.drain();
    if (this.writer.pending) this.logger.warn({ msg: 'shutting down with line history changes not written', pending: this.writer.pending });
  }

  /** Deletes changes older than the retention (before `now`), then series left without a change. */
  async purge(now = this.clock.now()): Promise<{ changes: number; series: number }> {
    try {
      const r = await this.repo.purge(this.oldest(now));
      this.stats.purgedChanges += r.changes;
      this.stats.purgedSeries += r.series;
      if (r.series) this.writer.forgetSeries();
      if (r.changes || r.series) this.logger.log({ msg: 'purged line history', ...r });
      return r;
    } catch (err) {
      this.logger.warn({ msg: 'line history purge failed', error: (err as Error).message });
      return { changes: 0, series: 0 };
    }
  }

  /** Waits for the write of this event's buffered changes (on the instance that buffers them; elsewhere nothing to wait for). */
  private async settled(eventId: string): Promise<void> {
    if (this.writer.holds(eventId)) await this.writer.flush({ force: true });
  }

  async series(eventId: string, filter: SeriesFilter = {}): Promise<StoredSeries[]> {
    await this.settled(eventId);
    return this.repo.seriesOf(eventId, filter);
  }

  async hasEvent(eventId: string): Promise<boolean> {
    await this.settled(eventId);
    return this.repo.hasEvent(eventId);
  }

  /** Of these series, those with a change in [from, to]. */
  seriesWithChanges(seriesIds: readonly number[], from: number, to: number): Promise<number[]> {
    return this.repo.seriesWithChanges(seriesIds, from, to);
  }

  /** The changes of the series in [from, to], oldest first, at most `perSeries` of each, by series then time. */
  changes(seriesIds: readonly number[], from: number, to: number, perSeries: number): Promise<ChangeRow[]> {
    return this.repo.changes(seriesIds, from, to, perSeries);
  }

  /** What each series stood at, at a time (its last change at or before it). */
  inForceAt(seriesIds: readonly number[], at: number): Promise<ChangeRow[]> {
    return this.repo.lastAtOrBefore(seriesIds, at);
  }

  size() {
    return this.repo.size();
  }
}

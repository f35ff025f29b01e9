import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import { Catalog } from '../../config/catalog.js';
import type { AppConfig } from '../../config/env.js';
import { Clock } from '../../common/time/clock.js';
import { Jobs } from '../cluster/jobs.service.js';
import { Leadership } from '../cluster/leadership.service.js';
import type { OddsProvider, ProviderBatch } from '../../domain/types.js';
import { BoardService } from '../board/board.service.js';
import { IngestionPipeline, addCounts, mergeReports, type IngestReport, type RejectReason } from './pipeline.js';
import { createProviders, simulatorAnchor } from './providers.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import { Serving } from '../../common/serving.js';
import { FuturesStoreService } from '../stores/futures/futures-store.service.js';
import { SplitsStoreService } from '../stores/splits/splits-store.service.js';
import { PlayersStoreService } from '../stores/players/players-store.service.js';
import { LineHistoryStore } from '../stores/line-history/line-history.store.js';
import { futureSightings, gameSightings, storedSightings } from './player-sightings.js';
import { applyFutures, mergeFuturesReport, splitFutures, type FuturesIngestResult, type SplitBatch } from './futures-intake.js';

export interface IngestTotals {
  batches: number;
  quotes: number;
  accepted: number;
  changed: number;
  removed: number;
  rejected: Partial<Record<RejectReason, number>>;
}

/**
 * Runs the providers on their schedules and feeds every batch through the pipeline into the board.
 * Also the entry point for imports (CLI and admin endpoint).
 */
@Injectable()
export class IngestionService implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('ingestion');
  readonly pipeline: IngestionPipeline;
  private providers: OddsProvider[] = [];
  private readonly busy = new Set<string>();
  readonly totals: IngestTotals = { batches: 0, quotes: 0, accepted: 0, changed: 0, removed: 0, rejected: {} };
  private running = false;

  constructor(
    private readonly boards: BoardService,
    private readonly catalog: Catalog,
    private readonly clock: Clock,
    private readonly jobs: Jobs,
    private readonly leadership: Leadership,
    private readonly metrics: MetricsService,
    private readonly futures: FuturesStoreService,
    private readonly splits: SplitsStoreService,
    private readonly players: PlayersStoreService,
    private readonly lineHistory: LineHistoryStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    serving: Serving,
  ) {
    this.pipeline = new IngestionPipeline(catalog, boards.board);
    serving.onServing(() => this.openStarted());
    metrics.gauge(
      'board_write_quarantined',
      'Items (prices, history entries, events) the database refused for their data: isolated, logged, not stored',
      () => boards.writer.quarantined,
    );
  }

  /** Whether the futures accepted so far are written, within `timeoutMs`. */
  async futuresFlushed(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), timeoutMs)));
    try {
      return await Promise.race([this.futures.flushed(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Feeds one batch into the board (its futures quotes to the futures markets); returns what happened to it. */
  ingest(batch: ProviderBatch, now = this.clock.now(), opts: { backfill?: boolean } = {}): IngestReport {
    const split = splitFutures(batch);
    const futures = split.futures.length || batch.removeIds?.length ? this.ingestFutures(split, batch, now) : null;
    const processed = this.pipeline.process(split.games, now);
    const { changeSet, splits } = processed;
    const report = mergeFuturesReport(processed.report, split, futures);
    this.boards.apply(changeSet, opts);
    this.splits.apply(splits, now, opts.backfill);
    const refused = new Set(processed.report.rejections.map((r) => r.index));
    this.players.observe([
      ...gameSightings(split.games.quotes, refused, this.catalog, now),
      ...(futures && !batch.history ? futureSightings(futures.resolved, this.catalog) : []),
    ]);
    this.metrics.ingestQuotes.inc({ source: batch.source }, report.quotes);
    this.metrics.ingestChanges.inc(report.changed);
    for (const [k, v] of Object.entries(report.rejected)) this.metrics.ingestRejected.inc({ reason: k }, v ?? 0);
    this.totals.batches++;
    addCounts(this.totals, report);
    if (report.registered) {
      this.logger.log({
        msg: 'registered on first sight (not in the catalog)',
        source: batch.source,
        leagues: report.registered.leagues.map((l) => `${l.id} (${l.sport}, sent as "${l.from}")`),
        books: report.registered.books.map(
          (b) =>
            `${b.id} (sent as "${b.from}"; unverified: unlisted, never a sharp reference, its opportunities carry UNVERIFIED_BOOK until described in config/catalog/sportsbooks.json)`,
        ),
      });
    }
    return report;
  }

  /** Maps a batch's futures quotes and hands them to the futures store (which writes and publishes the change). */
  private ingestFutures(split: SplitBatch, batch: ProviderBatch, now: number): FuturesIngestResult {
    const ctx = { source: batch.source, history: batch.history === true, removeIds: batch.removeIds };
    const r = applyFutures(this.futures.store, this.catalog, split.futures, now, ctx);
    this.futures.commit(r.change);
    return r;
  }

  /**
   * Feeds a large batch (a provider's initial snapshot: tens of thousands of prices) as several change sets,
   * with a turn of the event loop between them, so requests keep being answered meanwhile. Events go with the
   * first slice, removals, splits and confirmations with the last.
   */
  async ingestInSlices(batch: ProviderBatch, opts: { backfill?: boolean } = {}, size = 5000): Promise<IngestReport> {
    if (batch.quotes.length <= size) return this.ingest(batch, this.clock.now(), opts);
    const reports: IngestReport[] = [];
    for (let i = 0; i < batch.quotes.length; i += size) {
      const last = i + size >= batch.quotes.length;
      const slice: ProviderBatch = { source: batch.source, quotes: batch.quotes.slice(i, i + size), history: batch.history };
      if (i === 0) slice.events = batch.events;
      if (last)
        Object.assign(slice, {
          removals: batch.removals,
          eventRemovals: batch.eventRemovals,
          splits: batch.splits,
          confirms: batch.confirms,
        });
      if (i > 0) await new Promise((r) => setImmediate(r));
      reports.push(this.ingest(slice, this.clock.now(), opts));
    }
    return mergeReports(reports);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.boards.rebuild();
    this.pipeline.syncFixtures();
    // The players the stored prices name (their teams come back with the next quote naming them).
    this.players.observe(
      storedSightings(this.boards.board.rows.values(), this.futures.store.markets, this.futures.store.prices.values()),
      false,
    );
    // Providers run on the active worker only, and move with the leadership.
    this.leadership.onChange((leader) => {
      if (leader) void this.startAll();
      else void this.stopAll();
    });
  }

  private startAll(): Promise<void> {
    if (this.running) return this.starting ?? Promise.resolve();
    this.running = true;
    // A start superseded before it began (stopped, then started again while waiting to serve) leaves it to the later one.
    const current = (): boolean => this.running && this.starting === starting;
    const starting = this.started.then(async () => {
      if (!current()) return;
      const providers = await createProviders(this.config, this.catalog, simulatorAnchor(this.clock.now()));
      if (current()) await this.startProviders(providers);
    });
    this.starting = starting;
    return starting;
  }

  /**
   * Providers are built and started once the application serves (Serving: every bootstrap hook done, the stored
   * board loaded; the port answering), so that a simulator catching up to now holds none of that up.
   */
  private openStarted: () => void = () => undefined;
  private readonly started = new Promise<void>((resolve) => (this.openStarted = resolve));

  private starting: Promise<void> | null = null;

  /**
   * Settles once the providers' initial snapshots are on the board (at once when this instance does not
   * ingest), so the server can open its port with a market to show.
   */
  initialLoad(): Promise<void> {
    return (this.starting ?? Promise.resolve()).catch(() => undefined);
  }

  private async stopAll(): Promise<void> {
    this.running = false;
    for (const p of this.providers) {
      this.jobs.cancel(`provider:${p.name}`);
      await p.stop?.();
    }
    this.providers = [];
  }

  /** Starts providers: their initial batch now, then a poll every intervalMs (when schedulers run). */
  async startProviders(providers: OddsProvider[]): Promise<void> {
    this.providers = providers;
    this.running = true;
    for (const p of providers) {
      try {
        await p.prepare?.(this.clock.now());
        if (!this.running) return;
        const first = await p.start?.(this.clock.now());
        // The initial snapshot describes a market that existed before we watched it: the delayed views get it at once.
        if (first) {
          // Written once it is all on the board (the prices and their line history): the embedded database
          // shares this thread with the ingest.
          const writers = [this.boards.writer, this.lineHistory.writer];
          for (const w of writers) w.pause();
          try {
            this.logBatch(p.name, await this.ingestInSlices(first, { backfill: true }), true);
          } finally {
            for (const w of writers) w.resume();
          }
        }
      } catch (err) {
        this.logger.error({ msg: 'provider failed to start', provider: p.name, error: (err as Error).message });
      }
      this.jobs.every(`provider:${p.name}`, p.intervalMs, () => this.pollOnce(p));
    }
    if (providers.length)
      this.logger.log({ msg: 'providers running', providers: providers.map((p) => `${p.name} every ${p.intervalMs} ms`) });
  }

  /** One poll of one provider (skipped if its previous poll is still running). */
  async pollOnce(p: OddsProvider): Promise<IngestReport | null> {
    if (!this.running || this.busy.has(p.name)) return null;
    this.busy.add(p.name);
    try {
      const batch = await p.poll(this.clock.now());
      if (!batch) return null;
      const report = this.ingest(batch);
      this.logBatch(p.name, report, false);
      return report;
    } catch (err) {
      this.logger.warn({ msg: 'provider poll failed', provider: p.name, error: (err as Error).message });
      return null;
    } finally {
      this.busy.delete(p.name);
    }
  }

  private logBatch(name: string, r: IngestReport, first: boolean): void {
    const count = (x: Partial<Record<string, number>> | undefined): number =>
      Object.values(x ?? {}).reduce<number>((a, b) => a + (b ?? 0), 0);
    const rejected = count(r.rejected) + count(r.events?.rejected) + count(r.splits?.rejected);
    if (first || rejected) {
      this.logger.log({
        msg: first ? 'provider initial batch' : 'provider batch',
        provider: name,
        quotes: r.quotes,
        changed: r.changed,
        removed: r.removed,
        rejected: r.rejected,
        ...(count(r.events?.rejected) ? { eventsRejected: r.events!.rejected } : {}),
        ...(count(r.splits?.rejected) ? { splitsRejected: r.splits!.rejected } : {}),
      });
    } else {
      this.logger.debug({ msg: 'provider batch', provider: name, quotes: r.quotes, changed: r.changed, removed: r.removed });
    }
  }

  /** Providers stop before the board's last write, so that write holds everything they delivered. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.stopAll();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stopAll();
  }
}

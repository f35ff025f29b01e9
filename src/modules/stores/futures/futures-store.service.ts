import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { EventBus } from '../../../common/bus/event-bus.js';
import { Clock } from '../../../common/time/clock.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import type { AppConfig } from '../../../config/env.js';
import type { FuturesChange } from '../../../domain/futures.js';
import { FUTURES_TOPIC } from '../../../domain/topics.js';
import { Jobs } from '../../cluster/jobs.service.js';
import { FuturesStore, isEmptyChange } from './futures-store.js';
import { FuturesRepository } from './futures.repository.js';

/** Markets are dropped this long after they close. */
export const FUTURES_RETENTION_MS = 3 * 24 * 3600_000;
/** Stale prices and closed markets are deleted this often (livePricesOf leaves stale prices out at once). */
const PRUNE_INTERVAL_MS = 10 * 60_000;

/**
 * The staleness windows of configured feeds: The Odds API sends every outright price each poll, so a price it has
 * not sent for three polls (at least 15 minutes) has left the market.
 */
export function configuredWindows(config: Pick<AppConfig, 'oddsApi'>): Record<string, number> {
  return { odds_api: Math.max(15 * 60_000, 3 * config.oddsApi.intervalSeconds * 1000) };
}

/**
 * The futures store: the futures markets in memory (FuturesStore), written by ingestion (every source's futures
 * quotes, mapped there), committed here: written to the database by the instance that ingested them, published
 * on the bus to the other instances; loaded at start, pruned on a schedule. The futures read module reads `store`.
 */
@Injectable()
export class FuturesStoreService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('futures');
  readonly store: FuturesStore;
  private writing: Promise<void> = Promise.resolve();
  private pendingWrites = 0;
  /** Whether the last futures write reached the database (an admin ingest reports `durable` from it). */
  private lastWriteOk = true;

  constructor(
    private readonly repo: FuturesRepository,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly jobs: Jobs,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.store = new FuturesStore(configuredWindows(config));
  }

  async onApplicationBootstrap(): Promise<void> {
    const loaded = await this.repo.load();
    this.store.applyChange(loaded);
    this.bus.subscribe<FuturesChange>(FUTURES_TOPIC, (c, remote) => {
      if (remote) this.store.applyChange(c);
    });
    this.jobs.every('futures:prune', PRUNE_INTERVAL_MS, () => this.prune());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flushed();
  }

  /**
   * Commits a change ingestion made to `store`: published to the other instances and queued for the database
   * (nothing when it changes nothing).
   */
  commit(c: FuturesChange): void {
    if (isEmptyChange(c)) return;
    this.bus.publish(FUTURES_TOPIC, c, { remoteOnly: true });
    this.write(() => this.repo.save(c));
  }

  private write(job: () => Promise<void>): void {
    this.pendingWrites++;
    this.writing = this.writing
      .then(job)
      .then(
        () => {
          this.lastWriteOk = true;
        },
        (err: Error) => {
          this.lastWriteOk = false;
          this.logger.warn({ msg: 'futures write failed', error: err.message });
        },
      )
      .finally(() => {
        this.pendingWrites--;
      });
  }

  /** Settles once every write queued so far is done: true when the last one reached the database. */
  async flushed(): Promise<boolean> {
    await this.writing;
    return this.lastWriteOk;
  }

  /**
   * Drops markets closed more than FUTURES_RETENTION_MS ago, prices their source has not confirmed within its
   * window and markets left without a price (here, in the database and on the other instances).
   */
  prune(now = this.clock.now()): FuturesChange {
    const c = this.store.prune(now - FUTURES_RETENTION_MS, now);
    this.commit(c);
    return c;
  }
}

import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { RedisService } from '../../common/redis/redis.service.js';
import { Clock } from '../../common/time/clock.js';
import { dayOf, mergeDay, monthOfDay, usagePeriods, usageTotals, type UsagePeriods } from './usage-periods.js';
import { UsageRepository } from './usage.repository.js';

const SEP = '\u0000';
/** Shared day counters live this long after their month's last write (a month plus the week reaching back). */
const SHARED_TTL_SECONDS = 45 * 86_400;
/** In services mode the database is written every this many flushes (Redis every flush). */
const STORED_EVERY = 5;

/**
 * Counts not yet written to one destination: `pending` (not taken yet) and `inflight` (being written now).
 * A failed write puts its counts back; a read adds both, so nothing is missing while a write is under way.
 */
class PendingCounts {
  private pending = new Map<string, number>();
  private inflight = new Map<string, number>();

  add(key: string, n: number): void {
    this.pending.set(key, (this.pending.get(key) ?? 0) + n);
  }

  get(key: string): number {
    return (this.pending.get(key) ?? 0) + (this.inflight.get(key) ?? 0);
  }

  get size(): number {
    return this.pending.size;
  }

  /** Takes what is pending for a write (one write at a time). */
  take(): Map<string, number> {
    const batch = this.pending;
    this.pending = new Map();
    for (const [k, n] of batch) this.inflight.set(k, (this.inflight.get(k) ?? 0) + n);
    return batch;
  }

  settle(batch: Map<string, number>, written: boolean): void {
    for (const [k, n] of batch) {
      const left = (this.inflight.get(k) ?? 0) - n;
      if (left > 0) this.inflight.set(k, left);
      else this.inflight.delete(k);
      if (!written) this.add(k, n);
    }
  }
}

export interface UsageCounts {
  today: number;
  this_week: number;
  this_month: number;
  periods: UsagePeriods;
}

/**
 * Requests per account, per UTC day. A request only bumps an in-memory count (nothing waits on a write); the
 * counts are written in batches every USAGE_FLUSH_MS: to Redis when REDIS_URL is set (shared day counters every
 * instance adds to with HINCRBY, so they are exact across instances), and to the database (each instance adds
 * its counts to the day's row, so a restart of anything loses at most the last unwritten batch of an instance
 * that crashed). Reading takes, per day, the larger of the Redis and the database count, each plus what this
 * instance has not written yet; days are summed into today, this week (ISO, from Monday) and this month (UTC).
 */
@Injectable()
export class UsageService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('usage');
  private readonly shared = new PendingCounts();
  private readonly stored = new PendingCounts();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private ticks = 0;
  private sharedFailing = false;
  private storedFailing = false;

  constructor(
    private readonly repo: UsageRepository,
    private readonly redis: RedisService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.config.usageFlushMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush({ all: true });
  }

  /** Counts one request of an account (synchronous; no I/O). */
  record(accountId: string): void {
    const key = `${accountId}${SEP}${dayOf(this.clock.now())}`;
    if (this.redis.enabled) this.shared.add(key, 1);
    this.stored.add(key, 1);
  }

  /** Writes the batched counts now (`all`: to every destination, e.g. at shutdown). One flush at a time. */
  async flush(opts: { all?: boolean } = {}): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.flushOnce(opts.all ?? false).finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async flushOnce(all: boolean): Promise<void> {
    this.ticks++;
    const writeStored = all || !this.redis.enabled || this.ticks % STORED_EVERY === 0;
    await Promise.all([this.redis.enabled ? this.flushShared() : Promise.resolve(), writeStored ? this.flushStored() : Promise.resolve()]);
  }

  private async flushShared(): Promise<void> {
    if (!this.shared.size) return;
    const batch = this.shared.take();
    let ok = false;
    try {
      const pipe = this.redis.client.pipeline();
      for (const [k, n] of batch) {
        const [accountId, day] = k.split(SEP) as [string, string];
        const hash = this.sharedKey(accountId, monthOfDay(day));
        pipe.hincrby(hash, day, n);
        pipe.expire(hash, SHARED_TTL_SECONDS);
      }
      const results = (await pipe.exec()) ?? [];
      const failed = results.find(([err]) => err);
      if (failed) throw failed[0];
      ok = true;
      if (this.sharedFailing) this.logger.log({ msg: 'usage counts reach Redis again' });
      this.sharedFailing = false;
    } catch (err) {
      if (!this.sharedFailing)
        this.logger.warn({
          msg: 'usage counts cannot reach Redis; kept and retried (the database still counts them)',
          error: (err as Error).message,
        });
      this.sharedFailing = true;
    } finally {
      this.shared.settle(batch, ok);
    }
  }

  private async flushStored(): Promise<void> {
    if (!this.stored.size) return;
    const batch = this.stored.take();
    let ok = false;
    try {
      await this.repo.add(
        [...batch].map(([k, n]) => {
          const [accountId, day] = k.split(SEP) as [string, string];
          return { accountId, day, requests: n };
        }),
      );
      ok = true;
      if (this.storedFailing) this.logger.log({ msg: 'usage counts reach the database again' });
      this.storedFailing = false;
    } catch (err) {
      if (!this.storedFailing)
        this.logger.warn({ msg: 'usage counts cannot be written to the database; kept and retried', error: (err as Error).message });
      this.storedFailing = true;
    } finally {
      this.stored.settle(batch, ok);
    }
  }

  private sharedKey(accountId: string, month: string): string {
    return `${this.config.redisPrefix}usage:${accountId}:${month}`;
  }

  /** An account's requests today, this week and this month. */
  async counts(accountId: string): Promise<UsageCounts> {
    const periods = usagePeriods(this.clock.now());
    const [stored, shared] = await Promise.all([this.repo.since(accountId, periods.from), this.readShared(accountId, periods)]);
    const perDay = new Map<string, number>();
    for (const day of periods.days) {
      const key = `${accountId}${SEP}${day}`;
      const n = shared
        ? mergeDay(shared.get(day) ?? 0, this.shared.get(key), stored.get(day) ?? 0, this.stored.get(key))
        : (stored.get(day) ?? 0) + this.stored.get(key);
      if (n) perDay.set(day, n);
    }
    return { ...usageTotals(periods, perDay), periods };
  }

  /** The shared day counters of the months the periods cover (null without Redis, or when it cannot be read). */
  private async readShared(accountId: string, p: UsagePeriods): Promise<Map<string, number> | null> {
    if (!this.redis.enabled) return null;
    try {
      const months = [...new Set(p.days.map(monthOfDay))];
      const out = new Map<string, number>();
      for (const m of months) {
        const h = await this.redis.client.hgetall(this.sharedKey(accountId, m));
        for (const [day, n] of Object.entries(h)) out.set(day, Number(n));
      }
      return out;
    } catch {
      return null;
    }
  }
}

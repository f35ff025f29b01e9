import type { ThrottlerStorage } from '@nestjs/throttler';
import { Logger } from '@nestjs/common';
import type { Clock } from '../time/clock.js';
import type { RedisService } from '../redis/redis.service.js';

export interface WindowRecord {
  totalHits: number;
  timeToExpire: number;
  isBlocked: boolean;
  timeToBlockExpire: number;
}

/** A window's count without counting a hit (null: no open window). */
export interface WindowPeek {
  totalHits: number;
  timeToExpire: number;
}

/** The shared counters every limit uses (per-key budgets, failed logins): memory or Redis. */
export interface WindowStore extends ThrottlerStorage {
  increment(key: string, ttl: number, limit: number): Promise<WindowRecord>;
  peek(key: string): Promise<WindowPeek | null>;
}

/**
 * Fixed-window counters: the first request of a key opens a window of `ttl` ms; every request in it
 * counts; the request that takes the count past `limit` and all later ones in the window are refused.
 * Times are returned in seconds, as @nestjs/throttler expects.
 */
export class MemoryWindowStore implements WindowStore {
  private readonly windows = new Map<string, { hits: number; expiresAt: number }>();
  private lastSweep = 0;

  constructor(private readonly clock: Clock) {}

  async increment(key: string, ttl: number, limit: number): Promise<WindowRecord> {
    return this.incrementSync(key, ttl, limit);
  }

  incrementSync(key: string, ttl: number, limit: number): WindowRecord {
    const now = this.clock.now();
    if (now - this.lastSweep > 60_000) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.expiresAt <= now) {
      w = { hits: 0, expiresAt: now + ttl };
      this.windows.set(key, w);
    }
    w.hits++;
    const timeToExpire = Math.max(1, Math.ceil((w.expiresAt - now) / 1000));
    const isBlocked = w.hits > limit;
    return { totalHits: w.hits, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToExpire : 0 };
  }

  async peek(key: string): Promise<WindowPeek | null> {
    return this.peekSync(key);
  }

  peekSync(key: string): WindowPeek | null {
    const now = this.clock.now();
    const w = this.windows.get(key);
    if (!w || w.expiresAt <= now) return null;
    return { totalHits: w.hits, timeToExpire: Math.max(1, Math.ceil((w.expiresAt - now) / 1000)) };
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [k, w] of this.windows) if (w.expiresAt <= now) this.windows.delete(k);
  }
}

const INCR_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local t = redis.call('PTTL', KEYS[1])
if t < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); t = tonumber(ARGV[1]) end
return {n, t}`;

const PEEK_SCRIPT = `
local n = redis.call('GET', KEYS[1])
if not n then return {0, 0} end
return {tonumber(n), redis.call('PTTL', KEYS[1])}`;

/**
 * Counters in Redis, so every instance spends one budget; the INCR and the expiry are one atomic script.
 * When Redis cannot be reached the per-instance memory counters take over until it is back.
 */
export class RedisWindowStore implements WindowStore {
  private readonly logger = new Logger('rate-limit');
  private degraded = false;

  constructor(
    private readonly redis: RedisService,
    private readonly fallback: MemoryWindowStore,
    private readonly keyPrefix: string,
  ) {}

  get usingFallback(): boolean {
    return this.degraded;
  }

  async increment(key: string, ttl: number, limit: number): Promise<WindowRecord> {
    try {
      const [hits, pttl] = (await this.redis.client.eval(INCR_SCRIPT, 1, `${this.keyPrefix}rl:${key}`, String(ttl))) as [number, number];
      if (this.degraded) this.logger.log({ msg: 'rate limits back on shared Redis counters' });
      this.degraded = false;
      const timeToExpire = Math.max(1, Math.ceil(pttl / 1000));
      const isBlocked = hits > limit;
      return { totalHits: hits, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToExpire : 0 };
    } catch (err) {
      if (!this.degraded) {
        this.logger.warn({ msg: 'Redis unavailable; rate limits fall back to per-instance counters', error: (err as Error).message });
      }
      this.degraded = true;
      return this.fallback.incrementSync(key, ttl, limit);
    }
  }

  async peek(key: string): Promise<WindowPeek | null> {
    if (this.degraded) return this.fallback.peekSync(key);
    try {
      const [hits, pttl] = (await this.redis.client.eval(PEEK_SCRIPT, 1, `${this.keyPrefix}rl:${key}`)) as [number, number];
      return hits > 0 && pttl > 0 ? { totalHits: hits, timeToExpire: Math.max(1, Math.ceil(pttl / 1000)) } : null;
    } catch {
      return this.fallback.peekSync(key);
    }
  }
}

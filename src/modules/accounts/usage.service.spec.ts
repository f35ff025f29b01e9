import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../common/time/clock.js';
import type { RedisService } from '../../common/redis/redis.service.js';
import type { AppConfig } from '../../config/env.js';
import type { UsageRepository } from './usage.repository.js';
import { UsageService } from './usage.service.js';

/** A database of day counts in memory that can be told to fail. */
class FakeRepo {
  readonly rows = new Map<string, number>();
  failing = false;
  writes = 0;
  async add(entries: Array<{ accountId: string; day: string; requests: number }>): Promise<void> {
    if (this.failing) throw new Error('database down');
    this.writes++;
    for (const e of entries) this.rows.set(`${e.accountId}|${e.day}`, (this.rows.get(`${e.accountId}|${e.day}`) ?? 0) + e.requests);
  }
  async since(accountId: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const [k, n] of this.rows) if (k.startsWith(`${accountId}|`)) out.set(k.split('|')[1]!, n);
    return out;
  }
}

const noRedis = { enabled: false } as RedisService;
const config = { usageFlushMs: 1000, redisPrefix: 't:' } as AppConfig;

describe('usage counting (embedded: in process, written to the database in batches)', () => {
  it('counts in memory, writes one batch, and reads the same before and after the write', async () => {
    const repo = new FakeRepo();
    const clock = new ManualClock(Date.UTC(2026, 10, 18, 12));
    const u = new UsageService(repo as unknown as UsageRepository, noRedis, clock, config);
    for (let i = 0; i < 7; i++) u.record('acct_a');
    u.record('acct_b');
    expect((await u.counts('acct_a')).today).toBe(7);
    expect(repo.writes).toBe(0);
    await u.flush();
    expect(repo.writes).toBe(1);
    expect(repo.rows.get('acct_a|2026-11-18')).toBe(7);
    expect(repo.rows.get('acct_b|2026-11-18')).toBe(1);
    expect((await u.counts('acct_a')).today).toBe(7);
    await u.flush(); // nothing pending: no write
    expect(repo.writes).toBe(1);
  });

  it('a failed write loses nothing: the counts stay readable and are written by the next flush', async () => {
    const repo = new FakeRepo();
    const clock = new ManualClock(Date.UTC(2026, 10, 18, 12));
    const u = new UsageService(repo as unknown as UsageRepository, noRedis, clock, config);
    for (let i = 0; i < 3; i++) u.record('acct_a');
    repo.failing = true;
    await u.flush();
    expect(repo.rows.size).toBe(0);
    u.record('acct_a');
    expect((await u.counts('acct_a')).today).toBe(4);
    repo.failing = false;
    await u.flush();
    expect(repo.rows.get('acct_a|2026-11-18')).toBe(4);
    expect((await u.counts('acct_a')).today).toBe(4);
  });

  it('requests are counted on the UTC day they are made', async () => {
    const repo = new FakeRepo();
    const clock = new ManualClock(Date.UTC(2026, 10, 18, 23, 59, 59));
    const u = new UsageService(repo as unknown as UsageRepository, noRedis, clock, config);
    u.record('acct_a');
    clock.advance(2000);
    u.record('acct_a');
    u.record('acct_a');
    await u.flush({ all: true });
    expect([...repo.rows]).toEqual([
      ['acct_a|2026-11-18', 1],
      ['acct_a|2026-11-19', 2],
    ]);
    expect(await u.counts('acct_a')).toMatchObject({ today: 2, this_week: 3, this_month: 3 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { UsageRepository } from '../../src/modules/accounts/usage.repository.js';
import { UsageService } from '../../src/modules/accounts/usage.service.js';
import { RedisService } from '../../src/common/redis/redis.service.js';
import { isolationEnv, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

/**
 * Two instances on one PostgreSQL schema and one Redis (services mode): usage counted exactly across both
 * under concurrent requests, and a key deleted or rotated out through one refused by the other within 5 s.
 */
describe('accounts on two instances', () => {
  const NOW = Date.UTC(2026, 10, 18, 12, 0, 0);
  let a: TestApp;
  let b: TestApp;
  let shared: Record<string, string>;

  beforeAll(async () => {
    shared = isolationEnv();
    a = await startTestApp({ clock: new ManualClock(NOW), config: testConfig(shared) });
    b = await startTestApp({ clock: new ManualClock(NOW), config: testConfig(shared) });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  async function account(tier: string): Promise<{ key: string; id: string; account_id: string }> {
    const r = await a.call('/admin/keys', { method: 'POST', body: { tier }, headers: { 'X-Admin-Token': a.adminToken } });
    return r.json.data;
  }

  async function until(fn: () => Promise<boolean>, ms: number): Promise<number> {
    const start = Date.now();
    while (Date.now() - start < ms) {
      if (await fn()) return Date.now() - start;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`not within ${ms} ms`);
  }

  it('usage is exact under concurrent requests to both instances, and survives in the database', async () => {
    const acct = await account('sharp');
    const second = (await a.call('/account/keys', { key: acct.key, method: 'POST', body: { name: 'b' } })).json.data.key; // 1 on A
    const N = 120;
    const calls: Array<Promise<{ status: number }>> = [];
    for (let i = 0; i < N; i++) {
      const app = i % 2 ? b : a;
      calls.push(app.call('/sports', { key: i % 3 ? acct.key : second }));
    }
    const statuses = (await Promise.all(calls)).map((r) => r.status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    // Each instance writes its batch (as its timer does every USAGE_FLUSH_MS).
    await Promise.all([a.app.get(UsageService).flush(), b.app.get(UsageService).flush()]);
    const fromA = await a.call('/account/usage', { key: acct.key }); // N + 2 on A's count
    await a.app.get(UsageService).flush();
    const fromB = await b.call('/account/usage', { key: second }); // N + 3
    expect(fromA.json.data.requests).toMatchObject({ today: N + 2, this_week: N + 2, this_month: N + 2 });
    expect(fromB.json.data.requests).toMatchObject({ today: N + 3, this_week: N + 3, this_month: N + 3 });
    // The database has every request once both have written (a restart, or a Redis flush, loses nothing).
    await Promise.all([a.app.get(UsageService).flush({ all: true }), b.app.get(UsageService).flush({ all: true })]);
    const stored = await a.app.get(UsageRepository).since(acct.account_id, '2026-11-01');
    expect(stored.get('2026-11-18')).toBe(N + 3);
    // With Redis emptied, the database still answers the same.
    const redis = a.app.get(RedisService);
    const keys = await redis.client.keys(`${shared.REDIS_PREFIX}usage:*`);
    if (keys.length) await redis.client.del(...keys);
    const after = await b.call('/account/usage', { key: second }); // N + 4
    expect(after.json.data.requests.today).toBe(N + 4);
  });

  it('a key deleted through A is refused by B within 5 s', async () => {
    const acct = await account('sharp');
    const second = (await a.call('/account/keys', { key: acct.key, method: 'POST', body: {} })).json.data;
    expect((await b.call('/account', { key: second.key })).status).toBe(200); // cached on B now
    expect((await a.call(`/account/keys/${second.id}`, { key: acct.key, method: 'DELETE' })).status).toBe(200);
    const took = await until(async () => (await b.call('/account', { key: second.key })).status === 401, 5000);
    expect(took).toBeLessThan(5000);
    expect((await b.call('/account', { key: acct.key })).status).toBe(200);
  });

  it('a key rotated out through B (no grace) is refused by A within 5 s; the new key works on both', async () => {
    const acct = await account('pro');
    expect((await a.call('/account', { key: acct.key })).status).toBe(200); // cached on A now
    const r = await b.call(`/account/keys/${acct.id}/rotate`, { key: acct.key, method: 'POST' });
    expect(r.status).toBe(200);
    const took = await until(async () => (await a.call('/account', { key: acct.key })).status === 401, 5000);
    expect(took).toBeLessThan(5000);
    for (const app of [a, b]) expect((await app.call('/account', { key: r.json.data.new_key.key })).status).toBe(200);
  });
});

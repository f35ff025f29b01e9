import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { loadTiers, TIERS } from '../../src/config/tiers.js';
import { ApiKeysService } from '../../src/modules/accounts/api-keys.service.js';
import { UsageRepository } from '../../src/modules/accounts/usage.repository.js';
import { UsageService } from '../../src/modules/accounts/usage.service.js';
import { KEYS, SERVICES, startTestApp, type TestApp } from '../support/test-app.js';

function expectError(r: { status: number; json: any }, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.json).toMatchObject({ error: { code, message: expect.any(String) } });
}

/** The tier table as the repository's config file states it (the expectation, read independently of the app). */
const TABLE = loadTiers();

describe('accounts: the account, its keys and its usage (end to end over HTTP)', () => {
  let t: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 18, 12, 0, 0)); // Wednesday 18 Nov 2026

  beforeAll(async () => {
    t = await startTestApp({ clock });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A new account of a tier with its first key (operator route). */
  async function account(tier: string): Promise<{ key: string; id: string; account_id: string }> {
    const r = await t.call('/admin/keys', { method: 'POST', body: { tier }, headers: { 'X-Admin-Token': t.adminToken } });
    expect(r.status).toBe(201);
    return r.json.data;
  }

  describe('GET /account serves the flat shape and the nested one together', () => {
    it.each(TIERS)('%s', async (tier) => {
      const def = TABLE.byName[tier];
      const r = await t.call('/account', { key: KEYS[tier] });
      expect(r.status).toBe(200);
      const d = r.json.data;
      const listed = (await t.call('/account/keys', { key: KEYS[tier] })).json.data;
      expect(listed).toHaveLength(1);
      // Flat (the current public document).
      expect(d.key_id).toBe(listed[0].id);
      expect(d.tier).toBe(tier);
      expect(d.rate_limit).toEqual({ requests_per_minute: def.requestsPerMinute, max_books: def.maxBooks ?? 999 });
      expect(d.streaming).toEqual({ enabled: def.features.streaming, max_connections: def.features.streaming ? def.maxStreams : 0 });
      expect(d.feature_list).toEqual(
        expect.arrayContaining(
          Object.entries(def.features)
            .filter(([f, on]) => on && f !== 'middles_summary')
            .map(([f]) => f),
        ),
      );
      expect(d.feature_list).toContain('schedule');
      for (const [f, on] of Object.entries(def.features)) if (!on) expect(d.feature_list).not.toContain(f);
      // Nested (what the Python SDK validates): features as booleans, key, limits, add_ons.
      for (const f of ['ev', 'arbitrage', 'middles', 'streaming', 'odds', 'low_hold', 'game_state'])
        expect(d.features[f]).toBe(def.features[f]);
      expect(d.key).toEqual({
        id: d.key_id,
        id_masked: `${d.key_id.slice(0, 8)}…${d.key_id.slice(-4)}`,
        name: `env:${tier}`,
        tier,
        user_id: d.account_id,
      });
      expect(d.limits).toMatchObject({
        requests_per_minute: def.requestsPerMinute,
        max_streams: def.maxStreams,
        odds_delay_seconds: def.dataDelaySeconds,
        max_books: def.maxBooks ?? 999,
        max_keys: def.maxKeys,
      });
      expect(d.add_ons).toEqual([]);
      expect(d.addons).toEqual([]);
      expect(typeof r.json.updated_at).toBe('string');
    });
  });

  describe('keys of an account', () => {
    it('sharp: two keys at most; a new key works for the same account; the key in use cannot be deleted', async () => {
      const a = await account('sharp');
      const list = await t.call('/account/keys', { key: a.key });
      expect(list.json.data.map((k: any) => k.id)).toEqual([a.id]);
      expect(list.json.meta).toMatchObject({ count: 1, max_keys: 2 });
      expect(list.json.data[0]).toEqual({
        id: a.id,
        id_masked: expect.stringMatching(/^key_[0-9a-f]{4}…[0-9a-f]{4}$/),
        name: null,
        tier: 'sharp',
        is_active: true,
        created_at: new Date(clock.now()).toISOString(),
        updated_at: new Date(clock.now()).toISOString(),
        last_used_at: null,
        expires_at: null,
      });
      const created = await t.call('/account/keys', { key: a.key, method: 'POST', body: { name: 'Mobile App' } });
      expect(created.status).toBe(201);
      expect(created.json.data).toMatchObject({
        name: 'Mobile App',
        tier: 'sharp',
        is_active: true,
        key: expect.stringMatching(/^sk_live_[0-9A-Za-z]{32}$/),
      });
      const second = created.json.data;
      const me = await t.call('/account', { key: second.key });
      expect(me.json.data).toMatchObject({ key_id: second.id, account_id: a.account_id, tier: 'sharp' });
      // The key value is never shown again.
      const listed = await t.call('/account/keys', { key: a.key });
      expect(listed.json.data.map((k: any) => k.id).sort()).toEqual([a.id, second.id].sort());
      expect(listed.text).not.toContain(second.key);
      // A third key is over the sharp limit.
      const third = await t.call('/account/keys', { key: a.key, method: 'POST', body: { name: 'third' } });
      expectError(third, 403, 'tier_restricted');
      expect(third.json.error.max_keys).toBe(2);
      expect(third.json.required_tier).toBe('enterprise');
      // Deleting the key making the request: 400; the other key: 200, and it stops working at once.
      expectError(await t.call(`/account/keys/${a.id}`, { key: a.key, method: 'DELETE' }), 400, 'invalid_request');
      const del = await t.call(`/account/keys/${second.id}`, { key: a.key, method: 'DELETE' });
      expect(del.status).toBe(200);
      expect(del.json).toMatchObject({
        deleted: true,
        key_id: second.id,
        message: expect.any(String),
        data: { id: second.id, key_id: second.id, revoked: true, deleted: true },
      });
      expectError(await t.call('/account', { key: second.key }), 401, 'unauthorized');
      expect((await t.call('/account/keys', { key: a.key })).json.data.map((k: any) => k.id)).toEqual([a.id]);
      // Deleted already, unknown, and another account's key: all 404 (another account's key is never revealed).
      expectError(await t.call(`/account/keys/${second.id}`, { key: a.key, method: 'DELETE' }), 404, 'not_found');
      expectError(await t.call('/account/keys/key_0000000000000000', { key: a.key, method: 'DELETE' }), 404, 'not_found');
      const other = await account('pro');
      const foreign = await t.call(`/account/keys/${other.id}`, { key: a.key, method: 'DELETE' });
      expectError(foreign, 404, 'not_found');
      expect(foreign.json.error.message).toBe(`No API key with id ${other.id} on this account`);
      expectError(await t.call(`/account/keys/${other.id}/rotate`, { key: a.key, method: 'POST' }), 404, 'not_found');
      expect((await t.call('/account', { key: other.key })).status).toBe(200);
    });

    it('free, hobby and pro accounts hold one key', async () => {
      for (const tier of ['free', 'hobby', 'pro']) {
        const a = await account(tier);
        const r = await t.call('/account/keys', { key: a.key, method: 'POST', body: { name: 'x' } });
        expectError(r, 403, 'tier_restricted');
        expect(r.json.error.max_keys).toBe(1);
        clock.advance(61_000); // the free key's minute budget
      }
    });

    it('enterprise: the number is configurable per account (operator route)', async () => {
      const a = await account('enterprise');
      expect((await t.call('/account/keys', { key: a.key })).json.meta.max_keys).toBe(TABLE.byName.enterprise.maxKeys);
      const set = await t.call(`/admin/accounts/${a.account_id}/max-keys`, {
        method: 'POST',
        body: { max_keys: 2 },
        headers: { 'X-Admin-Token': t.adminToken },
      });
      expect(set.json.data).toEqual({ account_id: a.account_id, tier: 'enterprise', max_keys: 2 });
      expect((await t.call('/account/keys', { key: a.key, method: 'POST', body: {} })).status).toBe(201);
      expectError(await t.call('/account/keys', { key: a.key, method: 'POST', body: {} }), 403, 'tier_restricted');
      // The operator can add a key to an existing account (within its limit too).
      const admin = await t.call('/admin/keys', {
        method: 'POST',
        body: { account_id: a.account_id },
        headers: { 'X-Admin-Token': t.adminToken },
      });
      expectError(admin, 403, 'tier_restricted');
    });

    it('names: at most 100 characters, validated; no body is a key without a name', async () => {
      const a = await account('sharp');
      expectError(await t.call('/account/keys', { key: a.key, method: 'POST', body: { name: 'x'.repeat(101) } }), 400, 'invalid_request');
      expectError(await t.call('/account/keys', { key: a.key, method: 'POST', body: { name: 7 } }), 400, 'invalid_request');
      expectError(
        await t.call('/account/keys', { key: a.key, method: 'POST', body: { name: 'a', tier: 'enterprise' } }),
        400,
        'invalid_request',
      );
      const r = await t.call('/account/keys', { key: a.key, method: 'POST', headers: { 'Content-Type': 'application/json' } });
      expect(r.status).toBe(201);
      expect(r.json.data.name).toBeNull();
    });

    it('rotate with no grace period: the new key works, the old one is refused at once', async () => {
      const a = await account('pro');
      // The SDKs post with Content-Type: application/json and no body.
      const r = await t.call(`/account/keys/${a.id}/rotate`, {
        key: a.key,
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(r.status).toBe(200);
      const d = r.json.data;
      expect(d.new_key).toMatchObject({
        id: expect.stringMatching(/^key_/),
        key: expect.stringMatching(/^sk_live_/),
        tier: 'pro',
        is_active: true,
      });
      expect(d.old_key).toEqual({ id: a.id, revoked: true, expires_at: new Date(clock.now()).toISOString() });
      expect(d).toMatchObject({ new_key_id: d.new_key.id, key: d.new_key.key, old_key_id: a.id, old_key_expires_at: d.old_key.expires_at });
      expectError(await t.call('/account', { key: a.key }), 401, 'unauthorized');
      const me = await t.call('/account', { key: d.new_key.key });
      expect(me.json.data).toMatchObject({ key_id: d.new_key.id, account_id: a.account_id });
    });

    it('rotate with a grace period: both keys work until it ends, then only the new one', async () => {
      const a = await account('pro');
      const r = await t.call(`/account/keys/${a.id}/rotate`, {
        key: a.key,
        method: 'POST',
        body: { gracePeriodHours: 24, name: 'rotated' },
      });
      expect(r.status).toBe(200);
      const until = clock.now() + 24 * 3_600_000;
      expect(r.json.data.old_key).toEqual({ id: a.id, revoked: false, expires_at: new Date(until).toISOString() });
      expect(r.json.data.new_key.name).toBe('rotated');
      const fresh = r.json.data.new_key.key;
      expect((await t.call('/account', { key: a.key })).status).toBe(200);
      expect((await t.call('/account', { key: fresh })).status).toBe(200);
      // During the grace period the old key is listed with its expiry (it counts toward the limit: key-limits.e2e-spec.ts).
      const listed = (await t.call('/account/keys', { key: fresh })).json.data;
      expect(listed.find((k: any) => k.id === a.id)).toMatchObject({ is_active: true, expires_at: new Date(until).toISOString() });
      clock.set(until - 1);
      expect((await t.call('/account', { key: a.key })).status).toBe(200);
      clock.set(until);
      expectError(await t.call('/account', { key: a.key }), 401, 'unauthorized');
      expect((await t.call('/account', { key: fresh })).status).toBe(200);
      expect((await t.call('/account/keys', { key: fresh })).json.data.map((k: any) => k.id)).toEqual([r.json.data.new_key.id]);
    });

    it('rotate refuses a grace period outside 0-72 h', async () => {
      const a = await account('pro');
      const r = await t.call(`/account/keys/${a.id}/rotate`, { key: a.key, method: 'POST', body: { gracePeriodHours: 73 } });
      expectError(r, 400, 'invalid_request');
      expect(r.json.error.message).toMatch(/0 to 72/);
      expect((await t.call('/account', { key: a.key })).status).toBe(200);
    });

    it("a key's last use is written in batches (kept current within a minute)", async () => {
      const a = await account('pro');
      await t.call('/account', { key: a.key });
      const usedAt = new Date(clock.now()).toISOString();
      await t.app.get(ApiKeysService).flushLastUsed();
      const listed = (await t.call('/account/keys', { key: a.key })).json.data;
      expect(listed[0].last_used_at).toBe(usedAt);
    });
  });

  describe('usage', () => {
    it('counts the requests of the account (all its keys), today, this week and this month, and the current minute', async () => {
      const a = await account('sharp');
      const second = (await t.call('/account/keys', { key: a.key, method: 'POST', body: { name: 'b' } })).json.data.key; // request 1
      for (let i = 0; i < 5; i++) await t.call('/sports', { key: a.key }); // 2-6 (a keyless route called with a key counts)
      for (let i = 0; i < 3; i++) await t.call('/account', { key: second }); // 7-9
      await t.call('/account/keys/key_nope', { key: a.key, method: 'DELETE' }); // 10: a 404 answered past the rate limit counts
      const r = await t.call('/account/usage', { key: a.key }); // 11
      expect(r.status).toBe(200);
      const perMinute = TABLE.byName.sharp.requestsPerMinute;
      expect(r.json.data).toEqual({
        requests: {
          today: 11,
          this_week: 11,
          this_month: 11,
          // The first key made 1 + 5 + 1 + 1 requests this minute.
          limit: { per_minute: perMinute, remaining: perMinute - 8, resets_at: expect.any(String) },
        },
        streams: { active: 0, max: TABLE.byName.sharp.maxStreams },
        period: { start: '2026-11-01T00:00:00.000Z', end: '2026-11-30T23:59:59.000Z' },
      });
      const reset = Date.parse(r.json.data.requests.limit.resets_at);
      if (!SERVICES) expect(reset).toBeGreaterThan(clock.now());
      expect(reset).toBeLessThanOrEqual(clock.now() + 61_000);
      // Written in a batch: the database holds the same count.
      await t.app.get(UsageService).flush({ all: true });
      const stored = await t.app.get(UsageRepository).since(a.account_id, '2026-11-01');
      expect([...stored]).toEqual([[new Date(clock.now()).toISOString().slice(0, 10), 11]]);
    });

    it('a new day starts today at 0; the week and the month go on', async () => {
      clock.set(Date.UTC(2026, 10, 18, 23, 0)); // Wednesday
      const a = await account('pro');
      await t.call('/account', { key: a.key });
      await t.call('/account', { key: a.key });
      clock.set(Date.UTC(2026, 10, 19, 0, 0, 5)); // Thursday: same week, same month
      const r = await t.call('/account/usage', { key: a.key });
      expect(r.json.data.requests).toMatchObject({ today: 1, this_week: 3, this_month: 3 });
      clock.set(Date.UTC(2026, 10, 23, 9)); // next Monday: a new week, same month
      const w = await t.call('/account/usage', { key: a.key });
      expect(w.json.data.requests).toMatchObject({ today: 1, this_week: 1, this_month: 4 });
      clock.set(Date.UTC(2026, 10, 30, 9)); // Monday 30 November: a new week
      const n = await t.call('/account/usage', { key: a.key });
      expect(n.json.data.requests).toMatchObject({ today: 1, this_week: 1, this_month: 5 });
      clock.set(Date.UTC(2026, 11, 1, 9)); // Tuesday 1 December: same week, a new month
      const m = await t.call('/account/usage', { key: a.key });
      expect(m.json.data.requests).toMatchObject({ today: 1, this_week: 2, this_month: 1 });
      expect(m.json.data.period).toEqual({ start: '2026-12-01T00:00:00.000Z', end: '2026-12-31T23:59:59.000Z' });
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { ACCESS_KEY } from '../../src/common/auth/decorators.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { KEYS, SERVICES, startTestApp, type CallResult, type TestApp } from '../support/test-app.js';

function expectError(r: { status: number; json: any }, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.json).toMatchObject({ error: { code, message: expect.any(String), docs: expect.any(String) } });
  expect(JSON.stringify(r.json)).not.toMatch(/\bat .*\.(ts|js):\d+/);
}

describe('service foundation (end to end over HTTP)', () => {
  let t: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 0));

  beforeAll(async () => {
    t = await startTestApp({ clock });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('health', () => {
    it('answers without a key, shaped as the spec says', async () => {
      const r = await t.call('/health');
      expect(r.status).toBe(200);
      expect(r.json.status).toBe('ok');
      expect(r.json.version).toBe('test');
      expect(r.json.timestamp).toBe(new Date(clock.now()).toISOString());
      for (const name of ['redis', 'data', 'schema', 'database']) {
        expect(['ok', 'degraded', 'down']).toContain(r.json.checks[name].status);
      }
      expect(r.json.checks.schema.status).toBe('ok');
      if (!SERVICES) expect(r.json.checks.redis.message).toMatch(/in-process/);
      expect(r.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{12}$/);
      expect(r.headers.get('x-ratelimit-limit')).toBeNull();
    });
  });

  describe('authentication', () => {
    it('refuses a missing key with 401 unauthorized', async () => {
      expectError(await t.call('/account'), 401, 'unauthorized');
    });
    it('refuses an unknown key with 401', async () => {
      expectError(await t.call('/account', { key: 'sk_nope_12345678' }), 401, 'unauthorized');
    });
    it.each(['header', 'bearer', 'query'] as const)('accepts the key via %s', async (via) => {
      const r = await t.call('/account', { key: KEYS.pro, via });
      expect(r.status).toBe(200);
      expect(r.json.data.tier).toBe('pro');
    });
    it('uses X-API-Key before Bearer before the query parameter', async () => {
      const r = await t.call(`/account?api_key=${KEYS.free}`, { key: KEYS.hobby, headers: { Authorization: `Bearer ${KEYS.pro}` } });
      expect(r.json.data.tier).toBe('hobby');
      const r2 = await t.call(`/account?api_key=${KEYS.free}`, { headers: { Authorization: `Bearer ${KEYS.sharp}` } });
      expect(r2.json.data.tier).toBe('sharp');
    });
  });

  describe('account', () => {
    it.each([
      ['free', 12, 60, 2, 5, { ev: false, arbitrage: false, middles: false, game_state: false }],
      ['hobby', 120, 0, 5, 20, { ev: false, arbitrage: true, middles: false, game_state: false }],
      ['pro', 300, 0, 15, 50, { ev: true, arbitrage: true, middles: true, game_state: false }],
      ['sharp', 1000, 0, 999, 100, { ev: true, arbitrage: true, middles: true, game_state: false }],
      ['enterprise', 10000, 0, 999, 100, { ev: true, arbitrage: true, middles: true, game_state: true }],
    ] as const)('%s: limits and features from the tier table', async (tier, rpm, delay, books, batch, features) => {
      const r = await t.call('/account', { key: KEYS[tier] });
      expect(r.status).toBe(200);
      expect(r.json.success).toBe(true);
      expect(r.json.data.tier).toBe(tier);
      expect(r.json.data.key.id).toMatch(/^key_[0-9a-f]{16}$/);
      expect(r.json.data.key.id_masked).toMatch(/^key_[0-9a-f]{4}…[0-9a-f]{4}$/);
      expect(r.json.data.limits).toMatchObject({
        requests_per_minute: rpm,
        odds_delay_seconds: delay,
        max_books: books,
        batch_size: batch,
      });
      expect(r.json.data.features).toMatchObject(features);
    });
  });

  describe('headers', () => {
    it('sets rate-limit, delay and request-id headers on authenticated responses', async () => {
      const a = await t.call('/account', { key: KEYS.sharp });
      const b = await t.call('/account', { key: KEYS.sharp });
      expect(a.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(Number(b.headers.get('x-ratelimit-remaining'))).toBe(Number(a.headers.get('x-ratelimit-remaining')) - 1);
      const reset = Number(a.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(clock.now() / 1000);
      expect(reset).toBeLessThanOrEqual(Math.ceil(clock.now() / 1000) + 60);
      expect(a.headers.get('x-data-delay')).toBe('0');
      const f = await t.call('/account', { key: KEYS.enterprise });
      expect(f.headers.get('x-data-delay')).toBe('0');
    });
    it('sets the headers on errors of authenticated requests too', async () => {
      const r = await t.call('/account/nothing-here', { key: KEYS.pro });
      expect(r.status).toBe(404);
      const bad = await t.call('/admin/keys', {
        key: KEYS.pro,
        method: 'POST',
        rawBody: '{bad json',
        headers: { 'Content-Type': 'application/json', 'X-Admin-Token': t.adminToken },
      });
      expectError(bad, 400, 'invalid_request');
      expect((bad.json as any).error.message).toMatch(/JSON/);
    });
    it('honours a well-formed X-Request-Id and replaces a malformed one', async () => {
      const ok = await t.call('/health', { headers: { 'X-Request-Id': 'client-abc.123' } });
      expect(ok.headers.get('x-request-id')).toBe('client-abc.123');
      const bad = await t.call('/health', { headers: { 'X-Request-Id': 'bad id with spaces' } });
      expect(bad.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{12}$/);
    });
  });

  describe('rate limits', () => {
    it('gives a free key 12 requests a minute, then 429 with Retry-After, then a new window', async () => {
      const created = await t.call('/admin/keys', { method: 'POST', body: { tier: 'free' }, headers: { 'X-Admin-Token': t.adminToken } });
      const key: string = created.json.data.key;
      const statuses: number[] = [];
      let last: CallResult | undefined;
      for (let i = 0; i < 13; i++) {
        last = await t.call('/account', { key });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 12).every((s) => s === 200)).toBe(true);
      expectError(last!, 429, 'rate_limited');
      expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(last!.headers.get('x-ratelimit-limit')).toBe('12');
      expect(last!.headers.get('x-data-delay')).toBe('60');
      const retry = Number(last!.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
      expect(last!.json.retry_after).toBe(retry);
      if (!SERVICES) {
        // Redis windows expire on Redis's own clock; the manual clock moves the in-memory ones.
        clock.advance(61_000);
        const again = await t.call('/account', { key });
        expect(again.status).toBe(200);
        expect(again.headers.get('x-ratelimit-remaining')).toBe('11');
      }
    });
  });

  describe('errors', () => {
    it('answers an unknown path with 404 not_found', async () => {
      expectError(await t.call('/no-such-route', { key: KEYS.pro }), 404, 'not_found');
    });
    it('answers a known path with the wrong method with 405 and Allow', async () => {
      const r = await t.call('/account', { key: KEYS.pro, method: 'DELETE' });
      expectError(r, 405, 'method_not_allowed');
      expect(r.headers.get('allow')).toBe('GET');
    });
    it('refuses an oversized body with 413', async () => {
      const r = await t.call('/admin/keys', {
        method: 'POST',
        rawBody: JSON.stringify({ tier: 'pro', name: 'x'.repeat(2_000_000) }),
        headers: { 'Content-Type': 'application/json', 'X-Admin-Token': t.adminToken },
      });
      expectError(r, 413, 'payload_too_large');
    });
  });

  describe('admin keys (the CLI channel)', () => {
    it('refuses a wrong admin token', async () => {
      expectError(await t.call('/admin/keys', { headers: { 'X-Admin-Token': 'nope' } }), 401, 'unauthorized');
    });
    it('validates the body', async () => {
      const r = await t.call('/admin/keys', { method: 'POST', body: { tier: 'platinum' }, headers: { 'X-Admin-Token': t.adminToken } });
      expectError(r, 400, 'invalid_request');
      expect(r.json.error.message).toMatch(/tier/);
    });
    it('creates a key that works, switches its arbitrage flag, revokes it', async () => {
      const h = { 'X-Admin-Token': t.adminToken };
      const created = await t.call('/admin/keys', { method: 'POST', body: { tier: 'hobby', name: 'e2e' }, headers: h });
      expect(created.status).toBe(201);
      const { key, id } = created.json.data;
      expect(key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
      const listed = await t.call('/admin/keys', { headers: h });
      const row = listed.json.data.find((k: any) => k.id === id);
      expect(row).toMatchObject({ tier: 'hobby', name: 'e2e', is_active: true });
      expect(JSON.stringify(listed.json)).not.toContain(key);
      expect((await t.call('/account', { key })).json.data.features.arbitrage).toBe(true);
      await t.call(`/admin/keys/${id}/arbitrage`, { method: 'POST', body: { enabled: false }, headers: h });
      expect((await t.call('/account', { key })).json.data.features.arbitrage).toBe(false);
      const revoked = await t.call(`/admin/keys/${id}/revoke`, { method: 'POST', headers: h });
      expect(revoked.json.data.is_active).toBe(false);
      expectError(await t.call('/account', { key }), 401, 'unauthorized');
      expectError(await t.call('/admin/keys/key_nope/revoke', { method: 'POST', headers: h }), 404, 'not_found');
    });
  });

  describe('access rules', () => {
    it('every route says who may call it (Public, OptionalKey, AdminOnly, RequiresKey or RequiresFeature)', () => {
      const unguarded: string[] = [];
      let routes = 0;
      for (const mod of t.app.get(ModulesContainer).values()) {
        for (const wrapper of mod.controllers.values()) {
          const cls = wrapper.metatype as { prototype: Record<string, unknown>; name: string } | undefined;
          if (!cls) continue;
          for (const name of Object.getOwnPropertyNames(cls.prototype)) {
            const handler = cls.prototype[name];
            if (typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
            if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
            routes++;
            if (!Reflect.getMetadata(ACCESS_KEY, handler) && !Reflect.getMetadata(ACCESS_KEY, cls)) unguarded.push(`${cls.name}.${name}`);
          }
        }
      }
      expect(routes).toBeGreaterThan(3);
      expect(unguarded).toEqual([]);
    });
  });

  describe('OpenAPI', () => {
    it('serves Swagger UI and a document with the three key schemes and the admin token', async () => {
      const ui = await fetch(`${t.url}/docs`);
      expect(ui.status).toBe(200);
      expect(await ui.text()).toMatch(/swagger/i);
      const doc = (await t.call(`${t.url}/docs-json`)).json;
      expect(doc.openapi).toMatch(/^3\./);
      expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['AdminToken', 'ApiKeyHeader', 'ApiKeyQuery', 'BearerAuth']);
      expect(doc.paths['/api/v1/account'].get.security).toEqual(expect.arrayContaining([{ ApiKeyHeader: [] }]));
      expect(doc.paths['/api/v1/health'].get.security ?? []).toEqual([]);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeServerInfo } from '../../src/common/admin/admin-token.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { runCli } from '../../src/cli/commands.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { KEY_CACHE_MS } from '../../src/modules/accounts/api-keys.service.js';
import { buildMarket, H } from '../factories/market.js';
import { KEYS, SERVICES, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T18:00:00Z');
const BOOKS = ['draftkings', 'fanduel', 'betmgm', 'pinnacle'];
const GAMES = [
  { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 2 * H },
  { league: 'nfl', home: 'Kansas City Chiefs', away: 'Buffalo Bills', start: NOW + 26 * H },
];
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};
/** A strong entity tag: a quoted string, no W/ prefix. */
const STRONG = /^"[0-9a-f]{20}"$/;

/** Runs the CLI as `npm run cli` would, returning what it printed. */
async function cli(argv: string[], config: Parameters<typeof runCli>[1]): Promise<string[]> {
  const lines: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
  try {
    await runCli(argv, config);
  } finally {
    log.mockRestore();
  }
  return lines;
}

describe('HTTP policies (end to end over HTTP)', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  const ingest = (quotes: ReturnType<typeof buildMarket>) =>
    expect(t.app.get(IngestionService).ingest({ source: 'test', quotes }, clock.now(), { backfill: true }).rejected).toEqual({});

  beforeAll(async () => {
    t = await startTestApp({ clock, env: { CORS_ORIGINS: 'https://app.example' } });
    ingest(buildMarket(GAMES, BOOKS, NOW));
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /mcp at the root', () => {
    const post = (path: string, body: unknown, key?: string) =>
      fetch(`${t.url}${path}`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, ...(key ? { 'X-API-Key': key } : {}) },
        body: JSON.stringify(body),
      });

    it('answers initialize as /api/v1/mcp does, on the same key budget', async () => {
      const key = await t.newKey('pro');
      const root = await post('/mcp', INITIALIZE, key);
      const prefixed = await post('/api/v1/mcp', INITIALIZE, key);
      expect(root.status).toBe(200);
      const [a, b] = [(await root.json()) as any, (await prefixed.json()) as any];
      expect(a).toEqual(b);
      expect(a).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'odds-service' }, capabilities: { tools: {} } } });
      // One budget: the second request (at the other path) has one fewer left.
      const limit = Number(root.headers.get('x-ratelimit-limit'));
      expect([root, prefixed].map((r) => Number(r.headers.get('x-ratelimit-remaining')))).toEqual([limit - 1, limit - 2]);
      expect((await post('/mcp?x=1', INITIALIZE, key)).status).toBe(200);
    });

    it('needs a key there too, and answers GET with 405 as the MCP route does', async () => {
      const r = await post('/mcp', INITIALIZE);
      expect(r.status).toBe(401);
      expect(((await r.json()) as any).error.code).toBe('unauthorized');
      const g = await fetch(`${t.url}/mcp`, { headers: { 'X-API-Key': KEYS.pro, Accept: 'text/event-stream' } });
      expect(g.status).toBe(
        (await fetch(`${t.url}/api/v1/mcp`, { headers: { 'X-API-Key': KEYS.pro, Accept: 'text/event-stream' } })).status,
      );
      expect((await fetch(`${t.url}/mcpx`, { method: 'POST' })).status).toBe(404);
    });
  });

  describe('ETag and 304', () => {
    it('GET /odds: a strong ETag, the cache headers, then 304 with no body for its ETag (the fast path too)', async () => {
      const key = await t.newKey('pro');
      const path = '/odds?league=nba&limit=20';
      const first = await t.call(path, { key });
      expect(first.status).toBe(200);
      const tag = first.headers.get('etag')!;
      expect(tag).toMatch(STRONG);
      expect(first.headers.get('cache-control')).toBe('private, max-age=0, must-revalidate');
      expect(first.headers.get('x-cache-status')).toBe('MISS');
      const again = await t.call(path, { key });
      expect(again.text).toBe(first.text);
      expect(again.headers.get('etag')).toBe(tag);
      expect(again.headers.get('x-cache-status')).toBe('HIT');
      const limit = Number(first.headers.get('x-ratelimit-limit'));
      for (const inm of [tag, `"nope", ${tag}`, `W/${tag}`, '*', `"a,b", W/${tag}`]) {
        const r = await t.call(path, { key, headers: { 'If-None-Match': inm } });
        expect([inm, r.status, r.text]).toEqual([inm, 304, '']);
        expect(r.headers.get('etag')).toBe(tag);
        expect(r.headers.get('cache-control')).toBe('private, max-age=0, must-revalidate');
        expect(r.headers.get('content-type')).toBeNull();
        expect(r.headers.get('x-ratelimit-limit')).toBe(String(limit));
        expect(r.headers.get('x-tier')).toBe('pro');
      }
      // Every 304 was a request on the budget and in the usage counts: 2 + 5 so far.
      const last = await t.call(path, { key, headers: { 'If-None-Match': tag } });
      expect(last.headers.get('x-ratelimit-remaining')).toBe(String(limit - 8));
      expect((await t.call('/account/usage', { key })).json.data.requests.today).toBe(9);
      for (const inm of ['"nope"', tag.slice(1, -1), `${tag.slice(0, -2)}0"`, '']) {
        const r = await t.call(path, { key, headers: { 'If-None-Match': inm } });
        expect([inm, r.status, r.text]).toEqual([inm, 200, first.text]);
      }
    });

    it('a change of the data changes the ETag', async () => {
      const path = '/odds?league=nfl&sportsbook=draftkings';
      const before = await t.call(path, { key: KEYS.sharp });
      const tag = before.headers.get('etag')!;
      await clock.set(NOW + 60_000);
      ingest(
        buildMarket([GAMES[1]!], ['draftkings'], clock.now()).map((q) => ({
          ...q,
          price: { american: q.selectionType === 'home' ? -300 : 250 },
        })),
      );
      const after = await t.call(path, { key: KEYS.sharp, headers: { 'If-None-Match': tag } });
      expect(after.status).toBe(200);
      expect(after.text).not.toBe(before.text);
      expect(after.headers.get('etag')).toMatch(STRONG);
      expect(after.headers.get('etag')).not.toBe(tag);
    });

    it('is scoped to the tier: the same bytes seen by two tiers have two ETags, neither validating the other', async () => {
      const path = '/odds?league=nba&sportsbook=pinnacle';
      const sharp = await t.call(path, { key: KEYS.sharp });
      const ent = await t.call(path, { key: KEYS.enterprise });
      expect(ent.text).toBe(sharp.text);
      expect(ent.headers.get('etag')).not.toBe(sharp.headers.get('etag'));
      expect((await t.call(path, { key: KEYS.enterprise, headers: { 'If-None-Match': sharp.headers.get('etag')! } })).status).toBe(200);
      expect((await t.call(path, { key: KEYS.enterprise, headers: { 'If-None-Match': ent.headers.get('etag')! } })).status).toBe(304);
    });

    it('every 200 JSON GET of the API document gets one and answers 304 to it; errors, streams and /health get none', async () => {
      const doc = (await t.call(`${t.url}/docs-json`)).json as { paths: Record<string, Record<string, unknown>> };
      const seen: string[] = [];
      for (const [path, ops] of Object.entries(doc.paths)) {
        if (!ops.get || path.includes('{') || path.includes('/admin/') || path.includes('/stream') || !path.startsWith('/api/v1/'))
          continue;
        const r = await t.call(`${t.url}${path}`, { key: KEYS.enterprise });
        const tag = r.headers.get('etag');
        if (r.status !== 200 || path === '/api/v1/health') {
          expect([path, tag, r.headers.get('x-cache-status')]).toEqual([path, null, null]);
          continue;
        }
        expect([path, tag]).toEqual([path, expect.stringMatching(STRONG)]);
        expect([path, r.headers.get('x-cache-status')]).toEqual([path, expect.stringMatching(/^(HIT|MISS|BYPASS)$/)]);
        // The clock has not moved: the same answer, so its ETag validates it; but the usage answer counts the requests.
        const again = await t.call(`${t.url}${path}`, { key: KEYS.enterprise, headers: { 'If-None-Match': tag! } });
        if (path === '/api/v1/account/usage')
          expect([again.status, again.headers.get('etag')]).toEqual([200, expect.not.stringMatching(tag!)]);
        else expect([path, again.status, again.text]).toEqual([path, 304, '']);
        seen.push(path);
      }
      for (const p of ['/account', '/events', '/sports', '/sportsbooks', '/odds', '/odds/best', '/opportunities/ev', '/splits', '/futures'])
        expect(seen).toContain(`/api/v1${p}`);
      expect((await t.call('/odds')).headers.get('etag')).toBeNull();
      expect((await t.call('/gamestate', { key: KEYS.pro })).headers.get('etag')).toBeNull();
    });

    it('an answer built again at a later time, its data unchanged, keeps its ETag (updated_at is the time it was built)', async () => {
      // Routes that build every answer (the event and reference lists keep theirs: test/e2e/revalidation.e2e-spec.ts).
      for (const path of ['/sportsbooks', '/markets', '/opportunities/arbitrage?min_profit=0']) {
        const first = await t.call(path, { key: KEYS.enterprise });
        await clock.advance(1000);
        const again = await t.call(path, { key: KEYS.enterprise, headers: { 'If-None-Match': first.headers.get('etag')! } });
        expect([path, again.status, again.text]).toEqual([path, 304, '']);
        const plain = await t.call(path, { key: KEYS.enterprise });
        expect([path, plain.json.updated_at === first.json.updated_at]).toEqual([path, false]);
        expect([path, plain.headers.get('etag')]).toEqual([path, first.headers.get('etag')]);
      }
    });

    it('CSV answers get one too', async () => {
      const path = '/opportunities/arbitrage?format=csv&min_profit=0';
      const r = await t.call(path, { key: KEYS.enterprise });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('text/csv');
      expect(r.headers.get('etag')).toMatch(STRONG);
      expect(r.headers.get('x-cache-status')).toBe('BYPASS');
      expect((await t.call(path, { key: KEYS.enterprise, headers: { 'If-None-Match': r.headers.get('etag')! } })).status).toBe(304);
    });
  });

  describe('CORS', () => {
    const preflight = (path: string, method: string, headers: string) =>
      fetch(`${t.url}/api/v1${path}`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers },
      });
    const list = (h: string | null) => (h ?? '').split(',').map((s) => s.trim().toLowerCase());

    it('a browser may DELETE a key: the preflight allows it, and the DELETE itself is answered with CORS headers', async () => {
      const pre = await preflight('/account/keys/key_0123', 'DELETE', 'x-api-key');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(list(pre.headers.get('access-control-allow-methods'))).toContain('delete');
      expect(list(pre.headers.get('access-control-allow-headers'))).toContain('x-api-key');
      const del = await fetch(`${t.url}/api/v1/account/keys/key_0123`, {
        method: 'DELETE',
        headers: { Origin: 'https://app.example', 'X-API-Key': KEYS.sharp },
      });
      expect(del.status).toBe(404);
      expect(del.headers.get('access-control-allow-origin')).toBe('https://app.example');
    });

    it('allows every method the API document has, If-None-Match, and exposes ETag and X-Cache-Status', async () => {
      const doc = (await t.call(`${t.url}/docs-json`)).json as { paths: Record<string, Record<string, unknown>> };
      const methods = new Set(Object.values(doc.paths).flatMap((ops) => Object.keys(ops).filter((m) => m !== 'parameters')));
      expect([...methods].sort()).toEqual(['delete', 'get', 'post']);
      const pre = await preflight('/odds', 'GET', 'if-none-match,x-api-key');
      for (const m of [...methods, 'head']) expect(list(pre.headers.get('access-control-allow-methods'))).toContain(m);
      expect(list(pre.headers.get('access-control-allow-headers'))).toEqual(expect.arrayContaining(['if-none-match', 'x-api-key']));
      const get = await fetch(`${t.url}/api/v1/odds?limit=1`, { headers: { Origin: 'https://app.example', 'X-API-Key': KEYS.pro } });
      expect(list(get.headers.get('access-control-expose-headers'))).toEqual(
        expect.arrayContaining(['etag', 'x-cache-status', 'x-ratelimit-remaining', 'x-request-id']),
      );
      // The operator token stays out of reach of browser pages.
      expect(list(pre.headers.get('access-control-allow-headers'))).not.toContain('x-admin-token');
    });
  });

  describe('add-ons on accounts', () => {
    const admin = (path: string, body: unknown) =>
      t.call(`/admin${path}`, { method: 'POST', body, headers: { 'X-Admin-Token': t.adminToken } });
    const mcpGameState = async (key: string) => {
      const r = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'X-API-Key': key },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_game_state', arguments: {} } }),
      });
      return ((await r.json()) as { result: { isError?: boolean } }).result.isError === true;
    };
    const sseStatus = async (key: string) => {
      const ctl = new AbortController();
      const r = await fetch(`${t.url}/api/v1/stream/gamestate`, { headers: { 'X-API-Key': key }, signal: ctl.signal });
      ctl.abort();
      return r.status;
    };

    it('game_state opens game state below enterprise (REST, SSE, MCP, /account); taking it away closes it again', async () => {
      const key = await t.newKey('pro');
      const account = (await t.call('/account', { key })).json.data;
      expect(account.addons).toEqual([]);
      expect((await t.call('/gamestate', { key })).status).toBe(403);
      expect(await sseStatus(key)).toBe(403);
      expect(await mcpGameState(key)).toBe(true);

      const on = await admin(`/accounts/${account.account_id}/addons`, { addon: 'game_state', enabled: true });
      expect(on.status).toBe(200);
      expect(on.json.data).toEqual({ account_id: account.account_id, tier: 'pro', addons: ['game_state'] });
      // At once: the change drops every instance's cached key lookups.
      expect((await t.call('/gamestate', { key })).status).toBe(200);
      expect((await t.call('/gamestate/basketball', { key })).status).toBe(200);
      expect(await sseStatus(key)).toBe(200);
      expect(await mcpGameState(key)).toBe(false);
      const shown = (await t.call('/account', { key })).json.data;
      expect(shown).toMatchObject({ tier: 'pro', addons: ['game_state'], add_ons: ['game_state'] });
      expect(shown.features.game_state).toBe(true);
      expect(shown.feature_list).toContain('game_state');
      // Set twice, held once.
      expect((await admin(`/accounts/${account.account_id}/addons`, { addon: 'game_state', enabled: true })).json.data.addons).toEqual([
        'game_state',
      ]);
      // Another pro account is not concerned.
      expect((await t.call('/gamestate', { key: KEYS.pro })).status).toBe(403);

      const off = await admin(`/accounts/${account.account_id}/addons`, { addon: 'game_state', enabled: false });
      expect(off.json.data.addons).toEqual([]);
      const refused = await t.call('/gamestate', { key });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ error: { code: 'tier_restricted' }, addon: 'game_state' });
      expect((await t.call('/account', { key })).json.data).toMatchObject({ addons: [], features: { game_state: false } });
    });

    it('an unknown add-on or a bad body is 400, an unknown account 404, and the route is for operators only', async () => {
      const id = (await t.call('/account', { key: KEYS.hobby })).json.data.account_id;
      const unknown = await admin(`/accounts/${id}/addons`, { addon: 'websocket', enabled: true });
      expect(unknown.status).toBe(400);
      expect(unknown.json.error.message).toContain('Unknown add-on "websocket" (known: game_state)');
      expect((await admin(`/accounts/${id}/addons`, { addon: 'game_state' })).status).toBe(400);
      expect((await admin(`/accounts/${id}/addons`, { addon: 'game_state', enabled: 'yes' })).status).toBe(400);
      expect((await admin(`/accounts/${id}/addons`, { addon: 'game_state', enabled: true, extra: 1 })).status).toBe(400);
      expect((await admin('/accounts/acct_nope/addons', { addon: 'game_state', enabled: true })).status).toBe(404);
      const asKey = await t.call(`/admin/accounts/${id}/addons`, {
        method: 'POST',
        body: { addon: 'game_state', enabled: true },
        key: KEYS.enterprise,
      });
      expect(asKey.status).toBe(401);
      expect((await t.call('/account', { key: KEYS.hobby })).json.data.addons).toEqual([]);
    });

    it('the CLI sets and unsets one through the running server (the local admin channel of the embedded store)', async () => {
      if (SERVICES) return; // With DATABASE_URL the CLI writes to the store itself (the next test).
      const dir = mkdtempSync(join(tmpdir(), 'addon-cli-'));
      try {
        const port = Number(new URL(t.url).port);
        writeServerInfo(dir, {
          pid: process.pid,
          port,
          host: '127.0.0.1',
          admin_token: t.adminToken,
          started_at: new Date().toISOString(),
        });
        const config = { ...t.config, dataDir: dir, databaseUrl: undefined };
        const key = await t.newKey('hobby');
        const id = (await t.call('/account', { key })).json.data.account_id as string;
        expect(await cli(['accounts:addon', id, 'game_state', 'on'], config)).toEqual([
          `account ${id} holds game_state; add-ons: game_state`,
        ]);
        expect((await t.call('/gamestate', { key })).status).toBe(200);
        expect(await cli(['accounts:addon', id, 'game_state', 'off'], config)).toEqual([
          `account ${id} no longer holds game_state; add-ons: none`,
        ]);
        expect((await t.call('/gamestate', { key })).status).toBe(403);
        await expect(cli(['accounts:addon', id, 'gamestate', 'on'], config)).rejects.toThrow('Unknown add-on "gamestate"');
        await expect(cli(['accounts:addon', id, 'game_state', 'maybe'], config)).rejects.toThrow('needs an account id, an add-on');
        await expect(cli(['accounts:addon', 'acct_nope', 'game_state', 'on'], config)).rejects.toThrow('No account with id acct_nope');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

describe('add-ons: the CLI writes to the store itself when no server holds it', () => {
  it('keys:create, accounts:addon, then a server on that store serves game state to the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'addon-store-'));
    const config = testConfig({ DATA_DIR: dir, API_KEYS: '', ...(SERVICES ? {} : { EMBEDDED_IN_MEMORY: 'false' }) });
    let app: TestApp | undefined;
    try {
      const created = await cli(['keys:create', '--tier', 'sharp'], config);
      const key = created.at(-1)!;
      const id = /of account (acct_[0-9a-f]+)/.exec(created[0]!)![1]!;
      expect(await cli(['accounts:addon', id, 'game_state', 'on'], config)).toEqual([
        `account ${id} holds game_state; add-ons: game_state`,
      ]);
      app = await startTestApp({ config });
      expect((await app.call('/account', { key })).json.data).toMatchObject({ account_id: id, tier: 'sharp', addons: ['game_state'] });
      expect((await app.call('/gamestate', { key })).status).toBe(200);
      if (SERVICES) {
        // Taken away by a CLI with no bus to the server: in force once the server reads the key again.
        expect(await cli(['accounts:addon', id, 'game_state', 'off'], config)).toHaveLength(1);
        await (app.clock as ManualClock).advance(KEY_CACHE_MS);
        expect((await app.call('/gamestate', { key })).status).toBe(403);
      }
    } finally {
      await app?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv, type ValidateFunction } from 'ajv';
import { ManualClock } from '../../src/common/time/clock.js';
import { ERROR_DOCS } from '../../src/common/http/error-docs.js';
import type { Quote, SplitsInput } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { SplitsStoreService } from '../../src/modules/stores/splits/splits-store.service.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';
import { jsonSchema } from '../support/json-schema.js';
import { CHIEFS_BILLS, everyOpportunityType, gameQuote, KICK, nflMoneyline, NOW } from '../factories/quotes.js';

/**
 * The API document as a contract: every operation in /docs-json declares a 2xx schema, and a real answer of
 * every JSON operation (found by walking the document, so an endpoint added later is covered without touching
 * this file) validates against it with ajv. The schemas are closed and list their required fields, so an
 * answer with a field renamed, missing or undeclared fails.
 */

/** One opportunity of every type (everyOpportunityType) and a futures market (an outright): Pinnacle devigged, a +EV price at DraftKings (Team C), a low hold across books. */
const market = [
  ...everyOpportunityType(),
  ...(
    [
      ['pinnacle', 'Team A', 2.2],
      ['pinnacle', 'Team B', 3],
      ['pinnacle', 'Team C', 4],
      ['draftkings', 'Team A', 2.1],
      ['draftkings', 'Team B', 2.8],
      ['draftkings', 'Team C', 4.5],
    ] as const
  ).map(([book, selection, decimal]): Quote => ({
    book,
    league: 'nba',
    homeTeam: '',
    awayTeam: '',
    startTime: Date.parse('2027-06-20T00:00:00Z'),
    marketType: 'championship_winner',
    selection,
    selectionType: 'other',
    line: null,
    price: { decimal },
    future: { market: 'championship_winner_2027', name: 'NBA Championship winner 2027', type: 'TEAM', kind: 'championship_winner' },
  })),
  // A Kalshi game contract with its order book (/prediction-markets) and a player prop naming the team (/players).
  ...nflMoneyline('kalshi', CHIEFS_BILLS, -122, 110).map((q, i): Quote => ({
    ...q,
    bid: i ? 0.46 : 0.54,
    ask: i ? 0.48 : 0.56,
    last: i ? null : 0.55,
  })),
  gameQuote('draftkings', 'nfl', ...CHIEFS_BILLS, KICK, {
    marketType: 'player_passing_yards',
    selection: 'Over',
    selectionType: 'over',
    line: 250.5,
    playerName: 'Patrick Mahomes',
    playerTeam: 'Kansas City Chiefs',
    statCategory: 'passing_yards',
  }),
];
const splits = (book: string): SplitsInput => ({
  book,
  league: 'nfl',
  homeTeam: CHIEFS_BILLS[0],
  awayTeam: CHIEFS_BILLS[1],
  startTime: KICK,
  fetchedAt: NOW,
  spread: { away_line: 2.5, home_line: -2.5, handle_pct: { away: 0.4, home: 0.6 }, bets_pct: { away: 0.45, home: 0.55 } },
  total: { line: 47.5, handle_pct: { over: 0.52, under: 0.48 }, bets_pct: { over: 0.6, under: 0.4 } },
  moneyline: { away_odds: 105, home_odds: -125, handle_pct: { away: 0.3, home: 0.7 }, bets_pct: { away: 0.35, home: 0.65 } },
});

type Schema = Record<string, any>;
interface Operation {
  security?: Array<Record<string, string[]>>;
  parameters?: Schema[];
  requestBody?: Schema;
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Schema; securitySchemes: Schema };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The first item of a list, of the first list of a map of lists (comparison, batch), or the object itself. */
function firstObject(data: unknown): Schema | undefined {
  if (Array.isArray(data)) return firstObject(data[0]);
  if (!data || typeof data !== 'object') return undefined;
  const values = Object.values(data);
  if (values.length && values.every(Array.isArray)) return firstObject(values.find((v) => v.length));
  return data as Schema;
}
const twoXX = (op: Operation) => Object.entries(op.responses).filter(([s]) => s.startsWith('2'));
/** A redirect (GET /deeplink/{id}): its answer is a 302 with a Location, no body to describe. */
const isRedirect = (op: Operation) => twoXX(op).length === 0 && Object.keys(op.responses).some((s) => s.startsWith('3'));

describe('the API document', () => {
  let t: TestApp;
  let doc: Doc;
  let raw: string;
  let ajv: Ajv;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
    t.app.get(IngestionService).ingest({ source: 'test', quotes: market, splits: [splits('draftkings'), splits('circa')] }, NOW);
    await t.app.get(SplitsStoreService).captureSnapshot(NOW);
    const res = await fetch(`${t.url}/docs-json`);
    raw = await res.text();
    doc = JSON.parse(raw) as Doc;
    ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: { schemas: jsonSchema(doc.components.schemas) } });
    const events = (await t.call('/events', { key: KEYS.enterprise })).json.data as Array<{ id: string; home_team: string }>;
    ids.eventId = events.find((e) => e.home_team === CHIEFS_BILLS[0])!.id;
    ids.middleId = (await t.call('/opportunities/middles', { key: KEYS.enterprise })).json.data[0].id;
    ids.backtestId = (
      await t.call(`${t.url}/api/v1/historical/backtest`, {
        method: 'POST',
        body: { days: 0.05 },
        headers: { 'X-API-Key': KEYS.enterprise },
      })
    ).json.data.id;
    // The admin key routes revoke this key: the free tier's, never the enterprise key making the calls (keys made at
    // the same instant are listed in id order, so the first one listed could be any of them).
    const adminKeys = (await t.call(`${t.url}/api/v1/admin/keys`, { headers: { 'X-Admin-Token': t.adminToken } })).json.data as Array<{
      id: string;
      tier: string;
    }>;
    ids.keyId = adminKeys.find((k) => k.tier === 'free')!.id;
    ids.futureId = (await t.call('/futures', { key: KEYS.enterprise })).json.data[0].market_id;
    ids.accountId = (await t.call('/account', { key: KEYS.enterprise })).json.data.account_id;
    ids.oddsId = (await t.call('/odds?limit=1', { key: KEYS.enterprise })).json.data[0].id;
    // Two more keys of the enterprise account: one to delete, one to rotate (never the key making the calls).
    const own = async () =>
      (await t.call('/account/keys', { method: 'POST', body: { name: 'openapi' }, key: KEYS.enterprise })).json.data.id as string;
    ids.deleteKeyId = await own();
    ids.rotateKeyId = await own();
  });
  afterAll(async () => {
    await t.close();
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m]! })));

  /** A validator of an operation's 2xx JSON schema (references resolve into the document's components). */
  const validatorOf = (op: Operation, status: string): ValidateFunction => {
    const schema = op.responses[status]!.content!['application/json']!.schema!;
    const rewrite = (n: unknown): unknown =>
      Array.isArray(n)
        ? n.map(rewrite)
        : n && typeof n === 'object'
          ? Object.fromEntries(Object.entries(n).map(([k, v]) => [k, k === '$ref' ? `doc${v as string}` : rewrite(v)]))
          : n;
    return ajv.compile(rewrite(jsonSchema(schema)) as Schema);
  };

  it('every operation declares a 2xx answer with a schema', () => {
    const missing = operations()
      .filter(({ op }) => !isRedirect(op) && !twoXX(op).some(([, r]) => Object.values(r.content ?? {}).some((c) => c.schema)))
      .map(({ method, path }) => `${method} ${path}`);
    expect(operations().length).toBeGreaterThanOrEqual(40);
    expect(missing).toEqual([]);
  });

  it('lists each security requirement once per operation, with an Authorize entry for the admin token', () => {
    for (const { method, path, op } of operations()) {
      const entries = (op.security ?? []).map((s) => JSON.stringify(s));
      expect({ op: `${method} ${path}`, entries: new Set(entries).size }).toEqual({ op: `${method} ${path}`, entries: entries.length });
      expect(entries.length).toBeLessThanOrEqual(4);
      if (path.includes('/admin/')) expect(entries).toEqual([JSON.stringify({ AdminToken: [] })]);
    }
    expect(doc.components.securitySchemes.AdminToken).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Admin-Token' }),
    );
    expect(raw.length).toBeLessThan(400_000);
  });

  it('pre-fills no parameter in "Try it out": examples are in the descriptions, the key is an Authorize scheme', () => {
    for (const { method, path, op } of operations()) {
      for (const p of op.parameters ?? []) {
        expect({ at: `${method} ${path} ${p.name}`, example: p.example ?? p.schema?.example, examples: p.examples }).toEqual({
          at: `${method} ${path} ${p.name}`,
          example: undefined,
          examples: undefined,
        });
        expect(p.name).not.toBe('api_key');
      }
    }
    // The example is in the words: written there, or moved there from an `example` of the DTO.
    const param = (name: string) => doc.paths['/api/v1/opportunities/arbitrage']!.get!.parameters!.find((p) => p.name === name)!;
    expect(param('team').description).toContain('`celtics`');
    expect(param('min_profit').description).toContain('Example: `1`');
  });

  it('links every error to an anchor that exists on a page the service serves', async () => {
    const bad = await t.call('/odds?limit=abc', { key: KEYS.sharp });
    expect(bad.status).toBe(400);
    const link = new URL(bad.json.error.docs as string, t.url);
    expect(link.hash).toBe('#error-invalid_request');
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    for (const code of Object.keys(ERROR_DOCS)) expect(html).toContain(`id="error-${code}"`);
  });

  /** A sample request for an operation: path parameters and required query parameters filled with real ids. */
  function sample(path: string, method: string, op: Operation): { url: string; body?: unknown; admin: boolean } {
    const values: Record<string, string> = {
      eventId: ids.eventId!,
      sportId: 'football',
      leagueId: 'nfl',
      bookId: 'draftkings',
      keyId: ids.keyId!,
      event: ids.eventId!,
      event_id: ids.eventId!,
      since: new Date(NOW - 60_000).toISOString(),
      sport: 'basketball',
      future_id: ids.futureId!,
    };
    const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      if (name === 'id') {
        if (path.includes('/admin/keys/')) return ids.keyId!;
        if (path.includes('/admin/accounts/')) return ids.accountId!;
        if (path.endsWith('/rotate')) return ids.rotateKeyId!;
        if (path.includes('/account/keys/')) return ids.deleteKeyId!;
        if (path.includes('/historical/backtest/')) return ids.backtestId!;
        return ids.middleId!;
      }
      if (!(name in values)) throw new Error(`${method} ${path}: no sample value for path parameter ${name}; add one to this test`);
      return values[name]!;
    });
    const query = (op.parameters ?? []).filter(
      (p) => p.in === 'query' && p.name in values && (p.required || ['event', 'since', 'event_id', 'future_id'].includes(p.name)),
    );
    // One of event / event_id (aliases) is enough.
    const names = [...new Set(query.map((p) => (p.name === 'event_id' && query.some((x) => x.name === 'event') ? 'event' : p.name)))];
    const qs = names.map((n) => `${n}=${encodeURIComponent(values[n]!)}`).join('&');
    const bodies: Record<string, unknown> = {
      'post /api/v1/odds/batch': { event_ids: [ids.eventId] },
      'post /api/v1/admin/keys': { tier: 'pro', name: 'openapi-test' },
      'post /api/v1/admin/keys/{id}/revoke': {},
      'post /api/v1/admin/keys/{id}/arbitrage': { enabled: false },
      'post /api/v1/admin/ingest': { source: 'openapi-test', quotes: nflMoneyline('betmgm', CHIEFS_BILLS, -120, 100) },
      'post /api/v1/admin/accounts/{id}/max-keys': { max_keys: 5 },
      'post /api/v1/admin/accounts/{id}/addons': { addon: 'game_state', enabled: true },
      'post /api/v1/account/keys': { name: 'openapi-sample' },
      'post /api/v1/account/keys/{id}/rotate': {},
      'delete /api/v1/account/keys/{id}': undefined,
      'post /api/v1/deeplinks/batch': { ids: [ids.oddsId] },
      'post /api/v1/historical/backtest': { days: 0.05 },
      // Both sides of one moneyline: a 200 with no price (mutually exclusive legs).
      'post /api/v1/parlay/price': {
        sportsbook: 'draftkings',
        legs: [
          { event_id: ids.eventId, market: 'moneyline', selection: 'home' },
          { event_id: ids.eventId, market: 'moneyline', selection: 'away' },
        ],
      },
    };
    const key = `${method} ${path}`;
    if (method !== 'get' && !(key in bodies)) throw new Error(`${key}: no sample body; add one to this test`);
    return { url: `${url}${qs ? `?${qs}` : ''}`, body: bodies[key], admin: (op.security ?? []).some((s) => 'AdminToken' in s) };
  }

  it('a real answer of every JSON operation validates against its schema, and a changed field fails it', async () => {
    const checked: string[] = [];
    const failures: unknown[] = [];
    const check = (actual: Record<string, unknown>, expected: Record<string, unknown>) => {
      if (JSON.stringify(actual) !== JSON.stringify(expected)) failures.push({ actual, expected });
    };
    // Reads before writes (the admin key routes revoke the key the others read).
    const ordered = operations().sort((a, b) => Number(a.method !== 'get') - Number(b.method !== 'get'));
    for (const { path, method, op } of ordered) {
      // A redirect has no body to check; MCP speaks JSON-RPC (test/e2e/mcp.e2e-spec.ts drives it with the SDK).
      if (isRedirect(op) || path === '/api/v1/mcp') continue;
      const [status, response] = twoXX(op)[0]!;
      if (!response.content?.['application/json']) continue;
      const s = sample(path, method, op);
      const headers: Record<string, string> = s.admin ? { 'X-Admin-Token': t.adminToken } : { 'X-API-Key': KEYS.enterprise };
      const r = await t.call(`${t.url}${s.url}`, { method: method.toUpperCase(), body: s.body, headers });
      const at = `${method} ${s.url}`;
      check({ at, status: r.status }, { at, status: Number(status) });
      const validate = validatorOf(op, status);
      check({ at, errors: validate(r.json) ? [] : validate.errors }, { at, errors: [] });
      // Not vacuous: the lists hold items, and the schema constrains them (a renamed field fails).
      if (Array.isArray(r.json.data)) check({ at, items: r.json.data.length > 0 }, { at, items: true });
      const renamed = structuredClone(r.json) as Schema;
      // A map keyed by ids (the batch deep links) takes any key: there is no field name to get wrong.
      const target = path === '/api/v1/deeplinks/batch' ? undefined : firstObject(renamed.data);
      if (target) {
        const field = Object.keys(target)[0]!;
        target[`${field}_renamed`] = target[field];
        delete target[field];
        check({ at, field, valid: validate(renamed) }, { at, field, valid: false });
      }
      checked.push(`${method} ${path}`);
    }
    expect(failures).toEqual([]);
    // Every list endpoint is among them (the generic walk did not skip one).
    for (const p of [
      '/odds',
      '/odds/best',
      '/odds/comparison',
      '/odds/batch',
      '/odds/delta',
      '/events',
      '/events/{eventId}/odds',
      '/sports',
      '/leagues',
      '/sportsbooks',
      '/markets',
      '/teams',
      '/splits',
      '/splits/history',
      '/opportunities/ev',
      '/opportunities/arbitrage',
      '/opportunities/middles',
      '/opportunities/low_hold',
      '/account',
      '/health',
    ]) {
      expect(checked.filter((c) => c.endsWith(` /api/v1${p}`))).toHaveLength(1);
    }
  });

  it('the envelope is closed: an undeclared top-level field or a missing pagination fails', async () => {
    const op = doc.paths['/api/v1/odds']!.get!;
    const validate = validatorOf(op, '200');
    const r = await t.call('/odds?limit=5', { key: KEYS.enterprise });
    expect(validate(r.json)).toBe(true);
    expect(validate({ ...r.json, surprise: 1 })).toBe(false);
    const { pagination: _p, ...noPagination } = r.json;
    expect(validate(noPagination)).toBe(false);
    expect(validate({ ...r.json, meta: { ...r.json.meta, count: 'five' } })).toBe(false);
  });
});

import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Catalog } from '../../../config/catalog.js';
import { OddsApiProvider } from './odds-api.provider.js';

const catalog = new Catalog();
const recorded = JSON.parse(readFileSync(new URL('../../../../test/fixtures/odds-api-nba.json', import.meta.url), 'utf8')) as Array<
  Record<string, unknown>
>;

/** A stand-in for api.the-odds-api.com serving recorded responses, scriptable per test. */
let server: Server;
let base = '';
const requests: URL[] = [];
let script: Array<{ status: number; body?: unknown; remaining?: number }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    requests.push(url);
    const step = script.shift() ?? {
      status: 200,
      body: recorded.filter((e) => e.sport_key === url.pathname.split('/')[3]),
      remaining: 400,
    };
    res.writeHead(step.status, {
      'content-type': 'application/json',
      'x-requests-remaining': String(step.remaining ?? 400),
      'x-requests-used': '100',
      'x-requests-last': '3',
    });
    res.end(JSON.stringify(step.body ?? { message: 'error' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  requests.length = 0;
  script = [];
});

const cfg = (over: Partial<ConstructorParameters<typeof OddsApiProvider>[1]> = {}) => ({
  key: 'test-key',
  baseUrl: base,
  sports: ['basketball_nba'],
  regions: ['us', 'eu'],
  markets: ['h2h', 'spreads', 'totals'],
  intervalSeconds: 60,
  minRemaining: 20,
  ...over,
});
const T = Date.parse('2026-11-22T18:05:00Z');

describe('OddsApiProvider (against recorded responses on localhost)', () => {
  it('asks for the configured sport, regions and markets in decimal and maps the prices', async () => {
    const p = new OddsApiProvider(catalog, cfg());
    const batch = await p.poll(T);
    expect(requests[0]!.pathname).toBe('/v4/sports/basketball_nba/odds');
    expect(Object.fromEntries(requests[0]!.searchParams)).toMatchObject({
      apiKey: 'test-key',
      regions: 'us,eu',
      markets: 'h2h,spreads,totals',
      oddsFormat: 'decimal',
      dateFormat: 'iso',
    });
    expect(batch!.quotes.filter((q) => q.book === 'draftkings')).toHaveLength(6);
    expect(batch!.removals).toEqual([]);
    expect(p.status).toMatchObject({ requestsRemaining: 400, requestsUsed: 100, lastCost: 3, unknownBooks: ['mystery_book'] });
  });

  it('removes prices that disappear between polls', async () => {
    const p = new OddsApiProvider(catalog, cfg());
    await p.poll(T);
    const fewer = structuredClone(recorded.slice(0, 1)) as Array<{ bookmakers: Array<{ key: string; markets: Array<{ key: string }> }> }>;
    fewer[0]!.bookmakers = fewer[0]!.bookmakers.filter((b) => b.key === 'draftkings');
    fewer[0]!.bookmakers[0]!.markets = fewer[0]!.bookmakers[0]!.markets.filter((m) => m.key !== 'totals');
    script.push({ status: 200, body: fewer });
    const batch = await p.poll(T + 60_000);
    expect(batch!.quotes).toHaveLength(4);
    const removed = batch!.removals!.map((r) => `${r.book}:${r.marketType}`).sort();
    expect(removed).toEqual([
      'caesars:moneyline',
      'caesars:moneyline',
      'draftkings:total_points',
      'draftkings:total_points',
      'mystery_book:moneyline',
      'mystery_book:moneyline',
      'pinnacle:moneyline',
      'pinnacle:moneyline',
      'pinnacle:player_points',
      'pinnacle:player_points',
    ]);
  });

  it('backs off exponentially on 429 and 5xx and recovers', async () => {
    const p = new OddsApiProvider(catalog, cfg());
    script.push({ status: 429 });
    expect(await p.poll(T)).toBeNull();
    expect(p.status.backoffUntil).toBe(T + 30_000);
    expect(await p.poll(T + 10_000)).toBeNull();
    expect(requests).toHaveLength(1);
    script.push({ status: 503 });
    expect(await p.poll(T + 30_000)).toBeNull();
    expect(p.status.backoffUntil).toBe(T + 30_000 + 60_000);
    const ok = await p.poll(T + 90_000);
    expect(ok!.quotes.length).toBeGreaterThan(0);
    expect(p.status.backoffUntil).toBeNull();
    expect(p.status.lastError).toBeNull();
  });

  it('pauses when the quota runs low', async () => {
    const p = new OddsApiProvider(catalog, cfg({ sports: ['basketball_nba', 'soccer_epl'] }));
    script.push({ status: 200, body: recorded.slice(0, 1), remaining: 5 });
    const batch = await p.poll(T);
    expect(requests).toHaveLength(1);
    expect(batch!.quotes.length).toBeGreaterThan(0);
    expect(p.status.backoffUntil).toBe(T + 3600_000);
    expect(await p.poll(T + 60_000)).toBeNull();
    expect(requests).toHaveLength(1);
  });

  it('stops on 401 and drops a sport on 422', async () => {
    const p = new OddsApiProvider(catalog, cfg({ sports: ['nope_sport', 'basketball_nba'] }));
    script.push({ status: 422 });
    const b = await p.poll(T);
    expect(p.status.disabledSports).toEqual(['nope_sport']);
    expect(b!.quotes.length).toBeGreaterThan(0);
    script.push({ status: 401 });
    expect(await p.poll(T + 60_000)).toBeNull();
    expect(p.status.enabled).toBe(false);
    expect(await p.poll(T + 120_000)).toBeNull();
    expect(requests.map((r) => r.pathname)).toEqual([
      '/v4/sports/nope_sport/odds',
      '/v4/sports/basketball_nba/odds',
      '/v4/sports/basketball_nba/odds',
    ]);
  });

  it('does nothing without a key', async () => {
    const p = new OddsApiProvider(catalog, cfg({ key: undefined }));
    expect(await p.poll(T)).toBeNull();
    expect(requests).toHaveLength(0);
  });
});

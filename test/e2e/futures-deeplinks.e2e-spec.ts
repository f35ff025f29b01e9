import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { FuturesStoreService } from '../../src/modules/stores/futures/futures-store.service.js';
import { isolationEnv, KEYS, SERVICES, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const KICK = Date.parse('2026-11-23T18:00:00Z');
const CLOSE = Date.parse('2027-06-20T00:00:00Z');
const CHAMP = {
  market: 'championship_winner_2027',
  name: 'NBA Championship winner 2027',
  type: 'TEAM' as const,
  kind: 'championship_winner',
};

const game = (book: string, home: string, away: string, side: 'home' | 'away', decimal: number, over: Partial<Quote> = {}): Quote => ({
  book,
  league: 'nfl',
  homeTeam: home,
  awayTeam: away,
  startTime: KICK,
  marketType: 'moneyline',
  selection: side === 'home' ? home : away,
  selectionType: side,
  line: null,
  price: { decimal },
  ...over,
});
const fut = (book: string, selection: string, decimal: number, over: Partial<Quote> = {}): Quote => ({
  book,
  league: 'nba',
  homeTeam: '',
  awayTeam: '',
  startTime: CLOSE,
  marketType: 'championship_winner',
  selection,
  selectionType: 'other',
  line: null,
  price: { decimal },
  future: CHAMP,
  ...over,
});

/**
 * Futures (hand-worked, as futures-math.spec): Pinnacle A 2.20 B 3.00 C 4.00 (implied 1.037879); DraftKings A 2.10
 * B 2.80 C 4.50 (1.055556). Multiplicative fair C = .25 / 1.037879 = .240876; DraftKings C: +8.3942 %. Best prices
 * A 2.20 B 3.00 C 4.50: hold 1.0101 %; DraftKings alone 5.5556 %. Kalshi quotes A at 2.15 (fair A .437956 x 2.15 - 1
 * = -5.84 %: not +EV, not a best price) with its series ticker.
 *
 * Games: Chiefs v Bills moneyline at DraftKings with DraftKings' own ids (event 31234567, outcome 0QA31234567_1),
 * at BetRivers (event 1019447474), and a low-hold market among books without link templates: Bet105 and Rebet
 * 2.00 / 1.95 (hold 1.2821 %), FanDuel 2.00 / 1.80.
 */
function market(): Quote[] {
  const C = ['Kansas City Chiefs', 'Buffalo Bills'] as const;
  const G = ['Green Bay Packers', 'Chicago Bears'] as const;
  return [
    fut('pinnacle', 'Team A', 2.2),
    fut('pinnacle', 'Team B', 3),
    fut('pinnacle', 'Team C', 4),
    fut('draftkings', 'Team A', 2.1),
    fut('draftkings', 'Team B', 2.8),
    fut('draftkings', 'Team C', 4.5),
    fut('kalshi', 'Team A', 2.15, { future: { ...CHAMP, externalId: 'kxnba' } }),
    game('draftkings', C[0], C[1], 'home', 1.8, { externalEventId: '31234567', selectionId: '0QA31234567_1' }),
    game('draftkings', C[0], C[1], 'away', 2.05, { externalEventId: '31234567', selectionId: '0QA31234567_2' }),
    game('betrivers', C[0], C[1], 'home', 1.83, { externalEventId: '1019447474' }),
    game('betrivers', C[0], C[1], 'away', 2.0, { externalEventId: '1019447474' }),
    ...['bet105', 'rebet'].flatMap((b) => [game(b, G[0], G[1], 'home', 2.0), game(b, G[0], G[1], 'away', 1.95)]),
    game('fanduel', G[0], G[1], 'home', 2.0),
    game('fanduel', G[0], G[1], 'away', 1.8),
    game('saba', G[0], G[1], 'home', 1.9),
    game('saba', G[0], G[1], 'away', 1.9),
  ];
}

type J = Record<string, any>;

describe('futures and deep links (end to end)', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  const get = (path: string, key: string = KEYS.sharp) => t.call(path, { key });
  /** A request that does not follow redirects. */
  const open = (path: string) => fetch(`${t.url}/api/v1${path}`, { redirect: 'manual', headers: { 'X-API-Key': KEYS.sharp } });

  beforeAll(async () => {
    t = await startTestApp({ clock });
    const r = t.app.get(IngestionService).ingest({ source: 'test', quotes: market() }, NOW, { backfill: true });
    expect(r.rejected).toEqual({});
    expect(r.accepted).toBe(market().length);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('futures', () => {
    it('tier gates: the market list for every key, prices pro and up, +EV pro and up, low-hold hobby and up', async () => {
      const free = await t.newKey('free');
      const expected: Array<[string, Record<string, number>]> = [
        ['/futures', { free: 200, hobby: 200, pro: 200 }],
        ['/futures/odds', { free: 403, hobby: 403, pro: 200 }],
        ['/futures/ev', { free: 403, hobby: 403, pro: 200 }],
        ['/futures/low_hold', { free: 403, hobby: 200, pro: 200 }],
      ];
      for (const [path, byTier] of expected) {
        for (const [tier, status] of Object.entries(byTier)) {
          const r = await get(path, tier === 'free' ? free : KEYS[tier as 'hobby' | 'pro']);
          expect([path, tier, r.status]).toEqual([path, tier, status]);
          if (status === 403) expect(r.json.error.code).toBe('tier_restricted');
        }
      }
    });

    it("/futures lists the market with its type, selections and books (the caller's books only); no event is made of it", async () => {
      const r = await get('/futures?league=nba');
      expect(r.status).toBe(200);
      expect(r.json.data).toEqual([
        expect.objectContaining({
          market_id: 'nba_championship_winner_2027',
          display_name: 'NBA Championship winner 2027',
          sport: 'basketball',
          league: 'nba',
          future_type: 'TEAM',
          kind: 'championship_winner',
          selection_count: 3,
          books_available: ['draftkings', 'kalshi', 'pinnacle'],
          closes_at: '2027-06-20T00:00:00.000Z',
        }),
      ]);
      const free = await get('/futures?league=nba', await t.newKey('free'));
      expect(free.json.data[0].books_available).toEqual(['draftkings']);
      expect((await get('/futures?future_type=PLAYER')).json.data).toEqual([]);
      expect((await get('/events?league=nba')).json.meta.total).toBe(0);
      expect((await get('/futures?future_type=TEAMS')).status).toBe(400);
    });

    it('/futures/odds: every price with its fair probability (power devig of Pinnacle) and its deep link; unknown market 404', async () => {
      const r = await get('/futures/odds?future_id=nba_championship_winner_2027&limit=3');
      expect(r.status).toBe(200);
      expect(r.json.meta.total).toBe(7);
      expect(r.json.pagination).toEqual({ limit: 3, offset: 0, has_more: true, next_offset: 3 });
      const all = (await get('/futures/odds?future_id=nba_championship_winner_2027&limit=50')).json.data as J[];
      const dkC = all.find((x) => x.sportsbook === 'draftkings' && x.selection === 'Team C')!;
      expect(dkC).toMatchObject({
        odds_decimal: 4.5,
        odds_american: 350,
        future_type: 'TEAM',
        future_market_id: 'nba_championship_winner_2027',
        future_market_name: 'NBA Championship winner 2027',
        line: null,
        event_start_time: '2027-06-20T00:00:00.000Z',
      });
      expect(dkC.fair_probability).toBeGreaterThan(0.2);
      expect(dkC.ev_percentage).toBeCloseTo((dkC.fair_probability * 4.5 - 1) * 100, 3);
      expect(dkC.deep_link).toBe(`/api/v1/deeplink/${dkC.id}`);
      expect(all.find((x) => x.sportsbook === 'kalshi')?.fair_probability).toBeGreaterThan(0.4);
      expect((await get('/futures/odds?future_id=nba_nothing_2027')).status).toBe(404);
    });

    it('/futures/ev: DraftKings Team C against the devigged Pinnacle market (multiplicative: +8.3942 %)', async () => {
      const r = await get('/futures/ev?devig_method=multiplicative');
      expect(r.status).toBe(200);
      expect(r.json.data).toEqual([
        expect.objectContaining({
          future_market_id: 'nba_championship_winner_2027',
          selection: 'Team C',
          sportsbook: 'draftkings',
          odds_decimal: 4.5,
          fair_probability: 0.240876,
          ev_percentage: 8.3942,
          sharp_book: 'pinnacle',
          sharp_hold_percent: 3.7879,
          sharp_outcomes: 3,
          devig_method: 'multiplicative',
        }),
      ]);
      expect(r.json.data[0].kelly_percent).toBeCloseTo((0.240876 * 4.5 - 1) / 3.5, 4);
    });

    it('/futures/low_hold: best prices over the field hold 1.0101 %; among DraftKings alone 5.5556 %', async () => {
      const r = await get('/futures/low_hold');
      expect(r.json.data).toHaveLength(1);
      expect(r.json.data[0]).toMatchObject({
        future_market_id: 'nba_championship_winner_2027',
        hold_percentage: 1.0101,
        all_books: ['draftkings', 'pinnacle'],
      });
      const sides = r.json.data[0].sides as J[];
      expect(sides.map((s) => [s.selection, s.odds.decimal, s.books, s.odds.fair_probability])).toEqual([
        ['Team A', 2.2, ['pinnacle'], 0.45],
        ['Team B', 3, ['pinnacle'], 0.33],
        ['Team C', 4.5, ['draftkings'], 0.22],
      ]);
      for (const s of sides) for (const v of Object.values(s.deep_links)) expect(typeof v).toBe('string');
      const dk = await get('/futures/low_hold?sportsbook=draftkings&max_hold=6');
      expect(dk.json.data[0].hold_percentage).toBe(5.5556);
      expect((await get('/futures/low_hold?sportsbook=draftkings')).json.data).toEqual([]);
    });
  });

  describe('deep links', () => {
    const rowOf = async (book: string, selectionType: string, league = 'nfl'): Promise<J> => {
      const r = await get(`/odds?league=${league}&sportsbook=${book}&limit=100`);
      return (r.json.data as J[]).find(
        (x) => x.selection_type === selectionType && (league !== 'nfl' || x.home_team === 'Kansas City Chiefs' || book !== 'draftkings'),
      )!;
    };

    it('odds rows of a book with a template link to the resolver; a book without one has null', async () => {
      const dk = await rowOf('draftkings', 'home');
      expect(dk.deep_link).toBe(`/api/v1/deeplink/${dk.id}`);
      const b105 = await rowOf('bet105', 'home');
      expect(b105.deep_link).toBeNull();
    });

    it("GET /deeplink/{odds id}: 302 to the bet slip with the book's own ids, X-Deep-Link-Type and Cache-Control", async () => {
      const dk = await rowOf('draftkings', 'home');
      const r = await open(`/deeplink/${dk.id}`);
      expect(r.status).toBe(302);
      expect(r.headers.get('location')).toBe('https://sportsbook.draftkings.com/event/31234567?outcomes=0QA31234567_1');
      expect(r.headers.get('x-deep-link-type')).toBe('outcome');
      expect(r.headers.get('cache-control')).toBe('private, max-age=60');
    });

    it('state-specific books: the state routes the event link; without one the home page', async () => {
      const br = await rowOf('betrivers', 'home');
      const pa = await open(`/deeplink/${br.id}?state=pa`);
      expect([pa.status, pa.headers.get('location'), pa.headers.get('x-deep-link-type')]).toEqual([
        302,
        'https://pa.betrivers.com/?page=sportsbook#event/1019447474',
        'event',
      ]);
      const none = await open(`/deeplink/${br.id}`);
      expect([none.headers.get('location'), none.headers.get('x-deep-link-type')]).toEqual(['https://www.betrivers.com', 'homepage']);
      expect((await open(`/deeplink/${br.id}?state=pennsylvania`)).status).toBe(400);
    });

    it("works without a key; unknown id 404, or the book's home page with fallback", async () => {
      const dk = await rowOf('draftkings', 'away');
      const r = await fetch(`${t.url}/api/v1/deeplink/${dk.id}`, { redirect: 'manual' });
      expect(r.status).toBe(302);
      expect((await t.call('/deeplink/ffffffffffffffff', { key: KEYS.sharp })).status).toBe(404);
      const fb = await open('/deeplink/ffffffffffffffff?fallback=true&book=fanduel');
      expect([fb.status, fb.headers.get('location'), fb.headers.get('x-deep-link-type')]).toEqual([
        302,
        'https://sportsbook.fanduel.com',
        'homepage',
      ]);
    });

    it('low-hold deep_links leave books without a template out (no null values); the opportunity id resolves per book', async () => {
      const r = await get('/opportunities/low_hold?league=nfl&sportsbook=bet105,rebet,fanduel,saba');
      expect(r.status).toBe(200);
      const item = (r.json.data as J[]).find((x) => x.home_team === 'Green Bay Packers')!;
      expect(item.hold_percentage).toBeCloseTo(1.2821, 3);
      expect(item.side1.books).toEqual(['bet105', 'fanduel', 'rebet']);
      expect(Object.keys(item.side1.deep_links)).toEqual(['fanduel']);
      expect(item.side2.books).toEqual(['bet105', 'rebet']);
      expect(item.side2.deep_links).toEqual({});
      for (const s of [item.side1, item.side2]) for (const v of Object.values(s.deep_links)) expect(v).not.toBeNull();
      const viaFd = await open(`/deeplink/${item.id}?book=fanduel`);
      expect([viaFd.status, viaFd.headers.get('location'), viaFd.headers.get('x-deep-link-type')]).toEqual([
        302,
        'https://sportsbook.fanduel.com',
        'homepage',
      ]);
      expect((await open(`/deeplink/${item.id}?book=bet105`)).status).toBe(404);
    });

    it("a futures price resolves too: Kalshi's series page", async () => {
      const k = ((await get('/futures/odds?sportsbook=kalshi')).json.data as J[])[0]!;
      const r = await open(k.deep_link.replace('/api/v1', ''));
      expect([r.status, r.headers.get('location'), r.headers.get('x-deep-link-type')]).toEqual([
        302,
        'https://kalshi.com/markets/kxnba',
        'event',
      ]);
    });

    it('POST /deeplinks/batch: hobby and up, 1-500 ids, null for unknown ids and books without templates', async () => {
      const dk = await rowOf('draftkings', 'home');
      const b105 = await rowOf('bet105', 'home');
      const body = { ids: [dk.id, b105.id, 'nope'], state: 'NJ' };
      const r = await t.call('/deeplinks/batch', { key: KEYS.hobby, method: 'POST', body });
      expect(r.status).toBe(200);
      expect(r.json.data).toEqual({ [dk.id]: `/api/v1/deeplink/${dk.id}?state=nj`, [b105.id]: null, nope: null });
      expect(typeof r.json.updated_at).toBe('string');
      expect((await t.call('/deeplinks/batch', { key: await t.newKey('free'), method: 'POST', body })).status).toBe(403);
      expect(
        (
          await t.call('/deeplinks/batch', {
            key: KEYS.hobby,
            method: 'POST',
            body: { ids: Array.from({ length: 501 }, (_, i) => `id${i}`) },
          })
        ).status,
      ).toBe(400);
      expect((await t.call('/deeplinks/batch', { key: KEYS.hobby, method: 'POST', body: { ids: [] } })).status).toBe(400);
    });
  });
});

describe('futures across a restart', () => {
  const shared = process.env.TEST_DATABASE_URL
    ? isolationEnv()
    : { DATA_DIR: mkdtempSync(join(tmpdir(), 'odds-futures-')), EMBEDDED_IN_MEMORY: 'false' };
  const config = testConfig(shared);
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('the markets and prices written before come back; a moved price is written over', async () => {
    t = await startTestApp({ clock: new ManualClock(NOW), config });
    t.app.get(IngestionService).ingest({ source: 'test', quotes: market().filter((q) => q.future) }, NOW);
    t.app.get(IngestionService).ingest({ source: 'test', quotes: [fut('draftkings', 'Team C', 5)] }, NOW + 1000);
    await t.app.get(FuturesStoreService).flushed();
    const before = (await t.call('/futures/odds?limit=50', { key: KEYS.sharp })).json.data as J[];
    expect(before).toHaveLength(7);
    await t.close({ keepStore: true });

    t = await startTestApp({ clock: new ManualClock(NOW + 60_000), config });
    const after = (await t.call('/futures/odds?limit=50', { key: KEYS.sharp })).json.data as J[];
    expect(after).toEqual(before);
    expect(after.find((x) => x.sportsbook === 'draftkings' && x.selection === 'Team C')).toMatchObject({
      odds_decimal: 5,
      timestamp: new Date(NOW + 1000).toISOString(),
    });
    expect((await t.call('/futures', { key: KEYS.sharp })).json.data.map((m: J) => m.market_id)).toEqual(['nba_championship_winner_2027']);
  });
});

// Two instances on one PostgreSQL and one Redis (the services-backed pass): futures ingested by one reach the other.
(SERVICES ? describe : describe.skip)('futures on two instances', () => {
  const config = testConfig();
  let a: TestApp | undefined;
  let b: TestApp | undefined;
  afterAll(async () => {
    await b?.close({ keepStore: true });
    await a?.close();
  });

  it('a price ingested on one instance is served by the other within a few seconds', async () => {
    a = await startTestApp({ clock: new ManualClock(NOW), config });
    b = await startTestApp({ clock: new ManualClock(NOW), config });
    a.app.get(IngestionService).ingest({ source: 'test', quotes: [fut('fanduel', 'Team Z', 9)] }, NOW);
    let seen: J | undefined;
    for (let i = 0; i < 50 && !seen; i++) {
      seen = ((await b.call('/futures/odds?sportsbook=fanduel', { key: KEYS.sharp })).json.data as J[]).find(
        (x) => x.selection === 'Team Z',
      );
      if (!seen) await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toMatchObject({ odds_decimal: 9, future_market_id: 'nba_championship_winner_2027' });
  });
});

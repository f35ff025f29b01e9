import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';
import { gameQuote } from '../factories/quotes.js';

/**
 * Every query parameter the official clients send, with the values they send, is understood: for each method of
 * the TypeScript client 0.2.8 and of the Python clients 0.2.6 and 0.4.1, a request with every parameter that
 * method can put in its query string (written out here from what each method sends: the clients are not
 * vendored) answers 2xx. Then what those parameters mean: the clamp of `limit` on the lists served 200 at a time,
 * the clients' and public docs' sort values (orders checked against the returned fields), `market_type` as an
 * alias of `market`, and the /odds filters on /odds/comparison.
 */
const NOW = Date.parse('2026-11-22T12:00:00Z');
const H = 3600_000;
const DAY = 24 * H;
const KICK = NOW + DAY;
type J = Record<string, any>;

const NFL = [
  'Arizona Cardinals',
  'Atlanta Falcons',
  'Baltimore Ravens',
  'Buffalo Bills',
  'Carolina Panthers',
  'Chicago Bears',
  'Cincinnati Bengals',
  'Cleveland Browns',
  'Dallas Cowboys',
  'Denver Broncos',
  'Detroit Lions',
  'Green Bay Packers',
  'Houston Texans',
  'Indianapolis Colts',
  'Jacksonville Jaguars',
  'Kansas City Chiefs',
  'Las Vegas Raiders',
  'Los Angeles Chargers',
  'Los Angeles Rams',
  'Miami Dolphins',
  'Minnesota Vikings',
  'New England Patriots',
  'New Orleans Saints',
  'New York Giants',
  'New York Jets',
  'Philadelphia Eagles',
  'Pittsburgh Steelers',
  'San Francisco 49ers',
  'Seattle Seahawks',
  'Tampa Bay Buccaneers',
  'Tennessee Titans',
  'Washington Commanders',
];
const NBA = [
  ['Boston Celtics', 'Los Angeles Lakers'],
  ['Denver Nuggets', 'Miami Heat'],
  ['Golden State Warriors', 'Phoenix Suns'],
  ['Milwaukee Bucks', 'Dallas Mavericks'],
] as const;
/** The books beside Pinnacle on the +EV games: game i (1-4) is priced by the first i of them. */
const EXTRA = ['draftkings', 'fanduel', 'betmgm', 'caesars'];

const quote = gameQuote;

/**
 * The board:
 *  - 256 NFL games (16 dates, 16 games each), DraftKings moneylines only: more than a page of 200 events and of
 *    200 best prices, and no opportunity.
 *  - 4 NBA games; game i (1-4) starts (5 - i) h after KICK. Pinnacle -105/-105 (fair 0.5 each side); the first i
 *    books of EXTRA price the home side +(100 + 3i) and the away side -140. Each of those home prices is +EV
 *    (0.5 x (2 + 0.03i) - 1 = 1.5i %) and quoted by i + 1 books (Pinnacle included); against Pinnacle's away
 *    price, games 2-4 are arbitrages (1/2.06 + 1/1.9524 = 0.9976: 0.24 %; game 3 0.94 %; game 4 1.64 %).
 *  - Game 1 also has a total of 220.5: DraftKings over +105, FanDuel under +105 (an arbitrage of 2.5 % on
 *    total_points), and a spread middle (DraftKings -2.5, FanDuel -7.5).
 *  - One futures market (two books).
 */
function board(): Quote[] {
  const out: Quote[] = [];
  for (let d = 0; d < 16; d++) {
    for (let g = 0; g < 16; g++) {
      const home = NFL[(g + d) % 32]!;
      const away = NFL[(g + d + 16) % 32]!;
      const start = KICK + (3 + d) * DAY + g * 60_000;
      out.push(quote('draftkings', 'nfl', home, away, start, { price: { american: -150 } }));
      out.push(quote('draftkings', 'nfl', home, away, start, { selection: away, selectionType: 'away', price: { american: 130 } }));
    }
  }
  NBA.forEach(([home, away], idx) => {
    const i = idx + 1;
    const start = KICK + (5 - i) * H;
    const ml = (book: string, h: number, a: number) => [
      quote(book, 'nba', home, away, start, { price: { american: h } }),
      quote(book, 'nba', home, away, start, { selection: away, selectionType: 'away', price: { american: a } }),
    ];
    out.push(...ml('pinnacle', -105, -105));
    for (const book of EXTRA.slice(0, i)) out.push(...ml(book, 100 + 3 * i, -140));
    if (i === 1) {
      const total = (book: string, side: 'over' | 'under', american: number) =>
        quote(book, 'nba', home, away, start, {
          marketType: 'total_points',
          selection: side === 'over' ? 'Over' : 'Under',
          selectionType: side,
          line: 220.5,
          price: { american },
        });
      out.push(
        total('draftkings', 'over', 105),
        total('draftkings', 'under', -125),
        total('fanduel', 'over', -125),
        total('fanduel', 'under', 105),
      );
      const spread = (book: string, line: number) => [
        quote(book, 'nba', home, away, start, { marketType: 'point_spread', line }),
        quote(book, 'nba', home, away, start, { marketType: 'point_spread', selection: away, selectionType: 'away', line: -line }),
      ];
      out.push(...spread('draftkings', -2.5), ...spread('fanduel', -7.5));
    }
  });
  const champ = {
    market: 'championship_winner_2027',
    name: 'NBA Championship winner 2027',
    type: 'TEAM' as const,
    kind: 'championship_winner',
  };
  const fut = (book: string, selection: string, decimal: number): Quote => ({
    ...quote(book, 'nba', '', '', Date.parse('2027-06-14T00:00:00Z'), {}),
    marketType: 'championship_winner',
    selection,
    selectionType: 'other',
    price: { decimal },
    future: champ,
  });
  out.push(
    fut('pinnacle', 'Boston Celtics', 4.2),
    fut('draftkings', 'Boston Celtics', 4),
    fut('pinnacle', 'Denver Nuggets', 5.5),
    fut('draftkings', 'Denver Nuggets', 6),
  );
  return out;
}

type Query = Record<string, string | number | boolean | string[]>;

/** A query string as each client writes it: lists comma-joined, booleans `true`/`false`, numbers as text. */
function qs(q: Query): string {
  const parts = Object.entries(q).map(([k, v]): [string, string] => [k, Array.isArray(v) ? v.join(',') : String(v)]);
  return parts.length ? `?${new URLSearchParams(parts).toString()}` : '';
}

/** Whether consecutive items are in order by `key` (ascending, or descending with `desc`). */
function ordered<T>(items: T[], key: (t: T) => number | string, desc = false): boolean {
  for (let i = 1; i < items.length; i++) {
    const a = key(items[i - 1]!);
    const b = key(items[i]!);
    if (desc ? a < b : a > b) return false;
  }
  return true;
}

describe('every parameter the official clients send', () => {
  let t: TestApp;
  let eventId = '';
  const ua = { ts: 'node', py02: 'sharpapi-python/0.2.6', py04: 'sharpapi-python/0.4.1' } as const;

  async function send(path: string, q: Query, client: keyof typeof ua, opts: { method?: string; body?: unknown } = {}) {
    return fetch(`${t.url}/api/v1${path}${qs(q)}`, {
      method: opts.method ?? 'GET',
      headers: {
        'X-API-Key': KEYS.enterprise,
        'Content-Type': 'application/json',
        Accept: 'application/json',
        ...(client === 'ts' ? {} : { 'User-Agent': ua[client] }),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  }
  async function ok(path: string, q: Query, client: keyof typeof ua) {
    const res = await send(path, q, client);
    const text = await res.text();
    expect([client, path, qs(q), res.status, res.status < 300 ? '' : text]).toEqual([client, path, qs(q), 200, '']);
    return text;
  }
  /** A stream as the clients open it (EventSource: the key in the query): the connection is accepted. */
  async function streamOk(path: string, q: Query, client: keyof typeof ua) {
    const ac = new AbortController();
    const res = await fetch(`${t.url}/api/v1${path}${qs({ ...q, api_key: KEYS.enterprise })}`, {
      headers: { Accept: 'text/event-stream', ...(client === 'ts' ? {} : { 'User-Agent': ua[client], 'X-API-Key': KEYS.enterprise }) },
      signal: ac.signal,
    });
    expect([client, path, qs(q), res.status, res.headers.get('content-type')]).toEqual([
      client,
      path,
      qs(q),
      200,
      expect.stringMatching(/^text\/event-stream/),
    ]);
    ac.abort();
    await res.body?.cancel().catch(() => undefined);
  }

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
    expect(t.app.get(IngestionService).ingest({ source: 'test', quotes: board() }, NOW, { backfill: true }).rejected).toEqual({});
    const events = (await t.call('/events?league=nba&limit=10', { key: KEYS.enterprise })).json.data as J[];
    eventId = events.find((e) => e.home_team === 'Boston Celtics')!.id;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('TypeScript client 0.2.8: each method with every parameter it sends', () => {
    const odds = (): Query => ({
      sportsbook: ['draftkings', 'fanduel'],
      add_sportsbook: ['betmgm'],
      league: ['nba'],
      market: 'moneyline',
      live: false,
      main: true,
      limit: 500,
      offset: 0,
    });
    it('leagues.list, events.list', async () => {
      await ok('/leagues', { sport: 'basketball' }, 'ts');
      await ok('/events', { sport: 'basketball', league: ['nba', 'nfl'], live: false, date: '2026-11-23', limit: 500, offset: 0 }, 'ts');
    });
    it('odds.get, odds.best, odds.comparison (its odds parameters and event_id), odds.closing', async () => {
      await ok('/odds', odds(), 'ts');
      await ok('/odds/best', odds(), 'ts');
      await ok('/odds/comparison', { ...odds(), event_id: eventId }, 'ts');
      await ok('/odds/closing', { event_id: eventId, sportsbook: ['draftkings', 'pinnacle'] }, 'ts');
    });
    it('arbitrage.get, ev.get, middles.get', async () => {
      await ok(
        '/opportunities/arbitrage',
        { sport: 'basketball', league: 'nba', min_profit: 0.5, add_sportsbook: ['betmgm'], format: 'json', limit: 500 },
        'ts',
      );
      await ok(
        '/opportunities/ev',
        { sport: 'basketball', league: 'nba', min_ev: 1, sportsbook: 'draftkings', add_sportsbook: ['pinnacle'], limit: 500 },
        'ts',
      );
      for (const sort of ['quality', 'ev', 'probability', 'middle_size']) {
        await ok(
          '/opportunities/middles',
          {
            sport: 'basketball',
            league: 'nba',
            sportsbook: ['draftkings', 'fanduel'],
            market: 'point_spread',
            min_size: 0.5,
            live: false,
            sort,
            limit: 500,
            offset: 0,
          },
          'ts',
        );
      }
    });
    it('stream.odds, stream.opportunities, stream.all, stream.event (type= and eventId)', async () => {
      const p = { sportsbook: ['draftkings', 'fanduel'], add_sportsbook: ['betmgm'], league: ['nba'] };
      await streamOk('/stream', { ...p, eventId, type: 'odds' }, 'ts');
      await streamOk('/stream', { ...p, eventId, type: 'opportunities' }, 'ts');
      await streamOk('/stream', { ...p, eventId, type: 'all' }, 'ts');
      await streamOk('/stream', { ...p, type: 'odds', eventId }, 'ts');
    });
  });

  describe.each(['py02', 'py04'] as const)('Python client (%s): each method with every parameter it sends', (py) => {
    it('odds.get (every sort and projection), odds.best, odds.comparison, odds.closing', async () => {
      await ok(
        '/odds',
        {
          sportsbook: ['draftkings', 'pinnacle'],
          add_sportsbook: ['betmgm'],
          sport: ['basketball'],
          league: ['nba'],
          market: ['moneyline', 'total_points'],
          event: [eventId],
          live: false,
          sort: '-odds_american',
          group_by: 'event',
          fields: ['id', 'sportsbook', 'odds_american'],
          limit: 500,
          offset: 0,
        },
        py,
      );
      await ok(
        '/odds/best',
        {
          sport: 'basketball',
          league: 'nba',
          market: 'moneyline',
          event: eventId,
          live: false,
          sportsbook: ['draftkings', 'pinnacle'],
          add_sportsbook: 'betmgm',
          limit: 500,
          offset: 0,
        },
        py,
      );
      await ok('/odds/comparison', { event_id: eventId, market: 'moneyline' }, py);
      await ok('/odds/closing', { event_id: eventId, sportsbook: 'pinnacle' }, py);
    });
    it('ev.get with each documented sort', async () => {
      for (const sort of ['-ev', 'ev', 'confidence', 'kelly', 'time', 'book_count']) {
        await ok(
          '/opportunities/ev',
          {
            sport: 'basketball',
            league: 'nba',
            sportsbook: ['draftkings', 'fanduel', 'pinnacle'],
            add_sportsbook: 'betmgm',
            market: 'moneyline',
            min_ev: 1.0,
            max_ev: 20.0,
            min_market_width: 0.0,
            max_market_width: 50.0,
            max_odds_age: 600,
            date_range: 'week',
            live: false,
            sort,
            limit: 500,
            offset: 0,
          },
          py,
        );
      }
    });
    it('arbitrage.get with each documented sort, arbitrage.csv', async () => {
      for (const sort of ['-profit', 'profit', 'time', 'sport', 'market']) {
        await ok(
          '/opportunities/arbitrage',
          {
            sport: 'basketball',
            league: 'nba',
            sportsbook: ['draftkings', 'fanduel', 'pinnacle'],
            add_sportsbook: 'betmgm',
            market: 'moneyline',
            min_profit: 0.0,
            max_odds_age: 600,
            live: false,
            sort,
            group: 'best',
            limit: 500,
            offset: 0,
          },
          py,
        );
      }
      await ok('/opportunities/arbitrage', { sport: 'basketball', league: 'nba', min_profit: 0.5, limit: 500, format: 'csv' }, py);
    });
    it('middles.get and low_hold.get with each documented sort', async () => {
      for (const sort of ['quality', 'ev', 'probability', 'middle_size']) {
        await ok(
          '/opportunities/middles',
          {
            sport: 'basketball',
            league: 'nba',
            sportsbook: ['draftkings', 'fanduel'],
            market: ['point_spread', 'total_points'],
            min_size: 0.5,
            max_odds_age: 600,
            live: false,
            state: 'pa',
            sort,
            limit: 500,
            offset: 0,
          },
          py,
        );
      }
      for (const sort of ['hold', 'market', 'sport']) {
        await ok(
          '/opportunities/low_hold',
          {
            sport: 'basketball',
            league: 'nba',
            sportsbook: ['draftkings', 'pinnacle'],
            market: 'moneyline',
            max_hold: 5.0,
            live: false,
            state: 'pa',
            sort,
            limit: 500,
            offset: 0,
          },
          py,
        );
      }
    });
    it('leagues.list, events.list, gamestate.get', async () => {
      await ok('/leagues', { sport: 'basketball' }, py);
      await ok('/events', { sport: 'basketball', league: ['nba', 'nfl'], live: false, limit: 500, offset: 0 }, py);
      await ok('/gamestate', {}, py);
      await ok('/gamestate/basketball', {}, py);
    });
    it('stream.odds, stream.opportunities, stream.all (channel=), stream.event, stream.gamestate', async () => {
      const p = { sportsbook: ['draftkings', 'fanduel'], league: ['nba'], sport: ['basketball'], market: ['moneyline'] };
      await streamOk('/stream', { channel: 'odds', ...p }, py);
      await streamOk('/stream', { channel: 'opportunities', ...p, min_ev: 2.0, min_profit: 0.5 }, py);
      await streamOk('/stream', { channel: 'all', ...p }, py);
      await streamOk(`/stream/events/${eventId}`, { sportsbook: ['draftkings'], market: ['moneyline'] }, py);
      await streamOk('/stream/gamestate', {}, py);
    });
  });

  describe('market_type (the R client) is an alias of market', () => {
    it.each([
      ['/odds', 'total_points', { limit: 500 }],
      ['/odds/best', 'total_points', { limit: 200 }],
      ['/opportunities/ev', 'moneyline', {}],
      ['/opportunities/arbitrage', 'total_points', { min_profit: 0 }],
      ['/opportunities/middles', 'point_spread', {}],
      ['/stream', 'moneyline', {}],
    ] as Array<[string, string, Query]>)('%s: market_type=%s answers what market= does', async (path, market, extra) => {
      if (path === '/stream') {
        await streamOk(path, { channel: 'odds', market_type: market }, 'ts');
        return;
      }
      const a = await t.call(`${path}${qs({ ...extra, market_type: market })}`, { key: KEYS.enterprise });
      const b = await t.call(`${path}${qs({ ...extra, market })}`, { key: KEYS.enterprise });
      const all = await t.call(`${path}${qs(extra)}`, { key: KEYS.enterprise });
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.json.data.length).toBeGreaterThan(0);
      expect(a.json.data).toEqual(b.json.data);
      for (const x of a.json.data as J[]) expect(x.market_type).toBe(market);
      expect((all.json.data as J[]).filter((x) => x.market_type === market)).toEqual(a.json.data);
    });
    it('on /odds/comparison and /events/{id}/odds', async () => {
      const c = await t.call(`/odds/comparison?event=${eventId}&market_type=total_points`, { key: KEYS.enterprise });
      expect(Object.keys(c.json.data).sort()).toEqual(['draftkings', 'fanduel']);
      for (const rows of Object.values(c.json.data) as J[][]) for (const r of rows) expect(r.market_type).toBe('total_points');
      const e = await t.call(`/events/${eventId}/odds?market_type=point_spread`, { key: KEYS.enterprise });
      expect(e.status).toBe(200);
      expect(new Set((e.json.data as J[]).map((r) => r.market_type))).toEqual(new Set(['point_spread']));
    });
    it('merges with market when both are given', async () => {
      const r = await t.call(`/odds?event=${eventId}&market=point_spread&market_type=total_points&limit=500`, { key: KEYS.enterprise });
      expect(new Set((r.json.data as J[]).map((x) => x.market_type))).toEqual(new Set(['point_spread', 'total_points']));
    });
    it('is validated and a typo is still refused', async () => {
      const typo = await t.call('/odds?market_typ=moneyline', { key: KEYS.enterprise });
      expect([typo.status, typo.json.error.code, typo.json.error.message]).toEqual([
        400,
        'invalid_request',
        'Unknown parameter "market_typ"',
      ]);
    });
  });

  describe('limit: pages of 200 take a limit up to 500 and say they served 200', () => {
    it.each([
      ['/events', 256 + 4],
      ['/odds/best', 256 * 2],
    ])('%s?limit=500: 200 items, X-Limit-Clamped: 200, pagination of a page of 200', async (path, total) => {
      // Twice: the second request takes the remembered validation (and, on /odds/best, the fast path).
      for (let round = 0; round < 2; round++) {
        const r = await t.call(`${path}?limit=500`, { key: KEYS.enterprise });
        expect([r.status, r.headers.get('x-limit-clamped')]).toEqual([200, '200']);
        expect(r.json.data).toHaveLength(200);
        expect(r.json.pagination).toEqual({ limit: 200, offset: 0, has_more: true, next_offset: 200 });
        expect(r.json.meta.pagination).toEqual(r.json.pagination);
        expect(r.json.meta.total).toBeGreaterThanOrEqual(total);
      }
      const last = await t.call(`${path}?limit=300&offset=200`, { key: KEYS.enterprise });
      expect(last.json.data.length).toBe(Math.min(200, last.json.meta.total - 200));
      expect(last.json.pagination.limit).toBe(200);
    });
    it.each([
      '/opportunities/ev',
      '/opportunities/arbitrage',
      '/opportunities/middles',
      '/opportunities/low_hold',
      '/futures',
      '/futures/odds',
    ])('%s?limit=201 is served as 200, with the header', async (path) => {
      const r = await t.call(`${path}?limit=201`, { key: KEYS.enterprise });
      expect([r.status, r.headers.get('x-limit-clamped'), r.json.pagination?.limit ?? r.json.meta?.pagination?.limit]).toEqual([
        200,
        '200',
        200,
      ]);
    });
    it('a limit within the page size has no header; /odds keeps its pages of 500', async () => {
      const within = await t.call('/events?limit=200', { key: KEYS.enterprise });
      expect([within.status, within.headers.get('x-limit-clamped'), within.json.data.length]).toEqual([200, null, 200]);
      const odds = await t.call('/odds?limit=500', { key: KEYS.enterprise });
      expect([odds.status, odds.headers.get('x-limit-clamped'), odds.json.data.length]).toEqual([200, null, 500]);
    });
    it.each(['/events', '/odds/best', '/opportunities/ev', '/futures'])('%s?limit=501 is 400 naming the range', async (path) => {
      const r = await t.call(`${path}?limit=501`, { key: KEYS.enterprise });
      expect([r.status, r.json.error.code, r.headers.get('x-limit-clamped')]).toEqual([400, 'invalid_request', null]);
      expect(r.json.error.message).toBe(
        'Invalid parameter "limit": limit must not be greater than 500 (from 201 to 500, pages of 200 are served)',
      );
    });
    it('/odds?limit=501 is 400 (its maximum stays 500)', async () => {
      const r = await t.call('/odds?limit=501', { key: KEYS.enterprise });
      expect([r.status, r.json.error.message]).toEqual([400, 'Invalid parameter "limit": limit must not be greater than 500']);
    });
  });

  describe('the sort values of the clients and the public docs', () => {
    const ev = async (sort: string) => {
      const r = await t.call(`/opportunities/ev?sort=${sort}`, { key: KEYS.enterprise });
      expect(r.status).toBe(200);
      return r.json.data as J[];
    };
    const arb = async (sort: string) => {
      const r = await t.call(`/opportunities/arbitrage?min_profit=0&sort=${sort}`, { key: KEYS.enterprise });
      expect(r.status).toBe(200);
      return r.json.data as J[];
    };

    it('+EV book_count (alias books): most books quoting the selection first; "-" fewest first', async () => {
      const items = await ev('book_count');
      // The home price of NBA game i is quoted by Pinnacle and i other books: each such item says i + 1.
      const home = items.filter((x) => x.market_type === 'moneyline');
      const counts = NBA.map(([h], idx) => [h, idx + 2]);
      for (const [team, n] of counts)
        for (const x of home.filter((y) => y.selection === team)) expect([team, x.book_count]).toEqual([team, n]);
      expect(new Set(home.map((x) => x.book_count))).toEqual(new Set([2, 3, 4, 5]));
      expect(ordered(items, (x) => x.book_count, true)).toBe(true);
      expect(await ev('books')).toEqual(items);
      const rev = await ev('-book_count');
      expect(ordered(rev, (x) => x.book_count)).toBe(true);
      expect(rev.map((x) => x.id).sort()).toEqual(items.map((x) => x.id).sort());
      expect(await ev('-books')).toEqual(rev);
    });
    it('+EV time (alias of start_time): soonest kickoff first; "-" latest first', async () => {
      const items = await ev('time');
      expect(new Set(items.map((x) => x.start_time)).size).toBe(4);
      expect(ordered(items, (x) => Date.parse(x.start_time))).toBe(true);
      expect(items).toEqual(await ev('start_time'));
      expect(ordered(await ev('-time'), (x) => Date.parse(x.start_time), true)).toBe(true);
    });
    it('+EV confidence_score and kelly_percent (aliases of confidence and kelly): highest first', async () => {
      const byConfidence = await ev('confidence_score');
      expect(ordered(byConfidence, (x) => x.confidence_score, true)).toBe(true);
      expect(byConfidence).toEqual(await ev('confidence'));
      const byKelly = await ev('kelly_percent');
      expect(ordered(byKelly, (x) => x.kelly_percent, true)).toBe(true);
      expect(new Set(byKelly.map((x) => x.kelly_percent)).size).toBeGreaterThan(1);
      expect(byKelly).toEqual(await ev('kelly'));
      expect(ordered(await ev('-kelly_percent'), (x) => x.kelly_percent)).toBe(true);
    });
    it('arbitrage time (alias of start_time): soonest kickoff first; "-" latest first', async () => {
      const items = await arb('time');
      // Games 2, 3 and 4 (moneyline) and game 1 (total): four kickoffs.
      expect(items.map((x) => x.start_time)).toEqual([1, 2, 3, 4].map((i) => new Date(KICK + (5 - i) * H).toISOString()).sort());
      expect(items).toEqual(await arb('start_time'));
      expect((await arb('-time')).map((x) => x.id)).toEqual(items.map((x) => x.id).reverse());
    });
    it('arbitrage market: market type A-Z, then the highest profit; "-" reverses', async () => {
      const items = await arb('market');
      expect(items.map((x) => x.market_type)).toEqual(['moneyline', 'moneyline', 'moneyline', 'total_points']);
      const ml = items.filter((x) => x.market_type === 'moneyline');
      expect(ordered(ml, (x) => x.profit_percent, true)).toBe(true);
      expect((await arb('-market')).map((x) => x.id)).toEqual(items.map((x) => x.id).reverse());
    });
    it('unknown sort values are still refused, naming the allowed ones', async () => {
      const r = await t.call('/opportunities/ev?sort=bookcount', { key: KEYS.enterprise });
      expect([r.status, r.json.error.code]).toEqual([400, 'invalid_request']);
      expect(r.json.error.message).toMatch(/book_count.*-books|books.*book_count/);
    });
  });

  describe('the +EV filters of the public docs', () => {
    const ev = async (q: string) => {
      const r = await t.call(`/opportunities/ev?${q}`, { key: KEYS.enterprise });
      expect([q, r.status]).toEqual([q, 200]);
      expect(r.json.meta.summary.count).toBe(r.json.data.length);
      return r.json.data as J[];
    };
    let all: J[] = [];
    beforeAll(async () => {
      all = await ev('limit=200');
      // Games 1-4: 1 + 2 + 3 + 4 home prices above fair.
      expect(all).toHaveLength(10);
    });
    it('min_kelly / max_kelly in percent of bankroll (kelly_percent is its fraction)', async () => {
      // Game i: fair 0.5 at 2 + 0.03i: Kelly 0.015i / (1 + 0.03i): 1.46 %, 2.83 %, 4.13 %, 5.36 %.
      const over3 = await ev('min_kelly=3');
      expect(over3.map((x) => x.selection).sort()).toEqual([
        ...Array(3).fill('Golden State Warriors'),
        ...Array(4).fill('Milwaukee Bucks'),
      ]);
      expect(over3).toEqual(all.filter((x) => x.kelly_percent * 100 >= 3));
      expect(await ev('max_kelly=3')).toEqual(all.filter((x) => x.kelly_percent * 100 <= 3));
      expect(await ev('min_kelly=2&max_kelly=5')).toEqual(all.filter((x) => x.kelly_percent >= 0.02 && x.kelly_percent <= 0.05));
    });
    it('min_confidence / max_confidence on confidence_score', async () => {
      const scores = [...new Set(all.map((x) => x.confidence_score as number))].sort((a, b) => a - b);
      const mid = scores[Math.floor(scores.length / 2)]!;
      expect(await ev(`min_confidence=${mid}`)).toEqual(all.filter((x) => x.confidence_score >= mid));
      expect(await ev(`max_confidence=${mid}`)).toEqual(all.filter((x) => x.confidence_score <= mid));
    });
    it('arb_available, is_player_prop, is_alternate_line', async () => {
      const withArb = await ev('arb_available=true');
      // Games 2-4 are arbitrages against Pinnacle's away price: 2 + 3 + 4 items.
      expect(withArb).toHaveLength(9);
      expect(withArb).toEqual(all.filter((x) => x.arb_available === true));
      expect(await ev('arb_available=false')).toEqual(all.filter((x) => x.arb_available === false));
      expect(await ev('is_player_prop=false')).toEqual(all);
      expect(await ev('is_player_prop=true')).toEqual([]);
      expect(await ev('is_alternate_line=false')).toEqual(all);
      expect(await ev('is_alternate_line=true')).toEqual([]);
    });
    it('selection, player_name (alias player), stat_category: exact names, any case', async () => {
      const celtics = await ev('selection=boston%20celtics');
      expect(celtics.map((x) => [x.selection, x.sportsbook])).toEqual([['Boston Celtics', 'draftkings']]);
      expect(await ev('selection=Boston')).toEqual([]);
      expect(await ev('player_name=Aaron%20Judge')).toEqual([]);
      expect(await ev('player=Aaron%20Judge')).toEqual([]);
      expect(await ev('stat_category=points')).toEqual([]);
      const both = await t.call('/opportunities/ev?player=A&player_name=B', { key: KEYS.enterprise });
      expect([both.status, both.json.error.code]).toEqual([400, 'invalid_request']);
    });
    it.each(['min_kelly=abc', 'max_confidence=101', 'arb_available=maybe', 'is_player_prop=2', 'min_kely=2'])('refuses %s', async (q) => {
      expect((await t.call(`/opportunities/ev?${q}`, { key: KEYS.enterprise })).status).toBe(400);
    });
  });

  describe('/odds/comparison with the /odds parameters', () => {
    const cmp = async (q: Query) => {
      const r = await t.call(`/odds/comparison${qs({ event_id: eventId, ...q })}`, { key: KEYS.enterprise });
      expect(r.status).toBe(200);
      return r.json as J;
    };
    it('filters narrow the rows', async () => {
      const all = await cmp({});
      expect(Object.keys(all.data).sort()).toEqual(['draftkings', 'fanduel', 'pinnacle']);
      const rows = (j: J) => Object.values(j.data).flat() as J[];
      expect(new Set(rows(all).map((r) => r.market_type))).toEqual(new Set(['moneyline', 'total_points', 'point_spread']));
      const ml = await cmp({ market: 'moneyline' });
      expect(rows(ml)).toEqual(rows(all).filter((r) => r.market_type === 'moneyline'));
      expect(Object.keys((await cmp({ sportsbook: 'pinnacle' })).data)).toEqual(['pinnacle']);
      expect(Object.keys((await cmp({ sportsbook: 'pinnacle', add_sportsbook: 'fanduel' })).data).sort()).toEqual(['fanduel', 'pinnacle']);
      expect((await cmp({ league: 'nfl' })).data).toEqual({});
      expect(rows(await cmp({ league: 'nba', sport: 'basketball' }))).toEqual(rows(all));
      expect((await cmp({ live: true })).data).toEqual({});
      expect(rows(await cmp({ live: false }))).toEqual(rows(all));
      const main = rows(await cmp({ main: true }));
      expect(main).toEqual(rows(all).filter((r) => r.is_main_line === true));
      expect(rows(await cmp({ is_main_line: true }))).toEqual(main);
    });
    it('limit and offset page over the books of meta.books_available', async () => {
      const all = await cmp({});
      const books = all.meta.books_available as string[];
      expect(books.length).toBe(3);
      const page = await cmp({ limit: 1, offset: 1 });
      expect(page.meta.books_available).toEqual(books);
      expect(Object.keys(page.data)).toEqual([books[1]]);
      expect(page.data[books[1]!]).toEqual(all.data[books[1]!]);
      expect(Object.keys((await cmp({ limit: 2 })).data).sort()).toEqual(books.slice(0, 2).sort());
      expect((await cmp({ offset: 3 })).data).toEqual({});
    });
    it('refuses bad values', async () => {
      for (const q of ['limit=0', 'limit=501', 'offset=-1', 'main=maybe', 'live=perhaps']) {
        const r = await t.call(`/odds/comparison?event_id=${eventId}&${q}`, { key: KEYS.enterprise });
        expect([q, r.status]).toEqual([q, 400]);
      }
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { SseRecorder } from '../support/sse.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Fields and parameters the public clients read (issue: self-service accounts, item 5), on a board whose
 * answers are worked out here first:
 *  - Nikola Jokić points 26.5: Pinnacle -115 / -105 is the sharp line; DraftKings over +110 (2.10) is +EV.
 *    Its player_id is basketball_nba_nikola_jokic.
 *  - Celtics v Knicks moneyline: DraftKings Celtics +110 (2.10) and Betfair Knicks 2.05: implied 0.476190 +
 *    0.487805 = 0.963995, profit 3.7350%. Betfair keeps 5% of net winnings (config/costs.json): its net decimal is
 *    1 + 1.05 x 0.95 = 1.9975, so 1/2.10 + 1/1.9975 = 0.476190 + 0.500626 = 0.976816 and the net profit is
 *    100/0.976816 - 100 = 2.3734%, on stakes 0.476190/0.976816 = 48.7492% (DraftKings) and 51.2508% (Betfair);
 *    both outcomes pay 102.3734. A Polymarket leg (its fee unknown) has no net figure and UNKNOWN_VENUE_COST.
 *  - Nuggets v Lakers Nuggets team total: DraftKings over 110.5 -110 and BetMGM over 110.5 -115, FanDuel
 *    under 113.5 -110 and Caesars under 113.5 -120: a middle from 111 to 113 with the other book of each side as
 *    its alternative.
 *  - Chiefs v Bills spread: DraftKings -2.5 and FanDuel -7.5 at -110: a middle that is not a team total.
 */
const NOW = Date.parse('2026-11-22T12:00:00Z');
const KICK = Date.parse('2026-11-23T18:00:00Z');
type J = Record<string, any>;

function quotes(): Quote[] {
  const nba = (book: string, home: string, away: string, over: Partial<Quote>): Quote => ({
    book,
    league: 'nba',
    homeTeam: home,
    awayTeam: away,
    startTime: KICK,
    marketType: 'moneyline',
    selection: home,
    selectionType: 'home',
    line: null,
    price: { american: -110 },
    ...over,
  });
  const D = ['Denver Nuggets', 'Los Angeles Lakers'] as const;
  const jokic = (book: string, o: number, u: number): Quote[] => [
    nba(book, D[0], D[1], {
      marketType: 'player_points',
      selection: 'Over',
      selectionType: 'over',
      line: 26.5,
      playerName: 'Nikola Jokić',
      statCategory: 'points',
      price: { american: o },
    }),
    nba(book, D[0], D[1], {
      marketType: 'player_points',
      selection: 'Under',
      selectionType: 'under',
      line: 26.5,
      playerName: 'Nikola Jokić',
      statCategory: 'points',
      price: { american: u },
    }),
  ];
  const tt = (book: string, line: number, o: number, u: number): Quote[] => [
    nba(book, D[0], D[1], {
      marketType: 'team_total',
      selection: 'Over',
      selectionType: 'over',
      line,
      playerName: 'Denver Nuggets',
      price: { american: o },
    }),
    nba(book, D[0], D[1], {
      marketType: 'team_total',
      selection: 'Under',
      selectionType: 'under',
      line,
      playerName: 'Denver Nuggets',
      price: { american: u },
    }),
  ];
  const C = ['Kansas City Chiefs', 'Buffalo Bills'] as const;
  const spread = (book: string, line: number): Quote[] => [
    { ...nba(book, C[0], C[1], { marketType: 'point_spread', line, price: { american: -110 } }), league: 'nfl' },
    {
      ...nba(book, C[0], C[1], {
        marketType: 'point_spread',
        selection: C[1],
        selectionType: 'away',
        line: -line,
        price: { american: -110 },
      }),
      league: 'nfl',
    },
  ];
  return [
    ...jokic('pinnacle', -115, -105),
    ...jokic('draftkings', 110, -140),
    nba('draftkings', 'Boston Celtics', 'New York Knicks', { price: { american: 110 } }),
    nba('betfair', 'Boston Celtics', 'New York Knicks', {
      selection: 'New York Knicks',
      selectionType: 'away',
      price: { decimal: 2.05 },
      volume: 18250.5,
      volume24h: 4100,
    }),
    nba('kalshi', 'Boston Celtics', 'New York Knicks', {
      price: { contract_price: 0.6 },
      volume: 52000,
      volume24h: 9000,
      openInterest: 31000,
    }),
    ...tt('draftkings', 110.5, -110, -110),
    ...tt('betmgm', 110.5, -115, -105),
    ...tt('fanduel', 113.5, -110, -110),
    ...tt('caesars', 113.5, 100, -120),
    ...spread('draftkings', -2.5),
    ...spread('fanduel', -7.5),
    // Baseball: one book names the starting pitchers, another does not.
    {
      ...nba('draftkings', 'New York Yankees', 'Boston Red Sox', { homePitcher: 'Gerrit Cole', awayPitcher: 'Garrett Crochet' }),
      league: 'mlb',
    },
    {
      ...nba('draftkings', 'New York Yankees', 'Boston Red Sox', {
        selection: 'Boston Red Sox',
        selectionType: 'away',
        homePitcher: 'Gerrit Cole',
        awayPitcher: 'Garrett Crochet',
      }),
      league: 'mlb',
    },
    { ...nba('fanduel', 'New York Yankees', 'Boston Red Sox', {}), league: 'mlb' },
    { ...nba('fanduel', 'New York Yankees', 'Boston Red Sox', { selection: 'Boston Red Sox', selectionType: 'away' }), league: 'mlb' },
    // A game under way: live prices, no opportunity.
    ...['draftkings', 'fanduel'].flatMap((book) => [
      { ...nba(book, 'Boston Bruins', 'Toronto Maple Leafs', { isLive: true, startTime: NOW - 3_600_000 }), league: 'nhl' },
      {
        ...nba(book, 'Boston Bruins', 'Toronto Maple Leafs', {
          selection: 'Toronto Maple Leafs',
          selectionType: 'away',
          isLive: true,
          startTime: NOW - 3_600_000,
        }),
        league: 'nhl',
      },
    ]),
  ];
}

describe('fields and parameters the clients read (end to end)', () => {
  let t: TestApp;
  const get = async (path: string, key: string = KEYS.sharp) => {
    const r = await t.call(path, { key });
    expect([path, r.status]).toEqual([path, 200]);
    return r.json as J;
  };

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
    const r = t.app.get(IngestionService).ingest({ source: 'test', quotes: quotes() }, NOW, { backfill: true });
    expect(r.rejected).toEqual({});
  });
  afterAll(async () => {
    await t.close();
  });

  it('+EV on a player prop carries the player_id; elsewhere it is null', async () => {
    const ev = (await get('/opportunities/ev?limit=200')).data as J[];
    const dk = ev.find((x) => x.sportsbook === 'draftkings' && x.market_type === 'player_points' && x.selection_type === 'over');
    expect(dk).toMatchObject({ player_name: 'Nikola Jokić', player_id: 'basketball_nba_nikola_jokic' });
    for (const x of ev.filter((x) => !x.player_name)) expect(x.player_id).toBeNull();
  });

  it('arbitrage with an exchange leg: the net profit from stakes split on net odds (Betfair 5% of net winnings)', async () => {
    const arbs = (await get('/opportunities/arbitrage?min_profit=0&limit=200')).data as J[];
    const a = arbs.find((x) => x.home_team === 'Boston Celtics');
    expect(a).toBeDefined();
    expect(a!.profit_percent).toBeCloseTo(3.735, 3);
    expect(a!.estimated_net_profit_percent).toBeCloseTo(2.3734, 4);
    expect(a!.warnings).not.toContain('UNKNOWN_VENUE_COST');
    expect((a!.legs as J[]).map((l) => [l.sportsbook, l.net_stake_percent]).sort()).toEqual([
      ['betfair', 51.2508],
      ['draftkings', 48.7492],
    ]);
    // Every arbitrage item has the field; a sportsbook-only arbitrage keeps its whole profit and stakes.
    for (const x of arbs) {
      expect(x).toHaveProperty('estimated_net_profit_percent');
      if (x.legs.every((l: J) => !['betfair', 'kalshi', 'polymarket', 'novig', 'prophetx', 'sx_bet'].includes(l.sportsbook))) {
        expect(x.estimated_net_profit_percent).toBe(x.profit_percent);
        for (const l of x.legs as J[]) expect(l.net_stake_percent).toBe(l.stake_percent);
      }
    }
  });

  it('middles: team total fields and the other books of each side', async () => {
    const mids = (await get('/opportunities/middles?limit=200')).data as J[];
    const m = mids.find((x) => x.market_type === 'team_total' && x.side1.book === 'draftkings' && x.side2.book === 'fanduel');
    expect(m).toBeDefined();
    expect(m).toMatchObject({ market_type: 'team_total', is_team_total: true, team_name: 'Denver Nuggets', middle_size: 3 });
    expect(m!.alt_side1).toEqual([{ book: 'betmgm', odds: -115 }]);
    expect(m!.alt_side2).toEqual([{ book: 'caesars', odds: -120 }]);
  });

  it('middles: min_odds / max_odds keep middles whose both sides are in range', async () => {
    const all = (await get('/opportunities/middles?limit=200')).data as J[];
    expect(all.length).toBeGreaterThan(1);
    const within = (await get('/opportunities/middles?limit=200&min_odds=-112')).data as J[];
    // Only DraftKings (-110) with FanDuel (-110) has both sides at -112 or better: the team total and the spread.
    expect(within.map((x) => [x.market_type, x.side1.book, x.side2.book]).sort()).toEqual([
      ['point_spread', 'draftkings', 'fanduel'],
      ['team_total', 'draftkings', 'fanduel'],
    ]);
    expect((await get('/opportunities/middles?limit=200&max_odds=-200')).data as J[]).toEqual([]);
    const bad = await t.call('/opportunities/middles?min_odds=100&max_odds=-100', { key: KEYS.sharp });
    expect(bad.status).toBe(400);
    expect((await t.call('/opportunities/middles?min_odds=abc', { key: KEYS.sharp })).status).toBe(400);
    expect((await get('/opportunities/middles?min_odds=-112')).meta.filters).toMatchObject({ min_odds: -112, max_odds: null });
  });

  it('a middle that is not a team total: is_team_total false, team_name null', async () => {
    const mids = (await get('/opportunities/middles?limit=200')).data as J[];
    const spread = mids.find((x) => x.market_type === 'point_spread');
    expect(spread).toMatchObject({ is_team_total: false, team_name: null, alt_side1: null, alt_side2: null });
    for (const m of mids) expect(m.is_team_total).toBe(m.market_type === 'team_total');
  });

  it('the stream takes a live filter: live=true only live prices, live=false only pre-game ones', async () => {
    const rowsOf = async (live: string) => {
      const sse = new SseRecorder(`${t.url}/api/v1/stream?channel=odds&live=${live}&api_key=${KEYS.sharp}`);
      try {
        const connected = await sse.seen('connected');
        await sse.seen('snapshot:complete');
        return { filters: connected.data.filters, rows: sse.of('snapshot').flatMap((e) => e.data.odds as J[]) };
      } finally {
        sse.close();
      }
    };
    const live = await rowsOf('true');
    expect(live.filters.live).toBe(true);
    expect(live.rows.length).toBe(4);
    expect(live.rows.every((r) => r.is_live === true && r.league === 'nhl')).toBe(true);
    const pre = await rowsOf('false');
    expect(pre.rows.length).toBeGreaterThan(0);
    expect(pre.rows.every((r) => r.is_live === false)).toBe(true);
    expect((await t.call('/stream?live=maybe', { key: KEYS.sharp })).status).toBe(400);
  });

  it('exchange and prediction-market rows carry volume, volume_24h and open_interest; sportsbook rows null', async () => {
    const rows = (await get('/odds?sportsbook=draftkings,betfair,kalshi&league=nba&market=moneyline&limit=500')).data as J[];
    const pick = (book: string) =>
      rows.filter((r) => r.sportsbook === book && r.home_team === 'Boston Celtics').map((r) => [r.volume, r.volume_24h, r.open_interest]);
    expect(pick('betfair')).toEqual([[18250.5, 4100, null]]);
    expect(pick('kalshi')).toEqual([[52000, 9000, 31000]]);
    expect(pick('draftkings')).toEqual([[null, null, null]]);
    const bad = t.app
      .get(IngestionService)
      .ingest({ source: 'test', quotes: [{ ...quotes().find((q) => q.book === 'kalshi')!, volume: -5 }] }, NOW);
    expect(bad.rejected).toEqual({ invalid_market_data: 1 });
  });

  it('baseball rows name the starting pitchers (null when the source does not); other sports have no such field', async () => {
    const mlb = (await get('/odds?league=mlb&limit=100')).data as J[];
    expect(mlb.map((r) => [r.sportsbook, r.home_pitcher, r.away_pitcher]).sort()).toEqual([
      ['draftkings', 'Gerrit Cole', 'Garrett Crochet'],
      ['draftkings', 'Gerrit Cole', 'Garrett Crochet'],
      ['fanduel', null, null],
      ['fanduel', null, null],
    ]);
    const nbaRows = (await get('/odds?league=nba&limit=10')).data as J[];
    expect(nbaRows.some((r) => 'home_pitcher' in r)).toBe(false);
  });

  it('every envelope has updated_at', async () => {
    for (const path of [
      '/sports',
      '/leagues',
      '/sportsbooks',
      '/events',
      '/odds?limit=1',
      '/odds/best?limit=1',
      '/opportunities/ev',
      '/opportunities/arbitrage',
      '/opportunities/low_hold',
      '/opportunities/middles',
      '/opportunities/middles/summary',
      '/splits',
      '/account',
      '/account/usage',
      '/account/keys',
    ]) {
      const r = await get(path);
      expect([path, typeof r.updated_at]).toEqual([path, 'string']);
    }
  });
});

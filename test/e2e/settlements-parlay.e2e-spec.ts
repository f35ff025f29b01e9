import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { ClvService } from '../../src/modules/clv/clv.service.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { SettlementsRepository } from '../../src/modules/settlements/settlements.repository.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const START = NOW + 3600_000;
const NFL = { league: 'nfl', homeTeam: 'Kansas City Chiefs', awayTeam: 'Buffalo Bills', startTime: START };
const NBA = { league: 'nba', homeTeam: 'Boston Celtics', awayTeam: 'Los Angeles Lakers', startTime: START };

const spread = (book: string, homeLine: number, home: number, away: number, extra: Partial<Quote> = {}): Quote[] => [
  {
    ...NFL,
    book,
    marketType: 'point_spread',
    selection: NFL.homeTeam,
    selectionType: 'home',
    line: homeLine,
    price: { decimal: home },
    ...extra,
  },
  {
    ...NFL,
    book,
    marketType: 'point_spread',
    selection: NFL.awayTeam,
    selectionType: 'away',
    line: -homeLine,
    price: { decimal: away },
    ...extra,
  },
];
const total = (book: string, line: number, over: number, under: number, extra: Partial<Quote> = {}): Quote[] => [
  { ...NFL, book, marketType: 'total_points', selection: `Over ${line}`, selectionType: 'over', line, price: { decimal: over }, ...extra },
  {
    ...NFL,
    book,
    marketType: 'total_points',
    selection: `Under ${line}`,
    selectionType: 'under',
    line,
    price: { decimal: under },
    ...extra,
  },
];
const ml = (book: string, home: number, away: number, extra: Partial<Quote> = {}): Quote[] => [
  {
    ...NBA,
    book,
    marketType: 'moneyline',
    selection: NBA.homeTeam,
    selectionType: 'home',
    line: null,
    price: { american: home },
    ...extra,
  },
  {
    ...NBA,
    book,
    marketType: 'moneyline',
    selection: NBA.awayTeam,
    selectionType: 'away',
    line: null,
    price: { american: away },
    ...extra,
  },
];

/**
 * Settlements through the real pipeline (CLV_DEVIG_METHOD=multiplicative). Pinnacle prices every market 1.95 / 1.95
 * (fair 0.5 each side); DraftKings offers +EV prices the CLV track record keeps:
 *   Chiefs -7.5 at 2.10: EV 0.5 x 2.10 - 1 = +5%;   under 47.5 at 2.10: +5%;   over 48 at 2.10: +5%;
 *   Celtics +120 (Pinnacle -110 / -110, fair 0.5): EV 0.5 x 2.20 - 1 = +10%.
 * The NBA game is postponed: its signal is void. The NFL game ends 31-17: margin 14, total 48, so
 *   Chiefs -7.5: 14 - 7.5 = 6.5 > 0, won;   under 47.5: 48 > 47.5, lost;   over 48: 48 - 48 = 0, push.
 */
describe('GET /settlements (end to end, accelerated clock)', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  let ingestion: IngestionService;

  beforeAll(async () => {
    t = await startTestApp({ clock, env: { CLV_DEVIG_METHOD: 'multiplicative' } });
    ingestion = t.app.get(IngestionService);
    ingestion.ingest(
      {
        source: 'test',
        quotes: [
          ...spread('pinnacle', -7.5, 1.95, 1.95),
          ...total('pinnacle', 47.5, 1.95, 1.95),
          ...total('pinnacle', 48, 1.95, 1.95),
          ...ml('pinnacle', -110, -110),
          ...spread('draftkings', -7.5, 2.1, 1.75),
          ...total('draftkings', 47.5, 1.75, 2.1),
          ...total('draftkings', 48, 2.1, 1.75),
          ...ml('draftkings', 120, -140),
        ],
      },
      clock.now(),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists nothing before the games settle', async () => {
    await t.app.get(ClvService).settle();
    const r = await t.call('/settlements', { key: KEYS.pro });
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ total_settlements: 0, truncated: false, next_offset: null, settlements: [] });
    expect(r.json.meta).toMatchObject({
      source: 'ev_grading',
      limit: 100,
      offset: 0,
      filters: { hash_id: null, game_id: null, market_type: null, selection: null, player_id: null },
    });
    // pro: the 90-day CLV window, from the day 90 days before 2026-11-22.
    expect(r.json.meta.grading_cutoff).toBe('2026-08-24');
  });

  it('grades the finished game on its final score and voids the postponed one', async () => {
    clock.set(START - 60_000);
    ingestion.ingest({ source: 'test', quotes: [], events: [{ ...NBA, status: 'postponed' }] }, clock.now());
    clock.set(START + 30_000);
    ingestion.ingest(
      { source: 'test', quotes: [], events: [{ ...NFL, status: 'live', gameState: { home_score: 0, away_score: 0 } }] },
      clock.now(),
    );
    clock.set(START + 4 * 3600_000);
    ingestion.ingest(
      {
        source: 'test',
        quotes: [],
        events: [{ ...NFL, status: 'ended', gameState: { home_score: 31, away_score: 17, game_period: 'F' } }],
      },
      clock.now(),
    );
    await t.app.get(ClvService).settle();
    const r = await t.call('/settlements', { key: KEYS.pro });
    expect(r.status).toBe(200);
    const s = r.json.data.settlements as any[];
    expect(r.json.data.total_settlements).toBe(4);
    const by = (market: string, type: string) =>
      s.find((x) => x.market_type === market && x.selection_type === type && x.sportsbook === 'draftkings');
    expect(by('point_spread', 'home')).toMatchObject({
      outcome: 'won',
      line: -7.5,
      odds_decimal: 2.1,
      ev_percent: 5,
      game: 'Buffalo Bills @ Kansas City Chiefs',
    });
    expect(
      s
        .filter((x) => x.market_type === 'total_points')
        .map((x) => [x.selection_type, x.line, x.outcome])
        .sort(),
    ).toEqual([
      ['over', 48, 'push'],
      ['under', 47.5, 'lost'],
    ]);
    const nba = by('moneyline', 'home');
    expect(nba).toMatchObject({ outcome: 'void', void_reason: 'postponed', settled_at: null, odds_american: 120, ev_percent: 10 });
    // Newest settlement first: the graded game ended after the postponed game's start.
    expect(s[s.length - 1].outcome).toBe('void');
    expect(s.every((x) => typeof x.hash_id === 'string' && x.player_id === null)).toBe(true);
  });

  it('filters and pages', async () => {
    const all = (await t.call('/settlements', { key: KEYS.pro })).json.data.settlements as any[];
    const hash = all[0].hash_id;
    const one = await t.call(`/settlements?hash_id=${hash}`, { key: KEYS.pro });
    expect(one.json.data.settlements.map((x: any) => x.hash_id)).toEqual([hash]);
    expect(one.json.meta.filters.hash_id).toBe(hash);
    const nfl = all.find((x) => x.league === 'nfl').game_id;
    expect((await t.call(`/settlements?game_id=${nfl}`, { key: KEYS.pro })).json.data.total_settlements).toBe(3);
    expect((await t.call('/settlements?market_type=total_points', { key: KEYS.pro })).json.data.total_settlements).toBe(2);
    expect((await t.call('/settlements?selection=over%2048', { key: KEYS.pro })).json.data.total_settlements).toBe(1);
    expect((await t.call('/settlements?player_id=football_nfl_nobody', { key: KEYS.pro })).json.data.total_settlements).toBe(0);
    const p1 = await t.call('/settlements?limit=3', { key: KEYS.pro });
    expect(p1.json.data).toMatchObject({ total_settlements: 4, truncated: true, next_offset: 3 });
    const p2 = await t.call('/settlements?limit=3&offset=3', { key: KEYS.pro });
    expect(p2.json.data).toMatchObject({ total_settlements: 4, truncated: false, next_offset: null });
    expect([...p1.json.data.settlements, ...p2.json.data.settlements].map((x: any) => x.hash_id)).toEqual(all.map((x) => x.hash_id));
  });

  it('refuses bad parameters and tiers without the feature', async () => {
    for (const bad of ['limit=0', 'limit=1001', 'offset=-1', 'offset=x', 'hash_id=', 'colour=red', `game_id=${'x'.repeat(201)}`]) {
      const r = await t.call(`/settlements?${bad}`, { key: KEYS.pro });
      expect([bad, r.status]).toEqual([bad, 400]);
      expect(typeof r.json.error.code).toBe('string');
    }
    const free = await t.call('/settlements', { key: KEYS.hobby });
    expect(free.status).toBe(403);
    expect(free.json.error.code).toBe('tier_restricted');
    const ent = await t.call('/settlements', { key: KEYS.enterprise });
    expect(ent.json.meta.grading_cutoff).toBeNull();
  });

  it('answers 503 service_unavailable when the grading store cannot be read', async () => {
    const repo = t.app.get(SettlementsRepository);
    const settled = repo.settled.bind(repo);
    repo.settled = () => Promise.reject(new Error('connection refused'));
    try {
      const r = await t.call('/settlements', { key: KEYS.pro });
      expect([r.status, r.json.error.code]).toEqual([503, 'service_unavailable']);
    } finally {
      repo.settled = settled;
    }
    expect((await t.call('/settlements', { key: KEYS.pro })).status).toBe(200);
  });
});

/**
 * POST /parlay/price. Pinnacle prices the NFL spread (Chiefs -7.5) and total (47.5) at 1.95 / 1.95 and the NBA
 * moneyline at -110 / -110: every leg's fair probability is 0.5.
 * - Two games: 0.5 x 0.5 = 0.25 -> decimal 4.0, American +300.
 * - One game: the score model fitted to -7.5 (0.5) and 47.5 (0.5) has E[margin] ~ 7.5 > 0, so Cov(margin, total) > 0:
 *   P(Chiefs -7.5 and over) > 0.25 > P(Bills +7.5 and over); and as the two pairs split P(over) = 0.5 between them,
 *   their probabilities add up to 0.5.
 */
describe('POST /parlay/price (end to end)', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  const price = (body: unknown, key: string = KEYS.pro) => t.call('/parlay/price', { key, method: 'POST', body });
  const leg = (market: string, selection: string, extra: Record<string, unknown> = {}) => ({
    event_id: nflId,
    market,
    selection,
    ...extra,
  });
  let nflId = '';
  let nbaId = '';

  beforeAll(async () => {
    t = await startTestApp({ clock });
    t.app.get(IngestionService).ingest(
      {
        source: 'test',
        quotes: [
          ...spread('pinnacle', -7.5, 1.95, 1.95),
          ...total('pinnacle', 47.5, 1.95, 1.95),
          ...ml('pinnacle', -110, -110, { isLive: true }),
          ...spread('draftkings', -7.5, 1.91, 1.91),
          {
            ...NFL,
            book: 'pinnacle',
            marketType: 'player_passing_yards',
            selection: 'Over 250.5',
            selectionType: 'over',
            line: 250.5,
            playerName: 'Patrick Mahomes',
            price: { decimal: 1.9 },
          },
          {
            ...NFL,
            book: 'pinnacle',
            marketType: 'player_passing_yards',
            selection: 'Under 250.5',
            selectionType: 'under',
            line: 250.5,
            playerName: 'Patrick Mahomes',
            price: { decimal: 1.9 },
          },
        ],
      },
      clock.now(),
    );
    const events = (await t.call('/events', { key: KEYS.pro })).json.data as any[];
    nflId = events.find((e) => e.league === 'nfl').id;
    nbaId = events.find((e) => e.league === 'nba').id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('multiplies legs on different games, and warns of live legs', async () => {
    const r = await price({
      sportsbook: 'pinnacle',
      legs: [leg('point_spread', 'home'), { event_id: nbaId, market: 'moneyline', selection: 'Boston Celtics' }],
    });
    expect(r.status).toBe(200);
    expect(r.json.data.sportsbook).toBe('pinnacle');
    expect(r.json.data.parlay).toMatchObject({
      leg_count: 2,
      source: 'sharpapi_model',
      price: { odds_american: 300, odds_decimal: 4, probability: 0.25 },
    });
    expect(r.json.data.parlay.note).toContain('not a sportsbook parlay quote');
    expect(r.json.data.warnings).toEqual(['one or more legs are live; quotes move fast']);
    expect(r.json.data.legs[0]).toMatchObject({ line: -7.5, market_segment: 'full_game', player_name: null, fair_probability: 0.5 });
    expect(r.json.data.legs[1].line).toBeNull();
  });

  it('prices a same-game slip from the score model, in the direction it says', async () => {
    const fav = await price({ sportsbook: 'pinnacle', legs: [leg('point_spread', 'home'), leg('total_points', 'over')] });
    const dog = await price({ sportsbook: 'pinnacle', legs: [leg('point_spread', 'away'), leg('total_points', 'over')] });
    expect(fav.status).toBe(200);
    const pf = fav.json.data.parlay.price.probability;
    const pd = dog.json.data.parlay.price.probability;
    expect(fav.json.data.parlay.price.independent_probability).toBe(0.25);
    expect(pf).toBeGreaterThan(0.255);
    expect(pd).toBeLessThan(0.245);
    expect(pf + pd).toBeCloseTo(0.5, 4);
    expect(fav.json.data.warnings).toBeNull();
  });

  it('gives no price for legs that cannot all win', async () => {
    const r = await price({ sportsbook: 'pinnacle', legs: [leg('total_points', 'over'), leg('total_points', 'under')] });
    expect(r.status).toBe(200);
    expect(r.json.data.parlay).toMatchObject({ price: null, reason: 'mutually_exclusive', conflicting_legs: [[0, 1]], leg_count: 2 });
    expect(r.json.data.parlay.note).toContain('not a sportsbook parlay quote');
  });

  it('answers every 400 code', async () => {
    const code = async (body: unknown) => {
      const r = await price(body);
      return [r.status, r.json?.error?.code];
    };
    expect(await code({ legs: [leg('point_spread', 'home', { sportsbook: 'pinnacle' })] })).toEqual([400, 'too_few_legs']);
    expect(await code({ legs: Array.from({ length: 11 }, () => ({ odds_id: 'x' })) })).toEqual([400, 'too_many_legs']);
    expect(await code({ legs: [{ odds_id: 'nope' }, leg('point_spread', 'home', { sportsbook: 'pinnacle' })] })).toEqual([
      400,
      'unknown_leg',
    ]);
    expect(await code({ legs: [leg('point_spread', 'home'), { event_id: nbaId, market: 'moneyline', selection: 'home' }] })).toEqual([
      400,
      'ambiguous_leg',
    ]);
    expect(
      await code({ sportsbook: 'pinnacle', legs: [leg('total_points', 'over'), leg('player_passing_yards', 'over', { line: 250.5 })] }),
    ).toEqual([400, 'correlation_unsupported']);
    for (const bad of [
      {},
      { legs: 'x' },
      { legs: [1, 2] },
      { legs: [{ line: 'a' }, { odds_id: 'y' }] },
      { legs: [{ market: 'moneyline' }, { odds_id: 'y' }] },
    ]) {
      expect(await code(bad)).toEqual([400, 'invalid_request']);
    }
    const hobby = await price({ legs: [] }, KEYS.hobby);
    expect([hobby.status, hobby.json.error.code]).toEqual([403, 'tier_restricted']);
  });
});

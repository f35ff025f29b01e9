import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { KEYS, SERVICES, startTestApp, type TestApp } from '../support/test-app.js';
import { CELTICS_TEAM, gameQuote } from '../factories/quotes.js';

const NOW = Date.parse('2026-11-22T18:00:00Z');
const H = 3600_000;

/** A small hand-built market: two NBA games (one live), one EPL game, one NHL game. */
function market(): Quote[] {
  const q: Quote[] = [];
  const add = (league: string, home: string, away: string, start: number, book: string, rows: Array<Partial<Quote>>, live = false) => {
    for (const r of rows) q.push(gameQuote(book, league, home, away, start, { isLive: live, ...r }));
  };
  const ml = (home: string, away: string, h: number, a: number): Array<Partial<Quote>> => [
    { selection: home, selectionType: 'home', price: { american: h } },
    { selection: away, selectionType: 'away', price: { american: a } },
  ];
  add('nba', 'Boston Celtics', 'Los Angeles Lakers', NOW + 2 * H, 'draftkings', [
    ...ml('Boston Celtics', 'Los Angeles Lakers', -150, 130),
    { marketType: 'point_spread', selection: 'Boston Celtics', line: -3.5 },
    { marketType: 'point_spread', selection: 'Los Angeles Lakers', selectionType: 'away', line: 3.5 },
  ]);
  add('nba', 'Boston Celtics', 'Los Angeles Lakers', NOW + 2 * H, 'fanduel', ml('BOS Celtics', 'LA Lakers', -145, 125));
  add('nba', 'Boston Celtics', 'Los Angeles Lakers', NOW + 2 * H, 'pinnacle', ml('Boston Celtics', 'Los Angeles Lakers', -140, 128));
  add('nba', 'Denver Nuggets', 'Phoenix Suns', NOW - H, 'draftkings', ml('Denver Nuggets', 'Phoenix Suns', -300, 240), true);
  add('epl', 'Arsenal', 'Chelsea', NOW + 26 * H, 'bet365', [
    { selection: 'Arsenal', price: { decimal: 1.9 } },
    { selection: 'Draw', selectionType: 'draw', price: { decimal: 3.6 } },
    { selection: 'Chelsea', selectionType: 'away', price: { decimal: 4.2 } },
    { marketType: 'total_points', selection: 'Over', selectionType: 'over', line: 2.5, price: { decimal: 1.8 } },
    { marketType: 'total_points', selection: 'Under', selectionType: 'under', line: 2.5, price: { decimal: 2.05 } },
  ]);
  add(
    'nhl',
    'Toronto Maple Leafs',
    'Montreal Canadiens',
    NOW + 3 * H,
    'betmgm',
    ml('Toronto Maple Leafs', 'Montreal Canadiens', -160, 135),
  );
  return q;
}

describe('market data endpoints (end to end)', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);

  beforeAll(async () => {
    t = await startTestApp({ clock });
    const ingestion = t.app.get(IngestionService);
    const report = ingestion.ingest({
      source: 'test',
      quotes: market(),
      events: [
        {
          league: 'nba',
          homeTeam: 'Denver Nuggets',
          awayTeam: 'Phoenix Suns',
          startTime: NOW - H,
          status: 'live',
          gameState: { home_score: 55, away_score: 48, game_period: 'Q3' },
        },
      ],
    });
    expect(report.rejected).toEqual({});
  });
  afterAll(async () => {
    await t.close();
  });

  describe('sports', () => {
    it('works without a key and counts events from the board', async () => {
      const r = await t.call('/sports');
      expect(r.status).toBe(200);
      const byId = Object.fromEntries(r.json.data.map((s: any) => [s.id, s]));
      expect(Object.keys(byId).sort()).toEqual(['basketball', 'hockey', 'soccer']);
      expect(byId.basketball).toMatchObject({
        event_count: 2,
        live_count: 1,
        leagues: ['nba'],
        slug: 'basketball',
        active: true,
        numerical_id: 1,
      });
      expect(byId.soccer.event_count).toBe(1);
    });
    it('lists every catalog sport with include_empty', async () => {
      const r = await t.call('/sports?include_empty=true', { key: KEYS.pro });
      expect(r.json.data).toHaveLength(19);
    });
    it('refuses an invalid key even where a key is optional', async () => {
      expect((await t.call('/sports', { key: 'sk_wrong_12345678' })).status).toBe(401);
    });
    it('answers one sport and 404 for an unknown one', async () => {
      expect((await t.call('/sports/hockey', { key: KEYS.pro })).json.data).toMatchObject({ id: 'hockey', event_count: 1 });
      expect((await t.call('/sports/quidditch', { key: KEYS.pro })).json.error.code).toBe('not_found');
    });
    it('rejects a bad include_empty', async () => {
      const r = await t.call('/sports?include_empty=perhaps');
      expect(r.status).toBe(400);
      expect(r.json.error.message).toMatch(/include_empty/);
    });
  });

  describe('leagues', () => {
    it('filters by sport and counts', async () => {
      const r = await t.call('/leagues?sport=basketball', { key: KEYS.pro });
      expect(r.json.data.map((l: any) => [l.id, l.event_count, l.live_count])).toEqual([['nba', 2, 1]]);
      const all = await t.call('/leagues?include_empty=true', { key: KEYS.pro });
      expect(all.json.data.length).toBeGreaterThanOrEqual(12);
      expect((await t.call('/leagues?sport=cricketball', { key: KEYS.pro })).status).toBe(400);
    });
    it('resolves aliases on /leagues/{id}', async () => {
      expect((await t.call('/leagues/soccer_epl', { key: KEYS.pro })).json.data).toMatchObject({ id: 'epl', event_count: 1 });
      expect((await t.call('/leagues/nope', { key: KEYS.pro })).status).toBe(404);
    });
  });

  describe('sportsbooks', () => {
    it('needs a key', async () => {
      expect((await t.call('/sportsbooks')).status).toBe(401);
    });
    it('lists books with data by default, with meta', async () => {
      const r = await t.call('/sportsbooks', { key: KEYS.pro });
      expect(r.json.data.map((b: any) => b.id).sort()).toEqual(['bet365', 'betmgm', 'draftkings', 'fanduel', 'pinnacle']);
      expect(r.json.meta).toMatchObject({ count: 5, total: 5, filters: { catalog: false } });
      expect(r.json.meta.pagination).toMatchObject({ limit: 5, offset: 0, has_more: false });
      const dk = r.json.data.find((b: any) => b.id === 'draftkings');
      expect(dk).toMatchObject({
        numerical_id: 12,
        status: 'active',
        event_count: 2,
        requires_tier: null,
        slug: 'draftkings',
        active: true,
        last_update: new Date(NOW).toISOString(),
      });
    });
    it('gives the catalog: 26 listed books, 23 open below the sharp tier, 42 with unlisted', async () => {
      const c = await t.call('/sportsbooks?catalog=true', { key: KEYS.pro });
      expect(c.json.data).toHaveLength(26);
      expect(c.json.data.filter((b: any) => b.requires_tier === null)).toHaveLength(23);
      expect(
        c.json.data
          .filter((b: any) => b.requires_tier === 'sharp')
          .map((b: any) => b.id)
          .sort(),
      ).toEqual(['circa', 'pinnacle', 'prophetx']);
      expect((await t.call('/sportsbooks?catalog=true&include_unlisted=true', { key: KEYS.pro })).json.data).toHaveLength(42);
      const inactive = await t.call('/sportsbooks?include_inactive=true', { key: KEYS.pro });
      expect(inactive.json.data.find((b: any) => b.id === 'kalshi')).toMatchObject({
        status: 'inactive',
        event_count: 0,
        last_update: null,
      });
    });
    it('filters by region and sharpness and validates them', async () => {
      const uk = await t.call('/sportsbooks?catalog=true&region=UK', { key: KEYS.pro });
      expect(uk.json.data.every((b: any) => b.regions.includes('UK'))).toBe(true);
      expect(uk.json.data.length).toBeGreaterThan(0);
      const sharp = await t.call('/sportsbooks?catalog=true&sharp=true', { key: KEYS.pro });
      expect(sharp.json.data.every((b: any) => b.is_sharp)).toBe(true);
      expect((await t.call('/sportsbooks?region=MARS', { key: KEYS.pro })).status).toBe(400);
    });
    it('answers one book and 404', async () => {
      expect((await t.call('/sportsbooks/pinnacle', { key: KEYS.pro })).json.data).toMatchObject({
        id: 'pinnacle',
        numerical_id: 28,
        is_sharp: true,
      });
      expect((await t.call('/sportsbooks/nobook', { key: KEYS.pro })).status).toBe(404);
    });
  });

  describe('markets and teams', () => {
    it('lists the market types with live counts', async () => {
      const r = await t.call('/markets', { key: KEYS.pro });
      const byId = Object.fromEntries(r.json.data.map((m: any) => [m.id, m]));
      for (const id of ['moneyline', 'point_spread', 'total_points', 'player_prop']) expect(byId[id]).toBeDefined();
      expect(byId.moneyline).toMatchObject({ numerical_id: 878, hasLine: false, event_count: 4 });
      expect(byId.point_spread).toMatchObject({ event_count: 1, selection_count: 2, sports: ['basketball'] });
    });
    it('lists teams with aliases, filters and counts', async () => {
      const all = await t.call('/teams', { key: KEYS.pro });
      expect(all.json.data.length).toBeGreaterThanOrEqual(50);
      expect(all.json.data.every((x: any) => Array.isArray(x.aliases))).toBe(true);
      const lakers = await t.call('/teams?q=lakers', { key: KEYS.pro });
      expect(lakers.json.data.map((x: any) => x.id)).toEqual(['los-angeles-lakers']);
      expect(lakers.json.data[0]).toMatchObject({ numerical_id: 14, event_count: 1, live_count: 0, leagues: ['nba'] });
      const nhl = await t.call('/teams?league=nhl', { key: KEYS.pro });
      expect(nhl.json.data).toHaveLength(32);
      expect(nhl.json.meta).toMatchObject({ league_filter: 'nhl', count: 32 });
      expect((await t.call('/teams?league=xyz', { key: KEYS.pro })).status).toBe(400);
    });
  });

  describe('events', () => {
    it('lists events sorted by start with derived fields and reference blocks', async () => {
      const r = await t.call('/events', { key: KEYS.pro });
      expect(r.status).toBe(200);
      expect(r.json.meta).toMatchObject({ count: 4, total: 4 });
      expect(r.json.data.map((e: any) => e.id)).toEqual([
        'nba_nuggets_suns_2026-11-22_b2',
        'nba_celtics_lakers_2026-11-22_b2',
        'nhl_canadiens_mapleleafs_2026-11-22_b2',
        'epl_arsenal_chelsea_2026-11-23_b3',
      ]);
      const celtics = r.json.data[1];
      expect(celtics).toMatchObject({
        sport: 'basketball',
        league: 'nba',
        home_team: 'Boston Celtics',
        away_team: 'Los Angeles Lakers',
        status: 'upcoming',
        is_live: false,
        book_count: 3,
        books: ['draftkings', 'fanduel', 'pinnacle'],
        markets: ['moneyline', 'point_spread'],
      });
      expect(celtics.home).toEqual(CELTICS_TEAM);
      expect(celtics.sport_ref).toMatchObject({ id: 'basketball', numerical_id: 1 });
      expect(celtics.league_ref).toMatchObject({ id: 'nba', numerical_id: 87 });
      expect(r.json.data[0]).toMatchObject({ status: 'live', is_live: true });
    });
    it.each([
      ['live=true', ['nba_nuggets_suns_2026-11-22_b2']],
      ['live=false&sport=basketball', ['nba_celtics_lakers_2026-11-22_b2']],
      ['league=nhl,soccer_epl', ['nhl_canadiens_mapleleafs_2026-11-22_b2', 'epl_arsenal_chelsea_2026-11-23_b3']],
      ['sportsbook=pinnacle', ['nba_celtics_lakers_2026-11-22_b2']],
      ['has_score=true', ['nba_nuggets_suns_2026-11-22_b2']],
      ['team=LAL', ['nba_celtics_lakers_2026-11-22_b2']],
      ['team=canadiens', ['nhl_canadiens_mapleleafs_2026-11-22_b2']],
      ['q=premier', ['epl_arsenal_chelsea_2026-11-23_b3']],
      ['date=2026-11-23', ['epl_arsenal_chelsea_2026-11-23_b3']],
      ['limit=2&offset=1', ['nba_celtics_lakers_2026-11-22_b2', 'nhl_canadiens_mapleleafs_2026-11-22_b2']],
    ])('filters %s', async (qs, ids) => {
      const r = await t.call(`/events?${qs}`, { key: KEYS.pro });
      expect(r.status).toBe(200);
      expect(r.json.data.map((e: any) => e.id)).toEqual(ids);
    });
    it('paginates with has_more and next_offset', async () => {
      const r = await t.call('/events?limit=3', { key: KEYS.pro });
      expect(r.json.pagination).toEqual({ limit: 3, offset: 0, has_more: true, next_offset: 3 });
    });
    it.each([
      'limit=abc',
      'limit=0',
      'limit=501',
      'offset=-1',
      'live=maybe',
      'date=22-11-2026',
      'sport=curlingx',
      'sportsbook=nobook',
      'colour=red',
    ])('refuses %s with 400', async (qs) => {
      const r = await t.call(`/events?${qs}`, { key: KEYS.pro });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('invalid_request');
    });
    it('refuses offset past 5000 with offset_too_large', async () => {
      const r = await t.call('/events?offset=5001', { key: KEYS.pro });
      expect(r.json.error.code).toBe('offset_too_large');
      expect(r.json.max_offset).toBe(5000);
    });
    it('needs a key', async () => {
      expect((await t.call('/events')).status).toBe(401);
    });
    it('answers one event, its markets, and 404', async () => {
      const one = await t.call('/events/epl_arsenal_chelsea_2026-11-23_b3', { key: KEYS.pro });
      expect(one.json.data).toMatchObject({
        id: 'epl_arsenal_chelsea_2026-11-23_b3',
        markets: ['moneyline', 'total_points'],
        books: ['bet365'],
      });
      const m = await t.call('/events/epl_arsenal_chelsea_2026-11-23_b3/markets', { key: KEYS.pro });
      expect(m.json.data).toEqual(['moneyline', 'total_points']);
      expect((await t.call('/events/nope_nope_2026-01-01_b0', { key: KEYS.pro })).status).toBe(404);
      expect((await t.call('/events/nope_nope_2026-01-01_b0/markets', { key: KEYS.pro })).status).toBe(404);
    });
    it('points /events/search at /events with 410', async () => {
      const r = await t.call('/events/search', { key: KEYS.pro });
      expect(r.status).toBe(410);
      expect(r.json).toMatchObject({ error: { code: 'unknown_endpoint' }, correct_endpoint: '/api/v1/events' });
    });
  });

  describe('the free tier sees the board 60 s late', () => {
    it('shows a new event to pro at once and to free only after 60 s', async () => {
      const ingestion = t.app.get(IngestionService);
      ingestion.ingest({
        source: 'test',
        quotes: [
          {
            book: 'draftkings',
            league: 'nhl',
            homeTeam: 'Boston Bruins',
            awayTeam: 'New York Rangers',
            startTime: NOW + 5 * H,
            marketType: 'moneyline',
            selection: 'Boston Bruins',
            selectionType: 'home',
            price: { american: -120 },
          },
        ],
      });
      const id = 'nhl_bruins_rangers_2026-11-22_b3';
      expect((await t.call(`/events/${id}`, { key: KEYS.pro })).status).toBe(200);
      expect((await t.call(`/events/${id}`, { key: KEYS.free })).status).toBe(404);
      clock.advance(59_000);
      expect((await t.call(`/events/${id}`, { key: KEYS.free })).status).toBe(404);
      clock.advance(1_000);
      expect((await t.call(`/events/${id}`, { key: KEYS.free })).status).toBe(200);
    });
  });

  describe('anonymous /sports budget', () => {
    it('allows 10 requests a minute per address, and a forged X-Forwarded-For does not buy more', async () => {
      clock.advance(60_000); // a fresh window (in memory; Redis keeps its own time, so earlier calls may count)
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await t.call('/sports', { headers: { 'X-Forwarded-For': `203.0.113.${i}` } })).status);
      const first429 = statuses.indexOf(429);
      expect(first429).toBeGreaterThan(0);
      expect(first429).toBeLessThanOrEqual(10);
      expect(statuses.slice(0, first429).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(first429).every((s) => s === 429)).toBe(true);
      if (!SERVICES) expect(first429).toBe(10);
      // A key is its own budget.
      expect((await t.call('/sports', { key: KEYS.pro })).status).toBe(200);
    });
  });
});

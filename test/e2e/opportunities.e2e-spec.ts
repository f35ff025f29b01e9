import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';
import { chiefsBills, knownOpportunities, NOW } from '../factories/quotes.js';

/** The board (knownOpportunities, with Packers v Bears priced alike by every book): its opportunities are worked out there. */
const market = () => knownOpportunities({ quietGame: true });

type J = Record<string, any>;

describe('opportunity endpoints (end to end, on a board with known opportunities)', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  const get = (path: string, key: string = KEYS.sharp) => t.call(path, { key });

  beforeAll(async () => {
    t = await startTestApp({ clock });
    const r = t.app.get(IngestionService).ingest({ source: 'test', quotes: market() }, NOW, { backfill: true });
    expect(r.rejected).toEqual({});
  });
  afterAll(async () => {
    await t.close();
  });

  describe('tier gates', () => {
    it.each([
      ['/opportunities/ev', { free: 403, hobby: 403, pro: 200, sharp: 200, enterprise: 200 }],
      ['/opportunities/arbitrage', { free: 403, hobby: 200, pro: 200, sharp: 200, enterprise: 200 }],
      ['/opportunities/middles', { free: 403, hobby: 403, pro: 200, sharp: 200, enterprise: 200 }],
      ['/opportunities/middles/summary', { free: 403, hobby: 403, pro: 200, sharp: 200, enterprise: 200 }],
      ['/opportunities/low_hold', { free: 403, hobby: 200, pro: 200, sharp: 200, enterprise: 200 }],
    ] as const)('%s', async (path, expected) => {
      for (const [tier, status] of Object.entries(expected)) {
        const key = tier === 'free' ? await t.newKey('free') : KEYS[tier as keyof typeof KEYS];
        const r = await get(path, key);
        expect([tier, r.status]).toEqual([tier, status]);
        if (status === 403) {
          expect(r.json.error.code).toBe('tier_restricted');
          expect(r.json.required_tier).toMatch(/hobby|pro/);
        }
      }
    });
    it('needs a key', async () => {
      expect((await t.call('/opportunities/arbitrage')).status).toBe(401);
    });
    it('refuses arbitrage when the account flag is off', async () => {
      const h = { 'X-Admin-Token': t.adminToken };
      const created = await t.call('/admin/keys', { method: 'POST', body: { tier: 'pro' }, headers: h });
      await t.call(`/admin/keys/${created.json.data.id}/arbitrage`, { method: 'POST', body: { enabled: false }, headers: h });
      const r = await get('/opportunities/arbitrage', created.json.data.key);
      expect(r.status).toBe(403);
      expect(r.json.error).toMatchObject({ code: 'feature_disabled', feature: 'arbitrage', tier: 'pro' });
      expect(r.json.error.message).toMatch(/disabled for this account/);
      expect(r.json.required_tier).toBeUndefined();
      expect((await get('/opportunities/ev', created.json.data.key)).status).toBe(200);
    });
  });

  describe('arbitrage', () => {
    it("lists exactly the known arbitrages per tier scope, with the spec's arithmetic", async () => {
      const sharp = (await get('/opportunities/arbitrage?min_profit=0')).json;
      expect(sharp.data.map((a: J) => a.event_id).sort()).toEqual(['nfl_bills_chiefs_2026-11-23_b2', 'nfl_cowboys_eagles_2026-11-24_b2']);
      const chiefs = sharp.data.find((a: J) => a.event_id.startsWith('nfl_bills'));
      expect(chiefs.legs.map((l: J) => [l.sportsbook, l.selection, l.odds_american])).toEqual([
        ['draftkings', 'Kansas City Chiefs', 110],
        ['fanduel', 'Buffalo Bills', 104],
      ]);
      expect(chiefs.implied_total).toBeCloseTo(96.6386, 3);
      expect(chiefs.profit_percent).toBeCloseTo(3.4783, 3);
      expect(chiefs.profit_percent).toBeCloseTo(10_000 / chiefs.implied_total - 100, 3);
      expect(chiefs.legs.map((l: J) => l.stake_percent)).toEqual([expect.closeTo(49.2754, 3), expect.closeTo(50.7246, 3)]);
      const eagles = sharp.data.find((a: J) => a.event_id.startsWith('nfl_cowboys'));
      expect(eagles.profit_percent).toBeCloseTo(4.5331, 3);
      expect(eagles.legs.map((l: J) => l.sportsbook)).toEqual(['draftkings', 'pinnacle']);
      expect(chiefs).toMatchObject({
        market_type: 'moneyline',
        line: null,
        is_live: false,
        sport: 'football',
        league: 'nfl',
        event_name: 'Buffalo Bills @ Kansas City Chiefs',
        ev_available: true,
        is_alternate_line: false,
        possibly_stale: false,
      });
      expect(chiefs.legs[0].home).toMatchObject({ id: 'kansas_city_chiefs', numerical_id: 11 });
      expect(chiefs.legs[0].sportsbook_ref).toMatchObject({ id: 'draftkings', numerical_id: 12 });
      expect(sharp.meta).toMatchObject({ source: 'cache', summary: { count: 2, by_sport: { football: 2 } }, books_analyzed: 42 });
      const hobby = (await get('/opportunities/arbitrage?min_profit=0', KEYS.hobby)).json;
      expect(hobby.data.map((a: J) => a.id)).toEqual([chiefs.id]);
      expect(hobby.meta.books_analyzed).toBe(5);
      const pro = (await get('/opportunities/arbitrage', KEYS.pro)).json;
      expect(pro.data.map((a: J) => a.id)).toEqual([chiefs.id]);
    });

    it('filters by min_profit, sport, market, team and live', async () => {
      expect((await get('/opportunities/arbitrage?min_profit=4')).json.data.map((a: J) => a.profit_percent)).toEqual([
        expect.closeTo(4.5331, 3),
      ]);
      expect((await get('/opportunities/arbitrage?min_profit=5')).json.data).toEqual([]);
      expect((await get('/opportunities/arbitrage?min_profit=0&sport=basketball')).json.data).toEqual([]);
      expect((await get('/opportunities/arbitrage?min_profit=0&market=spread')).json.data).toEqual([]);
      expect((await get('/opportunities/arbitrage?min_profit=0&team=cowboys')).json.data).toHaveLength(1);
      expect((await get('/opportunities/arbitrage?min_profit=0&live=true')).json.data).toEqual([]);
      expect((await get('/opportunities/arbitrage?min_profit=0&sportsbook=draftkings,fanduel')).json.data).toHaveLength(1);
      expect((await get('/opportunities/arbitrage?min_profit=0&sportsbook=draftkings,betmgm')).json.data).toEqual([]);
    });

    it('sorts, groups and pages', async () => {
      const byProfit = (await get('/opportunities/arbitrage?min_profit=0')).json.data.map((a: J) => a.profit_percent);
      expect(byProfit).toEqual([...byProfit].sort((a: number, b: number) => b - a));
      const rev = (await get('/opportunities/arbitrage?min_profit=0&sort=-profit')).json.data.map((a: J) => a.profit_percent);
      expect(rev).toEqual([...byProfit].reverse());
      const byStart = (await get('/opportunities/arbitrage?min_profit=0&sort=start_time')).json.data.map((a: J) => a.start_time);
      expect(byStart).toEqual([...byStart].sort());
      expect((await get('/opportunities/arbitrage?min_profit=0&group=best')).json.data).toHaveLength(2);
      const p = (await get('/opportunities/arbitrage?min_profit=0&limit=1&offset=1')).json;
      expect(p.data).toHaveLength(1);
      expect(p.pagination).toEqual({ limit: 1, offset: 1, has_more: false, next_offset: null });
    });

    it.each([
      'limit=501',
      'offset=5001',
      'min_profit=abc',
      'format=xml',
      'group=worst',
      'sort=value',
      'date_range=yesterday',
      'max_odds_age=-1',
    ])('refuses %s', async (qs) => {
      expect((await get(`/opportunities/arbitrage?${qs}`)).status).toBe(400);
    });

    it("exports the spec's CSV", async () => {
      const res = await fetch(`${t.url}/api/v1/opportunities/arbitrage?format=csv&min_profit=0`, { headers: { 'X-API-Key': KEYS.sharp } });
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="arbitrage_2026-11-22.csv"');
      const lines = (await res.text()).trim().split('\r\n');
      expect(lines[0]).toBe(
        'event,sport,market,line,profit%,implied_total,book1,selection1,odds1,stake1%,book2,selection2,odds2,stake2%,is_live,is_alternate_line,possibly_stale,warnings,detected_at',
      );
      expect(lines).toHaveLength(3);
      expect(lines[1]).toBe(
        'Dallas Cowboys @ Philadelphia Eagles,football,moneyline,,4.5331,95.6635,draftkings,Philadelphia Eagles,-105,53.5408,pinnacle,Dallas Cowboys,125,46.4592,false,false,false,,2026-11-22T12:00:00.000Z',
      );
      expect(lines[2]).toMatch(
        /^Buffalo Bills @ Kansas City Chiefs,football,moneyline,,3\.478\d*,96\.638\d*,draftkings,Kansas City Chiefs,110,49\.275\d*,fanduel,Buffalo Bills,104,50\.724\d*,false,false,false,,2026-11-22T12:00:00\.000Z$/,
      );
    });

    it('keeps id and detected_at while the arbitrage lives, and expires it when the price moves away', async () => {
      const before = (await get('/opportunities/arbitrage?min_profit=0&team=chiefs')).json.data[0];
      const ingestion = t.app.get(IngestionService);
      clock.advance(5000);
      ingestion.ingest({ source: 'test', quotes: [chiefsBills('draftkings', { price: { american: 112 } })] });
      const during = (await get('/opportunities/arbitrage?min_profit=0&team=chiefs')).json.data[0];
      expect(during.id).toBe(before.id);
      expect(during.detected_at).toBe(before.detected_at);
      expect(during.legs[0].odds_american).toBe(112);
      clock.advance(5000);
      ingestion.ingest({ source: 'test', quotes: [chiefsBills('draftkings', { price: { american: -115 } })] });
      expect((await get('/opportunities/arbitrage?min_profit=0&team=chiefs')).json.data).toEqual([]);
      clock.advance(5000);
      ingestion.ingest({ source: 'test', quotes: [chiefsBills('draftkings', { price: { american: 110 } })] });
      const again = (await get('/opportunities/arbitrage?min_profit=0&team=chiefs')).json.data[0];
      expect(again.id).toBe(before.id);
      expect(again.detected_at).toBe(new Date(clock.now()).toISOString());
    });
  });

  describe('+EV', () => {
    it('prices the soft books against the devigged Pinnacle line, one item per book, highest EV first', async () => {
      const r = (await get('/opportunities/ev?team=chiefs&market=moneyline', KEYS.pro)).json;
      expect(r.data.map((e: J) => [e.sportsbook, e.selection_type])).toEqual([
        ['draftkings', 'home'],
        ['fanduel', 'away'],
      ]);
      const [dk, fd] = r.data;
      // Pinnacle -105/-105 devigs to 0.5 / 0.5 by every method
      expect(dk.fair_probability).toBeCloseTo(0.5, 6);
      expect(dk.ev_percentage).toBeCloseTo(5, 3);
      expect(fd.ev_percentage).toBeCloseTo(2.0, 3);
      expect(dk).toMatchObject({
        sharp_book: 'pinnacle',
        devig_method: 'power',
        no_vig_odds: 100,
        market_width: 10,
        book_count: 3,
        arb_available: true,
        game: 'Buffalo Bills @ Kansas City Chiefs',
        game_id: 'nfl_bills_chiefs_2026-11-23_b2',
      });
      // full Kelly: (0.5 x 2.1 - 1) / (2.1 - 1) = 0.045455
      expect(dk.kelly_percent).toBeCloseTo(0.045455, 5);
      expect(r.meta.summary).toMatchObject({ count: 2, by_sportsbook: { draftkings: 1, fanduel: 1 } });
    });
    it('echoes the devig method and honours min_ev', async () => {
      const r = (await get('/opportunities/ev?devig_method=shin&min_ev=3')).json;
      expect(r.data.map((e: J) => e.devig_method)).toEqual(r.data.map(() => 'shin'));
      expect(r.data.every((e: J) => e.ev_percentage >= 3)).toBe(true);
      expect((await get('/opportunities/ev?devig_method=magic')).status).toBe(400);
    });
    it('sorts by each allowed key', async () => {
      for (const s of ['ev', 'odds', 'confidence', 'start_time', 'kelly', '-ev'])
        expect((await get(`/opportunities/ev?sort=${s}`)).status).toBe(200);
      const ev = (await get('/opportunities/ev?sort=-ev')).json.data.map((e: J) => e.ev_percentage);
      expect(ev).toEqual([...ev].sort((a: number, b: number) => a - b));
    });
  });

  describe('middles', () => {
    it('finds the Chiefs -2.5 / Bills +7.5 middle and nothing else', async () => {
      const r = (await get('/opportunities/middles', KEYS.pro)).json;
      expect(r.data).toHaveLength(1);
      const m = r.data[0];
      expect(m.id).toMatch(/^[0-9a-f]{16}$/);
      expect([m.side1.book, m.side1.line, m.side2.book, m.side2.line]).toEqual(['draftkings', -2.5, 'fanduel', 7.5]);
      expect(m).toMatchObject({
        middle_size: 5,
        middle_numbers: [3, 4, 5, 6, 7],
        key_numbers: [3, 7],
        is_guaranteed_profit: false,
        guaranteed_roi: null,
        market_type: 'point_spread',
      });
      expect(m.warnings).toEqual(expect.arrayContaining(['HIGH_PROBABILITY', 'LARGE_GAP']));
      expect(m.side1.odds).toMatchObject({ american: -110, decimal: 1.9091 });
      expect(m.side1.stake_percent + m.side2.stake_percent).toBeCloseTo(100, 6);
      expect(r.meta).toMatchObject({ count: 1, total: 1, source: 'cache', summary: { count: 1 }, filters: { min_size: 0.5 } });
      expect((await get('/opportunities/middles?min_size=6', KEYS.pro)).json.data).toEqual([]);
    });
    it('looks a middle up by id: 400 malformed, 404 unknown', async () => {
      const id = (await get('/opportunities/middles', KEYS.pro)).json.data[0].id;
      expect((await get(`/opportunities/middles/${id}`, KEYS.pro)).json.data.id).toBe(id);
      expect((await get('/opportunities/middles/not-hex', KEYS.pro)).status).toBe(400);
      expect((await get('/opportunities/middles/ABCDEF0123456789', KEYS.pro)).status).toBe(400);
      expect((await get('/opportunities/middles/00000000000000ff', KEYS.pro)).status).toBe(404);
    });
    it('summarises', async () => {
      const s = (await get('/opportunities/middles/summary', KEYS.pro)).json.data;
      expect(s).toMatchObject({
        total: 1,
        guaranteed_profit_count: 0,
        player_prop_count: 0,
        by_sport: { football: 1 },
        by_market: { point_spread: 1 },
        by_sportsbook: { draftkings: 1, fanduel: 1 },
        avg_middle_size: 5,
        has_key_numbers_count: 1,
      });
      expect(s.best_ev).toMatchObject({ sport: 'football', market: 'point_spread' });
    });
  });

  describe('low-hold', () => {
    it('lists markets whose best prices hold at most 5%, lowest first', async () => {
      const r = (await get('/opportunities/low_hold', KEYS.hobby)).json;
      const holds = r.data.map((h: J) => h.hold_percentage);
      expect(holds).toEqual([...holds].sort((a: number, b: number) => a - b));
      expect(holds.every((h: number) => h <= 5)).toBe(true);
      const chiefs = r.data.find((h: J) => h.event_id.startsWith('nfl_bills') && h.market_type === 'moneyline');
      expect(chiefs.hold_percentage).toBeCloseTo(-3.3614, 3);
      expect(chiefs.side1).toMatchObject({ books: ['draftkings'], odds: { american: 110, decimal: 2.1 } });
      expect(chiefs.side3).toBeNull();
      // Packers v Bears: -110 everywhere holds 4.76 %
      const packers = r.data.find((h: J) => h.event_id.includes('packers'));
      expect(packers.hold_percentage).toBeCloseTo(4.7619, 3);
      expect((await get('/opportunities/low_hold?max_hold=0', KEYS.hobby)).json.data.every((h: J) => h.hold_percentage <= 0)).toBe(true);
      expect((await get('/opportunities/low_hold?max_hold=9', KEYS.hobby)).status).toBe(400);
    });
  });
});

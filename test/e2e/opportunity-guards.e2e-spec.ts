import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';
import { arsenalChelsea, KICK, NOW, nuggetsLakers } from '../factories/quotes.js';

/**
 * Opportunity guards end to end: real-shaped quotes go in through POST /admin/ingest (as an operator's import
 * does), the REST lists come out. What a careful human accepts is written here before anything runs (the
 * numbers are worked out in the comments; src/modules/opportunity-guards.spec.ts has the same
 * traps at detector level).
 */

const HOSTILE = '=HYPERLINK("http://evil.example/steal","click")';
type J = Record<string, any>;

const epl = arsenalChelsea;
const nba = nuggetsLakers;
const ou = (
  base: (book: string, over: Partial<Quote>) => Quote,
  book: string,
  extra: Partial<Quote>,
  over: Quote['price'],
  under: Quote['price'],
): Quote[] => [
  base(book, { ...extra, selection: 'Over', selectionType: 'over', price: over }),
  base(book, { ...extra, selection: 'Under', selectionType: 'under', price: under }),
];

/**
 * 1. Bukayo Saka goals over/under 1.5: Betfair's own 10.75 / 1.14 sums to 97.02% (a self-arbitrage). With it,
 *    bet365 over 11.0 + Betfair under 1.14 = 96.8102%, a 3.2949% arbitrage; without it no arbitrage, and the
 *    best sound prices (bet365 11.0, Ladbrokes 1.06) hold 3.4305%.
 * 2. Nuggets v Lakers total: six books' main line 224.5 at -110 / -110; on 220.5 four books say -155..-165 /
 *    +125..+130 and Bovada posts -110 / -110 (its 224.5 prices, mislabelled): Bovada over + Caesars under +130 =
 *    95.8590%, a 4.3199% arbitrage, out of the default list and listed with PRICE_OFF_CONSENSUS on request.
 * 3. Nuggets v Lakers moneyline: Pinnacle -105 / +110 crosses itself (98.84%), so Circa -115 / -105 is the sharp
 *    reference: power devig 0.511602 / 0.488398; DraftKings +104 is +4.3668% (SINGLE_SHARP_REF).
 * 4. Arsenal v Chelsea three-way: Kalshi contracts 0.44 / "Reg Time: Tie" 0.277 / 0.278 = 99.5008%, a 0.5017%
 *    arbitrage on one venue; against Pinnacle 2.25 / 3.45 / 3.40 (power: 0.434920 / 0.280423 / 0.284658) the tie
 *    is +1.2354% and Chelsea +2.3942%.
 * 5. Chiefs v a team named like a spreadsheet formula: DraftKings Chiefs -105 (1.9524) + FanDuel +115 (2.15) on
 *    the other side = 0.512190 + 0.465116 = 97.7306%, a 2.3221% arbitrage: the CSV export must not hand the
 *    formula to a spreadsheet.
 */
function quotes(): Quote[] {
  const saka = { marketType: 'player_goals', playerName: 'Bukayo Saka', statCategory: 'goals', line: 1.5 };
  const goals = (book: string, o: number, u: number) => ou(epl, book, saka, { decimal: o }, { decimal: u });
  const total = (book: string, line: number, o: number, u: number) =>
    ou(nba, book, { marketType: 'total_points', line }, { american: o }, { american: u });
  const ml = (book: string, h: number, a: number) => [
    nba(book, { price: { american: h } }),
    nba(book, { selection: 'Los Angeles Lakers', selectionType: 'away', price: { american: a } }),
  ];
  const three = (book: string, h: number, d: number, a: number) => [
    epl(book, { price: { decimal: h } }),
    epl(book, { selection: 'Draw', selectionType: 'draw', price: { decimal: d } }),
    epl(book, { selection: 'Chelsea', selectionType: 'away', price: { decimal: a } }),
  ];
  const hostile = (book: string, h: number, a: number): Quote[] => [
    {
      book,
      league: 'nfl',
      homeTeam: 'Kansas City Chiefs',
      awayTeam: HOSTILE,
      startTime: KICK,
      marketType: 'moneyline',
      selection: 'Kansas City Chiefs',
      selectionType: 'home',
      line: null,
      price: { american: h },
    },
    {
      book,
      league: 'nfl',
      homeTeam: 'Kansas City Chiefs',
      awayTeam: HOSTILE,
      startTime: KICK,
      marketType: 'moneyline',
      selection: HOSTILE,
      selectionType: 'away',
      line: null,
      price: { american: a },
    },
  ];
  return [
    ...goals('bet365', 11, 1.04),
    ...goals('skybet', 10, 1.05),
    ...goals('ladbrokes', 9, 1.06),
    ...goals('betway', 10, 1.04),
    ...goals('betfair', 10.75, 1.14),
    ...['draftkings', 'fanduel', 'betmgm', 'caesars', 'bovada', 'betrivers'].flatMap((b) => total(b, 224.5, -110, -110)),
    ...total('draftkings', 220.5, -160, 130),
    ...total('fanduel', 220.5, -155, 125),
    ...total('betmgm', 220.5, -165, 125),
    ...total('caesars', 220.5, -160, 130),
    ...total('bovada', 220.5, -110, -110),
    ...ml('pinnacle', -105, 110),
    ...ml('circa', -115, -105),
    ...ml('draftkings', 104, -125),
    ...ml('fanduel', -110, -110),
    epl('kalshi', { price: { contract_price: 0.44 } }),
    epl('kalshi', { selection: 'Reg Time: Tie', selectionType: 'draw', price: { contract_price: 0.277 } }),
    epl('kalshi', { selection: 'Chelsea', selectionType: 'away', price: { contract_price: 0.278 } }),
    ...three('pinnacle', 2.25, 3.45, 3.4),
    ...three('bet365', 2.2, 3.3, 3.25),
    ...three('skybet', 2.15, 3.4, 3.3),
    ...three('betway', 2.2, 3.25, 3.3),
    ...hostile('draftkings', -105, -115),
    ...hostile('fanduel', -125, 115),
  ];
}

/** Power devig written for this test (not src/math): k by bisection with sum(p_i^k) = 1. */
function powerDevig(implied: number[]): number[] {
  let lo = 0.01;
  let hi = 20;
  for (let i = 0; i < 200; i++) {
    const k = (lo + hi) / 2;
    if (implied.reduce((s, p) => s + p ** k, 0) > 1) lo = k;
    else hi = k;
  }
  return implied.map((p) => p ** ((lo + hi) / 2));
}

describe('opportunity guards (end to end, quotes through POST /admin/ingest)', () => {
  let t: TestApp;
  const get = async (path: string, key: string = KEYS.sharp) => {
    const r = await t.call(path, { key });
    expect([path, r.status]).toEqual([path, 200]);
    return r.json as J;
  };
  const arbs = async (qs = '') => (await get(`/opportunities/arbitrage?min_profit=0&limit=200${qs}`)).data as J[];

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
    const r = await t.call('/admin/ingest', {
      method: 'POST',
      body: { source: 'import', quotes: quotes() },
      headers: { 'X-Admin-Token': t.adminToken },
    });
    expect(r.status).toBe(200);
    expect(r.json.data.rejected).toEqual({});
  });
  afterAll(async () => {
    await t.close();
  });

  it('odds rows carry the venue market flag: self_arbitrage on a venue crossing itself, null when sound', async () => {
    const rows = (await get('/odds?sportsbook=betfair,bet365,pinnacle,circa,kalshi&limit=500')).data as J[];
    const flagOf = (book: string, market: string) => [
      ...new Set(rows.filter((r) => r.sportsbook === book && r.market_type === market).map((r) => r.market_flag)),
    ];
    // Betfair 10.75 / 1.14 = 97.02% and Pinnacle -105 / +110 = 98.84%: below the 99.9% floor of one price setter.
    expect(flagOf('betfair', 'player_goals')).toEqual(['self_arbitrage']);
    expect(flagOf('pinnacle', 'moneyline').sort()).toEqual([null, 'self_arbitrage']); // its EPL three-way is sound
    expect(rows.filter((r) => r.sportsbook === 'pinnacle' && r.league === 'nba').map((r) => r.market_flag)).toEqual([
      'self_arbitrage',
      'self_arbitrage',
    ]);
    // bet365 11 / 1.04 holds 5.25%; Circa -115 / -105 holds 4.7%; Kalshi's three contracts sum to 99.5008%,
    // above a prediction market's 98% floor.
    expect(flagOf('bet365', 'player_goals')).toEqual([null]);
    expect(flagOf('circa', 'moneyline')).toEqual([null]);
    expect(flagOf('kalshi', 'moneyline')).toEqual([null]);
    expect(rows.every((r) => 'market_flag' in r)).toBe(true);
    // event_uuid: one stable version 5 UUID per event.
    const byEvent = new Map<string, Set<string>>();
    for (const r of rows) byEvent.set(r.event_id, (byEvent.get(r.event_id) ?? new Set()).add(r.event_uuid));
    expect([...byEvent.values()].every((s) => s.size === 1)).toBe(true);
    const uuids = [...byEvent.values()].map((s) => [...s][0]);
    expect(new Set(uuids).size).toBe(byEvent.size);
    for (const u of uuids) expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('a self-contradicting exchange produces no unflagged opportunity', async () => {
    const props = (list: J[]) => list.filter((a) => a.market_type === 'player_goals');
    expect(props(await arbs())).toEqual([]);
    const lowHold = props((await get('/opportunities/low_hold?limit=200')).data);
    expect(lowHold).toHaveLength(1);
    expect(lowHold[0]).toMatchObject({
      hold_percentage: expect.closeTo(3.4305, 3),
      side1: { books: ['bet365'] },
      side2: { books: ['ladbrokes'] },
      warnings: [],
    });
    expect(lowHold[0]!.all_books).not.toContain('betfair');
    // let in on request, flagged
    const flagged = props(await arbs('&include_flagged=true'));
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({
      profit_percent: expect.closeTo(3.2949, 3),
      implied_total: expect.closeTo(96.8102, 3),
      player_name: 'Bukayo Saka',
      warnings: ['VENUE_SELF_ARBITRAGE', 'PRICE_OFF_CONSENSUS'],
    });
    expect(flagged[0]!.legs.map((l: J) => [l.sportsbook, l.selection_type, l.odds_decimal])).toEqual([
      ['bet365', 'over', 11],
      ['betfair', 'under', 1.14],
    ]);
    const flaggedLowHold = props((await get('/opportunities/low_hold?limit=200&include_flagged=true')).data);
    expect(flaggedLowHold[0]!.warnings).toEqual(['VENUE_SELF_ARBITRAGE', 'PRICE_OFF_CONSENSUS']);
    expect((await get('/opportunities/arbitrage?include_flagged=true')).meta.filters.include_flagged).toBe(true);
    expect((await t.call('/opportunities/arbitrage?include_flagged=maybe', { key: KEYS.sharp })).status).toBe(400);
  });

  it('a mislabelled alternate line is a probable mapping error: out of the default list, listed with PRICE_OFF_CONSENSUS on request', async () => {
    expect((await arbs()).filter((a) => a.market_type === 'total_points')).toEqual([]);
    const totals = (await arbs('&include_flagged=true')).filter((a) => a.market_type === 'total_points');
    expect(totals).toHaveLength(1);
    expect(totals[0]).toMatchObject({
      line: 220.5,
      is_alternate_line: true,
      profit_percent: expect.closeTo(4.3199, 3),
      warnings: ['PRICE_OFF_CONSENSUS'],
    });
    expect(totals[0]!.legs.map((l: J) => [l.sportsbook, l.selection_type, l.odds_american])).toEqual([
      ['bovada', 'over', -110],
      ['caesars', 'under', 130],
    ]);
  });

  it('a flagged sharp line is not devigged: +EV is priced on the next sharp book', async () => {
    const ev = (await get('/opportunities/ev?limit=200&league=nba')).data as J[];
    expect(ev.map((e) => [e.sportsbook, e.selection_type, e.sharp_book])).toEqual([['draftkings', 'home', 'circa']]);
    expect(ev[0]).toMatchObject({
      ev_percentage: expect.closeTo(4.3668, 3),
      fair_probability: expect.closeTo(0.511602, 5),
      warnings: ['SINGLE_SHARP_REF'],
    });
    const flagged = (await get('/opportunities/ev?limit=200&league=nba&include_flagged=true')).data as J[];
    expect(flagged.map((e) => [e.sportsbook, e.sharp_book, e.warnings])).toEqual([
      ['draftkings', 'circa', ['SINGLE_SHARP_REF']],
      ['pinnacle', 'circa', ['SINGLE_SHARP_REF', 'VENUE_SELF_ARBITRAGE']],
    ]);
  });

  it('a three-way market whose draw is a prediction-market contract takes part in arbitrage and +EV', async () => {
    const soccer = (await arbs()).filter((a) => a.market_type === 'moneyline' && a.sport === 'soccer');
    expect(soccer).toHaveLength(1);
    expect(soccer[0]).toMatchObject({ implied_total: expect.closeTo(99.5008, 3), profit_percent: expect.closeTo(0.5017, 3), warnings: [] });
    expect(soccer[0]!.legs.map((l: J) => [l.sportsbook, l.selection, l.stake_percent])).toEqual([
      ['kalshi', 'Arsenal', expect.closeTo(44.2213, 3)],
      ['kalshi', 'Reg Time: Tie', expect.closeTo(27.839, 3)],
      ['kalshi', 'Chelsea', expect.closeTo(27.9397, 3)],
    ]);
    // listed at the default minimum profit (0.5%) too
    expect((await get('/opportunities/arbitrage?sport=soccer')).data).toHaveLength(1);
    const ev = ((await get('/opportunities/ev?limit=200&sport=soccer')).data as J[]).filter((e) => e.sportsbook === 'kalshi');
    expect(Object.fromEntries(ev.map((e) => [e.selection_type, e.ev_percentage]))).toEqual({
      draw: expect.closeTo(1.2354, 3),
      away: expect.closeTo(2.3942, 3),
    });
  });

  it('+EV figures agree with an independent power devig of the sharp prices the API serves, within 0.05 points', async () => {
    const ev = (await get('/opportunities/ev?limit=200')).data as J[];
    expect(ev.length).toBeGreaterThanOrEqual(3);
    for (const e of ev) {
      const odds = (await get(`/odds?event=${encodeURIComponent(e.event_id)}&sportsbook=${e.sharp_book}&market=${e.market_type}&limit=200`))
        .data as J[];
      const sharp = odds.filter((o) => (o.line ?? null) === (e.line ?? null));
      const order = e.sport === 'soccer' ? ['home', 'draw', 'away'] : ['home', 'away'];
      const implied = order.map((s) => 1 / sharp.find((o) => o.selection_type === s)!.odds_decimal);
      const fair = powerDevig(implied)[order.indexOf(e.selection_type)]!;
      expect(Math.abs(e.ev_percentage - (fair * e.odds_decimal - 1) * 100)).toBeLessThan(0.05);
    }
  });

  it('the CSV export escapes a formula-like team name but keeps negative odds as numbers', async () => {
    const res = await fetch(`${t.url}/api/v1/opportunities/arbitrage?format=csv&min_profit=0&league=nfl`, {
      headers: { 'X-API-Key': KEYS.sharp },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    const rows = parse(text) as string[][];
    expect(rows[0]).toEqual([
      'event',
      'sport',
      'market',
      'line',
      'profit%',
      'implied_total',
      'book1',
      'selection1',
      'odds1',
      'stake1%',
      'book2',
      'selection2',
      'odds2',
      'stake2%',
      'is_live',
      'is_alternate_line',
      'possibly_stale',
      'warnings',
      'detected_at',
    ]);
    expect(rows).toHaveLength(2);
    const [event, sport, , , profit, , book1, selection1, odds1, , book2, selection2, odds2] = rows[1]!;
    expect(event).toBe(`'${HOSTILE} @ Kansas City Chiefs`);
    expect(selection2).toBe(`'${HOSTILE}`);
    expect([sport, book1, selection1, book2]).toEqual(['football', 'draftkings', 'Kansas City Chiefs', 'fanduel']);
    expect([odds1, odds2]).toEqual(['-105', '115']);
    expect(Number(profit)).toBeCloseTo(2.3221, 3);
    // no cell of the file starts a formula
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+@\t\r]|^-(?!\d)/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { admin } from '../../src/cli/commands.js';
import { runImport, type ImportSummary } from '../../src/cli/import.js';
import { ManualClock } from '../../src/common/time/clock.js';
import type { OddsRow } from '../../src/domain/odds-row.js';
import { BoardService } from '../../src/modules/board/board.service.js';
import { FuturesStoreService } from '../../src/modules/stores/futures/futures-store.service.js';
import { KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

/**
 * Real feeds (issue 12): real rows of the sample CSV and hand-written traps (test/fixtures/real-feeds/README.md),
 * imported through the pipeline as `npm run cli -- import` does against a running server. What a careful human
 * keeps or refuses, and the opportunities they would accept, are written here beforehand.
 */
const REAL = new URL('../fixtures/real-feeds/mlb-real-rows.csv', import.meta.url).pathname;
const TRAPS = new URL('../fixtures/real-feeds/world-cup-traps.csv', import.meta.url).pathname;
const NOW = Date.parse('2026-06-11T12:05:00Z');
const quiet = () => undefined;

describe('real feeds through the pipeline', () => {
  let t: TestApp;
  let real: ImportSummary;
  let traps: ImportSummary;
  const config = testConfig();
  const rowsOf = (pred: (r: OddsRow) => boolean) => [...t.app.get(BoardService).board.rows.values()].filter(pred);
  const wc = (r: OddsRow) => r.league === 'fifa_world_cup';

  beforeAll(async () => {
    t = await startTestApp({ config, clock: new ManualClock(NOW) });
    const address = t.app.getHttpServer().address() as { port: number };
    const server = { pid: process.pid, host: '127.0.0.1', port: address.port, admin_token: t.adminToken, started_at: '' };
    real = await runImport(REAL, config, { replay: false, server, admin }, quiet);
    traps = await runImport(TRAPS, config, { replay: false, server, admin }, quiet);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("the sample's real rows: every one is a price and every one is kept", () => {
    expect(real).toMatchObject({ records: 31, imported: 31, rejected: 0, exitCode: 0, registered: { leagues: [], books: [] } });
    // Period totals and an inning "moneyline" with Tie/Odd/Even are market types the catalog lacks: kept, shown, not detected.
    expect(real.displayOnly).toEqual({ '1st_5_innings_total_runs': 8, '1st_inning_moneyline': 6 });
    // Award futures labelled moneyline offer a player, not a side: futures markets (one per award), never events.
    expect(rowsOf((r) => r.league === 'mlb_awards')).toEqual([]);
    const futures = t.app.get(FuturesStoreService).store;
    const awards = [...futures.markets.values()].filter((m) => m.league === 'mlb_awards');
    expect(awards).toHaveLength(8);
    expect(awards.flatMap((m) => futures.pricesOf(m.id)).map((p) => p.selectionType)).toEqual(Array(8).fill('other'));
    // A prediction market's game moneyline is a plain two-way market.
    expect(
      rowsOf((r) => r.league === 'mlb' && r.sportsbook === 'polymarket' && r.marketType === 'moneyline')
        .map((r) => r.selectionType)
        .sort(),
    ).toEqual(['away', 'home']);
  });

  it('the traps: every price kept, the three rows that are not refused with their line and reason', () => {
    expect(traps).toMatchObject({ records: 35, imported: 32, rejected: 3, exitCode: 1 });
    expect(traps.errors.map((e) => e.line)).toEqual([34, 35, 36]);
    expect(traps.errors[0]!.reason).toMatch(/no price/);
    expect(traps.errors[1]!.reason).toBe('unknown sport "quidditch": league "hogwarts_-_house_cup" cannot be registered under it');
    expect(traps.errors[2]!.reason).toMatch(
      /"Reg Time: Tie" \(draw\) does not fit a two-way moneyline market \(basketball moneyline has no draw\)/,
    );
    expect(traps.reasons).toEqual({ invalid_row: 1, unknown_sport: 1, selection_not_in_market: 1 });
    // What was new is listed once: the league outside the catalog and the book no catalog lists.
    expect(traps.registered).toEqual({
      leagues: [{ id: 'brazil_serie_a', sport: 'soccer', from: 'brazil_-_serie_a' }],
      books: [{ id: 'underdog', from: 'underdog' }],
    });
    expect(traps.displayOnly).toEqual({ to_qualify: 1 });
    expect(traps.byBook).toEqual({
      pinnacle: 5,
      draftkings: 8,
      kalshi: 3,
      polymarket: 2,
      sx_bet: 6,
      sportzino: 3,
      underdog: 3,
      fanduel: 2,
    });
  });

  it('slug and short forms resolve on the endpoints; canonical ids are emitted', async () => {
    for (const [input, id] of [
      ['fifa_-_world_cup', 'fifa_world_cup'],
      ['world_cup', 'fifa_world_cup'],
      ['brazil_-_serie_a', 'brazil_serie_a'],
      ['Brazil Série A', 'brazil_serie_a'],
      ['usa_-_mlb', 'mlb'],
    ] as Array<[string, string]>) {
      const r = await t.call(`/events?league=${encodeURIComponent(input)}&limit=200`, { key: KEYS.sharp });
      expect(r.status).toBe(200);
      expect(r.json.data.length).toBeGreaterThan(0);
      expect(new Set(r.json.data.map((e: { league: string }) => e.league))).toEqual(new Set([id]));
    }
    const odds = await t.call('/odds?league=fifa_-_world_cup&sportsbook=underdog,sx_bet&limit=100', { key: KEYS.sharp });
    expect(odds.status).toBe(200);
    expect(new Set(odds.json.data.map((o: { sportsbook: string }) => o.sportsbook))).toEqual(new Set(['underdog', 'sx_bet']));
  });

  it('/leagues lists the registered league (not in the catalog); /sportsbooks flags the registered book', async () => {
    const leagues = (await t.call('/leagues?sport=soccer', { key: KEYS.pro })).json.data as Array<{
      id: string;
      in_catalog: boolean;
      event_count: number;
      numerical_id: number | null;
    }>;
    expect(leagues.find((l) => l.id === 'brazil_serie_a')).toMatchObject({ in_catalog: false, event_count: 1, numerical_id: null });
    expect(leagues.find((l) => l.id === 'fifa_world_cup')).toMatchObject({ in_catalog: true, event_count: 1 });
    const books = (await t.call('/sportsbooks?include_unlisted=true&include_inactive=true', { key: KEYS.sharp })).json.data as Array<{
      id: string;
      in_catalog: boolean;
      unlisted: boolean;
      requires_tier: string | null;
      is_sharp: boolean;
    }>;
    expect(books.find((b) => b.id === 'underdog')).toMatchObject({
      in_catalog: false,
      unlisted: true,
      requires_tier: 'sharp',
      is_sharp: false,
    });
    expect(books.find((b) => b.id === 'sx_bet')).toMatchObject({ in_catalog: true, requires_tier: null });
    // A pro key may not name a book only the sharp tier sees.
    expect((await t.call('/odds?sportsbook=underdog', { key: KEYS.pro })).status).toBe(403);
  });

  it('tie contracts in every spelling are the draw; a "Yes" is the side it settles on; a "No" stays a Yes/No market', () => {
    const ml = rowsOf((r) => wc(r) && r.marketType === 'moneyline');
    const types = (book: string) =>
      ml
        .filter((r) => r.sportsbook === book)
        .map((r) => `${r.selection}=${r.selectionType}`)
        .sort();
    expect(types('kalshi')).toEqual(['Mexico=home', 'Reg Time: Tie=draw', 'South Africa=away']);
    expect(types('sx_bet')).toEqual(['Mexico=home', 'South Africa=away', 'Tie=draw']);
    expect(types('sportzino')).toEqual(['Mexico=home', 'South Africa=away', 'X=draw']);
    expect(types('polymarket')).toEqual(['Mexico: Yes=home']);
    const no = rowsOf((r) => wc(r) && r.sportsbook === 'polymarket' && r.marketType === 'binary');
    expect(no.map((r) => [r.selection, r.selectionType, r.ladderKey.split('|')[3]])).toEqual([['Mexico: No', 'no', 'home']]);
    // One three-way group holds every book's moneyline.
    expect(new Set(ml.map((r) => r.groupKey)).size).toBe(1);
  });

  it("accents in a player's name do not split the market; the mislabelled alternate total is kept as its own line", () => {
    const props = rowsOf((r) => wc(r) && r.marketType === 'player_goals');
    expect(props).toHaveLength(3);
    expect(new Set(props.map((r) => r.groupKey)).size).toBe(1);
    const totals = rowsOf((r) => wc(r) && r.marketType === 'total_goals');
    expect(totals.map((r) => `${r.sportsbook}:${r.selectionType}:${r.line}`).sort()).toEqual([
      'draftkings:over:2.5',
      'draftkings:under:2.5',
      'fanduel:over:4.5',
      'pinnacle:under:4.5',
    ]);
  });

  it("the prediction market's three contracts summing to 99.5% are an arbitrage, like any three-way market", async () => {
    // By hand: Kalshi's contracts cost 0.45 + 0.265 + 0.28 = 0.995 of the payout; every other book pays less on
    // each outcome, so the best legs are Kalshi's three and the profit is 1 / 0.995 - 1.
    const profit = (1 / (0.45 + 0.265 + 0.28) - 1) * 100;
    const r = await t.call('/opportunities/arbitrage?min_profit=0&limit=100', { key: KEYS.sharp });
    expect(r.status).toBe(200);
    const onGame = (
      r.json.data as Array<{
        league: string;
        market_type: string;
        profit_percent: number;
        legs: Array<{ sportsbook: string; selection_type: string; implied_probability: number }>;
      }>
    ).filter((a) => a.league === 'fifa_world_cup');
    expect(onGame).toHaveLength(1);
    const arb = onGame[0]!;
    expect(arb.market_type).toBe('moneyline');
    expect(arb.legs.map((l) => `${l.sportsbook}:${l.selection_type}`).sort()).toEqual(['kalshi:away', 'kalshi:draw', 'kalshi:home']);
    expect(arb.profit_percent).toBeCloseTo(profit, 2);
    expect(arb.legs.find((l) => l.selection_type === 'draw')!.implied_probability).toBeCloseTo(0.265, 4);
  });

  it('its prices are compared with the sharp three-way line for +EV', async () => {
    // By hand, multiplicative devig of Pinnacle 2.10 / 3.40 / 3.50: implied 1/2.1 + 1/3.4 + 1/3.5 = 1.056022;
    // fair home 0.450928, draw 0.278515, away 0.270557. Kalshi's home pays 1/0.45, its draw 1/0.265, its away
    // 1/0.28: EV = fair x payout - 1 = +0.206% home, +5.100% draw, -3.37% away (not +EV).
    const implied = [1 / 2.1, 1 / 3.4, 1 / 3.5];
    const sum = implied.reduce((a, b) => a + b, 0);
    const fair = implied.map((p) => p / sum);
    const ev = (i: number, p: number) => (fair[i]! / p - 1) * 100;
    const r = await t.call('/opportunities/ev?devig_method=multiplicative&min_ev=0&limit=200', { key: KEYS.sharp });
    expect(r.status).toBe(200);
    const kalshi = (
      r.json.data as Array<{
        league: string;
        sportsbook: string;
        selection_type: string;
        ev_percentage: number;
        sharp_book: string;
        fair_probability: number;
      }>
    )
      .filter((x) => x.league === 'fifa_world_cup' && x.sportsbook === 'kalshi')
      .sort((a, b) => a.selection_type.localeCompare(b.selection_type));
    expect(kalshi.map((x) => x.selection_type)).toEqual(['draw', 'home']);
    expect(kalshi.every((x) => x.sharp_book === 'pinnacle')).toBe(true);
    expect(kalshi[0]!.fair_probability).toBeCloseTo(fair[1]!, 5);
    expect(kalshi[0]!.ev_percentage).toBeCloseTo(ev(1, 0.265), 2);
    expect(kalshi[1]!.ev_percentage).toBeCloseTo(ev(0, 0.45), 2);
    expect(ev(2, 0.28)).toBeLessThan(0);
  });

  it('display-only markets never enter detection', async () => {
    const r = await t.call('/opportunities/arbitrage?min_profit=0&limit=100', { key: KEYS.sharp });
    const ev = await t.call('/opportunities/ev?min_ev=0&limit=200', { key: KEYS.sharp });
    const markets = [...r.json.data, ...ev.json.data].map((x: { market_type: string }) => x.market_type);
    for (const m of ['to_qualify', '1st_inning_moneyline', '1st_5_innings_total_runs', 'binary']) expect(markets).not.toContain(m);
  });
});

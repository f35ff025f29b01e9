import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../../config/catalog.js';
import { americanToDecimal } from '../../../math/odds.js';
import { futuresEv, groupsOf } from '../../futures/futures-math.js';
import { bookPrice, FuturesSimulator, nextClose, withMargin } from './futures-sim.js';
import { applyFutures, splitFutures } from '../futures-intake.js';
import { FuturesStore } from '../../stores/futures/futures-store.js';

const catalog = new Catalog();
const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('futures simulator arithmetic', () => {
  it('a margin spread as p^k sums to 1 + hold and weighs on long shots', () => {
    const p = [0.5, 0.3, 0.15, 0.05];
    const m = withMargin(p, 0.2);
    expect(m.reduce((a, b) => a + b, 0)).toBeCloseTo(1.2, 6);
    // Relative margin: the long shot's implied probability is inflated most.
    expect(m[3]! / p[3]!).toBeGreaterThan(m[0]! / p[0]!);
  });

  it('prices are rounded against the bettor to the steps books use', () => {
    expect(bookPrice(0.5)).toBe(100);
    expect(bookPrice(0.2)).toBe(400);
    expect(bookPrice(1 / 12.37)).toBe(1100); // +1137, in steps of 100 between +1000 and +5000
    expect(bookPrice(0.8)).toBe(-400);
    expect(bookPrice(0.7)).toBe(-240); // -233.3, away from the bettor in steps of 10 between -200 and -1000
    expect(bookPrice(0.6)).toBe(-150);
  });

  it('a season closes at its next settlement date', () => {
    expect(new Date(nextClose(NOW, 6, 20)).toISOString()).toBe('2027-06-20T00:00:00.000Z');
    expect(new Date(nextClose(NOW, 2, 10)).toISOString()).toBe('2027-02-10T00:00:00.000Z');
    expect(new Date(nextClose(Date.parse('2026-10-01T00:00:00Z'), 11, 1)).toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });
});

describe('futures simulator', () => {
  const sim = new FuturesSimulator(catalog, { seed: 42 });
  const first = sim.start(NOW);
  const store = new FuturesStore();
  const split = splitFutures(first);
  const applied = applyFutures(store, catalog, split.futures, NOW);

  it('every quote is a tagged future, accepted as a futures price', () => {
    expect(split.games.quotes).toHaveLength(0);
    expect(applied.rejections).toEqual([]);
    expect(applied.accepted).toBe(first.quotes.length);
  });

  it('several futures markets per major league, of every type, at several books', () => {
    for (const league of ['nba', 'nfl', 'nhl', 'mlb']) {
      const ms = [...store.markets.values()].filter((m) => m.league === league);
      expect(new Set(ms.map((m) => m.futureType))).toEqual(new Set(['TEAM', 'PLAYER', 'OVER_UNDER', 'YES_NO']));
      expect(ms.length).toBeGreaterThanOrEqual(6);
      const champ = ms.find((m) => m.kind === 'championship_winner')!;
      expect(new Set(store.pricesOf(champ.id).map((p) => p.sportsbook)).size).toBeGreaterThanOrEqual(8);
    }
    expect(store.markets.get('nba_championship_winner_2027')?.name).toBe('NBA Championship winner 2027');
  });

  it('n-way holds are realistic: retail 20-45 %, sharp under 12 %, prediction markets under 6 %', () => {
    const champ = store.pricesOf('nba_championship_winner_2027');
    const hold = (book: string) =>
      (champ.filter((p) => p.sportsbook === book).reduce((a, p) => a + 1 / americanToDecimal(p.american), 0) - 1) * 100;
    for (const b of ['draftkings', 'fanduel', 'betmgm', 'caesars']) {
      expect(hold(b)).toBeGreaterThan(20);
      expect(hold(b)).toBeLessThan(45);
    }
    expect(hold('pinnacle')).toBeGreaterThan(5);
    expect(hold('pinnacle')).toBeLessThan(12);
    expect(hold('polymarket')).toBeLessThan(6);
  });

  it('two-way win totals hold 3-8 % at retail books; some retail futures prices are +EV against the sharp line, most not', () => {
    const m = store.markets.get('nba_win_total_2027')!;
    const gs = groupsOf(m, store.pricesOf(m.id));
    expect(gs.length).toBe(30);
    for (const g of gs) {
      const dk = g.prices.filter((p) => p.sportsbook === 'draftkings');
      const h = (dk.reduce((a, p) => a + 1 / p.decimal, 0) - 1) * 100;
      expect(h).toBeGreaterThan(3);
      expect(h).toBeLessThan(8);
    }
    // Across the league's futures, some retail prices beat the devigged sharp market, not most of them.
    const nba = [...store.markets.values()].filter((x) => x.league === 'nba').flatMap((x) => groupsOf(x, store.pricesOf(x.id)));
    const evs = nba.flatMap((g) => futuresEv(g, { sharpBooks: ['pinnacle', 'circa'], method: 'power', inScope: () => true, minEv: 0 }));
    const prices = nba.reduce((a, g) => a + g.prices.length, 0);
    expect(evs.length).toBeGreaterThan(0);
    expect(evs.length / prices).toBeLessThan(0.15);
  });

  it('drifts slowly: a poll an hour later moves prices, by little', () => {
    const before = new Map([...store.prices.values()].map((p) => [p.id, p.decimal]));
    let moved = 0;
    for (let i = 1; i <= 20; i++) {
      const b = sim.poll(NOW + i * 180_000);
      if (b) moved += applyFutures(store, catalog, splitFutures(b).futures, NOW + i * 180_000).changed;
    }
    expect(moved).toBeGreaterThan(0);
    const fav = store
      .pricesOf('nba_championship_winner_2027')
      .filter((p) => p.sportsbook === 'pinnacle')
      .sort((a, b) => a.decimal - b.decimal)[0]!;
    expect(Math.abs(1 / fav.decimal - 1 / before.get(fav.id)!)).toBeLessThan(0.08);
  });
});

describe('futures simulator confirmations', () => {
  it('sends its whole state every 10 minutes, so every price it still quotes stays inside the 30-minute window', () => {
    const sim = new FuturesSimulator(catalog, { seed: 3 });
    const store = new FuturesStore();
    const feed = (b: ReturnType<FuturesSimulator['poll']>, at: number) => {
      if (b) applyFutures(store, catalog, splitFutures(b).futures, at, { source: b.source });
    };
    const first = sim.start(NOW);
    feed(first, NOW);
    const total = store.prices.size;
    expect(total).toBe(first.quotes.length);
    let full = 0;
    for (let t = NOW + 60_000; t <= NOW + 45 * 60_000; t += 60_000) {
      const b = sim.poll(t);
      // Minutes 10, 20, 30, 40: every price (changed or not); the others: only changes.
      if ((t - NOW) % 600_000 === 0) {
        expect(b!.quotes.length).toBe(total);
        full++;
      } else expect(b?.quotes.length ?? 0).toBeLessThan(total);
      feed(b, t);
    }
    expect(full).toBe(4);
    // At minute 45 the newest confirmation is 5 minutes old: nothing has left a market.
    const live = [...store.markets.keys()].reduce((n, id) => n + store.livePricesOf(id, NOW + 45 * 60_000).length, 0);
    expect(live).toBe(total);
  });
});

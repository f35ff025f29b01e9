import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ARBITRAGE_MIN_MARGIN, analyzeArbitrage, stakeAmounts } from './arbitrage.js';

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const at = (xs: readonly number[], i: number): number => {
  const v = xs[i];
  if (v === undefined) throw new Error(`index ${i} out of range`);
  return v;
};

describe('analyzeArbitrage worked examples', () => {
  it('two-way 2.10 / 2.05', () => {
    // 1/2.10 = 10/21, 1/2.05 = 20/41; S = (410 + 420)/861 = 830/861 = 0.9639954
    // impliedTotal = 96.39954%; profit = 861/830 - 1 = 31/830 = 3.7349398%
    // stakes: (10/21)/(830/861) = 8610/17430 = 49.39759%; (20/41)/(830/861) = 17220/34030 = 50.60241%
    const r = analyzeArbitrage([2.1, 2.05]);
    expect(r.impliedTotal).toBeCloseTo((830 / 861) * 100, 10);
    expect(r.profitPercent).toBeCloseTo((31 / 830) * 100, 10);
    expect(at(r.stakes, 0)).toBeCloseTo((8610 / 17430) * 100, 10);
    expect(at(r.stakes, 1)).toBeCloseTo((17220 / 34030) * 100, 10);
    expect(r.isArbitrage).toBe(true);
  });

  it('three-way 2.7 / 3.6 / 3.5', () => {
    // 1/2.7 = 10/27, 1/3.6 = 5/18, 1/3.5 = 2/7; common denominator 378: 140 + 105 + 108 = 353
    // S = 353/378 = 0.9338624 -> impliedTotal 93.38624%
    // profit = 378/353 - 1 = 25/353 = 7.0821530%
    // stakes = 140/353 = 39.66006%, 105/353 = 29.74504%, 108/353 = 30.59490%
    const r = analyzeArbitrage([2.7, 3.6, 3.5]);
    expect(r.impliedTotal).toBeCloseTo((353 / 378) * 100, 10);
    expect(r.profitPercent).toBeCloseTo((25 / 353) * 100, 10);
    expect(at(r.stakes, 0)).toBeCloseTo((140 / 353) * 100, 10);
    expect(at(r.stakes, 1)).toBeCloseTo((105 / 353) * 100, 10);
    expect(at(r.stakes, 2)).toBeCloseTo((108 / 353) * 100, 10);
    expect(r.isArbitrage).toBe(true);
  });

  it('three-way 2.5 / 4.0 / 5.0', () => {
    // S = 0.4 + 0.25 + 0.2 = 0.85; profit = 1/0.85 - 1 = 3/17 = 17.647059%
    // stakes = 0.4/0.85 = 8/17 = 47.0588%, 0.25/0.85 = 5/17 = 29.4118%, 0.2/0.85 = 4/17 = 23.5294%
    const r = analyzeArbitrage([2.5, 4, 5]);
    expect(r.impliedTotal).toBeCloseTo(85, 10);
    expect(r.profitPercent).toBeCloseTo((3 / 17) * 100, 10);
    expect(r.stakes.map((x) => x / 100)).toEqual([8 / 17, 5 / 17, 4 / 17].map((x) => expect.closeTo(x, 12)));
  });

  it('no arbitrage at -110 / -110', () => {
    // 1/(21/11) = 11/21 each; S = 22/21 -> impliedTotal 104.7619%; profit = 21/22 - 1 = -4.545455%
    const r = analyzeArbitrage([21 / 11, 21 / 11]);
    expect(r.impliedTotal).toBeCloseTo((22 / 21) * 100, 10);
    expect(r.profitPercent).toBeCloseTo((21 / 22 - 1) * 100, 10);
    expect(r.stakes).toEqual([expect.closeTo(50, 12), expect.closeTo(50, 12)]);
    expect(r.isArbitrage).toBe(false);
  });

  it('rejects invalid legs', () => {
    for (const bad of [[], [2], [2, 1], [2, 0.5], [2, Number.NaN], [2, Number.POSITIVE_INFINITY]]) {
      expect(() => analyzeArbitrage(bad)).toThrow(RangeError);
      expect(() => stakeAmounts(bad, 100)).toThrow(RangeError);
    }
    expect(() => stakeAmounts([2.1, 2.1], 0)).toThrow(RangeError);
    expect(() => stakeAmounts([2.1, 2.1], Number.NaN)).toThrow(RangeError);
  });
});

describe('stakeAmounts', () => {
  it('splits 1000 on 2.7 / 3.6 / 3.5 (hand-computed)', () => {
    // payout = 1000 * 378/353 = 1070.82153; stakes = payout/2.7 = 396.60057, payout/3.6 = 297.45042,
    // payout/3.5 = 305.94901 (sum 1000); profit = 70.82153
    const r = stakeAmounts([2.7, 3.6, 3.5], 1000);
    expect(r.payout).toBeCloseTo(378000 / 353, 9);
    expect(at(r.stakes, 0)).toBeCloseTo(140000 / 353, 9);
    expect(at(r.stakes, 1)).toBeCloseTo(105000 / 353, 9);
    expect(at(r.stakes, 2)).toBeCloseTo(108000 / 353, 9);
    expect(r.profit).toBeCloseTo(25000 / 353, 9);
  });
});

const decimalsArb = fc.array(fc.double({ min: 1.01, max: 20, noNaN: true }), { minLength: 2, maxLength: 6 });
/** Markets constructed around a fair book with margin in [-8%, +8%], so arbitrages are common. */
const nearFairArb = fc
  .tuple(
    fc.array(fc.double({ min: 0.05, max: 1, noNaN: true }), { minLength: 2, maxLength: 6 }),
    fc.double({ min: -0.08, max: 0.08, noNaN: true }),
  )
  .map(([w, margin]) => {
    const t = sum(w);
    return w.map((x) => 1 / ((x / t) * (1 + margin)));
  })
  .filter((ds) => ds.every((d) => Number.isFinite(d) && d > 1));

describe('analyzeArbitrage properties', () => {
  const anyMarket = fc.oneof(decimalsArb, nearFairArb);

  it('is an arbitrage exactly when sum(1/d) < 1 - ARBITRAGE_MIN_MARGIN: implied_total shown (4 dp) below 100, profit positive', () => {
    fc.assert(
      fc.property(anyMarket, (ds) => {
        const r = analyzeArbitrage(ds);
        const s = ds.reduce((a, d) => a + 1 / d, 0);
        expect(r.isArbitrage).toBe(s < 1 - ARBITRAGE_MIN_MARGIN);
        if (r.isArbitrage) expect(Math.round(r.impliedTotal * 1e4) / 1e4).toBeLessThan(100);
        if (r.isArbitrage) expect(r.profitPercent).toBeGreaterThan(0);
        if (r.impliedTotal >= 100) expect(r.isArbitrage).toBe(false);
      }),
    );
  });

  it('prices whose inverses add up to exactly 1 are no arbitrage, though floating point sums them to 1 - 1e-16', () => {
    for (const ds of [
      [1.04, 26],
      [1.08, 13.5],
    ]) {
      expect(ds.reduce((a, d) => a + 1 / d, 0)).toBeLessThan(1);
      expect(analyzeArbitrage(ds).isArbitrage).toBe(false);
    }
    // The smallest arbitrage shown: implied_total 99.9999 (profit 0.0001%).
    expect(analyzeArbitrage([2 / 0.999998, 2]).isArbitrage).toBe(true);
  });

  it('stakes sum to 100 and pay the same on every outcome, equal to 100 + profitPercent', () => {
    fc.assert(
      fc.property(anyMarket, (ds) => {
        const r = analyzeArbitrage(ds);
        expect(Math.abs(sum(r.stakes) - 100)).toBeLessThanOrEqual(1e-9);
        const returns = r.stakes.map((st, i) => st * at(ds, i));
        const first = at(returns, 0);
        for (const ret of returns) expect(Math.abs(ret - first)).toBeLessThanOrEqual(1e-9 * first);
        // profitPercent = 100/impliedTotal*100 - 100, and matches the realised return on 100 staked
        expect(Math.abs(r.profitPercent - ((100 / r.impliedTotal) * 100 - 100))).toBeLessThanOrEqual(1e-9);
        expect(Math.abs(first - 100 - r.profitPercent)).toBeLessThanOrEqual(1e-9);
      }),
    );
  });

  it('stakeAmounts: stakes sum to the total and every leg returns the payout', () => {
    fc.assert(
      fc.property(anyMarket, fc.double({ min: 1, max: 1e6, noNaN: true }), (ds, total) => {
        const r = stakeAmounts(ds, total);
        expect(Math.abs(sum(r.stakes) - total)).toBeLessThanOrEqual(1e-9 * total);
        r.stakes.forEach((st, i) => expect(Math.abs(st * at(ds, i) - r.payout)).toBeLessThanOrEqual(1e-9 * r.payout));
        expect(r.profit).toBeCloseTo(r.payout - total, 9);
        const a = analyzeArbitrage(ds);
        expect(Math.abs(r.profit / total - a.profitPercent / 100)).toBeLessThanOrEqual(1e-9);
      }),
    );
  });
});

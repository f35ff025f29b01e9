import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { betProfit, maxDrawdown, meanOf, roiInterval, stakeFor } from './backtest.js';

describe('stakeFor', () => {
  it('flat: the same units whatever the bankroll or price', () => {
    expect(stakeFor({ kind: 'flat', units: 1 }, 1000, 0.55, 2)).toBe(1);
    expect(stakeFor({ kind: 'flat', units: 2.5 }, 10, 0.3, 4)).toBe(2.5);
  });

  it('kelly: fraction of the bankroll, capped', () => {
    // p = 0.55, d = 2: full Kelly 0.1; quarter 0.025; bankroll 1000 -> 25
    expect(stakeFor({ kind: 'kelly', fraction: 0.25, cap: 0.05 }, 1000, 0.55, 2)).toBeCloseTo(25, 10);
    // p = 0.6, d = 2: full Kelly 0.2; half 0.1 > cap 0.05 -> 1000 * 0.05 = 50
    expect(stakeFor({ kind: 'kelly', fraction: 0.5, cap: 0.05 }, 1000, 0.6, 2)).toBeCloseTo(50, 10);
    // no edge, no stake
    expect(stakeFor({ kind: 'kelly', fraction: 0.25, cap: 0.05 }, 1000, 0.5, 2)).toBe(0);
    // a spent bankroll stakes nothing
    expect(stakeFor({ kind: 'kelly', fraction: 0.25, cap: 0.05 }, 0, 0.55, 2)).toBe(0);
  });

  it('rejects a bad rule', () => {
    expect(() => stakeFor({ kind: 'flat', units: 0 }, 100, 0.5, 2)).toThrow(RangeError);
    expect(() => stakeFor({ kind: 'kelly', fraction: 0.25, cap: 0 }, 100, 0.5, 2)).toThrow(RangeError);
  });
});

describe('betProfit', () => {
  it('grades won, lost, push and void', () => {
    // won at 2.5 for 4 units: 4 * 1.5 = 6
    expect(betProfit('won', 4, 2.5)).toBeCloseTo(6, 12);
    expect(betProfit('lost', 4, 2.5)).toBe(-4);
    expect(betProfit('push', 4, 2.5)).toBe(0);
    expect(betProfit('void', 4, 2.5)).toBe(0);
  });
});

describe('roiInterval', () => {
  it('matches the hand-worked four-bet example', () => {
    // flat 1 unit: won at 2.0 (+1), lost at 2.0 (-1), won at 3.0 (+2), lost at 1.5 (-1)
    // profit 1, turnover 4, ROI 0.25; returns per unit r = 1, -1, 2, -1; deviations 0.75, -1.25, 1.75, -1.25;
    // squares sum 0.5625 + 1.5625 + 3.0625 + 1.5625 = 6.75; s^2 = 6.75 / 3 = 2.25, s = 1.5; SE = 1.5 / sqrt(4) = 0.75;
    // 95%: 0.25 +- 1.959964 * 0.75 = 0.25 +- 1.469973 -> [-1.219973, 1.719973], the low end held at -1 (no bet
    // loses more than its stake)
    const r = roiInterval([
      { stake: 1, profit: 1 },
      { stake: 1, profit: -1 },
      { stake: 1, profit: 2 },
      { stake: 1, profit: -1 },
    ]);
    expect(r.roi).toBeCloseTo(0.25, 12);
    expect(r.standardError).toBeCloseTo(0.75, 12);
    expect(r.low).toBe(-1);
    expect(r.high).toBeCloseTo(1.719973, 5);
    expect(r.bets).toBe(4);
  });

  it('weights by stake: ROI is profit over turnover', () => {
    // stakes 1 and 3: profits +1 and -3: ROI = -2 / 4 = -0.5; r = 1, -1; w(r - R) = 1 * 1.5, 3 * -0.5 -> squares 2.25 + 2.25 = 4.5
    // SE = sqrt(2 / 1 * 4.5) / 4 = 3 / 4 = 0.75
    const r = roiInterval([
      { stake: 1, profit: 1 },
      { stake: 3, profit: -3 },
    ]);
    expect(r.roi).toBeCloseTo(-0.5, 12);
    expect(r.standardError).toBeCloseTo(0.75, 12);
  });

  it('with prices and probabilities, four lost bets still have an interval (the model variance)', () => {
    // 4 x stake 10 at decimal 2.0, p = 0.5, all lost: ROI = -40 / 40 = -1; the sample variance is 0;
    // the model's: 4 x 10^2 x 2^2 x 0.5 x 0.5 = 400, SE = sqrt(400) / 40 = 0.5;
    // 95%: -1 +- 1.959964 x 0.5 = -1 +- 0.979982 -> [-1 (held), -0.020018]
    const r = roiInterval(Array.from({ length: 4 }, () => ({ stake: 10, profit: -10, decimal: 2, probability: 0.5 })));
    expect(r.roi).toBe(-1);
    expect(r.standardError).toBeCloseTo(0.5, 12);
    expect(r.low).toBe(-1);
    expect(r.high).toBeCloseTo(-0.020018, 5);
    // Without them, the same bets have a zero-width interval (what the model variance prevents).
    expect(roiInterval(Array.from({ length: 4 }, () => ({ stake: 10, profit: -10 }))).standardError).toBe(0);
  });

  it('takes the larger of the sample and the model variance', () => {
    // The four-bet example above (sample SE 0.75) with d = 2, p = 0.5 on each: model variance 4 x 1 x 4 x 0.25 = 4,
    // SE sqrt(4) / 4 = 0.5 < 0.75: the sample's stands.
    const r = roiInterval([
      { stake: 1, profit: 1, decimal: 2, probability: 0.5 },
      { stake: 1, profit: -1, decimal: 2, probability: 0.5 },
      { stake: 1, profit: 2, decimal: 2, probability: 0.5 },
      { stake: 1, profit: -1, decimal: 2, probability: 0.5 },
    ]);
    expect(r.standardError).toBeCloseTo(0.75, 12);
    // One bet: the model alone (1 x 4 x 0.25 = 1, SE = 1).
    expect(roiInterval([{ stake: 1, profit: -1, decimal: 2, probability: 0.5 }]).standardError).toBeCloseTo(1, 12);
  });

  it('has no interval below two staked bets', () => {
    expect(roiInterval([])).toMatchObject({ roi: null, low: null, high: null, bets: 0 });
    expect(roiInterval([{ stake: 2, profit: 2 }])).toMatchObject({ roi: 1, low: null, high: null, bets: 1 });
    // void bets (stake counted, nothing at risk) still count; zero stakes do not
    expect(roiInterval([{ stake: 0, profit: 0 }]).bets).toBe(0);
  });

  it('the interval contains the ROI (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ stake: fc.double({ min: 0.01, max: 100, noNaN: true }), r: fc.double({ min: -1, max: 5, noNaN: true }) }), {
          minLength: 2,
          maxLength: 40,
        }),
        (xs) => {
          const out = roiInterval(xs.map((x) => ({ stake: x.stake, profit: x.stake * x.r })));
          expect(out.low!).toBeLessThanOrEqual(out.roi! + 1e-9);
          expect(out.high!).toBeGreaterThanOrEqual(out.roi! - 1e-9);
        },
      ),
    );
  });
});

describe('maxDrawdown', () => {
  it('finds the largest fall from a running peak', () => {
    // 100 -> 110 -> 90: 20 from 110 (18.18%); 120 -> 100: 20 from 120 (16.67%); the first of equal falls is kept
    const d = maxDrawdown([100, 110, 90, 95, 120, 100]);
    expect(d.amount).toBe(20);
    expect(d.peakIndex).toBe(1);
    expect(d.troughIndex).toBe(2);
    expect(d.fraction).toBeCloseTo(20 / 110, 12);
  });

  it('the largest fraction may come from another fall than the largest amount', () => {
    // 10 -> 5 (50%, 5 units), then 100 -> 80 (20%, 20 units)
    const d = maxDrawdown([10, 5, 100, 80]);
    expect(d.amount).toBe(20);
    expect(d.fraction).toBeCloseTo(0.5, 12);
  });

  it('is zero on a rising curve or an empty one', () => {
    expect(maxDrawdown([1, 2, 3]).amount).toBe(0);
    expect(maxDrawdown([]).fraction).toBe(0);
  });
});

describe('meanOf', () => {
  it('averages the known values and skips the unknown ones', () => {
    expect(meanOf([2, null, 4, undefined])).toBe(3);
    expect(meanOf([null])).toBeNull();
  });
});

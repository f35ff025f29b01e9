import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { footballMarginPmf } from './distributions.js';
import { analyzeMiddle, keyNumbersIn, middleGap, middleNumbers, type MiddleSide } from './middles.js';
import { Pmf } from './pmf.js';

const above = (threshold: number, decimal: number): MiddleSide => ({ kind: 'above', threshold, decimal });
const below = (threshold: number, decimal: number): MiddleSide => ({ kind: 'below', threshold, decimal });

describe('middleGap / middleNumbers / keyNumbersIn', () => {
  it('computes gaps and middle numbers (hand examples)', () => {
    expect(middleGap({ above: { threshold: 2.5 }, below: { threshold: 7.5 } })).toBe(5);
    expect(middleGap({ above: { threshold: 3 }, below: { threshold: 3 } })).toBe(0);
    expect(middleNumbers(2.5, 7.5)).toEqual([3, 4, 5, 6, 7]);
    expect(middleNumbers(3, 7)).toEqual([4, 5, 6]);
    expect(middleNumbers(44.5, 47.5)).toEqual([45, 46, 47]);
    expect(middleNumbers(-3.5, 3.5)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(middleNumbers(3, 3.5)).toEqual([]);
    expect(middleNumbers(3, 3)).toEqual([]);
    expect(middleNumbers(7.5, 2.5)).toEqual([]);
    expect(() => middleNumbers(Number.NaN, 3)).toThrow(RangeError);
    expect(() => middleNumbers(0, 1e9)).toThrow(RangeError);
  });

  it('finds key numbers, comparing |x| by default', () => {
    expect(keyNumbersIn([3, 4, 5, 6, 7], [3, 7, 10])).toEqual([3, 7]);
    expect(keyNumbersIn([-4, -3, -2], [3, 7])).toEqual([3]);
    expect(keyNumbersIn([-4, -3, -2], [3, 7], false)).toEqual([]);
    expect(keyNumbersIn([-3, 3], [3, 3])).toEqual([3]);
    expect(keyNumbersIn([], [3])).toEqual([]);
  });

  it('property: middle numbers are exactly the integers strictly inside the window', () => {
    fc.assert(
      fc.property(fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true }), (a, b) => {
        const nums = middleNumbers(a, b);
        for (const k of nums) {
          expect(Number.isInteger(k)).toBe(true);
          expect(k).toBeGreaterThan(a);
          expect(k).toBeLessThan(b);
        }
        let expected = 0;
        for (let k = Math.floor(a) - 1; k <= Math.ceil(b) + 1; k++) {
          if (k > a && k < b) {
            expected++;
            expect(nums).toContain(k);
          }
        }
        expect(nums).toHaveLength(expected);
      }),
    );
  });
});

describe('analyzeMiddle worked examples', () => {
  it('NFL home -2.5 @ -110 (1.9091) vs away +7.5 @ -108 (1.9259)', () => {
    // 1/1.9091 = 0.5238070, 1/1.9259 = 0.5192378; S = 1.0430448; P = 100/S = 95.873160
    // stakes: P/1.9091 = 50.219035, P/1.9259 = 49.780965 (50.22 / 49.78)
    // exactly one wins: 95.873160 - 100 = -4.126840 (-4.13)
    // both win: 2 * 95.873160 - 100 = +91.746320 (91.75 to 2 dp; the brief's 91.74 is truncated)
    // break-even: 4.126840 / (91.746320 + 4.126840) = 4.126840 / 95.873160 = 4.3045% (= (S - 1) * 100)
    const pmf = footballMarginPmf(5);
    const r = analyzeMiddle({ above: above(2.5, 1.9091), below: below(7.5, 1.9259), pmf, keyNumbers: [3, 7, 10, 14] });
    expect(r.stakePercent[0]).toBeCloseTo(50.219035, 5);
    expect(r.stakePercent[1]).toBeCloseTo(49.780965, 5);
    expect(r.worstCaseLoss).toBeCloseTo(-4.12684, 5);
    expect(r.bestCaseProfit).toBeCloseTo(91.74632, 5);
    expect(r.breakEvenPercent).toBeCloseTo(4.304479, 5);
    expect(r.marketOverround).toBeCloseTo(1.0430448, 7);
    expect(r.middleNumbers).toEqual([3, 4, 5, 6, 7]);
    expect(r.middleSize).toBe(5);
    expect(r.isGuaranteedProfit).toBe(false);
    expect(r.guaranteedRoi).toBeNull();
    expect(r.pushProbability).toBe(0);
    expect(r.keyNumbers).toEqual([3, 7]);
    // middle probability = P(3..7); key probability = P(3) + P(7) only (not P(-3), P(-7))
    expect(r.middleProbability).toBeCloseTo(pmf.between(3, 7), 15);
    expect(r.keyNumberProbability).toBeCloseTo(pmf.p(3) + pmf.p(7), 15);
    // with the home side expected to win by 5, "home by 3 to 7" happens ~20% of the time,
    // more than half of it on the key numbers 3 and 7
    expect(r.middleProbability).toBeGreaterThan(0.15);
    expect(r.middleProbability).toBeLessThan(0.25);
    expect(r.keyNumberProbability).toBeGreaterThan(0.5 * r.middleProbability);
    // EV = B * P(middle) + W * (1 - P(middle)) since no pushes are possible
    expect(r.expectedValue).toBeCloseTo(91.74632 * r.middleProbability - 4.12684 * (1 - r.middleProbability), 4);
    expect(r.roiPercent).toBe(r.expectedValue);
  });

  it('EV over a small hand-made distribution', () => {
    // same prices; X = 0 (only below wins) 0.5, X = 5 (both win) 0.1, X = 10 (only above wins) 0.4
    // EV = 0.9 * (-4.126840) + 0.1 * 91.746320 = -3.714156 + 9.174632 = 5.460476
    const pmf = new Map([
      [0, 0.5],
      [5, 0.1],
      [10, 0.4],
    ]);
    const r = analyzeMiddle({ above: above(2.5, 1.9091), below: below(7.5, 1.9259), pmf, keyNumbers: [] });
    expect(r.expectedValue).toBeCloseTo(5.460476, 5);
    expect(r.middleProbability).toBeCloseTo(0.1, 15);
    expect(r.keyNumbers).toEqual([]);
    expect(r.keyNumberProbability).toBe(0);
  });

  it('integer lines with pushes: above 3 @ 2.0 / below 7 @ 2.0', () => {
    // S = 0.5 + 0.5 = 1, P = 100, stakes 50 / 50
    // X = 3: above pushes (+50 back), below wins (100) -> profit +50
    // X = 5: both win (200) -> +100; X = 7: above wins, below pushes -> +50; X = 10: above only -> 0
    // EV = 0.2*50 + 0.1*100 + 0.2*50 + 0.5*0 = 30; pushes 0.2 + 0.2 = 0.4
    const pmf = Pmf.fromMap(
      new Map([
        [3, 0.2],
        [5, 0.1],
        [7, 0.2],
        [10, 0.5],
      ]),
    );
    const r = analyzeMiddle({ above: above(3, 2), below: below(7, 2), pmf, keyNumbers: [3, 7] });
    expect(r.middleNumbers).toEqual([4, 5, 6]);
    expect(r.expectedValue).toBeCloseTo(30, 12);
    expect(r.pushProbability).toBeCloseTo(0.4, 15);
    expect(r.middleProbability).toBeCloseTo(0.1, 15);
    expect(r.worstCaseLoss).toBe(0);
    expect(r.bestCaseProfit).toBe(100);
    expect(r.isGuaranteedProfit).toBe(true);
    expect(r.guaranteedRoi).toBe(0);
    expect(r.breakEvenPercent).toBe(0);
    // 3 and 7 are push numbers, not middle numbers
    expect(r.keyNumbers).toEqual([]);
  });

  it('equal integer lines that are an arbitrage: both-push is the worst case', () => {
    // above 3 @ 2.1 / below 3 @ 2.1: S = 2/2.1 = 0.952381, P = 105
    // one side wins: +5; X = 3 both push: 0 -> worst 0, best 5, no middle numbers
    const r = analyzeMiddle({ above: above(3, 2.1), below: below(3, 2.1), pmf: footballMarginPmf(3), keyNumbers: [3] });
    expect(r.middleNumbers).toEqual([]);
    expect(r.worstCaseLoss).toBe(0);
    expect(r.bestCaseProfit).toBeCloseTo(5, 12);
    expect(r.isGuaranteedProfit).toBe(true);
    expect(r.middleProbability).toBe(0);
    const pmf = footballMarginPmf(3);
    expect(r.pushProbability).toBeCloseTo(pmf.p(3), 15);
    expect(r.pushProbability).toBeGreaterThan(0.06);
  });

  it('spread window around zero counts key numbers of both signs that lie inside', () => {
    // home +3.5 (above -3.5) and away +3.5 (below 3.5): X in -3..3 wins both
    const pmf = footballMarginPmf(0);
    const r = analyzeMiddle({ above: above(-3.5, 1.8), below: below(3.5, 1.8), pmf, keyNumbers: [3, 7] });
    expect(r.middleNumbers).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(r.keyNumbers).toEqual([3]);
    expect(r.keyNumberProbability).toBeCloseTo(pmf.p(-3) + pmf.p(3), 15);
    expect(r.keyNumberProbability).toBeCloseTo(0.151, 3);
  });

  it('totals middle Over 44.5 / Under 47.5', () => {
    const pmf = Pmf.fromMap(
      new Map([
        [44, 0.25],
        [45, 0.25],
        [47, 0.25],
        [48, 0.25],
      ]),
    );
    // 1.95 / 1.95: S = 1.025641, P = 97.5; one wins -2.5; both win 95; EV = 0.5 * 95 - 0.5 * 2.5 = 46.25
    const r = analyzeMiddle({ above: above(44.5, 1.95), below: below(47.5, 1.95), pmf, keyNumbers: [41, 44, 47] });
    expect(r.middleNumbers).toEqual([45, 46, 47]);
    expect(r.keyNumbers).toEqual([47]);
    expect(r.keyNumberProbability).toBeCloseTo(0.25, 15);
    expect(r.expectedValue).toBeCloseTo(46.25, 10);
    expect(r.worstCaseLoss).toBeCloseTo(-2.5, 10);
  });

  it('rejects invalid input', () => {
    const pmf = footballMarginPmf(3);
    const ok = { above: above(2.5, 1.9), below: below(7.5, 1.9), pmf, keyNumbers: [3] };
    expect(() => analyzeMiddle({ ...ok, above: below(2.5, 1.9) })).toThrow(RangeError);
    expect(() => analyzeMiddle({ ...ok, below: above(7.5, 1.9) })).toThrow(RangeError);
    expect(() => analyzeMiddle({ ...ok, above: above(2.25, 1.9) })).toThrow(RangeError);
    expect(() => analyzeMiddle({ ...ok, above: above(2.5, 1) })).toThrow(RangeError);
    expect(() => analyzeMiddle({ ...ok, below: below(Number.NaN, 1.9) })).toThrow(RangeError);
    expect(() => analyzeMiddle({ ...ok, above: above(8.5, 1.9) })).toThrow(RangeError);
    expect(() => analyzeMiddle({ ...ok, pmf: new Map([[3, 0.5]]) })).toThrow(RangeError);
  });
});

/** Independent settlement of one bet, used as an oracle. */
function settle(side: MiddleSide, stake: number, x: number): number {
  const wins = side.kind === 'above' ? x > side.threshold : x < side.threshold;
  if (wins) return stake * (side.decimal - 1);
  if (x === side.threshold) return 0;
  return -stake;
}

const halfLine = fc.integer({ min: -40, max: 80 }).map((h) => h / 2);
const decimal = fc.double({ min: 1.2, max: 4, noNaN: true });
const middleArb = fc
  .tuple(halfLine, fc.integer({ min: 0, max: 30 }), decimal, decimal)
  .map(([t, width, dA, dB]) => ({ above: above(t, dA), below: below(t + width / 2, dB) }));

describe('analyzeMiddle properties', () => {
  it('stakes sum to 100 and a lone winner pays the same on either side', () => {
    fc.assert(
      fc.property(middleArb, ({ above: a, below: b }) => {
        const r = analyzeMiddle({ above: a, below: b, pmf: footballMarginPmf(0), keyNumbers: [3, 7] });
        expect(Math.abs(r.stakePercent[0] + r.stakePercent[1] - 100)).toBeLessThanOrEqual(1e-9);
        const aloneA = r.stakePercent[0] * (a.decimal - 1) - r.stakePercent[1];
        const aloneB = r.stakePercent[1] * (b.decimal - 1) - r.stakePercent[0];
        expect(Math.abs(aloneA - aloneB)).toBeLessThanOrEqual(1e-9);
        for (const x of r.middleNumbers) {
          expect(x).toBeGreaterThan(a.threshold);
          expect(x).toBeLessThan(b.threshold);
        }
      }),
    );
  });

  it('worstCaseLoss >= 0 exactly when 1/d1 + 1/d2 <= 1', () => {
    fc.assert(
      fc.property(middleArb, ({ above: a, below: b }) => {
        const r = analyzeMiddle({ above: a, below: b, pmf: footballMarginPmf(0), keyNumbers: [] });
        expect(r.worstCaseLoss >= 0).toBe(1 / a.decimal + 1 / b.decimal <= 1);
        expect(r.isGuaranteedProfit).toBe(r.worstCaseLoss >= 0);
      }),
    );
  });

  it('EV, worst and best case agree with independent settlement of both bets', () => {
    fc.assert(
      fc.property(middleArb, fc.double({ min: -10, max: 40, noNaN: true }), ({ above: a, below: b }, spread) => {
        const pmf = footballMarginPmf(spread);
        const r = analyzeMiddle({ above: a, below: b, pmf, keyNumbers: [3, 7] });
        const [sA, sB] = r.stakePercent;
        let ev = 0;
        let min = Number.POSITIVE_INFINITY;
        let max = Number.NEGATIVE_INFINITY;
        for (let x = -150; x <= 200; x++) {
          const profit = settle(a, sA, x) + settle(b, sB, x);
          ev += pmf.p(x) * profit;
          min = Math.min(min, profit);
          max = Math.max(max, profit);
        }
        expect(Math.abs(r.expectedValue - ev)).toBeLessThanOrEqual(1e-9);
        expect(Math.abs(r.worstCaseLoss - min)).toBeLessThanOrEqual(1e-9);
        expect(Math.abs(r.bestCaseProfit - max)).toBeLessThanOrEqual(1e-9);
        expect(r.expectedValue).toBeGreaterThanOrEqual(r.worstCaseLoss - 1e-9);
        expect(r.expectedValue).toBeLessThanOrEqual(r.bestCaseProfit + 1e-9);
        // probabilities are consistent: middle + push + key <= 1, key <= middle
        expect(r.middleProbability + r.pushProbability).toBeLessThanOrEqual(1 + 1e-12);
        expect(r.keyNumberProbability).toBeLessThanOrEqual(r.middleProbability + 1e-15);
      }),
    );
  });

  it('break-even probability makes the two-outcome EV zero', () => {
    fc.assert(
      fc.property(
        middleArb.filter((m) => middleNumbers(m.above.threshold, m.below.threshold).length > 0),
        ({ above: a, below: b }) => {
          const r = analyzeMiddle({ above: a, below: b, pmf: footballMarginPmf(0), keyNumbers: [] });
          if (r.worstCaseLoss >= 0) {
            expect(r.breakEvenPercent).toBe(0);
            return;
          }
          const q = r.breakEvenPercent / 100;
          expect(Math.abs(q * r.bestCaseProfit + (1 - q) * r.worstCaseLoss)).toBeLessThanOrEqual(1e-9);
          expect(r.breakEvenPercent).toBeCloseTo((r.marketOverround - 1) * 100, 9);
        },
      ),
    );
  });
});

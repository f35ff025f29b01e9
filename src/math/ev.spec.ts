import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { evPercent, fairAmerican, marketWidth } from './ev.js';
import { americanToProbability } from './odds.js';

describe('evPercent', () => {
  it('matches hand-computed values', () => {
    // (0.5 * 2.1 - 1) * 100 = (1.05 - 1) * 100 = +5
    expect(evPercent(0.5, 2.1)).toBeCloseTo(5, 12);
    // (0.55 * 1.9091 - 1) * 100 = (1.050005 - 1) * 100 = +5.0005
    expect(evPercent(0.55, 1.9091)).toBeCloseTo(5.0005, 10);
    // (0.4 * 2.4 - 1) * 100 = (0.96 - 1) * 100 = -4
    expect(evPercent(0.4, 2.4)).toBeCloseTo(-4, 12);
    // fair price: p = 11/21, d = 21/11 -> 0
    expect(evPercent(11 / 21, 21 / 11)).toBeCloseTo(0, 12);
  });

  it('rejects invalid input', () => {
    for (const [p, d] of [
      [0, 2],
      [1, 2],
      [0.5, 1],
      [0.5, 0.9],
      [Number.NaN, 2],
      [0.5, Number.POSITIVE_INFINITY],
    ] as const) {
      expect(() => evPercent(p, d)).toThrow(RangeError);
    }
  });

  it('property: positive exactly when d > 1/p, and increasing in both arguments', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        fc.double({ min: 1.01, max: 50, noNaN: true }),
        fc.double({ min: 1e-6, max: 1, noNaN: true }),
        (p, d, bump) => {
          const ev = evPercent(p, d);
          expect(ev > 0).toBe(p * d > 1);
          expect(evPercent(p, d + bump)).toBeGreaterThan(ev);
          if (p + bump * 0.001 < 1) expect(evPercent(p + bump * 0.001, d)).toBeGreaterThan(ev);
        },
      ),
    );
  });
});

describe('fairAmerican', () => {
  it('matches hand-computed values', () => {
    // 0.6: -100*0.6/0.4 = -150
    expect(fairAmerican(0.6)).toBe(-150);
    // 0.4: 100*0.6/0.4 = +150
    expect(fairAmerican(0.4)).toBe(150);
    // 0.5: +100
    expect(fairAmerican(0.5)).toBe(100);
    // 11/21: -100*(11/21)/(10/21) = -110
    expect(fairAmerican(11 / 21)).toBe(-110);
    // 0.5230172 (multiplicative -115/+105): -100*0.5230172/0.4769828 = -109.651 -> -110
    expect(fairAmerican(0.5230172)).toBe(-110);
    // 0.4769828: 100*0.5230172/0.4769828 = +109.651 -> +110
    expect(fairAmerican(0.4769828)).toBe(110);
    // 0.5001: -100*0.5001/0.4999 = -100.04 -> even money +100
    expect(fairAmerican(0.5001)).toBe(100);
  });

  it('property: complementary probabilities give mirrored prices and round-trip closely', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 0.999, noNaN: true }), (p) => {
        const a = fairAmerican(p);
        const b = fairAmerican(1 - p);
        expect(Number.isInteger(a)).toBe(true);
        if (a === 100 || b === 100) expect(Math.max(a, b)).toBe(100);
        else expect(a).toBe(-b);
        // half a cent of American rounding moves the probability by at most 0.5 * |dp/da| <= 0.00125
        expect(Math.abs(americanToProbability(a) - p)).toBeLessThanOrEqual(0.00125);
      }),
    );
  });
});

describe('marketWidth', () => {
  it('matches the standard cents examples', () => {
    // both negative: 110 + 110 - 200 = 20
    expect(marketWidth(-110, -110)).toBe(20);
    // favourite/underdog: 115 - 105 = 10
    expect(marketWidth(-115, 105)).toBe(10);
    // 140 - 120 = 20, either order
    expect(marketWidth(-140, 120)).toBe(20);
    expect(marketWidth(120, -140)).toBe(20);
    // even money both ways: 0
    expect(marketWidth(100, -100)).toBe(0);
    // -105/-105: 5 + 5 = 10
    expect(marketWidth(-105, -105)).toBe(10);
    // both positive (an arbitrage pair): 200 - 105 - 105 = -10
    expect(marketWidth(105, 105)).toBe(-10);
  });

  it('rejects invalid American odds', () => {
    expect(() => marketWidth(-110, 50)).toThrow(RangeError);
    expect(() => marketWidth(Number.NaN, -110)).toThrow(RangeError);
  });

  it('property: symmetric, and positive exactly when the pair carries a margin (implied sum > 1)', () => {
    const american = fc.oneof(fc.integer({ min: 100, max: 2000 }), fc.integer({ min: -2000, max: -100 }));
    fc.assert(
      fc.property(american, american, (a, b) => {
        const w = marketWidth(a, b);
        expect(marketWidth(b, a)).toBe(w);
        const s = americanToProbability(a) + americanToProbability(b);
        if (w > 0) expect(s).toBeGreaterThan(1);
        else if (w < 0) expect(s).toBeLessThan(1);
        else expect(Math.abs(s - 1)).toBeLessThan(1e-12);
      }),
    );
  });
});

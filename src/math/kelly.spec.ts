import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { kellyFraction } from './kelly.js';

describe('kellyFraction', () => {
  it('matches hand-computed values', () => {
    // p = 0.55, d = 2.0: (1.1 - 1)/(2 - 1) = 0.1
    expect(kellyFraction(0.55, 2)).toBeCloseTo(0.1, 12);
    // quarter Kelly: 0.1 * 0.25 = 0.025
    expect(kellyFraction(0.55, 2, 0.25)).toBeCloseTo(0.025, 12);
    // p = 0.3, d = 4.0: (1.2 - 1)/3 = 0.0666667; half Kelly 0.0333333
    expect(kellyFraction(0.3, 4)).toBeCloseTo(0.2 / 3, 12);
    expect(kellyFraction(0.3, 4, 0.5)).toBeCloseTo(0.1 / 3, 12);
    // p = 0.6, d = 1.9091: (1.14546 - 1)/0.9091 = 0.14546/0.9091 = 0.1600044
    expect(kellyFraction(0.6, 1.9091)).toBeCloseTo(0.14546 / 0.9091, 12);
  });

  it('never stakes on a negative or zero edge', () => {
    // p = 0.4, d = 2: (0.8 - 1)/1 = -0.2 -> 0
    expect(kellyFraction(0.4, 2)).toBe(0);
    // p = 0.5, d = 2: exactly zero edge -> 0
    expect(kellyFraction(0.5, 2)).toBe(0);
    expect(kellyFraction(0.55, 2, 0)).toBe(0);
  });

  it('rejects invalid input', () => {
    expect(() => kellyFraction(0, 2)).toThrow(RangeError);
    expect(() => kellyFraction(1, 2)).toThrow(RangeError);
    expect(() => kellyFraction(0.5, 1)).toThrow(RangeError);
    expect(() => kellyFraction(0.5, 2, 1.5)).toThrow(RangeError);
    expect(() => kellyFraction(0.5, 2, -0.1)).toThrow(RangeError);
    expect(() => kellyFraction(0.5, 2, Number.NaN)).toThrow(RangeError);
  });

  it('property: in [0, 1), zero exactly without edge, linear in the fraction', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        fc.double({ min: 1.001, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (p, d, fraction) => {
          const full = kellyFraction(p, d);
          expect(full).toBeGreaterThanOrEqual(0);
          expect(full).toBeLessThan(1);
          expect(full > 0).toBe(p * d > 1);
          expect(kellyFraction(p, d, fraction)).toBeCloseTo(full * fraction, 14);
        },
      ),
    );
  });

  it('property: full Kelly maximises expected log growth p ln(1 + f(d-1)) + (1-p) ln(1-f)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 0.95, noNaN: true }), fc.double({ min: 1.05, max: 20, noNaN: true }), (p, d) => {
        const f = kellyFraction(p, d);
        const growth = (x: number): number => p * Math.log(1 + x * (d - 1)) + (1 - p) * Math.log(1 - x);
        for (const delta of [0.01, 0.001]) {
          expect(growth(f)).toBeGreaterThanOrEqual(growth(Math.min(0.999, f + delta)) - 1e-12);
          if (f - delta >= 0) expect(growth(f)).toBeGreaterThanOrEqual(growth(f - delta) - 1e-12);
        }
      }),
    );
  });
});

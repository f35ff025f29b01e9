import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { erf, erfc, normalCdf, normalInterval, normalSf } from './normal.js';

/** Reference values of Phi(z) (standard normal tables; 16 significant digits, cross-checked with mpmath). */
const PHI: ReadonlyArray<readonly [number, number]> = [
  [0, 0.5],
  [0.5, 0.6914624612740131],
  [1, 0.8413447460685429],
  [1.96, 0.9750021048517795],
  [-1.96, 0.024997895148220435],
  [2.5, 0.9937903346742238],
  [-3, 0.0013498980316300933],
  [-5, 2.866515718791933e-7],
  [-8, 6.22096057427174e-16],
  [-12, 1.776482112077653e-33],
];

describe('normal CDF', () => {
  it('matches reference values to 1e-15 absolute and 1e-12 relative', () => {
    for (const [z, phi] of PHI) {
      expect(Math.abs(normalCdf(z) - phi)).toBeLessThanOrEqual(1e-15);
      expect(Math.abs(normalCdf(z) - phi)).toBeLessThanOrEqual(1e-12 * phi);
      // the upper tail is accurate too: Q(-z) = Phi(z)
      expect(Math.abs(normalSf(-z) - phi)).toBeLessThanOrEqual(1e-12 * phi);
    }
  });

  it('keeps relative accuracy in the tail (A&S 7.1.26, abs error 1.5e-7, could not)', () => {
    // Phi(-3.5) = 2.326290790355250e-4 (reference)
    expect(Math.abs(normalCdf(-3.5) - 2.32629079035525e-4) / 2.32629079035525e-4).toBeLessThanOrEqual(1e-11);
  });

  it('erf / erfc reference values and identities', () => {
    // erf(1) = 0.8427007929497149, erfc(2) = 0.004677734981047266, erfc(4) = 1.541725790028002e-8
    expect(erf(1)).toBeCloseTo(0.8427007929497149, 15);
    expect(Math.abs(erfc(2) - 0.004677734981047266)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(erfc(4) - 1.541725790028002e-8) / 1.541725790028002e-8).toBeLessThanOrEqual(1e-12);
    expect(erfc(-1)).toBeCloseTo(2 - erfc(1), 15);
    expect(erf(-0.3)).toBe(-erf(0.3));
    expect(erfc(30)).toBe(0);
    expect(Number.isNaN(erfc(Number.NaN))).toBe(true);
  });

  it('is continuous across the series / continued-fraction switch at x = 2.5', () => {
    const below = erfc(2.5 - 1e-12);
    const above = erfc(2.5);
    expect(Math.abs(below - above) / above).toBeLessThan(1e-10);
  });

  it('property: Phi(z) + Phi(-z) = 1, monotone, and intervals agree with differences', () => {
    fc.assert(
      fc.property(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true }), (z, h) => {
        expect(Math.abs(normalCdf(z) + normalCdf(-z) - 1)).toBeLessThanOrEqual(1e-15);
        expect(normalCdf(z + h)).toBeGreaterThanOrEqual(normalCdf(z));
        expect(Math.abs(normalInterval(z, z + h) - (normalCdf(z + h) - normalCdf(z)))).toBeLessThanOrEqual(1e-15);
      }),
    );
  });

  it('normalInterval is 0 for empty intervals and keeps relative accuracy in the tails', () => {
    expect(normalInterval(1, 1)).toBe(0);
    expect(normalInterval(2, 1)).toBe(0);
    // P(8 < Z <= 9) = Q(8) - Q(9) = 6.22096057427174e-16 - 1.128588405953e-19
    expect(normalInterval(8, 9)).toBeCloseTo(6.22096057427174e-16 - 1.128588405953e-19, 28);
  });
});

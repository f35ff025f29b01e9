import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { evConfidenceScore, middleQualityScore, type EvConfidenceInput, type MiddleQualityInput } from './scores.js';

const IDEAL: EvConfidenceInput = {
  bookCount: 10,
  sharpMarketWidth: 10,
  sharpHoldPercent: 2,
  oddsAgeSeconds: 10,
  isLive: false,
  isMainLine: true,
  sharpRefCount: 2,
  evPercent: 3,
};

describe('evConfidenceScore', () => {
  it('matches hand-computed penalty sums', () => {
    expect(evConfidenceScore(IDEAL)).toBe(100);
    // books 4 (-15), width 22 (-12), hold 4 (-5), age 60 pre-match (-5), alternate (-10),
    // one sharp ref (-10), EV 12% (-15): 100 - 72 = 28
    expect(
      evConfidenceScore({
        bookCount: 4,
        sharpMarketWidth: 22,
        sharpHoldPercent: 4,
        oddsAgeSeconds: 60,
        isLive: false,
        isMainLine: false,
        sharpRefCount: 1,
        evPercent: 12,
      }),
    ).toBe(28);
    // live, age 10 (-10 staleness, -10 live): 80
    expect(evConfidenceScore({ ...IDEAL, isLive: true, oddsAgeSeconds: 10, sharpMarketWidth: 8, sharpHoldPercent: 2.5 })).toBe(80);
    // unknown width (-10); boundaries hold 3, age 30, EV 10 carry no penalty: 90
    expect(
      evConfidenceScore({
        ...IDEAL,
        bookCount: 8,
        sharpMarketWidth: null,
        sharpHoldPercent: 3,
        oddsAgeSeconds: 30,
        evPercent: 10,
        sharpRefCount: 3,
      }),
    ).toBe(90);
    // book-count steps: 2 books -25, 3 books -15, 7 books -5
    expect(evConfidenceScore({ ...IDEAL, bookCount: 2 })).toBe(75);
    expect(evConfidenceScore({ ...IDEAL, bookCount: 3 })).toBe(85);
    expect(evConfidenceScore({ ...IDEAL, bookCount: 7 })).toBe(95);
    // no sharp reference -30, EV 30% -50: 20
    expect(evConfidenceScore({ ...IDEAL, sharpRefCount: 0, evPercent: 30 })).toBe(20);
    // everything bad clamps at 0
    expect(
      evConfidenceScore({
        bookCount: 1,
        sharpMarketWidth: 50,
        sharpHoldPercent: 10,
        oddsAgeSeconds: 900,
        isLive: true,
        isMainLine: false,
        sharpRefCount: 0,
        evPercent: 40,
      }),
    ).toBe(0);
  });

  it('rejects invalid input', () => {
    expect(() => evConfidenceScore({ ...IDEAL, bookCount: -1 })).toThrow(RangeError);
    expect(() => evConfidenceScore({ ...IDEAL, oddsAgeSeconds: Number.NaN })).toThrow(RangeError);
    expect(() => evConfidenceScore({ ...IDEAL, sharpMarketWidth: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => evConfidenceScore({ ...IDEAL, evPercent: Number.NaN })).toThrow(RangeError);
  });

  it('property: integer in [0, 100], monotone in books, age and EV', () => {
    const input = fc.record({
      bookCount: fc.integer({ min: 0, max: 40 }),
      sharpMarketWidth: fc.option(fc.double({ min: -20, max: 60, noNaN: true }), { nil: null }),
      sharpHoldPercent: fc.double({ min: -2, max: 15, noNaN: true }),
      oddsAgeSeconds: fc.double({ min: 0, max: 3600, noNaN: true }),
      isLive: fc.boolean(),
      isMainLine: fc.boolean(),
      sharpRefCount: fc.integer({ min: 0, max: 5 }),
      evPercent: fc.double({ min: -5, max: 40, noNaN: true }),
    });
    fc.assert(
      fc.property(input, fc.double({ min: 0, max: 100, noNaN: true }), (x, bump) => {
        const s = evConfidenceScore(x);
        expect(Number.isInteger(s)).toBe(true);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(100);
        expect(evConfidenceScore({ ...x, bookCount: x.bookCount + 1 })).toBeGreaterThanOrEqual(s);
        expect(evConfidenceScore({ ...x, sharpRefCount: x.sharpRefCount + 1 })).toBeGreaterThanOrEqual(s);
        expect(evConfidenceScore({ ...x, oddsAgeSeconds: x.oddsAgeSeconds + bump })).toBeLessThanOrEqual(s);
        expect(evConfidenceScore({ ...x, evPercent: x.evPercent + bump })).toBeLessThanOrEqual(s);
        expect(evConfidenceScore({ ...x, sharpHoldPercent: x.sharpHoldPercent + bump })).toBeLessThanOrEqual(s);
      }),
    );
  });
});

const BASE: MiddleQualityInput = {
  middleProbability: 0.1,
  expectedValue: 2.5,
  middleSize: 5,
  keyNumberProbability: 0.075,
  worstCaseLoss: -4.13,
  oddsAgeSeconds: 20,
  isLive: false,
};

describe('middleQualityScore', () => {
  it('matches hand-computed blends', () => {
    // 40*(0.10/0.20) = 20; 25*((2.5+5)/15) = 12.5; 15*(1 - 0.413) = 8.805; 10*(0.075/0.15) = 5;
    // 10*(5/7) = 7.142857; sum 53.447857, fresh pre-match x1 -> 53
    expect(middleQualityScore(BASE)).toBe(53);
    // live, age 10: x0.9 (staleness) x0.85 (live) = 0.765 -> 40.888 -> 41
    expect(middleQualityScore({ ...BASE, isLive: true, oddsAgeSeconds: 10 })).toBe(41);
    // stale pre-match (700 s): x0.5 -> 26.72 -> 27
    expect(middleQualityScore({ ...BASE, oddsAgeSeconds: 700 })).toBe(27);
    // every component saturated -> 100; none -> 0
    expect(
      middleQualityScore({
        middleProbability: 0.3,
        expectedValue: 20,
        middleSize: 10,
        keyNumberProbability: 0.2,
        worstCaseLoss: 1,
        oddsAgeSeconds: 0,
        isLive: false,
      }),
    ).toBe(100);
    expect(
      middleQualityScore({
        middleProbability: 0,
        expectedValue: -10,
        middleSize: 0,
        keyNumberProbability: 0,
        worstCaseLoss: -20,
        oddsAgeSeconds: 0,
        isLive: false,
      }),
    ).toBe(0);
  });

  it('rejects invalid input', () => {
    expect(() => middleQualityScore({ ...BASE, middleProbability: 1.2 })).toThrow(RangeError);
    expect(() => middleQualityScore({ ...BASE, keyNumberProbability: -0.1 })).toThrow(RangeError);
    expect(() => middleQualityScore({ ...BASE, expectedValue: Number.NaN })).toThrow(RangeError);
    expect(() => middleQualityScore({ ...BASE, oddsAgeSeconds: -1 })).toThrow(RangeError);
  });

  it('property: integer in [0, 100], never lower with higher middle probability or EV, never higher when staler', () => {
    const input = fc.record({
      middleProbability: fc.double({ min: 0, max: 1, noNaN: true }),
      expectedValue: fc.double({ min: -30, max: 60, noNaN: true }),
      middleSize: fc.double({ min: 0, max: 20, noNaN: true }),
      keyNumberProbability: fc.double({ min: 0, max: 1, noNaN: true }),
      worstCaseLoss: fc.double({ min: -30, max: 10, noNaN: true }),
      oddsAgeSeconds: fc.double({ min: 0, max: 3600, noNaN: true }),
      isLive: fc.boolean(),
    });
    fc.assert(
      fc.property(input, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true }), (x, u, bump) => {
        const s = middleQualityScore(x);
        expect(Number.isInteger(s)).toBe(true);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(100);
        const higherP = x.middleProbability + u * (1 - x.middleProbability);
        expect(middleQualityScore({ ...x, middleProbability: higherP })).toBeGreaterThanOrEqual(s);
        expect(middleQualityScore({ ...x, expectedValue: x.expectedValue + bump })).toBeGreaterThanOrEqual(s);
        expect(middleQualityScore({ ...x, oddsAgeSeconds: x.oddsAgeSeconds + bump * 20 })).toBeLessThanOrEqual(s);
      }),
    );
  });

  it('a better middle probability strictly raises an unsaturated score', () => {
    // 0.05 -> 10 points, 0.15 -> 30 points from the probability component
    expect(middleQualityScore({ ...BASE, middleProbability: 0.15 })).toBe(middleQualityScore({ ...BASE, middleProbability: 0.05 }) + 20);
  });
});

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { partitionPoint } from './sorted.js';

describe('partitionPoint', () => {
  it('finds the first value at or above, and the first above, a sought value', () => {
    const times = [10, 20, 20, 30];
    expect(partitionPoint(times, (t) => t < 20)).toBe(1);
    expect(partitionPoint(times, (t) => t <= 20)).toBe(3);
    expect(partitionPoint(times, (t) => t < 5)).toBe(0);
    expect(partitionPoint(times, (t) => t <= 30)).toBe(4);
    expect(partitionPoint([], (t: number) => t < 1)).toBe(0);
  });

  it('is the count of values the predicate holds for, on any sorted array (a linear count is the truth)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 })), fc.integer({ min: -60, max: 60 }), (raw, x) => {
        const sorted = [...raw].sort((a, b) => a - b);
        expect(partitionPoint(sorted, (v) => v < x)).toBe(sorted.filter((v) => v < x).length);
        expect(partitionPoint(sorted, (v) => v <= x)).toBe(sorted.filter((v) => v <= x).length);
      }),
    );
  });
});

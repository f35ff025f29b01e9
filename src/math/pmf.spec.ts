import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Pmf } from './pmf.js';

describe('Pmf', () => {
  it('normalises weights and reports moments (hand-computed)', () => {
    // weights 1,2,1 on -1,0,1 -> 0.25, 0.5, 0.25; mean 0; variance 0.25 + 0.25 = 0.5
    const p = Pmf.fromWeights(-1, [1, 2, 1]);
    expect(p.min).toBe(-1);
    expect(p.max).toBe(1);
    expect(p.p(-1)).toBe(0.25);
    expect(p.p(0)).toBe(0.5);
    expect(p.p(2)).toBe(0);
    expect(p.p(0.5)).toBe(0);
    expect(p.mean()).toBe(0);
    expect(p.variance()).toBe(0.5);
    expect(p.total()).toBe(1);
    // cdf(0) = 0.75, cdf(0.9) = 0.75, cdf(-2) = 0; between(0, 5) = 0.75
    expect(p.cdf(0)).toBe(0.75);
    expect(p.cdf(0.9)).toBe(0.75);
    expect(p.cdf(-2)).toBe(0);
    expect(p.between(0, 5)).toBe(0.75);
    expect(p.between(1, 0)).toBe(0);
    expect(p.toArray()).toEqual([0.25, 0.5, 0.25]);
  });

  it('trims tails of at most 1e-9 in total and renormalises', () => {
    // 4e-10 at each end is trimmed (each <= 5e-10); 6e-10 would not be
    const p = Pmf.fromWeights(0, [4e-10, 0.5, 0.5 - 8e-10, 4e-10]);
    expect(p.min).toBe(1);
    expect(p.max).toBe(2);
    expect(p.total()).toBeCloseTo(1, 15);
    const q = Pmf.fromWeights(0, [6e-10, 0.5, 0.5]);
    expect(q.min).toBe(0);
    // zero weights at the edges are dropped
    const z = Pmf.fromWeights(5, [0, 0, 1, 3, 0]);
    expect([z.min, z.max]).toEqual([7, 8]);
    expect(z.p(8)).toBe(0.75);
  });

  it('converts from and to maps', () => {
    const m = new Map<number, number>([
      [3, 0.2],
      [7, 0.6],
      [5, 0.2],
    ]);
    const p = Pmf.fromMap(m);
    expect([p.min, p.max]).toEqual([3, 7]);
    expect(p.p(4)).toBe(0);
    expect(p.p(7)).toBeCloseTo(0.6, 15);
    expect(p.toMap()).toEqual(
      new Map([
        [3, expect.closeTo(0.2, 15)],
        [5, expect.closeTo(0.2, 15)],
        [7, expect.closeTo(0.6, 15)],
      ]),
    );
    expect(Pmf.from(p)).toBe(p);
    expect(Pmf.from(m).p(5)).toBeCloseTo(0.2, 15);
  });

  it('rejects invalid input', () => {
    expect(() => Pmf.fromWeights(0.5, [1])).toThrow(RangeError);
    expect(() => Pmf.fromWeights(0, [])).toThrow(RangeError);
    expect(() => Pmf.fromWeights(0, [0, 0])).toThrow(RangeError);
    expect(() => Pmf.fromWeights(0, [1, -1])).toThrow(RangeError);
    expect(() => Pmf.fromWeights(0, [1, Number.NaN])).toThrow(RangeError);
    expect(() => Pmf.fromMap(new Map())).toThrow(RangeError);
    expect(() => Pmf.fromMap(new Map([[1.5, 1]]))).toThrow(RangeError);
    expect(() =>
      Pmf.fromMap(
        new Map([
          [0, 1],
          [5_000_000, 1],
        ]),
      ),
    ).toThrow(RangeError);
  });

  it('property: any positive weights give probabilities summing to 1 and mean within the support', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -50, max: 50 }),
        fc.array(fc.double({ min: 0, max: 1000, noNaN: true }), { minLength: 1, maxLength: 60 }),
        (min, w) => {
          fc.pre(w.some((x) => x > 1e-3));
          const p = Pmf.fromWeights(min, w);
          expect(Math.abs(p.total() - 1)).toBeLessThanOrEqual(1e-12);
          expect(p.mean()).toBeGreaterThanOrEqual(p.min - 1e-9);
          expect(p.mean()).toBeLessThanOrEqual(p.max + 1e-9);
          expect(p.cdf(p.max)).toBeCloseTo(1, 12);
        },
      ),
    );
  });
});

import { describe, expect, it } from '@jest/globals';
import { americanToDecimal } from '../../../math/index.js';
import { Dist, lineSides } from './model.js';
import { applyMargin, formatPrice, toDecimal } from './pricing.js';
import { Rng } from './rng.js';
import { setOutcomes, tennisOutlook } from './tennis.js';

describe('pricing', () => {
  it('adds the requested overround', () => {
    for (const m of [0.02, 0.045, 0.07]) {
      const q = applyMargin([0.3, 0.7], m);
      expect((q[0] ?? 0) + (q[1] ?? 0) - 1).toBeCloseTo(m, 12);
    }
  });

  it('rounds US soft prices to 5 cents, sharp prices to the cent, contracts to whole cents', () => {
    expect(formatPrice(0.5238, 'american5')).toBe(-110);
    expect(formatPrice(0.45, 'american5') % 5).toBe(0);
    expect(Number.isInteger(formatPrice(0.5123, 'american1'))).toBe(true);
    expect(formatPrice(0.5123, 'contract')).toBe(51);
    expect(toDecimal(51, 'contract')).toBeCloseTo(1 / 0.51, 12);
    expect(toDecimal(-110, 'american5')).toBeCloseTo(americanToDecimal(-110), 12);
    expect(formatPrice(0.5, 'decimal2')).toBe(2);
  });
});

describe('lines', () => {
  const d = Dist.fromWeights(-2, [0.1, 0.2, 0.4, 0.2, 0.1]);

  it('removes pushes on whole lines and splits quarter lines', () => {
    const [w, l] = lineSides(d, 0, 0);
    expect(w).toBeCloseTo(0.5, 12);
    expect(w + l).toBeCloseTo(1, 12);
    const [a] = lineSides(d, 0.5, 0);
    expect(a).toBeCloseTo(0.3, 12);
    // quarter line 0.25 = half on 0 (push at 0) and half on 0.5
    const [q] = lineSides(d, 0.25, 0);
    expect(q).toBeCloseTo((0.3 + 0.3) / (0.3 + 0.3 + 0.3 + 0.7), 12);
  });
});

describe('tennis', () => {
  it('sums set outcomes to one and favours the stronger player', () => {
    const s = setOutcomes(0.55, 0, 0);
    expect(s.reduce((acc, [, , p]) => acc + p, 0)).toBeCloseTo(1, 12);
    const even = tennisOutlook(0.5, { sets: [], home: 0, away: 0 });
    expect(even.pHomeMatch).toBeCloseTo(0.5, 9);
    const strong = tennisOutlook(0.56, { sets: [], home: 0, away: 0 });
    expect(strong.pHomeMatch).toBeGreaterThan(0.6);
    const leading = tennisOutlook(0.5, { sets: [[6, 3]], home: 4, away: 1 });
    expect(leading.pHomeMatch).toBeGreaterThan(0.85);
  });
});

describe('rng', () => {
  it('is deterministic per seed', () => {
    const a = new Rng(1);
    const b = new Rng(1);
    const c = new Rng(2);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(xs);
  });
});

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DEVIG_METHODS, devig, devigAll, overround, type DevigMethod } from './devig.js';

const EXACT: readonly DevigMethod[] = ['multiplicative', 'additive', 'power', 'shin'];

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const at = (xs: readonly number[], i: number): number => {
  const v = xs[i];
  if (v === undefined) throw new Error(`index ${i} out of range`);
  return v;
};

/** Pinnacle-style -115 / +105 two-way market. */
// -115: 115/215 = 0.5348837; +105: 100/205 = 0.4878049; S = 1.0226886 (overround 2.269%)
const TWO_WAY = [115 / 215, 100 / 205];
/** Three-way soccer 1X2 at decimals 2.10 / 3.40 / 3.60. */
// 1/2.10 = 0.4761905, 1/3.40 = 0.2941176, 1/3.60 = 0.2777778; S = 1.0480859
const THREE_WAY = [1 / 2.1, 1 / 3.4, 1 / 3.6];

describe('overround', () => {
  it('is sum - 1', () => {
    expect(overround(TWO_WAY)).toBeCloseTo(0.0226886, 7);
    expect(overround(THREE_WAY)).toBeCloseTo(0.0480859, 7);
    // -110/-110: 2 * 110/210 - 1 = 0.047619
    expect(overround([110 / 210, 110 / 210])).toBeCloseTo(1 / 21, 12);
  });
});

describe('DEVIG_METHODS', () => {
  it('lists the five methods', () => {
    expect([...DEVIG_METHODS]).toEqual(['multiplicative', 'additive', 'power', 'shin', 'worst_case']);
  });
});

describe('devig worked examples', () => {
  it('two-way -115/+105', () => {
    // multiplicative: 0.5348837/1.0226886 = 0.5230172; 0.4878049/1.0226886 = 0.4769828
    const m = devig(TWO_WAY, 'multiplicative');
    expect(at(m, 0)).toBeCloseTo(0.5230172, 7);
    expect(at(m, 1)).toBeCloseTo(0.4769828, 7);

    // additive: margin share 0.0226886/2 = 0.0113443; 0.5348837 - 0.0113443 = 0.5235394; 0.4878049 - 0.0113443 = 0.4764606
    const a = devig(TWO_WAY, 'additive');
    expect(at(a, 0)).toBeCloseTo(0.5235394, 7);
    expect(at(a, 1)).toBeCloseTo(0.4764606, 7);

    // power: k = 1.0335043 solves 0.5348837^k + 0.4878049^k = 1:
    //   ln 0.5348837 = -0.6256998, * k = -0.6466626, exp = 0.5237872
    //   ln 0.4878049 = -0.7178398, * k = -0.7418911, exp = 0.4762128;  sum = 1.0000000
    // (The power method moves probability towards the favourite relative to multiplicative.)
    const p = devig(TWO_WAY, 'power');
    expect(at(p, 0)).toBeCloseTo(0.5237872, 7);
    expect(at(p, 1)).toBeCloseTo(0.4762128, 7);
    expect(Math.log(at(p, 0)) / Math.log(at(TWO_WAY, 0))).toBeCloseTo(1.0335043, 6);

    // shin: two-outcome closed form z = 1 - 2(1 - q1 - q2)/(1 - (q1 - q2)^2), q_i = p_i^2/S
    //   q1 = 0.2861006/1.0226886 = 0.2797534, q2 = 0.2379536/1.0226886 = 0.2326745
    //   q1 - q2 = 0.0470789, (q1 - q2)^2 = 0.0022164, 1 - q1 - q2 = 0.4875721
    //   z = 1 - 0.9751442/0.9977836 = 1 - 0.9773103 = 0.0226897
    //   fair_1 = (sqrt(z^2 + 4(1-z) q1) - z)/(2(1-z)) = 0.5235394 (equals additive for two outcomes)
    const s = devig(TWO_WAY, 'shin');
    expect(at(s, 0)).toBeCloseTo(0.5235394, 7);
    expect(at(s, 1)).toBeCloseTo(0.4764606, 7);

    // worst_case: min per outcome: favourite min(0.5230172, 0.5235394, 0.5237872, 0.5235394) = 0.5230172 (mult)
    //   underdog min(0.4769828, 0.4764606, 0.4762128, 0.4764606) = 0.4762128 (power); sum 0.99923 < 1
    const w = devig(TWO_WAY, 'worst_case');
    expect(at(w, 0)).toBeCloseTo(0.5230172, 7);
    expect(at(w, 1)).toBeCloseTo(0.4762128, 7);
    expect(sum(w)).toBeLessThan(1);
  });

  it('three-way soccer 2.10 / 3.40 / 3.60', () => {
    // multiplicative: divide by 1.0480859 -> 0.4543430, 0.2806236, 0.2650334
    const m = devig(THREE_WAY, 'multiplicative');
    expect(at(m, 0)).toBeCloseTo(0.454343, 6);
    expect(at(m, 1)).toBeCloseTo(0.2806236, 6);
    expect(at(m, 2)).toBeCloseTo(0.2650334, 6);
    // additive: subtract 0.0480859/3 = 0.0160286 -> 0.4601618, 0.278089, 0.2617491
    const a = devig(THREE_WAY, 'additive');
    expect(at(a, 0)).toBeCloseTo(0.4601618, 6);
    expect(at(a, 1)).toBeCloseTo(0.278089, 6);
    expect(at(a, 2)).toBeCloseTo(0.2617491, 6);
    // power: k = 1.0461121: 0.4761905^k = 0.4601745, 0.2941176^k = 0.27798, 0.2777778^k = 0.2618456
    const p = devig(THREE_WAY, 'power');
    expect(at(p, 0)).toBeCloseTo(0.4601745, 6);
    expect(at(p, 1)).toBeCloseTo(0.27798, 6);
    expect(at(p, 2)).toBeCloseTo(0.2618456, 6);
    // shin: z = 0.0240828 (solved numerically) -> 0.4586657, 0.2787376, 0.2625966
    const s = devig(THREE_WAY, 'shin');
    expect(at(s, 0)).toBeCloseTo(0.4586657, 6);
    expect(at(s, 1)).toBeCloseTo(0.2787376, 6);
    expect(at(s, 2)).toBeCloseTo(0.2625966, 6);
    // worst_case: home min = 0.4543430 (mult); draw min = 0.27798 (power); away min = 0.2617491 (additive)
    const w = devig(THREE_WAY, 'worst_case');
    expect(at(w, 0)).toBeCloseTo(0.454343, 6);
    expect(at(w, 1)).toBeCloseTo(0.27798, 6);
    expect(at(w, 2)).toBeCloseTo(0.2617491, 6);
  });

  it('symmetric -110/-110 gives 0.5/0.5 under every exact method', () => {
    for (const method of EXACT) {
      const f = devig([110 / 210, 110 / 210], method);
      expect(at(f, 0)).toBeCloseTo(0.5, 12);
      expect(at(f, 1)).toBeCloseTo(0.5, 12);
    }
  });

  it('additive falls back to multiplicative when a long shot would go non-positive', () => {
    // 1.01 / 12.0: implied 0.990099 + 0.083333 = 1.073432; share 0.036716 < 0.083333 -> no fallback
    expect(at(devig([1 / 1.01, 1 / 12], 'additive'), 1)).toBeCloseTo(1 / 12 - (1 / 1.01 + 1 / 12 - 1) / 2, 12);
    // 1.01 / 60 / 60: implied 0.990099 + 0.016667 + 0.016667 = 1.023432; share 0.007811 < 0.016667 -> ok
    // 1.02 / 1.02 / 80: 0.980392*2 + 0.0125 = 1.973284; share 0.324428 > 0.0125 -> fallback
    const implied = [1 / 1.02, 1 / 1.02, 1 / 80];
    const s = sum(implied);
    const f = devig(implied, 'additive');
    expect(at(f, 2)).toBeCloseTo(0.0125 / s, 12);
    expect(at(f, 0)).toBeCloseTo(1 / 1.02 / s, 12);
  });

  it('zero-overround input is returned normalised by every method', () => {
    // 0.25 + 0.75 = 1 exactly
    for (const method of DEVIG_METHODS) {
      expect(devig([0.25, 0.75], method)).toEqual([0.25, 0.75]);
    }
  });
});

describe('devig validation', () => {
  it('throws RangeError on bad input', () => {
    const bad: number[][] = [[], [0.5], [0.5, 0], [0.5, -0.6], [0.6, Number.NaN], [0.6, Number.POSITIVE_INFINITY], [1, 0.2], [0.4, 0.5]];
    for (const implied of bad) {
      for (const method of DEVIG_METHODS) {
        expect(() => devig(implied, method)).toThrow(RangeError);
      }
      expect(() => devigAll(implied)).toThrow(RangeError);
    }
  });

  it('throws on an unknown method', () => {
    expect(() => devig(TWO_WAY, 'median' as DevigMethod)).toThrow(RangeError);
  });
});

/** Complete markets with random (possibly skewed) per-outcome margins. */
const marketArb = fc
  .tuple(
    fc.array(fc.double({ min: 0.01, max: 1, noNaN: true }), { minLength: 2, maxLength: 8 }),
    fc.array(fc.double({ min: 0, max: 0.25, noNaN: true }), { minLength: 8, maxLength: 8 }),
    fc.double({ min: 0.001, max: 0.1, noNaN: true }),
  )
  .map(([weights, margins, base]) => {
    const total = sum(weights);
    // every outcome carries at least `base` relative margin, so the sum exceeds 1
    return weights.map((w, i) => (w / total) * (1 + base + at(margins, i)));
  })
  .filter((implied) => implied.every((p) => p < 1));

describe('devig properties', () => {
  it('exact methods: sum to 1, each in (0,1), order preserved', () => {
    fc.assert(
      fc.property(marketArb, (implied) => {
        for (const method of EXACT) {
          const fair = devig(implied, method);
          expect(fair).toHaveLength(implied.length);
          expect(Math.abs(sum(fair) - 1)).toBeLessThanOrEqual(1e-9);
          for (let i = 0; i < fair.length; i++) {
            expect(at(fair, i)).toBeGreaterThan(0);
            expect(at(fair, i)).toBeLessThan(1);
            for (let j = 0; j < fair.length; j++) {
              if (at(implied, i) < at(implied, j)) expect(at(fair, i)).toBeLessThanOrEqual(at(fair, j));
              if (at(implied, i) === at(implied, j)) expect(at(fair, i)).toBe(at(fair, j));
            }
          }
        }
      }),
    );
  });

  it('each exact method satisfies its defining identity', () => {
    fc.assert(
      fc.property(marketArb, (implied) => {
        const S = sum(implied);
        const n = implied.length;
        // multiplicative: fair_i / p_i = 1/S for all i
        const m = devig(implied, 'multiplicative');
        m.forEach((f, i) => expect(f / at(implied, i)).toBeCloseTo(1 / S, 12));
        // additive: p_i - fair_i = (S-1)/n for all i (unless it fell back to multiplicative)
        const a = devig(implied, 'additive');
        const fellBack = implied.some((p) => p - (S - 1) / n <= 0);
        a.forEach((f, i) => expect(f).toBeCloseTo(fellBack ? at(implied, i) / S : at(implied, i) - (S - 1) / n, 12));
        // power: ln(fair_i)/ln(p_i) is the same k >= 1 for all i
        const p = devig(implied, 'power');
        const k = Math.log(at(p, 0)) / Math.log(at(implied, 0));
        expect(k).toBeGreaterThanOrEqual(1 - 1e-12);
        p.forEach((f, i) => expect(Math.abs(Math.log(f) / Math.log(at(implied, i)) - k)).toBeLessThanOrEqual(1e-7 * k));
        // shin: inverting the formula gives p_i^2/S = (1-z) f_i^2 + z f_i, so every outcome implies
        // the same z = (p_i^2/S - f_i^2)/(f_i - f_i^2) in [0, 1)
        const sh = devig(implied, 'shin');
        const zOf = (i: number): number => {
          const f = at(sh, i);
          return (at(implied, i) ** 2 / S - f * f) / (f - f * f);
        };
        const z0 = zOf(0);
        expect(z0).toBeGreaterThanOrEqual(-1e-9);
        expect(z0).toBeLessThan(1);
        for (let i = 1; i < n; i++) expect(Math.abs(zOf(i) - z0)).toBeLessThanOrEqual(1e-7);
      }),
    );
  });

  it('shin matches the two-outcome closed form (and equals additive there)', () => {
    fc.assert(
      fc.property(
        marketArb.filter((x) => x.length === 2),
        (implied) => {
          const S = sum(implied);
          const q1 = at(implied, 0) ** 2 / S;
          const q2 = at(implied, 1) ** 2 / S;
          const z = 1 - (2 * (1 - q1 - q2)) / (1 - (q1 - q2) ** 2);
          const expected = (p: number): number => (Math.sqrt(z * z + (4 * (1 - z) * p * p) / S) - z) / (2 * (1 - z));
          const sh = devig(implied, 'shin');
          expect(at(sh, 0)).toBeCloseTo(expected(at(implied, 0)), 9);
          expect(at(sh, 1)).toBeCloseTo(expected(at(implied, 1)), 9);
          if (implied.every((p) => p - (S - 1) / 2 > 0)) {
            const a = devig(implied, 'additive');
            expect(at(sh, 0)).toBeCloseTo(at(a, 0), 9);
          }
        },
      ),
    );
  });

  it('worst_case: sum <= 1 and each value <= every method', () => {
    fc.assert(
      fc.property(marketArb, (implied) => {
        const w = devig(implied, 'worst_case');
        expect(sum(w)).toBeLessThanOrEqual(1 + 1e-12);
        for (const method of EXACT) {
          const f = devig(implied, method);
          w.forEach((x, i) => expect(x).toBeLessThanOrEqual(at(f, i)));
        }
      }),
    );
  });

  it('devigAll agrees with devig for every method', () => {
    fc.assert(
      fc.property(marketArb, (implied) => {
        const all = devigAll(implied);
        for (const method of DEVIG_METHODS) expect(all[method]).toEqual(devig(implied, method));
      }),
    );
  });

  it('also accepts markets built from decimal odds', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1.01, max: 30, noNaN: true }), { minLength: 2, maxLength: 5 }), (decimals) => {
        const implied = decimals.map((d) => 1 / d);
        if (sum(implied) < 1) {
          expect(() => devig(implied, 'shin')).toThrow(RangeError);
          return;
        }
        for (const method of EXACT) expect(Math.abs(sum(devig(implied, method)) - 1)).toBeLessThanOrEqual(1e-9);
      }),
    );
  });
});

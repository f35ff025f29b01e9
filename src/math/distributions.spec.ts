import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  BASEBALL_NB_SIZE,
  NFL_KEY_NUMBER_WEIGHTS,
  baseballMarginPmf,
  baseballScorePmfs,
  differencePmf,
  discretisedNormal,
  footballMarginPmf,
  hockeyMarginPmf,
  hockeyScorePmfs,
  marginPmf,
  negativeBinomialPmf,
  poissonPmf,
  poissonSumPmf,
  skellamPmf,
  soccerMarginPmf,
  solveScoringRates,
  sumPmf,
  totalPmf,
} from './distributions.js';
import { Pmf } from './pmf.js';

const absP = (pmf: Pmf, k: number): number => (k === 0 ? pmf.p(0) : pmf.p(k) + pmf.p(-k));
const expectSumsToOne = (pmf: Pmf): void => expect(Math.abs(pmf.total() - 1)).toBeLessThanOrEqual(1e-9);
/**
 * Pmfs drop up to 1e-9 of tail mass and renormalise, so point probabilities may exceed the exact
 * closed form by up to ~1e-9 relative.
 */
const expectRel = (actual: number, expected: number, rel = 2e-9): void => {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected));
};

/** Independent check: modified Bessel function I_n(x) by its power series sum (x/2)^(2m+n)/(m!(m+n)!). */
function besselI(n: number, x: number): number {
  let term = (x / 2) ** n;
  for (let i = 1; i <= n; i++) term /= i;
  let sum = term;
  for (let m = 1; m < 200; m++) {
    term *= (x * x) / 4 / (m * (m + n));
    sum += term;
    if (term < 1e-18 * sum) break;
  }
  return sum;
}

describe('poissonPmf', () => {
  it('matches hand-computed values for lambda = 2', () => {
    // P(0) = e^-2 = 0.1353353, P(1) = 2e^-2 = 0.2706706, P(2) = 2e^-2, P(3) = (8/6)e^-2 = 0.1804470
    const p = poissonPmf(2);
    expectRel(p.p(0), Math.exp(-2));
    expectRel(p.p(1), 2 * Math.exp(-2));
    expectRel(p.p(2), 2 * Math.exp(-2));
    expectRel(p.p(3), (4 / 3) * Math.exp(-2));
    expect(p.p(-1)).toBe(0);
    // trimming <= 1e-9 of upper tail mass moves the moments by ~1e-8
    expect(p.mean()).toBeCloseTo(2, 7);
    expect(p.variance()).toBeCloseTo(2, 6);
    expectSumsToOne(p);
  });

  it('maxK truncates and renormalises (conditions on X <= maxK)', () => {
    // weights 1, 2, 2, 4/3 (times e^-2) sum to 19/3: P(0) = 3/19, P(3) = 4/19
    const p = poissonPmf(2, 3);
    expect(p.max).toBe(3);
    expect(p.p(0)).toBeCloseTo(3 / 19, 14);
    expect(p.p(3)).toBeCloseTo(4 / 19, 14);
    // maxK below the mode: lambda 5, maxK 1: weights 1, 5 -> 1/6, 5/6
    const q = poissonPmf(5, 1);
    expect(q.p(1)).toBeCloseTo(5 / 6, 14);
  });

  it('handles small and large rates', () => {
    const small = poissonPmf(0.05);
    expectRel(small.p(0), Math.exp(-0.05));
    const large = poissonPmf(800); // e^-800 underflows; the recursion from the mode does not
    expect(large.mean()).toBeCloseTo(800, 6);
    expect(large.variance()).toBeCloseTo(800, 3);
    expectSumsToOne(large);
  });

  it('rejects invalid arguments', () => {
    expect(() => poissonPmf(0)).toThrow(RangeError);
    expect(() => poissonPmf(Number.NaN)).toThrow(RangeError);
    expect(() => poissonPmf(2, -1)).toThrow(RangeError);
    expect(() => poissonPmf(2, 1.5)).toThrow(RangeError);
  });
});

describe('negativeBinomialPmf', () => {
  it('matches hand-computed values (mean 4.5, size 4)', () => {
    // q = 4.5/8.5; P(0) = (4/8.5)^4 = 0.0490416; P(1) = P(0) * 4 * q = 0.1038527; P(2) = P(1) * (5/2) q = 0.1374521
    const p = negativeBinomialPmf(4.5, 4);
    expectRel(p.p(0), (4 / 8.5) ** 4);
    expectRel(p.p(1), (4 / 8.5) ** 4 * 4 * (4.5 / 8.5));
    expect(p.p(2)).toBeCloseTo(0.13745212, 8);
    // mean 4.5, variance 4.5 + 4.5^2/4 = 9.5625
    expect(p.mean()).toBeCloseTo(4.5, 7);
    expect(p.variance()).toBeCloseTo(9.5625, 5);
    expectSumsToOne(p);
  });

  it('rejects invalid arguments', () => {
    expect(() => negativeBinomialPmf(0, 4)).toThrow(RangeError);
    expect(() => negativeBinomialPmf(4, 0)).toThrow(RangeError);
  });
});

describe('convolutions', () => {
  it('sum and difference of small hand examples', () => {
    // A: 0,1 w.p. 1/2 each; B: 0 w.p. 1/4, 2 w.p. 3/4
    const a = Pmf.fromWeights(0, [0.5, 0.5]);
    const b = Pmf.fromWeights(0, [0.25, 0, 0.75]);
    // A+B: 0 -> 1/8, 1 -> 1/8, 2 -> 3/8, 3 -> 3/8
    expect(sumPmf(a, b).toArray()).toEqual([0.125, 0.125, 0.375, 0.375]);
    // A-B: -2 -> 3/8, -1 -> 3/8, 0 -> 1/8, 1 -> 1/8
    const d = differencePmf(a, b);
    expect(d.min).toBe(-2);
    expect(d.toArray()).toEqual([0.375, 0.375, 0.125, 0.125]);
  });
});

describe('skellamPmf and poissonSumPmf', () => {
  it('Skellam(1.4, 1.1) matches the Bessel closed form', () => {
    // P(0) = e^-2.5 I0(2 sqrt(1.54)); I0 = 1 + 1.54 + 1.54^2/4 + 1.54^3/36 + 1.54^4/576 + ... = 3.244735
    //      = 0.0820850 * 3.244735 = 0.2663449
    const s = skellamPmf(1.4, 1.1);
    expect(s.p(0)).toBeCloseTo(0.2663449, 7);
    const x = 2 * Math.sqrt(1.4 * 1.1);
    for (let k = -8; k <= 8; k++) {
      const expected = Math.exp(-2.5) * (1.4 / 1.1) ** (k / 2) * besselI(Math.abs(k), x);
      expect(Math.abs(s.p(k) - expected)).toBeLessThanOrEqual(2e-9 * expected + 1e-15);
    }
    // mean 1.4 - 1.1 = 0.3, variance 1.4 + 1.1 = 2.5
    expect(s.mean()).toBeCloseTo(0.3, 7);
    expect(s.variance()).toBeCloseTo(2.5, 6);
    expectSumsToOne(s);
  });

  it('poissonSumPmf is Poisson(l1 + l2) and equals the convolution', () => {
    // P(2) = e^-2.5 * 2.5^2 / 2 = 0.0820850 * 3.125 = 0.2565156
    const s = poissonSumPmf(1.4, 1.1);
    expect(s.p(2)).toBeCloseTo(0.25651562, 8);
    const conv = sumPmf(poissonPmf(1.4), poissonPmf(1.1));
    for (let k = 0; k <= 12; k++) expectRel(s.p(k), conv.p(k), 1e-8);
    expect(() => poissonSumPmf(1, 0)).toThrow(RangeError);
  });
});

describe('discretisedNormal', () => {
  it('matches hand-computed values for N(0, 1)', () => {
    // P(0) = Phi(0.5) - Phi(-0.5) = 2 * 0.6914625 - 1 = 0.3829249
    // P(1) = Phi(1.5) - Phi(0.5) = 0.9331928 - 0.6914625 = 0.2417303
    // P(2) = Phi(2.5) - Phi(1.5) = 0.9937903 - 0.9331928 = 0.0605975
    const p = discretisedNormal(0, 1);
    expectRel(p.p(0), 0.38292492254802624);
    expectRel(p.p(1), 0.2417303374571288);
    expectRel(p.p(-2), 0.060597535943081926);
    expectSumsToOne(p);
  });

  it('has the requested mean and variance sd^2 + 1/12 (Sheppard)', () => {
    for (const [mean, sd] of [
      [0, 13.5],
      [2.7, 12],
      [-45.3, 18],
      [221.5, 18],
    ] as const) {
      const p = discretisedNormal(mean, sd);
      expect(p.mean()).toBeCloseTo(mean, 7);
      // tail trimming (1e-9 beyond ~6 sd) lowers the variance by ~1e-5
      expect(Math.abs(p.variance() - (sd * sd + 1 / 12))).toBeLessThanOrEqual(1e-7 * sd * sd);
      expectSumsToOne(p);
    }
  });

  it('rejects invalid arguments', () => {
    expect(() => discretisedNormal(0, 0)).toThrow(RangeError);
    expect(() => discretisedNormal(Number.NaN, 1)).toThrow(RangeError);
  });
});

describe('footballMarginPmf', () => {
  it('reproduces the historical NFL key-number frequencies at pick-em', () => {
    const p = footballMarginPmf(0);
    expectSumsToOne(p);
    expect(absP(p, 3)).toBeCloseTo(0.151, 3);
    expect(absP(p, 7)).toBeCloseTo(0.09, 3);
    expect(absP(p, 3) + absP(p, 7)).toBeCloseTo(0.241, 3);
    expect(absP(p, 10)).toBeCloseTo(0.055, 3);
    expect(absP(p, 14)).toBeCloseTo(0.049, 3);
    expect(p.p(0)).toBeCloseTo(0.003, 3);
  });

  it('keeps P(3) + P(7) near 24% for expected margins 0 to 3 and elevates 10 and 14', () => {
    for (const m of [0, 0.5, 1, 1.5, 2, 2.5, 3, -3]) {
      const p = footballMarginPmf(m);
      const keys = absP(p, 3) + absP(p, 7);
      expect(keys).toBeGreaterThan(0.225);
      expect(keys).toBeLessThan(0.255);
      expect(p.p(0)).toBeLessThan(0.005);
      expect(absP(p, 10)).toBeGreaterThan(Math.max(absP(p, 9), absP(p, 11)));
      expect(absP(p, 14)).toBeGreaterThan(Math.max(absP(p, 13), absP(p, 15)));
      expect(absP(p, 3)).toBeGreaterThan(2 * Math.max(absP(p, 2), absP(p, 4)));
    }
  });

  it('has exactly the requested mean and is mirror-symmetric', () => {
    for (const m of [-10, -3, 0, 1.5, 3, 6.5, 14]) {
      const p = footballMarginPmf(m);
      expect(Math.abs(p.mean() - m)).toBeLessThanOrEqual(1e-6);
      expectSumsToOne(p);
    }
    const a = footballMarginPmf(3);
    const b = footballMarginPmf(-3);
    for (let k = -30; k <= 30; k++) expect(Math.abs(a.p(k) - b.p(-k))).toBeLessThanOrEqual(1e-12);
  });

  it('exposes 22 weights with 3 and 7 the largest', () => {
    expect(NFL_KEY_NUMBER_WEIGHTS).toHaveLength(22);
    const sorted = [...NFL_KEY_NUMBER_WEIGHTS].sort((x, y) => y - x);
    expect(sorted.slice(0, 2)).toEqual([NFL_KEY_NUMBER_WEIGHTS[3], NFL_KEY_NUMBER_WEIGHTS[7]]);
  });
});

describe('hockey', () => {
  it('never ends tied and decides ~46% of games by one goal', () => {
    const p = hockeyMarginPmf(3.1, 2.9);
    expectSumsToOne(p);
    expect(p.p(0)).toBe(0);
    expect(absP(p, 1)).toBeGreaterThan(0.42);
    expect(absP(p, 1)).toBeLessThan(0.5);
    // the favourite wins more often
    expect(p.cdf(-1)).toBeLessThan(1 - p.cdf(0));
  });

  it('matches an independent evaluation of the documented model (tie x1.4, OT split by strength, 15% empty-net shift)', () => {
    // P(h, a) = Pois(h; 3.4) Pois(a; 2.6); ties weighted 1.4, normaliser Z = 1 + 0.4 * P(tie)
    // P(X = +1) = [0.85 P(h - a = 1) + 1.4 P(tie) * 3.4/6] / Z,  P(X = +2) = [P(h - a = 2) + 0.15 P(h - a = 1)] / Z
    const pois = (k: number, l: number): number => {
      let v = Math.exp(-l);
      for (let i = 1; i <= k; i++) v *= l / i;
      return v;
    };
    const diff = new Map<number, number>();
    for (let h = 0; h < 40; h++) for (let a = 0; a < 40; a++) diff.set(h - a, (diff.get(h - a) ?? 0) + pois(h, 3.4) * pois(a, 2.6));
    const d = (k: number): number => diff.get(k) ?? 0;
    const z = 1 + 0.4 * d(0);
    const p = hockeyMarginPmf(3.4, 2.6);
    expect(p.p(1)).toBeCloseTo((0.85 * d(1) + 1.4 * d(0) * (3.4 / 6)) / z, 9);
    expect(p.p(-1)).toBeCloseTo((0.85 * d(-1) + 1.4 * d(0) * (2.6 / 6)) / z, 9);
    expect(p.p(2)).toBeCloseTo((d(2) + 0.15 * d(1)) / z, 9);
    expect(p.p(-3)).toBeCloseTo(d(-3) / z, 9);
  });

  it('credits the OT/SO winner one goal, so odd totals gain mass', () => {
    const { total } = hockeyScorePmfs(3, 3);
    const poisson = poissonPmf(6);
    expectSumsToOne(total);
    // regulation ties (even totals) move to the next odd total
    expect(total.p(6)).toBeLessThan(poisson.p(6));
    expect(total.p(5)).toBeGreaterThan(poisson.p(5));
  });

  it('solved rates reproduce the requested margin and total', () => {
    for (const [m, t] of [
      [0, 6.2],
      [0.3, 6.2],
      [-0.8, 5.5],
      [1.5, 6.5],
    ] as const) {
      const pm = marginPmf('hockey', m, t);
      expect(Math.abs(pm.mean() - m)).toBeLessThanOrEqual(1e-6);
      const pt = totalPmf('hockey', t, { expectedHomeMargin: m });
      expect(Math.abs(pt.mean() - t)).toBeLessThanOrEqual(1e-6);
    }
    const r = solveScoringRates(0, 6.2, hockeyScorePmfs);
    expect(r.lambdaHome).toBeCloseTo(r.lambdaAway, 12);
    // OT and empty-net goals add goals, so regulation rates are below half the total
    expect(r.lambdaHome).toBeLessThan(3.1);
    expect(() => marginPmf('hockey', 7, 6)).toThrow(RangeError);
  });
});

describe('soccer', () => {
  it('Skellam with draws: P(0) ~ 0.266 for 1.4 / 1.1', () => {
    const p = soccerMarginPmf(1.4, 1.1);
    expect(p.p(0)).toBeGreaterThan(0.24);
    expect(p.p(0)).toBeLessThan(0.28);
    expect(p.p(0)).toBeCloseTo(0.2663449, 7);
    // marginPmf solves lambdas 1.4 / 1.1 from margin 0.3 and total 2.5
    const q = marginPmf('soccer', 0.3, 2.5);
    expect(q.p(0)).toBeCloseTo(p.p(0), 12);
    expect(totalPmf('soccer', 2.5).p(2)).toBeCloseTo(0.25651562, 8);
  });
});

describe('baseball', () => {
  it('matches an independent evaluation: NB(size 4) runs, ties to +-1 split by strength', () => {
    // NB pmf: Gamma(k + 4)/(Gamma(4) k!) (4/(4+mu))^4 (mu/(4+mu))^k
    const nb = (k: number, mu: number): number => {
      let v = (4 / (4 + mu)) ** 4;
      for (let i = 1; i <= k; i++) v *= ((i - 1 + 4) / i) * (mu / (4 + mu));
      return v;
    };
    let tie = 0;
    let homeByOne = 0;
    for (let h = 0; h < 80; h++) {
      tie += nb(h, 5) * nb(h, 3.5);
      homeByOne += nb(h + 1, 5) * nb(h, 3.5);
    }
    const p = baseballMarginPmf(5, 3.5);
    expect(p.p(1)).toBeCloseTo(homeByOne + tie * (5 / 8.5), 9);
  });

  it('never ends tied, has negative-binomial spread and solved means', () => {
    const p = baseballMarginPmf(4.6, 4.2);
    expectSumsToOne(p);
    expect(p.p(0)).toBe(0);
    const { total } = baseballScorePmfs(4.4, 4.4);
    // each team's runs: variance 4.4 + 4.4^2/4 = 9.24 (Poisson would be 4.4); the total's sd is
    // ~sqrt(18.48) = 4.3 (MLB game totals have sd ~4.3-4.5), far above Poisson's sqrt(8.8) = 2.97
    expect(Math.sqrt(total.variance())).toBeGreaterThan(4.1);
    expect(Math.sqrt(total.variance())).toBeLessThan(4.5);
    expect(BASEBALL_NB_SIZE).toBe(4);
    // ~10% of games are tied after nine innings: P(tie) = sum_k P(k)^2
    const runs = negativeBinomialPmf(4.4, BASEBALL_NB_SIZE);
    let tie = 0;
    runs.forEach((_, q) => (tie += q * q));
    expect(tie).toBeGreaterThan(0.09);
    expect(tie).toBeLessThan(0.11);
    for (const [m, t] of [
      [0.5, 8.5],
      [-1.2, 9],
    ] as const) {
      expect(Math.abs(marginPmf('baseball', m, t).mean() - m)).toBeLessThanOrEqual(1e-6);
      expect(Math.abs(totalPmf('baseball', t, { expectedHomeMargin: m }).mean() - t)).toBeLessThanOrEqual(1e-6);
    }
  });
});

describe('marginPmf / totalPmf dispatch', () => {
  it('football and basketball', () => {
    expect(marginPmf('football', 3, 44).toArray()).toEqual(footballMarginPmf(3).toArray());
    const nba = marginPmf('basketball', 5, 224);
    expect(nba.p(0)).toBe(0);
    expect(Math.abs(nba.mean() - 5)).toBeLessThanOrEqual(1e-6);
    // sd 12 plus Sheppard, slightly widened by removing the tie mass near the centre
    expect(Math.sqrt(nba.variance())).toBeGreaterThan(12);
    expect(Math.sqrt(nba.variance())).toBeLessThan(12.3);
    expect(Math.sqrt(totalPmf('basketball', 224).variance())).toBeCloseTo(Math.sqrt(18 * 18 + 1 / 12), 6);
    expect(Math.sqrt(totalPmf('basketball', 150, { sd: 16 }).variance())).toBeCloseTo(Math.sqrt(256 + 1 / 12), 6);
    expect(Math.sqrt(totalPmf('football', 44.5).variance())).toBeCloseTo(Math.sqrt(13.4 * 13.4 + 1 / 12), 6);
  });

  it('tennis, generic and mma', () => {
    expect(Math.sqrt(marginPmf('tennis', 2.5, 22.5).variance())).toBeCloseTo(Math.sqrt(25 + 1 / 12), 6);
    expect(Math.sqrt(totalPmf('tennis', 22.5).variance())).toBeCloseTo(Math.sqrt(4.5 * 4.5 + 1 / 12), 6);
    // unknown sport: sd = sqrt(total) = sqrt(49) = 7
    expect(Math.sqrt(marginPmf('cricket', 1, 49).variance())).toBeCloseTo(Math.sqrt(49 + 1 / 12), 6);
    expect(Math.sqrt(totalPmf('cricket', 49).variance())).toBeCloseTo(Math.sqrt(49 + 1 / 12), 6);
    // tiny totals floor sd at 1
    expect(Math.sqrt(marginPmf('darts', 0, 0.25).variance())).toBeCloseTo(Math.sqrt(1 + 1 / 12), 6);
    expect(() => marginPmf('mma', 0, 2.5)).toThrow(RangeError);
    expect(() => totalPmf('mma', 2.5)).toThrow(RangeError);
  });

  it('rejects invalid inputs', () => {
    expect(() => marginPmf('football', Number.NaN, 44)).toThrow(RangeError);
    expect(() => marginPmf('football', 3, 0)).toThrow(RangeError);
    expect(() => totalPmf('football', -1)).toThrow(RangeError);
    expect(() => totalPmf('basketball', 220, { sd: 0 })).toThrow(RangeError);
    expect(() => marginPmf('soccer', 3, 2.5)).toThrow(RangeError);
  });

  it('property: every sport returns a normalised pmf with the requested mean', () => {
    const ranges = {
      football: [20, 70],
      basketball: [100, 260],
      hockey: [3, 12],
      soccer: [0.5, 8],
      baseball: [5, 18],
      tennis: [15, 45],
      rugby: [20, 70],
    } as const;
    const sport = fc.constantFrom(...(Object.keys(ranges) as (keyof typeof ranges)[]));
    fc.assert(
      fc.property(sport, fc.double({ min: -0.4, max: 0.4, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (name, ratio, u) => {
        const [lo, hi] = ranges[name];
        const total = lo + u * (hi - lo);
        const margin = ratio * total;
        const m = marginPmf(name, margin, total);
        expectSumsToOne(m);
        expect(Math.abs(m.mean() - margin)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(margin)));
        const t = totalPmf(name, total, { expectedHomeMargin: margin });
        expectSumsToOne(t);
        expect(Math.abs(t.mean() - total)).toBeLessThanOrEqual(1e-6 * total);
      }),
      { numRuns: 80 },
    );
  });

  it('rejects expectations a score model cannot reach instead of mis-pricing them', () => {
    // every 0-0 baseball/hockey game still gains a deciding run/goal, so a mean total of 1 is unreachable
    expect(() => totalPmf('baseball', 1)).toThrow(RangeError);
    expect(() => totalPmf('hockey', 0.8)).toThrow(RangeError);
    expect(() => solveScoringRates(0, 1, baseballScorePmfs)).toThrow(RangeError);
  });
});

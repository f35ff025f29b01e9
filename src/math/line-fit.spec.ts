import { describe, expect, it } from '@jest/globals';
import { marginPmf, totalPmf } from './distributions.js';
import { fitLinePmf, fitLineProbability, lineProbability, locateIncreasing } from './line-fit.js';
import { Pmf } from './pmf.js';

describe('lineProbability', () => {
  // Margin (or total) 0, 1, 2, 3 with probabilities 0.1, 0.2, 0.3, 0.4.
  const pmf = Pmf.fromWeights(0, [0.1, 0.2, 0.3, 0.4]);
  it('is the no-push win probability', () => {
    // Home -1.5 wins on 2 or 3: 0.3 + 0.4 = 0.7.
    expect(lineProbability(pmf, 'spread', -1.5)).toBeCloseTo(0.7, 12);
    // Home -2 wins on 3 (0.4), loses on 0 or 1 (0.3), 2 is a push: 0.4 / 0.7 = 0.571429.
    expect(lineProbability(pmf, 'spread', -2)).toBeCloseTo(0.4 / 0.7, 12);
    // Home +0.5 wins on 0 to 3: 1.
    expect(lineProbability(pmf, 'spread', 0.5)).toBeCloseTo(1, 12);
    // Over 2.5: 3 only, 0.4; over 1 : 2 or 3 (0.7) against 0 (0.1): 0.875.
    expect(lineProbability(pmf, 'total', 2.5)).toBeCloseTo(0.4, 12);
    expect(lineProbability(pmf, 'total', 1)).toBeCloseTo(0.875, 12);
  });
});

describe('fitLineProbability', () => {
  it('soccer total: over 2.5 closing at 50% puts over 3.5 at 28.02%', () => {
    // Total goals ~ Poisson(lambda). P(over 2.5) = 1 - e^-l (1 + l + l^2/2) = 0.5 solves to l = 2.674060;
    // P(over 3.5) = P(over 2.5) - P(T = 3) = 0.5 - e^-l l^3 / 6 = 0.5 - 0.0689716 x 3.1868553 = 0.5 - 0.2198025 = 0.2801975.
    const p = fitLineProbability({ sport: 'soccer', kind: 'total', fromLine: 2.5, fromProbability: 0.5, toLine: 3.5 });
    expect(p).toBeCloseTo(0.2801975, 6);
    // The same line gives back its own probability.
    expect(fitLineProbability({ sport: 'soccer', kind: 'total', fromLine: 2.5, fromProbability: 0.5, toLine: 2.5 })).toBeCloseTo(0.5, 8);
  });

  it('tennis games spread: home -4.5 closing at 50% puts home -3.5 at 57.93%', () => {
    // Games margin ~ Normal(mu, 5) discretised: P(margin >= m) = 1 - Phi((m - 0.5 - mu) / 5).
    // Home -4.5 covers on margin >= 5: Phi((mu - 4.5) / 5) = 0.5 -> mu = 4.5.
    // Home -3.5 covers on margin >= 4: Phi((4.5 - 3.5) / 5) = Phi(0.2) = 0.5792597.
    const p = fitLineProbability({ sport: 'tennis', kind: 'spread', fromLine: -4.5, fromProbability: 0.5, toLine: -3.5 });
    expect(p).toBeCloseTo(0.5792597, 6);
  });

  it('moves the right way on every model, and refuses what it cannot fit', () => {
    // An NFL close at -4.5 (50%): -3.5 is likelier to cover (adds margin 4), -7.5 less (takes 5, 6, 7 away).
    const nfl = (to: number) =>
      fitLineProbability({ sport: 'football', kind: 'spread', fromLine: -4.5, fromProbability: 0.5, toLine: to })!;
    expect(nfl(-3.5)).toBeGreaterThan(0.5);
    expect(nfl(-7.5)).toBeLessThan(0.5);
    expect(nfl(-3.5)).toBeLessThan(0.56);
    // Hockey puck line -1.5 at 40% from a close of +1.5 at 70% needs the total: none, no fit.
    expect(fitLineProbability({ sport: 'hockey', kind: 'spread', fromLine: 1.5, fromProbability: 0.7, toLine: -1.5 })).toBeNull();
    const hockey = fitLineProbability({
      sport: 'hockey',
      kind: 'spread',
      fromLine: 1.5,
      fromProbability: 0.7,
      toLine: -1.5,
      expectedTotal: 6,
    });
    expect(hockey).toBeGreaterThan(0.1);
    expect(hockey).toBeLessThan(0.5);
    expect(fitLineProbability({ sport: 'mma', kind: 'spread', fromLine: 1.5, fromProbability: 0.5, toLine: 2.5 })).toBeNull();
    expect(fitLineProbability({ sport: 'soccer', kind: 'total', fromLine: 2.5, fromProbability: 1, toLine: 3.5 })).toBeNull();
  });
});

/** Plain bisection to a 1e-9 bracket: the reference the faster locator must agree with, and the count it must beat. */
function bisect(f: (x: number) => number, target: number, lo: number, hi: number): { x: number; evaluations: number } {
  let evaluations = 0;
  while (hi - lo > 1e-9) {
    const mid = (lo + hi) / 2;
    evaluations++;
    if (f(mid) < target) lo = mid;
    else hi = mid;
  }
  return { x: (lo + hi) / 2, evaluations };
}

const plain = (f: (x: number) => number) => (x: number) => ({ y: f(x), value: x });

describe('locateIncreasing', () => {
  it('finds the root of a smooth curve in a few evaluations', () => {
    // x^3 + x = 10 at x = 2 (8 + 2).
    const f = (x: number) => x ** 3 + x;
    const r = locateIncreasing(plain(f), 10, 0, 5, f(0), f(5));
    expect(Math.abs(r.x - 2)).toBeLessThan(1e-9);
    expect(r.evaluations).toBeLessThanOrEqual(15);
    expect(bisect(f, 10, 0, 5).evaluations).toBe(33);
  });

  it('closes in on a jump as bisection does, in at most twice its evaluations', () => {
    // No x reaches 3: the curve jumps from 1 to 6 at x = 1; the bracket closes on the jump.
    const f = (x: number) => (x < 1 ? x : x + 5);
    const r = locateIncreasing(plain(f), 3, 0, 4, f(0), f(4));
    expect(r.value).toBeUndefined();
    expect(Math.abs(r.x - 1)).toBeLessThan(1e-9);
    expect(r.evaluations).toBeLessThanOrEqual(2 * bisect(f, 3, 0, 4).evaluations);
  });

  it('keeps its pace on a curve flat at one end (where plain regula falsi stalls)', () => {
    // x^9 = 0.5 at x = 0.5^(1/9) = 0.92587471.
    const f = (x: number) => x ** 9;
    const r = locateIncreasing(plain(f), 0.5, 0, 1.2, f(0), f(1.2));
    expect(Math.abs(r.x - 0.5 ** (1 / 9))).toBeLessThan(1e-9);
    expect(r.evaluations).toBeLessThanOrEqual(2 * bisect(f, 0.5, 0, 1.2).evaluations);
  });
});

describe('fitLinePmf', () => {
  // The located model, against the same model located by plain bisection: the same distribution, cell by cell.
  const cases: Array<{ sport: string; kind: 'spread' | 'total'; fromLine: number; fromProbability: number; expectedTotal?: number }> = [
    { sport: 'hockey', kind: 'spread', fromLine: 0, fromProbability: 0.583, expectedTotal: 6 },
    { sport: 'hockey', kind: 'spread', fromLine: -1.5, fromProbability: 0.372, expectedTotal: 5.5 },
    { sport: 'baseball', kind: 'spread', fromLine: 0, fromProbability: 0.431, expectedTotal: 8.5 },
    { sport: 'soccer', kind: 'spread', fromLine: -0.5, fromProbability: 0.47, expectedTotal: 2.6 },
    { sport: 'football', kind: 'spread', fromLine: -3, fromProbability: 0.52 },
    { sport: 'basketball', kind: 'spread', fromLine: 6.5, fromProbability: 0.49 },
    { sport: 'basketball', kind: 'total', fromLine: 224.5, fromProbability: 0.5 },
    { sport: 'soccer', kind: 'total', fromLine: 2.5, fromProbability: 0.55 },
  ];
  it.each(cases)('$sport $kind $fromLine at $fromProbability: the distribution bisection locates', (c) => {
    const fitted = fitLinePmf(c)!;
    expect(lineProbability(fitted, c.kind, c.fromLine)).toBeCloseTo(c.fromProbability, 9);
    const build = (mu: number) => (c.kind === 'spread' ? marginPmf(c.sport, mu, c.expectedTotal ?? 1) : totalPmf(c.sport, mu));
    const span = c.kind === 'total' ? null : ['hockey', 'baseball', 'soccer'].includes(c.sport) ? 0.95 * c.expectedTotal! : 60;
    const [lo, hi] = span === null ? [0.05, 3 * Math.max(c.fromLine, 1) + 20] : [-span, span];
    const ref = build(bisect((mu) => lineProbability(build(mu), c.kind, c.fromLine), c.fromProbability, lo, hi).x);
    expect(fitted.min).toBe(ref.min);
    const [a, b] = [fitted.toArray(), ref.toArray()];
    expect(a.length).toBe(b.length);
    for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThan(1e-8);
  });

  it('locates the hockey margin model in under a third of the evaluations bisection takes', () => {
    // The moneyline fit of a puck line middle (fromLine 0): the model built once per evaluation.
    const at = (mu: number) => lineProbability(marginPmf('hockey', mu, 6), 'spread', 0);
    const [lo, hi] = [-5.7, 5.7];
    const r = locateIncreasing(plain(at), 0.583, lo, hi, at(lo), at(hi));
    const b = bisect(at, 0.583, lo, hi);
    expect(Math.abs(r.x - b.x)).toBeLessThan(1e-8);
    expect(r.evaluations * 3).toBeLessThan(b.evaluations);
  });
});

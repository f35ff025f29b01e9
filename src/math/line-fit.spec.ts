import { describe, expect, it } from '@jest/globals';
import { fitLineProbability, lineProbability } from './line-fit.js';
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

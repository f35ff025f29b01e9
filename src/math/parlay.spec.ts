import { describe, expect, it } from '@jest/globals';
import {
  correlationFactor,
  fitGameCells,
  jointWinProbability,
  legResult,
  mutuallyExclusive,
  parlayFair,
  pointSportCells,
  type ModelLeg,
  type ScoreCell,
} from './parlay.js';
import { Pmf } from './pmf.js';

const homeMinus7_5: ModelLeg = { kind: 'spread', side: 'home', line: -7.5 };
const awayPlus7_5: ModelLeg = { kind: 'spread', side: 'away', line: 7.5 };
const over = (line: number): ModelLeg => ({ kind: 'total', side: 'over', line });
const under = (line: number): ModelLeg => ({ kind: 'total', side: 'under', line });

describe('legResult', () => {
  it('settles spreads, totals and moneylines on the final margin and total', () => {
    // home 27 - away 17: margin 10, total 44.
    expect(legResult(homeMinus7_5, 10, 44)).toBe('win'); // 10 - 7.5 = 2.5 > 0
    expect(legResult(awayPlus7_5, 10, 44)).toBe('loss'); // -10 + 7.5 = -2.5
    expect(legResult({ kind: 'spread', side: 'home', line: -10 }, 10, 44)).toBe('push'); // 10 - 10 = 0
    expect(legResult(over(44), 10, 44)).toBe('push');
    expect(legResult(under(44.5), 10, 44)).toBe('win');
    expect(legResult({ kind: 'moneyline', side: 'away', drawLoses: false }, 10, 44)).toBe('loss');
    // a 1-1 draw: a three-way side bet loses, a two-way one pushes, the draw wins.
    expect(legResult({ kind: 'moneyline', side: 'home', drawLoses: true }, 0, 2)).toBe('loss');
    expect(legResult({ kind: 'moneyline', side: 'home', drawLoses: false }, 0, 2)).toBe('push');
    expect(legResult({ kind: 'moneyline', side: 'draw', drawLoses: true }, 0, 2)).toBe('win');
  });
});

describe('jointWinProbability on a hand-made grid', () => {
  /*
   * Four outcomes (margin, total): p
   *   (10, 50) 0.30   home -7.5 wins, over 45.5 wins
   *   ( 3, 40) 0.20   loses,          loses
   *   (-3, 44) 0.25   loses,          loses
   *   ( 8, 38) 0.25   wins,           loses
   * P(home -7.5) = 0.30 + 0.25 = 0.55; P(over 45.5) = 0.30; P(both) = 0.30.
   * Product 0.55 x 0.30 = 0.165; factor 0.30 / 0.165 = 1.818181...
   */
  const grid: ScoreCell[] = [
    { margin: 10, total: 50, p: 0.3 },
    { margin: 3, total: 40, p: 0.2 },
    { margin: -3, total: 44, p: 0.25 },
    { margin: 8, total: 38, p: 0.25 },
  ];
  it('gives each leg and the pair by hand', () => {
    expect(jointWinProbability(grid, [homeMinus7_5])).toBeCloseTo(0.55, 12);
    expect(jointWinProbability(grid, [over(45.5)])).toBeCloseTo(0.3, 12);
    expect(jointWinProbability(grid, [homeMinus7_5, over(45.5)])).toBeCloseTo(0.3, 12);
    expect(correlationFactor(grid, [homeMinus7_5, over(45.5)])).toBeCloseTo(0.3 / 0.165, 10);
  });
  it('conditions on no push', () => {
    /*
     * over 44 pushes on (-3, 44) (p 0.25): decided mass 0.75, over wins on (10, 50) only: 0.30 / 0.75 = 0.4.
     * With home -7.5: both win on (10, 50): 0.30 / 0.75 = 0.4; home -7.5 alone 0.55.
     */
    expect(jointWinProbability(grid, [over(44)])).toBeCloseTo(0.4, 12);
    expect(jointWinProbability(grid, [homeMinus7_5, over(44)])).toBeCloseTo(0.4, 12);
  });
});

describe('a Poisson-type score grid by hand', () => {
  /*
   * Home goals H: P(0) 0.5, P(1) 0.3, P(2) 0.2; away goals A: P(0) 0.6, P(1) 0.4, independent.
   * (h, a): p  ->  (0,0) .30, (0,1) .20, (1,0) .18, (1,1) .12, (2,0) .12, (2,1) .08
   * Home win (three-way): (1,0) + (2,0) + (2,1) = .18 + .12 + .08 = .38
   * Over 1.5 (total >= 2): (1,1) + (2,0) + (2,1) = .12 + .12 + .08 = .32
   * Both: (2,0) + (2,1) = .20 > .38 x .32 = .1216: the stronger home side winning and goals go together.
   */
  const cells: ScoreCell[] = [
    [0, 0, 0.3],
    [0, 1, 0.2],
    [1, 0, 0.18],
    [1, 1, 0.12],
    [2, 0, 0.12],
    [2, 1, 0.08],
  ].map(([h, a, p]) => ({ margin: h! - a!, total: h! + a!, p: p! }));
  const homeWin: ModelLeg = { kind: 'moneyline', side: 'home', drawLoses: true };
  it('prices the pair above the product', () => {
    expect(jointWinProbability(cells, [homeWin])).toBeCloseTo(0.38, 12);
    expect(jointWinProbability(cells, [over(1.5)])).toBeCloseTo(0.32, 12);
    expect(jointWinProbability(cells, [homeWin, over(1.5)])).toBeCloseTo(0.2, 12);
    expect(correlationFactor(cells, [homeWin, over(1.5)])).toBeCloseTo(0.2 / 0.1216, 10);
  });
});

describe('mutuallyExclusive', () => {
  it('finds legs that cannot both win', () => {
    expect(mutuallyExclusive(over(47.5), under(47.5))).toBe(true);
    expect(mutuallyExclusive(over(47.5), under(48))).toBe(true); // no whole total in (47.5, 48)
    expect(mutuallyExclusive(over(47), under(47))).toBe(true); // 47 pushes both
    expect(mutuallyExclusive(over(47.5), under(49))).toBe(false); // 48 wins both
    expect(
      mutuallyExclusive({ kind: 'moneyline', side: 'home', drawLoses: false }, { kind: 'moneyline', side: 'away', drawLoses: false }),
    ).toBe(true);
    expect(mutuallyExclusive(homeMinus7_5, awayPlus7_5)).toBe(true);
    expect(mutuallyExclusive(homeMinus7_5, { kind: 'spread', side: 'away', line: 9.5 })).toBe(false); // margin 8 or 9
    expect(mutuallyExclusive(homeMinus7_5, over(47.5))).toBe(false);
  });
});

describe('pointSportCells', () => {
  /*
   * Margin pmf: P(-1) = P(1) = 0.5 (E[M] = 0, Var M = 1), E[T] = 10, sd_T = 3.
   * k = (1 + 9) / 20 = 0.5; Cov = k E[M] = 0: the total does not depend on the margin, so P(over 10.5) is the same
   * given either margin, and each margin's totals are odd (parity).
   */
  it('keeps the margin marginal, the parity and no correlation for a pick-em game', () => {
    const cells = pointSportCells(Pmf.fromWeights(-1, [0.5, 0, 0.5]), 10, 3);
    const pm = (m: number) => cells.filter((c) => c.margin === m).reduce((s, c) => s + c.p, 0);
    expect(pm(1)).toBeCloseTo(0.5, 12);
    expect(pm(-1)).toBeCloseTo(0.5, 12);
    expect(cells.every((c) => (c.total - c.margin) % 2 === 0)).toBe(true);
    const home: ModelLeg = { kind: 'moneyline', side: 'home', drawLoses: false };
    expect(correlationFactor(cells, [home, over(10.5)])).toBeCloseTo(1, 10);
  });
});

describe('fitGameCells', () => {
  /*
   * NFL game, home favoured by 7.5 at 50% (fair), total 47.5 at 50%. The model's E[M] is about 7.5 > 0, so
   * Cov(M, T) = k E[M] > 0: home -7.5 and over win together more often than independent legs (factor > 1), away +7.5
   * and over less often (factor < 1); the fitted model reproduces each line's probability.
   */
  const cells = fitGameCells({ sport: 'football', spread: { homeLine: -7.5, pHome: 0.5 }, total: { line: 47.5, pOver: 0.5 } })!;
  it('reproduces the lines it was fitted to', () => {
    expect(jointWinProbability(cells, [homeMinus7_5])).toBeCloseTo(0.5, 6);
    expect(jointWinProbability(cells, [over(47.5)])).toBeCloseTo(0.5, 4);
  });
  it('prices favourite-covers-and-over above the product, underdog-covers-and-over below', () => {
    const fav = correlationFactor(cells, [homeMinus7_5, over(47.5)])!;
    const dog = correlationFactor(cells, [awayPlus7_5, over(47.5)])!;
    expect(fav).toBeGreaterThan(1.02);
    expect(dog).toBeLessThan(0.98);
    // P(fav and over) + P(dog and over) = P(over) and P(fav) = P(dog) = 0.5, so 0.5 P(over) (fav + dog) = P(over):
    // the favourite/over pair gains exactly what the underdog/over pair loses, fav + dog = 2.
    expect(fav + dog).toBeCloseTo(2, 5);
  });
  it('joins soccer, hockey and baseball through their scoring rates with the same sign', () => {
    for (const [sport, total, spread] of [
      ['soccer', 2.5, -0.5],
      ['hockey', 6.5, -1.5],
      ['baseball', 8.5, -1.5],
    ] as const) {
      const c = fitGameCells({ sport, spread: { homeLine: spread, pHome: 0.55 }, total: { line: total, pOver: 0.5 } });
      expect(c).not.toBeNull();
      expect(correlationFactor(c!, [{ kind: 'spread', side: 'home', line: spread }, over(total)])!).toBeGreaterThan(1);
    }
  });
  it('has no model for other sports or without a total', () => {
    expect(fitGameCells({ sport: 'mma', moneyline: { pHome: 0.6 }, total: { line: 2.5, pOver: 0.5 } })).toBeNull();
    expect(fitGameCells({ sport: 'football', spread: { homeLine: -3, pHome: 0.5 } })).toBeNull();
  });
});

describe('parlayFair', () => {
  it('multiplies fair leg probabilities and applies same-game factors', () => {
    // Two games at 0.5 and 0.6: 0.30, decimal 3.3333.
    const p = parlayFair([0.5, 0.6], [])!;
    expect(p.probability).toBeCloseTo(0.3, 12);
    expect(p.decimal).toBeCloseTo(1 / 0.3, 10);
    // A same-game factor of 1.2: 0.36, still below the smaller leg.
    expect(parlayFair([0.5, 0.6], [1.2])!.probability).toBeCloseTo(0.36, 12);
    expect(parlayFair([0.5, 1], [])).toBeNull();
  });
});

/**
 * Fair prices of parlays. Legs on different games are independent: the parlay's probability is the product of the
 * legs' fair probabilities. Legs on the same game are joined through a joint distribution of the game's final
 * (margin, total), fitted to that game's devigged main lines:
 *
 * - football and basketball: the sport's margin pmf (distributions.ts, key numbers included) with the total given the
 *   margin a normal whose mean moves with the margin. Team scores are taken to have variance proportional to their
 *   expected score (Var H = k E[H], Var A = k E[A]), which gives Cov(margin, total) = Var H - Var A = k E[margin] with
 *   k = (sd_margin^2 + sd_total^2) / (2 E[total]). A home favourite's margin and the total move together: a
 *   favourite covering and the over are positively correlated, an underdog covering and the over negatively.
 *   Margin and total always have the same parity (both scores are whole numbers).
 * - soccer, hockey and baseball: the team scoring rates solved from the expected margin and total, and the sport's
 *   final-score model (independent Poisson goals; hockey with tie inflation, OT/shootout and empty-net goals;
 *   negative-binomial runs with extra innings) read as a joint grid. The stronger side scores more often, so its
 *   score varies more: the same sign of correlation as above.
 *
 * The joint model adjusts the product of the legs' market-fair probabilities by its own correlation factor
 * P(A and B) / (P(A) P(B)), so each leg keeps the market's price and only the dependence comes from the model.
 * Pushes: the probability that every leg wins given that no leg pushes (as a two-way line's no-vig probability is
 * conditional on no push). Plain functions, no I/O.
 */

import {
  BASKETBALL_TOTAL_SD,
  FOOTBALL_TOTAL_SD,
  baseballRegulation,
  finalScoreCells,
  hockeyRegulation,
  poissonPmf,
  type ScoreModelOptions,
} from './distributions.js';
import { fitLinePmf } from './line-fit.js';
import { normalCdf } from './normal.js';
import type { Pmf } from './pmf.js';

/** One final (margin = home - away, total = home + away) outcome of a game and its probability. */
export interface ScoreCell {
  margin: number;
  total: number;
  p: number;
}

/** A full-game leg the joint model can settle on the final score (lines as the selection's own: home -7.5 is -7.5). */
export type ModelLeg =
  | { kind: 'moneyline'; side: 'home' | 'away' | 'draw'; /** three-way market: a draw loses a side bet */ drawLoses: boolean }
  | { kind: 'spread'; side: 'home' | 'away'; line: number }
  | { kind: 'total'; side: 'over' | 'under'; line: number };

export type LegResult = 'win' | 'loss' | 'push';

const byDiff = (d: number): LegResult => (d > 0 ? 'win' : d < 0 ? 'loss' : 'push');

/** How a leg settles on a final margin and total. */
export function legResult(leg: ModelLeg, margin: number, total: number): LegResult {
  switch (leg.kind) {
    case 'moneyline':
      if (leg.side === 'draw') return margin === 0 ? 'win' : 'loss';
      if (margin === 0) return leg.drawLoses ? 'loss' : 'push';
      return (leg.side === 'home' ? margin > 0 : margin < 0) ? 'win' : 'loss';
    case 'spread':
      return byDiff((leg.side === 'home' ? margin : -margin) + leg.line);
    case 'total':
      return byDiff(leg.side === 'over' ? total - leg.line : leg.line - total);
  }
}

/** P(every leg wins | no leg pushes) on a joint grid; null when every outcome pushes a leg. */
export function jointWinProbability(cells: readonly ScoreCell[], legs: readonly ModelLeg[]): number | null {
  let win = 0;
  let decided = 0;
  for (const c of cells) {
    let all = true;
    let push = false;
    for (const leg of legs) {
      const r = legResult(leg, c.margin, c.total);
      if (r === 'push') push = true;
      else if (r === 'loss') all = false;
    }
    if (push) continue;
    decided += c.p;
    if (all) win += c.p;
  }
  return decided > 0 ? win / decided : null;
}

/**
 * The model's correlation factor of legs on one game: P(all win) / prod P(leg wins), each probability conditional on
 * no push of the legs it involves. 1 for independent legs; 0 for legs that cannot all win. Null when undefined (a
 * leg that always pushes or never wins on the grid).
 */
export function correlationFactor(cells: readonly ScoreCell[], legs: readonly ModelLeg[]): number | null {
  const joint = jointWinProbability(cells, legs);
  if (joint === null) return null;
  let product = 1;
  for (const leg of legs) {
    const p = jointWinProbability(cells, [leg]);
    if (p === null || p === 0) return null;
    product *= p;
  }
  return joint / product;
}

/**
 * Two legs that cannot both win on any final score of the sport (over and under the same total, both sides of a
 * moneyline, both sides of a spread with the same line): found from the legs alone, without a model.
 */
export function mutuallyExclusive(a: ModelLeg, b: ModelLeg): boolean {
  if (a.kind === 'moneyline' && b.kind === 'moneyline') return a.side !== b.side;
  if (a.kind === 'total' && b.kind === 'total' && a.side !== b.side) {
    const over = a.side === 'over' ? a : b;
    const under = a.side === 'over' ? b : a;
    // over L1 and under L2 win together only for a total strictly between: L1 < T < L2 with a whole T.
    return Math.floor(under.line - 1e-9) <= over.line;
  }
  if (a.kind === 'spread' && b.kind === 'spread' && a.side !== b.side) {
    // home margin + lh > 0 and -margin + la > 0: -lh < margin < la, with a whole margin.
    const home = a.side === 'home' ? a : b;
    const away = a.side === 'home' ? b : a;
    return Math.floor(away.line - 1e-9) <= -home.line;
  }
  return false;
}

/** The game's devigged main lines the joint model is fitted to (no-vig probabilities, conditional on no push). */
export interface GameLines {
  sport: string;
  /** Home-side spread line and P(home covers). */
  spread?: { homeLine: number; pHome: number };
  /** P(home wins | no draw) from the moneyline (a two-way one, or a three-way one's home / (home + away)). */
  moneyline?: { pHome: number };
  /** Total line and P(over). */
  total?: { line: number; pOver: number };
}

const POINT_SPORTS: ReadonlyMap<string, { totalSd: number }> = new Map([
  ['football', { totalSd: FOOTBALL_TOTAL_SD }],
  ['basketball', { totalSd: BASKETBALL_TOTAL_SD }],
]);
const RATE_SPORTS = new Set(['soccer', 'hockey', 'baseball']);

/** Sports the joint model covers. */
export function jointModelSports(): string[] {
  return [...POINT_SPORTS.keys(), ...RATE_SPORTS];
}

/** Largest |correlation| of margin and total the point-sport model allows (keeps the conditional sd positive). */
const MAX_RHO = 0.9;

/**
 * Point sports: cells from a margin pmf and the total's mean and sd. T | M = m is a normal with mean
 * E[T] + beta (m - E[M]) and sd s, put on the totals of m's parity (weights = normal probability of [t-1, t+1]),
 * with beta = Cov / Var M, Cov = k E[M], k = (Var M + sdT^2) / (2 E[T]), s^2 = sdT^2 - beta^2 Var M.
 */
export function pointSportCells(margin: Pmf, expectedTotal: number, totalSd: number): ScoreCell[] {
  const muM = margin.mean();
  const varM = margin.variance();
  const k = (varM + totalSd * totalSd) / (2 * expectedTotal);
  let cov = k * muM;
  const maxCov = MAX_RHO * Math.sqrt(varM) * totalSd;
  cov = Math.max(-maxCov, Math.min(maxCov, cov));
  const beta = varM > 0 ? cov / varM : 0;
  const s = Math.sqrt(totalSd * totalSd - beta * beta * varM);
  const cells: ScoreCell[] = [];
  margin.forEach((m, pm) => {
    if (pm < 1e-12) return;
    const mean = expectedTotal + beta * (m - muM);
    const lo = Math.max(Math.abs(m), Math.floor(mean - 9 * s));
    const hi = Math.ceil(mean + 9 * s);
    const row: Array<[number, number]> = [];
    let sum = 0;
    // Totals of m's parity from |m| up (a total below |margin| is impossible).
    for (let t = lo + ((((lo - m) % 2) + 2) % 2); t <= hi; t += 2) {
      const w = normalCdf((t + 1 - mean) / s) - normalCdf((t - 1 - mean) / s);
      if (w > 0) {
        row.push([t, w]);
        sum += w;
      }
    }
    if (!(sum > 0)) return;
    for (const [t, w] of row) cells.push({ margin: m, total: t, p: (pm * w) / sum });
  });
  return cells;
}

/** Cells of a final-score model given as regulation pmfs and options (finalScoreCells), normalised. */
function rateCells(home: Pmf, away: Pmf, options: ScoreModelOptions): ScoreCell[] {
  const byKey = new Map<number, ScoreCell>();
  let sum = 0;
  finalScoreCells(home, away, options, (margin, total, w) => {
    const key = margin * 100_000 + total;
    const c = byKey.get(key);
    if (c) c.p += w;
    else byKey.set(key, { margin, total, p: w });
    sum += w;
  });
  const cells = [...byKey.values()];
  for (const c of cells) c.p /= sum;
  return cells;
}

/** Bisection for x in [lo, hi] with f(x) = target, f increasing; the end nearer the target when it is out of reach. */
function solveIncreasing(f: (x: number) => number, target: number, lo: number, hi: number): number {
  // 1e-5 in the location moves a line's probability by well under FIT_TOLERANCE.
  for (let i = 0; i < 50 && hi - lo > 1e-5; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** How closely a fitted model must reproduce the lines it was fitted to (else the game has no joint model). */
const FIT_TOLERANCE = 1e-4;

/**
 * The joint (margin, total) grid of a game fitted to its devigged main lines, so that the grid prices the total line at
 * its no-vig probability and the spread (or, without one, the moneyline read as a spread of 0) at its own:
 * - football, basketball: the sport's margin pmf located on the side line (line-fit.ts), then the expected total
 *   solved so that the joint grid prices the total line;
 * - soccer, hockey, baseball: the two scoring rates solved in turn (their sum for the total, their difference for the
 *   side) until both lines are met.
 * Null when the sport has no joint model, a line is missing, or the model cannot reach the lines.
 */
export function fitGameCells(lines: GameLines): ScoreCell[] | null {
  const { sport, total } = lines;
  if (!total || !(total.pOver > 0 && total.pOver < 1) || !Number.isFinite(total.line)) return null;
  const side = lines.spread ?? (lines.moneyline ? { homeLine: 0, pHome: lines.moneyline.pHome } : null);
  if (!side || !(side.pHome > 0 && side.pHome < 1) || !Number.isFinite(side.homeLine)) return null;
  const overLeg: ModelLeg = { kind: 'total', side: 'over', line: total.line };
  const sideLeg: ModelLeg = { kind: 'spread', side: 'home', line: side.homeLine };
  const p = (cells: ScoreCell[], leg: ModelLeg) => jointWinProbability(cells, [leg]) ?? Number.NaN;
  let cells: ScoreCell[];
  try {
    const point = POINT_SPORTS.get(sport) ?? null;
    if (point) {
      const margin = fitLinePmf({ sport, kind: 'spread', fromLine: side.homeLine, fromProbability: side.pHome });
      if (!margin) return null;
      const build = (muT: number) => pointSportCells(margin, muT, point.totalSd);
      cells = build(solveIncreasing((muT) => p(build(muT), overLeg), total.pOver, Math.max(1, total.line / 3), 3 * total.line + 60));
    } else if (RATE_SPORTS.has(sport)) {
      const build = (sum: number, diff: number): ScoreCell[] => {
        const lh = (sum + diff) / 2;
        const la = (sum - diff) / 2;
        if (sport === 'soccer')
          return rateCells(poissonPmf(lh), poissonPmf(la), { tieInflation: 1, resolveTies: false, homeTieShare: 0.5, oneGoalShift: 0 });
        const r = sport === 'hockey' ? hockeyRegulation(lh, la) : baseballRegulation(lh, la);
        return rateCells(r.home, r.away, r.options);
      };
      const maxSum = 3 * Math.max(total.line, 1) + 10;
      let sum = Math.max(total.line, 0.5);
      let diff = 0;
      for (let round = 0; round < 8; round++) {
        const d = diff;
        sum = solveIncreasing((x) => p(build(x, Math.max(-0.98 * x, Math.min(0.98 * x, d))), overLeg), total.pOver, 0.1, maxSum);
        const sm = sum;
        diff = solveIncreasing((x) => p(build(sm, x), sideLeg), side.pHome, -0.98 * sm, 0.98 * sm);
      }
      cells = build(sum, diff);
    } else return null;
  } catch {
    return null; // a location the model refuses (RangeError)
  }
  if (Math.abs(p(cells, overLeg) - total.pOver) > FIT_TOLERANCE || Math.abs(p(cells, sideLeg) - side.pHome) > FIT_TOLERANCE) return null;
  return cells;
}

/** A priced parlay: its fair probability and the same as decimal odds. */
export interface ParlayFair {
  probability: number;
  decimal: number;
  /** The product of the legs' fair probabilities (what independent legs would give). */
  independentProbability: number;
}

/**
 * The fair probability of a parlay: the product of its legs' fair probabilities, times for each game with several
 * legs the joint model's correlation factor of those legs. `groups` lists each same-game group's factor.
 */
export function parlayFair(legProbabilities: readonly number[], groupFactors: readonly number[]): ParlayFair | null {
  let independent = 1;
  for (const p of legProbabilities) {
    if (!(p > 0 && p < 1)) return null;
    independent *= p;
  }
  let probability = independent;
  for (const f of groupFactors) {
    if (!(f >= 0) || !Number.isFinite(f)) return null;
    probability *= f;
  }
  probability = Math.min(probability, Math.min(...legProbabilities));
  if (!(probability > 0 && probability < 1)) return null;
  return { probability, decimal: 1 / probability, independentProbability: independent };
}

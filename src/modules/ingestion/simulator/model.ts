/**
 * The latent fair model of one event: distributions of the final margin and total, derived
 * probabilities for every line, and player-prop means. Pregame values come from src/math
 * (marginPmf, totalPmf, hockey/soccer score models); in-play values are built in game.ts.
 */

import { hockeyScorePmfs, marginPmf, normalSf, solveScoringRates, totalPmf, type Pmf } from '../../../math/index.js';
import { type LeagueConfig } from './sports.js';
import { tennisOutlook, type TennisScore } from './tennis.js';

/** A distribution over integer outcomes kept as survival values at the half-integers. */
export class Dist {
  /** s[i] = P(X > min - 0.5 + i); s[0] = 1 and s[n] = 0. */
  private readonly s: Float64Array;

  private constructor(
    readonly min: number,
    s: Float64Array,
  ) {
    this.s = s;
  }

  /** From non-negative weights for min, min+1, ... (normalised here), shifted by `shift`. */
  static fromWeights(min: number, w: ArrayLike<number>, shift = 0): Dist {
    let total = 0;
    for (let i = 0; i < w.length; i++) total += w[i] as number;
    const n = w.length;
    const s = new Float64Array(n + 1);
    let acc = 0;
    s[0] = 1;
    for (let i = 0; i < n; i++) {
      acc += (w[i] as number) / total;
      s[i + 1] = Math.max(0, 1 - acc);
    }
    s[n] = 0;
    return new Dist(min + shift, s);
  }

  static fromPmf(pmf: Pmf, shift = 0): Dist {
    return Dist.fromWeights(pmf.min, pmf.toArray(), shift);
  }

  /** P(X > x) for real x, linear between half-integers (exact at half-integers). */
  gt(x: number): number {
    const pos = x - (this.min - 0.5);
    if (pos <= 0) return 1;
    const n = this.s.length - 1;
    if (pos >= n) return 0;
    const i = Math.floor(pos);
    const f = pos - i;
    const a = this.s[i] as number;
    const b = this.s[i + 1] as number;
    return a + (b - a) * f;
  }

  /** E[X]. */
  mean(): number {
    let m = this.min - 0.5;
    for (let i = 0; i < this.s.length - 1; i++) m += this.s[i + 1] as number;
    return m + 0.5;
  }
}

/** One line's two sides, unnormalised (a whole line leaves out its push). Called for every line the simulator prices. */
function rawSides(d: Dist, t: number, delta: number): [number, number] {
  if (Number.isInteger(t)) return [d.gt(t + 0.5 - delta), 1 - d.gt(t - 0.5 - delta)];
  const w = d.gt(t - delta);
  return [w, 1 - w];
}

/**
 * Probabilities of the two sides of a line on a distribution: `above` wins when X > x, `below`
 * when X < x. Whole lines remove the push; quarter lines are half on each neighbouring line
 * (Asian handicap). `delta` shifts the distribution (a book's bias).
 * Returned as [above, below] summing to 1.
 */
export function lineSides(d: Dist, x: number, delta: number): [number, number] {
  const q = Math.round(x * 4);
  let w: number;
  let l: number;
  if (q % 2 !== 0) {
    const [w1, l1] = rawSides(d, x - 0.25, delta);
    const [w2, l2] = rawSides(d, x + 0.25, delta);
    w = w1 + w2;
    l = l1 + l2;
  } else {
    [w, l] = rawSides(d, x, delta);
  }
  const s = w + l;
  if (!(s > 0)) return [0.5, 0.5];
  return [w / s, l / s];
}

/** Player prop: per-game mean of one statistic. */
export interface PropFair {
  mean: number;
  sd: number;
  /** Count statistics with small means use a Poisson law, others a normal one. */
  poisson: boolean;
}

function poissonCdf(m: number, k: number): number {
  if (k < 0) return 0;
  let term = Math.exp(-m);
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term *= m / i;
    sum += term;
  }
  return Math.min(1, sum);
}

/** P(stat > line) for a prop whose mean a book shades by `biasFrac`. */
export function propOver(p: PropFair, line: number, biasFrac: number): number {
  const m = Math.max(0.05, p.mean * (1 + biasFrac));
  if (p.poisson) return 1 - poissonCdf(m, Math.floor(line));
  return normalSf((line - m) / (p.sd * (m / p.mean)));
}

/** Standard deviation of a prop statistic around its mean. */
export function propSd(stat: string, mean: number): { sd: number; poisson: boolean } {
  switch (stat) {
    case 'points':
      return { sd: 0.2 * mean + 2.2, poisson: mean < 4 };
    case 'rebounds':
    case 'assists':
      return { sd: 0.25 * mean + 1.2, poisson: false };
    case 'pass_yards':
      return { sd: 0.25 * mean + 18, poisson: false };
    case 'rush_yards':
      return { sd: 0.38 * mean + 10, poisson: false };
    case 'receiving_yards':
      return { sd: 0.45 * mean + 8, poisson: false };
    default:
      return { sd: Math.sqrt(mean), poisson: true };
  }
}

/** One immutable snapshot of an event's fair values. */
export interface Fair {
  /** Strictly increasing per event (any change). */
  seq: number;
  /** Bumped when game lines change / when props change. */
  linesV: number;
  propsV: number;
  margin: Dist | null;
  total: Dist | null;
  /** Moneyline override (tennis match winner, MMA fights); else from the margin. */
  pHomeML: number | null;
  threeWay: boolean;
  /** Per prop slot: null when the player is out (books pull the market). */
  props: ReadonlyArray<PropFair | null>;
  live: boolean;
  /** Current score (0 before the game). */
  home: number;
  away: number;
}

/** Fair moneyline probabilities [home, draw, away] (draw 0 for two-way sports). */
export function moneyline(f: Fair, delta: number, logitBias: number): [number, number, number] {
  if (f.pHomeML !== null) {
    const p = sigmoid(logit(f.pHomeML) + logitBias);
    return [p, 0, 1 - p];
  }
  const d = f.margin;
  if (!d) return [0.5, 0, 0.5];
  if (f.threeWay) {
    const h = d.gt(0.5 - delta);
    const a = 1 - d.gt(-0.5 - delta);
    return [h, Math.max(0, 1 - h - a), a];
  }
  const [h] = lineSides(d, 0, delta);
  const p = sigmoid(logit(h) + logitBias);
  return [p, 0, 1 - p];
}

export function logit(p: number): number {
  const q = Math.min(1 - 1e-9, Math.max(1e-9, p));
  return Math.log(q / (1 - q));
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Regulation scoring rates of a hockey game with these final expectations. */
export function hockeyRates(mu: number, total: number): { lh: number; la: number } {
  const m = Math.max(-0.8 * total, Math.min(0.8 * total, mu));
  try {
    const r = solveScoringRates(m, total, hockeyScorePmfs);
    return { lh: r.lambdaHome, la: r.lambdaAway };
  } catch {
    return { lh: Math.max(0.1, (total + m) / 2 - 0.1), la: Math.max(0.1, (total - m) / 2 - 0.1) };
  }
}

/** Per-game home win probability of a tennis match from the latent logit x. */
export function tennisGameP(x: number): number {
  return sigmoid(x);
}

/** Pregame distributions for an event. */
export function pregameLines(
  league: LeagueConfig,
  mu: number,
  total: number,
  x: number,
): { margin: Dist | null; total: Dist | null; pHomeML: number | null } {
  switch (league.sport) {
    case 'basketball':
    case 'football': {
      const opts = league.marginSd !== undefined ? { sd: league.marginSd } : {};
      const topts = league.totalPmfSd !== undefined ? { sd: league.totalPmfSd, expectedHomeMargin: mu } : { expectedHomeMargin: mu };
      return {
        margin: Dist.fromPmf(marginPmf(league.sport, mu, total, opts)),
        total: Dist.fromPmf(totalPmf(league.sport, total, topts)),
        pHomeML: null,
      };
    }
    case 'hockey': {
      const { lh, la } = hockeyRates(mu, total);
      const r = hockeyScorePmfs(lh, la);
      return { margin: Dist.fromPmf(r.margin), total: Dist.fromPmf(r.total), pHomeML: null };
    }
    case 'soccer': {
      const m = Math.max(-0.85 * total, Math.min(0.85 * total, mu));
      return { margin: Dist.fromPmf(marginPmf('soccer', m, total)), total: Dist.fromPmf(totalPmf('soccer', total)), pHomeML: null };
    }
    case 'tennis': {
      const score: TennisScore = { sets: [], home: 0, away: 0 };
      const o = tennisOutlook(tennisGameP(x), score);
      return { margin: Dist.fromWeights(o.marginMin, o.margin), total: Dist.fromWeights(o.totalMin, o.total), pHomeML: o.pHomeMatch };
    }
    case 'mma':
      return { margin: null, total: null, pHomeML: sigmoid(x) };
  }
}

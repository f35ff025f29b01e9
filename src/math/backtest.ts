/**
 * Backtest statistics: stake sizing, grading a bet into a profit, ROI with a confidence interval, maximum
 * drawdown of a bankroll curve, and averages. Plain functions: no clock, no I/O.
 */

import { kellyFraction } from './kelly.js';

/** How a rule sizes its bets: a flat number of units, or a Kelly fraction of the current bankroll with a cap. */
export type Staking = { kind: 'flat'; units: number } | { kind: 'kelly'; fraction: number; cap: number };

/**
 * The stake of one bet. Flat: `units`. Kelly: bankroll x min(kellyFraction(p, d, fraction), cap), with p the
 * detector's fair probability and d the decimal price taken; a spent bankroll (<= 0) stakes nothing.
 * @throws RangeError on a non-positive flat stake, a fraction outside (0, 1] or a cap outside (0, 1].
 */
export function stakeFor(staking: Staking, bankroll: number, probability: number, decimal: number): number {
  if (staking.kind === 'flat') {
    if (!(staking.units > 0) || !Number.isFinite(staking.units)) throw new RangeError(`stakeFor: flat stake ${staking.units} must be > 0`);
    return staking.units;
  }
  if (!(staking.fraction > 0 && staking.fraction <= 1))
    throw new RangeError(`stakeFor: Kelly fraction ${staking.fraction} is not in (0, 1]`);
  if (!(staking.cap > 0 && staking.cap <= 1)) throw new RangeError(`stakeFor: cap ${staking.cap} is not in (0, 1]`);
  if (!(bankroll > 0)) return 0;
  return bankroll * Math.min(kellyFraction(probability, decimal, staking.fraction), staking.cap);
}

/** How a bet ended: won, lost, push (the line landed: stake back) or void (not graded: stake back). */
export type BetOutcome = 'won' | 'lost' | 'push' | 'void';

/** Profit of a settled bet: won stake x (d - 1), lost -stake, push and void 0. */
export function betProfit(outcome: BetOutcome, stake: number, decimal: number): number {
  switch (outcome) {
    case 'won':
      return stake * (decimal - 1);
    case 'lost':
      return -stake;
    default:
      return 0;
  }
}

/** Two-sided 95% normal quantile. */
export const Z95 = 1.959963984540054;

export interface RoiInterval {
  /** Profit / turnover (null without a staked bet). */
  roi: number | null;
  /** Standard error of the ROI (null below two bets). */
  standardError: number | null;
  /** roi -+ z x standardError (null below two bets). */
  low: number | null;
  high: number | null;
  /** Bets with a positive stake. */
  bets: number;
}

/**
 * ROI and its confidence interval. ROI R = sum(profit) / sum(stake): the stake-weighted mean of each bet's
 * return per unit staked, r_i = profit_i / stake_i. Its standard error is the normal approximation of a
 * weighted mean (ratio estimator): SE = sqrt(n / (n - 1) x sum(w_i^2 (r_i - R)^2)) / sum(w_i), w_i = stake_i;
 * with equal stakes this is the familiar s / sqrt(n). Where every bet gives its decimal price d_i and a
 * probability p_i of winning (the fair probability at detection, or the simulator's true one), the variance is at
 * least the model's, sum(s_i^2 d_i^2 p_i (1 - p_i)): a handful of bets that all lost (a sample variance of 0)
 * does not make the interval a point. Interval: R -+ z SE (z = 1.96 for 95%), never below -100%. An
 * approximation: fair for a few dozen bets and more, rough for a handful.
 */
export function roiInterval(
  bets: ReadonlyArray<{ stake: number; profit: number; decimal?: number; probability?: number | null }>,
  z = Z95,
): RoiInterval {
  const staked = bets.filter((b) => b.stake > 0);
  const n = staked.length;
  if (n === 0) return { roi: null, standardError: null, low: null, high: null, bets: 0 };
  let turnover = 0;
  let profit = 0;
  for (const b of staked) {
    turnover += b.stake;
    profit += b.profit;
  }
  const roi = profit / turnover;
  // The model's variance of the profit, where every bet says its price and probability: s^2 d^2 p (1 - p).
  const modelled = staked.every((b) => b.decimal !== undefined && b.probability !== undefined && b.probability !== null);
  let model = 0;
  if (modelled) for (const b of staked) model += b.stake * b.stake * b.decimal! * b.decimal! * b.probability! * (1 - b.probability!);
  if (n < 2 && !modelled) return { roi, standardError: null, low: null, high: null, bets: n };
  let ss = 0;
  for (const b of staked) {
    const d = b.stake * (b.profit / b.stake - roi);
    ss += d * d;
  }
  const sample = n < 2 ? 0 : (n / (n - 1)) * ss;
  const se = Math.sqrt(Math.max(sample, model)) / turnover;
  // No bet loses more than its stake: the interval never goes below -100%.
  return { roi, standardError: se, low: Math.max(-1, roi - z * se), high: roi + z * se, bets: n };
}

export interface Drawdown {
  /** Largest fall from a running peak, in bankroll units. */
  amount: number;
  /** Largest fall from a running peak as a fraction of that peak (may come from another fall than `amount`). */
  fraction: number;
  /** Where the largest fall in units starts and ends (indexes into the curve; -1 when there is none). */
  peakIndex: number;
  troughIndex: number;
}

/** Maximum drawdown of a bankroll curve: max over t of (max_{s<=t} B_s) - B_t, in units and as a fraction of the peak. */
export function maxDrawdown(curve: readonly number[]): Drawdown {
  const out: Drawdown = { amount: 0, fraction: 0, peakIndex: -1, troughIndex: -1 };
  let peak = Number.NEGATIVE_INFINITY;
  let peakAt = -1;
  for (let i = 0; i < curve.length; i++) {
    const v = curve[i]!;
    if (v > peak) {
      peak = v;
      peakAt = i;
      continue;
    }
    const fall = peak - v;
    if (fall > out.amount) {
      out.amount = fall;
      out.peakIndex = peakAt;
      out.troughIndex = i;
    }
    if (peak > 0 && fall / peak > out.fraction) out.fraction = fall / peak;
  }
  return out;
}

/** Mean of the known values (null and undefined skipped); null when there is none. */
export function meanOf(values: ReadonlyArray<number | null | undefined>): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    sum += v;
    n++;
  }
  return n ? sum / n : null;
}

/**
 * Discrete outcome distributions for spreads (X = home score - away score) and totals
 * (X = home score + away score), used to price middles.
 *
 * Every function returns an immutable {@link Pmf} (dense over consecutive integers) whose
 * probabilities sum to 1: tails are truncated at a total mass of 1e-9 and the rest renormalised
 * (see pmf.ts). Building a pmf costs microseconds to a millisecond; callers on hot paths should
 * cache results by (sport, rounded expectations).
 *
 * Model summary (all parameters are constants documented next to their definition):
 * | sport      | margin                                               | total                                  |
 * |------------|------------------------------------------------------|----------------------------------------|
 * | football   | normal sd 13.5 reweighted by NFL key-number weights  | discretised normal sd 13.4             |
 * | basketball | discretised normal sd 12, no ties (0 removed)        | discretised normal sd 18               |
 * | hockey     | Poisson regulation + tie inflation + OT/SO + ENG     | same joint model                       |
 * | soccer     | Skellam (90 minutes, draws allowed)                  | Poisson                                |
 * | baseball   | negative binomial runs, ties -> extra innings +-1    | same joint model                       |
 * | tennis     | discretised normal sd 5 (games)                      | discretised normal sd 4.5 (games)      |
 * | mma        | RangeError (no spreads)                              | RangeError (round totals not integer)  |
 * | other      | discretised normal sd max(1, sqrt(total))            | discretised normal sd max(1, sqrt(total)) |
 * All sport-level functions are mean-calibrated: the returned pmf has (within 1e-6) the requested
 * expected margin / total; requests a hockey/baseball model cannot reach throw a RangeError
 * (see {@link solveScoringRates}).
 */

import { normalCdf, normalSf } from './normal.js';
import { Pmf, TAIL_MASS } from './pmf.js';

/** Sport ids understood by {@link marginPmf} and {@link totalPmf}. Other strings use the generic model. */
export type SportId = 'basketball' | 'football' | 'baseball' | 'hockey' | 'soccer' | 'tennis' | 'mma';

/** Relative weight below which recursive pmf tails are no longer generated (far below TAIL_MASS). */
const NEGLIGIBLE = 1e-18;
/** Discretised-normal support half-width in standard deviations (tail beyond 9 sd ~ 1e-19). */
const NORMAL_SPAN_SD = 9;

function assertPositive(name: string, x: number): void {
  if (!Number.isFinite(x) || x <= 0) throw new RangeError(`${name} must be finite and > 0, got ${x}`);
}

function assertFinite(name: string, x: number): void {
  if (!Number.isFinite(x)) throw new RangeError(`${name} must be finite, got ${x}`);
}

function assertMaxK(maxK: number | undefined): void {
  if (maxK !== undefined && (!Number.isSafeInteger(maxK) || maxK < 0)) {
    throw new RangeError(`maxK must be a non-negative integer, got ${maxK}`);
  }
}

/**
 * Builds weights for k = 0, 1, ... from a mode and the successive ratio r(k) = w(k+1)/w(k),
 * starting at weight 1 at `start` and recursing both ways (no overflow, no lgamma needed; the
 * Pmf normalises). Stops upwards at maxK, or when the weight is negligible past the mode.
 */
function recursiveCountPmf(start: number, ratio: (k: number) => number, maxK: number | undefined, tailMass: number): Pmf {
  const down: number[] = [];
  let w = 1;
  let sum = 1;
  for (let k = start; k > 0; k--) {
    w /= ratio(k - 1);
    if (w < NEGLIGIBLE * sum) break;
    down.push(w);
    sum += w;
  }
  const up: number[] = [];
  w = 1;
  for (let k = start; maxK === undefined || k < maxK; k++) {
    w *= ratio(k);
    if (w < NEGLIGIBLE * sum || !(w > 0)) break;
    up.push(w);
    sum += w;
  }
  const min = start - down.length;
  const weights = new Float64Array(down.length + 1 + up.length);
  for (let i = 0; i < down.length; i++) weights[down.length - 1 - i] = down[i] as number;
  weights[down.length] = 1;
  for (let i = 0; i < up.length; i++) weights[down.length + 1 + i] = up[i] as number;
  return Pmf.fromWeights(min, weights, tailMass);
}

/**
 * Components that are convolved or combined further are built with this much smaller tail cut,
 * so that only the final pmf's 1e-9 truncation is visible in its tails.
 */
const COMPONENT_TAIL_MASS = 1e-15;

function poisson(lambda: number, maxK: number | undefined, tailMass: number): Pmf {
  assertPositive('lambda', lambda);
  assertMaxK(maxK);
  const mode = Math.floor(lambda);
  const start = maxK === undefined ? mode : Math.min(mode, maxK);
  return recursiveCountPmf(start, (k) => lambda / (k + 1), maxK, tailMass);
}

function negativeBinomial(mean: number, size: number, maxK: number | undefined, tailMass: number): Pmf {
  assertPositive('mean', mean);
  assertPositive('size', size);
  assertMaxK(maxK);
  const q = mean / (mean + size);
  const mode = size > 1 ? Math.floor(((size - 1) * mean) / size) : 0;
  const start = maxK === undefined ? mode : Math.min(mode, maxK);
  return recursiveCountPmf(start, (k) => ((k + size) / (k + 1)) * q, maxK, tailMass);
}

/**
 * Poisson(lambda): P(k) = e^{-lambda} lambda^k / k!, k = 0, 1, ...
 * Computed by the recursion P(k+1) = P(k) lambda/(k+1) from the mode. When maxK is given the
 * support is cut at maxK and renormalised (i.e. conditioned on X <= maxK); otherwise the
 * support extends until the tail is negligible.
 * @throws RangeError unless lambda is finite and > 0 and maxK (if given) a non-negative integer.
 */
export function poissonPmf(lambda: number, maxK?: number): Pmf {
  return poisson(lambda, maxK, TAIL_MASS);
}

/**
 * Negative binomial with mean mu and size (dispersion) r: an over-dispersed Poisson with
 * Var = mu + mu^2/r. P(k) = Gamma(k+r)/(Gamma(r) k!) (r/(r+mu))^r (mu/(r+mu))^k, computed by the
 * recursion P(k+1) = P(k) (k + r)/(k + 1) * mu/(mu + r) from the mode.
 * @throws RangeError unless mean and size are finite and > 0.
 */
export function negativeBinomialPmf(mean: number, size: number, maxK?: number): Pmf {
  return negativeBinomial(mean, size, maxK, TAIL_MASS);
}

/** Distribution of X + Y for independent X ~ a, Y ~ b (discrete convolution). */
export function sumPmf(a: Pmf, b: Pmf): Pmf {
  const pa = a.toArray();
  const pb = b.toArray();
  const w = new Float64Array(pa.length + pb.length - 1);
  for (let i = 0; i < pa.length; i++) {
    const x = pa[i] as number;
    if (x === 0) continue;
    for (let j = 0; j < pb.length; j++) w[i + j] = (w[i + j] as number) + x * (pb[j] as number);
  }
  return Pmf.fromWeights(a.min + b.min, w);
}

/** Distribution of X - Y for independent X ~ a, Y ~ b. */
export function differencePmf(a: Pmf, b: Pmf): Pmf {
  const pa = a.toArray();
  const pb = b.toArray();
  const w = new Float64Array(pa.length + pb.length - 1);
  const offset = pb.length - 1; // index of (a.min - b.min)
  for (let i = 0; i < pa.length; i++) {
    const x = pa[i] as number;
    if (x === 0) continue;
    for (let j = 0; j < pb.length; j++) w[i - j + offset] = (w[i - j + offset] as number) + x * (pb[j] as number);
  }
  return Pmf.fromWeights(a.min - b.max, w);
}

/**
 * Skellam(lambda1, lambda2): the difference X1 - X2 of independent Poisson variables,
 * P(k) = e^{-(l1+l2)} (l1/l2)^{k/2} I_|k|(2 sqrt(l1 l2)), computed exactly by convolving the
 * two Poisson pmfs (mean l1 - l2, variance l1 + l2).
 */
export function skellamPmf(lambda1: number, lambda2: number): Pmf {
  return differencePmf(poisson(lambda1, undefined, COMPONENT_TAIL_MASS), poisson(lambda2, undefined, COMPONENT_TAIL_MASS));
}

/**
 * Sum of two independent Poisson variables: Poisson(lambda1 + lambda2)
 * (closed form; identical to the convolution).
 */
export function poissonSumPmf(lambda1: number, lambda2: number): Pmf {
  assertPositive('lambda1', lambda1);
  assertPositive('lambda2', lambda2);
  return poissonPmf(lambda1 + lambda2);
}

/** Unnormalised discretised-normal weights on [lo, lo + n), P(k) = Phi((k+.5-m)/sd) - Phi((k-.5-m)/sd). */
function normalWeights(mean: number, sd: number, lo: number, n: number): Float64Array {
  // tail[j] = probability beyond boundary b_j = lo - 0.5 + j on the side away from the mean
  const tail = new Float64Array(n + 1);
  for (let j = 0; j <= n; j++) {
    const z = (lo - 0.5 + j - mean) / sd;
    tail[j] = z <= 0 ? normalCdf(z) : normalSf(z);
  }
  const w = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const zLo = (lo - 0.5 + j - mean) / sd;
    const zHi = zLo + 1 / sd;
    const tLo = tail[j] as number;
    const tHi = tail[j + 1] as number;
    // both boundaries below the mean: Phi(hi) - Phi(lo); both above: Q(lo) - Q(hi); else 1 - Phi(lo) - Q(hi)
    const p = zHi <= 0 ? tHi - tLo : zLo > 0 ? tLo - tHi : 1 - tLo - tHi;
    w[j] = p > 0 ? p : 0;
  }
  return w;
}

function normalSupport(mean: number, sd: number): { lo: number; n: number } {
  const lo = Math.floor(mean - NORMAL_SPAN_SD * sd) - 1;
  const hi = Math.ceil(mean + NORMAL_SPAN_SD * sd) + 1;
  return { lo, n: hi - lo + 1 };
}

/**
 * Normal(mean, sd) discretised to the integers: P(k) = Phi((k + 0.5 - mean)/sd) - Phi((k - 0.5 - mean)/sd),
 * with an accurate normal CDF (normal.ts, error < 1e-15). Mean equals `mean` and variance is
 * about sd^2 + 1/12 (Sheppard's correction) for sd >= 1.
 * @throws RangeError unless mean is finite and sd finite and > 0.
 */
export function discretisedNormal(mean: number, sd: number): Pmf {
  assertFinite('mean', mean);
  assertPositive('sd', sd);
  const { lo, n } = normalSupport(mean, sd);
  return Pmf.fromWeights(lo, normalWeights(mean, sd, lo, n));
}

/**
 * Solves for the location `m` of a family build(m) so that build(m).mean() equals `target`
 * (secant method; the families used here have means increasing in m with slope near 1).
 * Returns the pmf with the smallest error found (|error| <= 1e-9 in practice).
 */
function calibrateMean(target: number, build: (m: number) => Pmf): Pmf {
  let m0 = target;
  const p0 = build(m0);
  let e0 = target - p0.mean();
  if (Math.abs(e0) <= 1e-10) return p0;
  let m1 = target + e0;
  let p1 = build(m1);
  let e1 = target - p1.mean();
  let best = Math.abs(e1) < Math.abs(e0) ? p1 : p0;
  let bestErr = Math.min(Math.abs(e0), Math.abs(e1));
  for (let it = 0; it < 50 && bestErr > 1e-10; it++) {
    const denom = e1 - e0;
    let m2 = denom !== 0 ? m1 - (e1 * (m1 - m0)) / denom : m1 + e1;
    if (!Number.isFinite(m2)) m2 = m1 + e1;
    m0 = m1;
    e0 = e1;
    m1 = m2;
    p1 = build(m1);
    e1 = target - p1.mean();
    if (Math.abs(e1) < bestErr) {
      best = p1;
      bestErr = Math.abs(e1);
    }
    if (m1 === m0) break;
  }
  return best;
}

/** Default NFL margin standard deviation around the expected margin (before key-number reweighting). */
export const FOOTBALL_MARGIN_SD = 13.5;

/**
 * NFL key-number weights w(|k|) for |margin| = 0..21; |k| > 21 has weight 1.
 *
 * Derivation: w(k) = T(k) / B(k) rescaled so the tail weight is 1, where T(k) is the historical
 * share of NFL games with final |margin| = k and B(k) the share under the discretised
 * Normal(0, 13.5) (both signs). With these weights a pick'em game (expected margin 0)
 * reproduces T exactly. T (percent of games, regular + post season, 1999-2025 nflverse game log
 * for 3 / 7 / 6 / 10 / 14 as published by nflanalytic.com; the remaining values are rounded
 * long-run frequencies consistent with Sports Insights 2003-2013 and OddsShark tables):
 *
 * | margin | 0   | 1   | 2   | 3    | 4   | 5   | 6   | 7   | 8   | 9   | 10  |
 * | T %    | 0.3 | 3.9 | 3.6 | 15.1 | 5.0 | 3.5 | 6.0 | 9.0 | 3.6 | 2.3 | 5.5 |
 * | margin | 11  | 12  | 13  | 14   | 15  | 16  | 17  | 18  | 19  | 20  | 21  |
 * | T %    | 3.0 | 2.0 | 2.4 | 4.9  | 1.9 | 2.0 | 3.3 | 1.8 | 1.4 | 1.9 | 2.8 |
 *
 * (margins 3 + 7 = 24.1%; ties 0.3%; the 14.8% beyond 21 points is left to the normal shape.)
 */
export const NFL_KEY_NUMBER_WEIGHTS: readonly number[] = Object.freeze([
  0.076, 0.498, 0.463, 1.969, 0.665, 0.477, 0.842, 1.31, 0.546, 0.365, 0.92, 0.532, 0.378, 0.485, 1.067, 0.448, 0.513, 0.927, 0.557, 0.479,
  0.724, 1.194,
]);

function footballWeights(baseMean: number, sd: number): Pmf {
  const { lo, n } = normalSupport(baseMean, sd);
  const w = normalWeights(baseMean, sd, lo, n);
  for (let j = 0; j < n; j++) {
    const weight = NFL_KEY_NUMBER_WEIGHTS[Math.abs(lo + j)];
    if (weight !== undefined) w[j] = (w[j] as number) * weight;
  }
  return Pmf.fromWeights(lo, w);
}

/**
 * NFL/NCAAF final-margin distribution (home minus away): a discretised Normal(m, sd) multiplied by
 * the key-number weights {@link NFL_KEY_NUMBER_WEIGHTS} (applied to |margin|, so both "home by 3"
 * and "away by 3" are elevated) and renormalised; the location m is solved so that the final mean
 * equals `expectedMargin` (reweighting alone would pull the mean outward by ~10%).
 * Result at expected margin 0: P(|X| = 3) = 15.1%, P(|X| = 7) = 9.0%, P(X = 0) = 0.3%; the
 * overall sd is about 14.25 because the historical table has fatter tails than the normal.
 * Weights are NFL-calibrated; for NCAAF pass a larger sd (e.g. 16) knowing key numbers are weaker.
 * @throws RangeError unless expectedMargin is finite and sd finite and > 0.
 */
export function footballMarginPmf(expectedMargin: number, options: { sd?: number } = {}): Pmf {
  assertFinite('expectedMargin', expectedMargin);
  const sd = options.sd ?? FOOTBALL_MARGIN_SD;
  assertPositive('sd', sd);
  return calibrateMean(expectedMargin, (m) => footballWeights(m, sd));
}

/** Options for the joint regulation-score model in {@link finalScorePmfs}. */
export interface ScoreModelOptions {
  /** Multiplier on P(home = away) in regulation before renormalising (1 = independence). */
  tieInflation: number;
  /** When true a regulation tie is decided by one goal/run (OT, shootout, extra innings). */
  resolveTies: boolean;
  /** Probability the home team wins a resolved tie. */
  homeTieShare: number;
  /** Fraction of regulation one-goal games that end two-goal games (leader adds 1: empty-net goal). */
  oneGoalShift: number;
}

/**
 * Final margin and total distributions from independent regulation score distributions
 * home ~ H, away ~ A (supports >= 0):
 * 1. weight(h, a) = P(H = h) P(A = a), times tieInflation when h = a;
 * 2. ties: if resolveTies, the winner adds one score: margin +1 with homeTieShare, -1 otherwise,
 *    total h + a + 1; else margin 0, total h + a;
 * 3. |h - a| = 1: with probability oneGoalShift the leader adds one (margin +-2, total + 1);
 * 4. both pmfs renormalised.
 */
export function finalScorePmfs(home: Pmf, away: Pmf, options: ScoreModelOptions): { margin: Pmf; total: Pmf } {
  const marginMin = home.min - away.max - 2;
  const marginW = new Float64Array(Math.max(1, home.max - away.min + 2 - marginMin + 1));
  const totalMin = home.min + away.min;
  const totalW = new Float64Array(Math.max(1, home.max + away.max + 1 - totalMin + 1));
  finalScoreCells(home, away, options, (d, t, w) => {
    marginW[d - marginMin] = (marginW[d - marginMin] as number) + w;
    totalW[t - totalMin] = (totalW[t - totalMin] as number) + w;
  });
  return { margin: Pmf.fromWeights(marginMin, marginW), total: Pmf.fromWeights(totalMin, totalW) };
}

/**
 * The joint final (margin, total) outcomes of the model of {@link finalScorePmfs}, unnormalised: `emit(margin, total,
 * weight)` is called once per outcome branch (the same margin and total may come more than once). The weights sum to
 * the total weight of the regulation grid after tie inflation; callers normalise.
 */
export function finalScoreCells(
  home: Pmf,
  away: Pmf,
  options: ScoreModelOptions,
  emit: (margin: number, total: number, weight: number) => void,
): void {
  if (home.min < 0 || away.min < 0) throw new RangeError('finalScorePmfs: scores must be non-negative');
  const { tieInflation, resolveTies, homeTieShare, oneGoalShift } = options;
  if (!(tieInflation > 0) || !(homeTieShare >= 0 && homeTieShare <= 1) || !(oneGoalShift >= 0 && oneGoalShift <= 1)) {
    throw new RangeError('finalScorePmfs: invalid options');
  }
  const ph = home.toArray();
  const pa = away.toArray();
  for (let i = 0; i < ph.length; i++) {
    const h = home.min + i;
    const x = ph[i] as number;
    if (x === 0) continue;
    for (let j = 0; j < pa.length; j++) {
      const a = away.min + j;
      let w = x * (pa[j] as number);
      if (w === 0) continue;
      const d = h - a;
      const t = h + a;
      if (d === 0) {
        w *= tieInflation;
        if (resolveTies) {
          emit(1, t + 1, w * homeTieShare);
          emit(-1, t + 1, w * (1 - homeTieShare));
        } else emit(0, t, w);
      } else if ((d === 1 || d === -1) && oneGoalShift > 0) {
        emit(d, t, w * (1 - oneGoalShift));
        emit(2 * d, t + 1, w * oneGoalShift);
      } else emit(d, t, w);
    }
  }
}

/**
 * NHL regulation ties are ~40% more frequent than independent Poisson scoring predicts (teams
 * protect a tie late): with this factor a game with ~6.2 expected goals goes to OT/SO about 22% of
 * the time (NHL 2015-2024: 22-24%).
 */
export const HOCKEY_TIE_INFLATION = 1.4;
/**
 * Share of regulation one-goal games that become two-goal games through an empty-net goal
 * (goalie pulled while trailing by one). Approximation of NHL rates (~0.3-0.4 ENG per game, most
 * scored when trailing by one).
 */
export const HOCKEY_EMPTY_NET_SHIFT = 0.15;

/**
 * NHL final score model from regulation Poisson rates (expected regulation goals per team):
 * independent Poisson regulation scores, ties inflated by {@link HOCKEY_TIE_INFLATION}, then
 * resolved by OT/shootout to +1/-1 split by relative strength lambdaHome/(lambdaHome + lambdaAway)
 * (the OT/SO winner is credited one goal, as in betting settlement), and
 * {@link HOCKEY_EMPTY_NET_SHIFT} of one-goal regulation games moved to two goals.
 * Result for about 6.2 expected goals, near-even teams: P(|margin| = 1) ~ 0.46 (about 21.5% OT/SO
 * plus 24.5% one-goal regulation games), in line with the commonly quoted ~45-47% of NHL games
 * decided by one goal. Approximation: empty-net goals are only modelled for one-goal games.
 */
export function hockeyScorePmfs(lambdaHome: number, lambdaAway: number): { margin: Pmf; total: Pmf } {
  const m = hockeyRegulation(lambdaHome, lambdaAway);
  return finalScorePmfs(m.home, m.away, m.options);
}

/** The regulation score pmfs and options of the NHL model of {@link hockeyScorePmfs} (for {@link finalScoreCells}). */
export function hockeyRegulation(lambdaHome: number, lambdaAway: number): { home: Pmf; away: Pmf; options: ScoreModelOptions } {
  assertPositive('lambdaHome', lambdaHome);
  assertPositive('lambdaAway', lambdaAway);
  return {
    home: poisson(lambdaHome, undefined, COMPONENT_TAIL_MASS),
    away: poisson(lambdaAway, undefined, COMPONENT_TAIL_MASS),
    options: {
      tieInflation: HOCKEY_TIE_INFLATION,
      resolveTies: true,
      homeTieShare: lambdaHome / (lambdaHome + lambdaAway),
      oneGoalShift: HOCKEY_EMPTY_NET_SHIFT,
    },
  };
}

/** NHL final margin (home - away, never 0); see {@link hockeyScorePmfs} for the model. */
export function hockeyMarginPmf(lambdaHome: number, lambdaAway: number): Pmf {
  return hockeyScorePmfs(lambdaHome, lambdaAway).margin;
}

/** Soccer 90-minute margin: Skellam(lambdaHome, lambdaAway), draws allowed (no draw inflation). */
export function soccerMarginPmf(lambdaHome: number, lambdaAway: number): Pmf {
  return skellamPmf(lambdaHome, lambdaAway);
}

/**
 * Negative-binomial size for MLB team runs per game: Var = mu + mu^2/4, i.e. about 2.1 x mean at
 * mu = 4.5 (MLB team runs have sd ~3.1 around a mean of ~4.5; Poisson would give 2.1).
 */
export const BASEBALL_NB_SIZE = 4;

/**
 * MLB final score model from expected runs per team: independent negative-binomial runs
 * (size {@link BASEBALL_NB_SIZE}); a tie after nine innings goes to extra innings, modelled as
 * one deciding run (margin +-1 split by lambdaHome/(lambdaHome + lambdaAway), total + 1).
 * Not modelled: the home team skipping the bottom of the ninth, multi-run extra innings.
 */
export function baseballScorePmfs(lambdaHome: number, lambdaAway: number): { margin: Pmf; total: Pmf } {
  const m = baseballRegulation(lambdaHome, lambdaAway);
  return finalScorePmfs(m.home, m.away, m.options);
}

/** The nine-inning run pmfs and options of the MLB model of {@link baseballScorePmfs} (for {@link finalScoreCells}). */
export function baseballRegulation(lambdaHome: number, lambdaAway: number): { home: Pmf; away: Pmf; options: ScoreModelOptions } {
  assertPositive('lambdaHome', lambdaHome);
  assertPositive('lambdaAway', lambdaAway);
  return {
    home: negativeBinomial(lambdaHome, BASEBALL_NB_SIZE, undefined, COMPONENT_TAIL_MASS),
    away: negativeBinomial(lambdaAway, BASEBALL_NB_SIZE, undefined, COMPONENT_TAIL_MASS),
    options: { tieInflation: 1, resolveTies: true, homeTieShare: lambdaHome / (lambdaHome + lambdaAway), oneGoalShift: 0 },
  };
}

/** MLB run differential (home - away, never 0); see {@link baseballScorePmfs}. */
export function baseballMarginPmf(lambdaHome: number, lambdaAway: number): Pmf {
  return baseballScorePmfs(lambdaHome, lambdaAway).margin;
}

/** Smallest per-team scoring rate used when solving rates. */
const MIN_RATE = 0.01;

/**
 * Finds per-team scoring rates (lambdaHome, lambdaAway) for a score model so that the final
 * margin and total have the requested means (fixed-point iteration on sum and difference,
 * converging to 1e-10 in a few dozen steps because both means move ~1:1 with the rates).
 * Each rate is kept >= 0.01. Requests the model cannot reach (e.g. a hockey or baseball total
 * near 1, where nearly every game is a 0-0 regulation tie that still adds one deciding score, or
 * a margin almost equal to the total) are rejected rather than silently mis-priced.
 * @throws RangeError unless expectedTotal > 0 and |expectedMargin| < expectedTotal, or when the
 *   means cannot be matched within 1e-7 (relative to the total).
 */
export function solveScoringRates(
  expectedMargin: number,
  expectedTotal: number,
  model: (lambdaHome: number, lambdaAway: number) => { margin: Pmf; total: Pmf },
): { lambdaHome: number; lambdaAway: number } {
  assertFinite('expectedMargin', expectedMargin);
  assertPositive('expectedTotal', expectedTotal);
  if (Math.abs(expectedMargin) >= expectedTotal) {
    throw new RangeError(`|expectedMargin| (${expectedMargin}) must be below expectedTotal (${expectedTotal})`);
  }
  let s = expectedTotal;
  let d = expectedMargin;
  let lh = 0;
  let la = 0;
  let errT = Number.POSITIVE_INFINITY;
  let errM = Number.POSITIVE_INFINITY;
  for (let it = 0; it < 200; it++) {
    s = Math.max(s, 2 * MIN_RATE + 1e-9);
    d = Math.min(Math.max(d, -(s - 2 * MIN_RATE)), s - 2 * MIN_RATE);
    lh = (s + d) / 2;
    la = (s - d) / 2;
    const r = model(lh, la);
    errT = expectedTotal - r.total.mean();
    errM = expectedMargin - r.margin.mean();
    if (Math.abs(errT) <= 1e-10 && Math.abs(errM) <= 1e-10) break;
    s += errT;
    d += errM;
  }
  if (!(Math.abs(errT) <= 1e-7 * Math.max(1, expectedTotal) && Math.abs(errM) <= 1e-7 * Math.max(1, expectedTotal))) {
    throw new RangeError(
      `cannot match expected margin ${expectedMargin} and total ${expectedTotal} with this score model (residuals ${errM}, ${errT})`,
    );
  }
  return { lambdaHome: lh, lambdaAway: la };
}

/** Default standard deviations for the normal-based sports. */
export const BASKETBALL_MARGIN_SD = 12;
export const BASKETBALL_TOTAL_SD = 18;
/** NFL: sd of (actual total - closing total) over 7,276 games 1999-2025 is 13.4 points. */
export const FOOTBALL_TOTAL_SD = 13.4;
export const TENNIS_MARGIN_SD = 5;
export const TENNIS_TOTAL_SD = 4.5;

/** Generic sd for unknown sports: sqrt(total), the Skellam/Poisson sd for unit scoring events. */
function genericSd(expectedTotal: number): number {
  return Math.max(1, Math.sqrt(expectedTotal));
}

function basketballMargin(expectedMargin: number, sd: number): Pmf {
  // Basketball cannot end tied (overtime): drop X = 0, renormalise, and re-solve the location
  // so the mean is still expectedMargin.
  return calibrateMean(expectedMargin, (m) => {
    const { lo, n } = normalSupport(m, sd);
    const w = normalWeights(m, sd, lo, n);
    if (lo <= 0 && 0 < lo + n) w[-lo] = 0;
    return Pmf.fromWeights(lo, w);
  });
}

/** Options for {@link marginPmf} / {@link totalPmf}. */
export interface SportPmfOptions {
  /** Overrides the standard deviation of normal-based models (football, basketball, tennis, other). */
  sd?: number;
  /** totalPmf only: expected home margin used to split the total between the teams (default 0). */
  expectedHomeMargin?: number;
}

/**
 * Final-margin (home minus away) distribution for a sport, mean-calibrated to expectedHomeMargin:
 * - football: {@link footballMarginPmf} (sd option, default 13.5);
 * - basketball: discretised normal sd 12 (NBA; option sd, e.g. 11 for NCAAB) with ties removed;
 * - hockey: {@link hockeyMarginPmf} with regulation rates solved ({@link solveScoringRates}) so the
 *   final margin and total means equal the inputs;
 * - soccer: Skellam with lambdaHome = (total + margin)/2, lambdaAway = (total - margin)/2;
 * - baseball: {@link baseballMarginPmf} with rates solved like hockey;
 * - tennis: discretised normal sd 5 (games won margin);
 * - mma: RangeError (fights have no spreads);
 * - anything else: discretised normal with sd = max(1, sqrt(expectedTotal)).
 * @throws RangeError for non-finite inputs, expectedTotal <= 0, |margin| >= total for the
 *   Poisson-type sports, or mma.
 */
export function marginPmf(sport: string, expectedHomeMargin: number, expectedTotal: number, options: SportPmfOptions = {}): Pmf {
  assertFinite('expectedHomeMargin', expectedHomeMargin);
  assertPositive('expectedTotal', expectedTotal);
  switch (sport) {
    case 'football':
      return footballMarginPmf(expectedHomeMargin, { sd: options.sd ?? FOOTBALL_MARGIN_SD });
    case 'basketball':
      return basketballMargin(expectedHomeMargin, positiveOr(options.sd, BASKETBALL_MARGIN_SD));
    case 'hockey': {
      const { lambdaHome, lambdaAway } = solveScoringRates(expectedHomeMargin, expectedTotal, hockeyScorePmfs);
      return hockeyMarginPmf(lambdaHome, lambdaAway);
    }
    case 'soccer': {
      const [lh, la] = soccerRates(expectedHomeMargin, expectedTotal);
      return soccerMarginPmf(lh, la);
    }
    case 'baseball': {
      const { lambdaHome, lambdaAway } = solveScoringRates(expectedHomeMargin, expectedTotal, baseballScorePmfs);
      return baseballMarginPmf(lambdaHome, lambdaAway);
    }
    case 'tennis':
      return discretisedNormal(expectedHomeMargin, positiveOr(options.sd, TENNIS_MARGIN_SD));
    case 'mma':
      throw new RangeError('mma has no point spreads');
    default:
      return discretisedNormal(expectedHomeMargin, positiveOr(options.sd, genericSd(expectedTotal)));
  }
}

/**
 * Final-total distribution for a sport, mean-calibrated to expectedTotal:
 * - football: discretised normal sd 13.4 (NFL total error sd 1999-2025; option sd);
 * - basketball: discretised normal sd 18 (NBA; option sd, ~16 for NCAAB);
 * - hockey: joint model of {@link hockeyScorePmfs} (OT/SO winner's goal counts, empty-net goals),
 *   rates solved from expectedTotal and options.expectedHomeMargin (default 0);
 * - soccer: Poisson(expectedTotal) (sum of the two team Poissons);
 * - baseball: joint negative-binomial model of {@link baseballScorePmfs} (over-dispersed, extra
 *   innings add one run), rates solved like hockey;
 * - tennis: discretised normal sd 4.5 (total games, best of three; a rough unimodal approximation);
 * - mma: RangeError (round totals are not an integer count of this kind);
 * - anything else: discretised normal with sd = max(1, sqrt(expectedTotal)).
 * @throws RangeError for expectedTotal not finite and > 0, or mma.
 */
export function totalPmf(sport: string, expectedTotal: number, options: SportPmfOptions = {}): Pmf {
  assertPositive('expectedTotal', expectedTotal);
  const margin = options.expectedHomeMargin ?? 0;
  switch (sport) {
    case 'football':
      return discretisedNormal(expectedTotal, positiveOr(options.sd, FOOTBALL_TOTAL_SD));
    case 'basketball':
      return discretisedNormal(expectedTotal, positiveOr(options.sd, BASKETBALL_TOTAL_SD));
    case 'hockey': {
      const { lambdaHome, lambdaAway } = solveScoringRates(margin, expectedTotal, hockeyScorePmfs);
      return hockeyScorePmfs(lambdaHome, lambdaAway).total;
    }
    case 'soccer':
      return poissonPmf(expectedTotal);
    case 'baseball': {
      const { lambdaHome, lambdaAway } = solveScoringRates(margin, expectedTotal, baseballScorePmfs);
      return baseballScorePmfs(lambdaHome, lambdaAway).total;
    }
    case 'tennis':
      return discretisedNormal(expectedTotal, positiveOr(options.sd, TENNIS_TOTAL_SD));
    case 'mma':
      throw new RangeError('mma totals (rounds) are not supported');
    default:
      return discretisedNormal(expectedTotal, positiveOr(options.sd, genericSd(expectedTotal)));
  }
}

function positiveOr(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  assertPositive('sd', value);
  return value;
}

function soccerRates(expectedMargin: number, expectedTotal: number): [number, number] {
  if (Math.abs(expectedMargin) >= expectedTotal) {
    throw new RangeError(`|expectedMargin| (${expectedMargin}) must be below expectedTotal (${expectedTotal})`);
  }
  return [(expectedTotal + expectedMargin) / 2, (expectedTotal - expectedMargin) / 2];
}

/**
 * Middles: two bets on the same market at two books, with different lines, that can both win.
 *
 * Each side is expressed over an integer outcome X (spreads: X = home score - away score;
 * totals: X = total points) as
 * - `above t`: wins when X > t, pushes when X = t, loses when X < t
 *   (home -2.5 => above 2.5; Over 44.5 => above 44.5; home -3 => above 3, push at 3);
 * - `below t`: wins when X < t, pushes when X = t, loses when X > t
 *   (away +7.5 => below 7.5; Under 47.5 => below 47.5).
 * A middle pairs one `above` side with one `below` side whose threshold is not lower.
 *
 * Money is expressed per 100 units wagered in total across both sides.
 */

import { Pmf, type PmfLike } from './pmf.js';

/** One side of a middle. */
export interface MiddleSide {
  kind: 'above' | 'below';
  /** Line on the home-margin or total scale (a multiple of 0.5 for analyzeMiddle). */
  threshold: number;
  /** Decimal odds > 1. */
  decimal: number;
}

/** Input of {@link analyzeMiddle}. */
export interface MiddleInput {
  above: MiddleSide;
  below: MiddleSide;
  /** Distribution of X (a Pmf, or a Map outcome -> probability summing to 1 within 1e-6). */
  pmf: PmfLike;
  /** Key numbers of the market (e.g. [3, 7, 10, 14] for NFL spreads). */
  keyNumbers: readonly number[];
  /** Compare |x| with the key numbers (default true: right for spreads, harmless for totals). */
  keyNumbersAbsolute?: boolean;
}

/** Result of {@link analyzeMiddle}. Money values are per 100 total wagered. */
export interface MiddleAnalysis {
  /** Integers strictly between the thresholds: both sides win. */
  middleNumbers: number[];
  /** below.threshold - above.threshold. */
  middleSize: number;
  /** P(both win) = sum of pmf over middleNumbers. */
  middleProbability: number;
  /** P(at least one side pushes) = P(X = above.threshold) + P(X = below.threshold) (integer lines only; once if equal). */
  pushProbability: number;
  /** E[profit] = sum over X of P(X) profit(X), over the whole pmf. */
  expectedValue: number;
  /** Same number as expectedValue, read as percent of the total wagered. */
  roiPercent: number;
  /** Lowest profit over all possible outcomes (exactly one side wins, or both push). Negative = loss. */
  worstCaseLoss: number;
  /** Profit when both win (if no integer lies inside the window: the best possible outcome). */
  bestCaseProfit: number;
  /** P(both win) in percent at which EV = 0 if every miss pays worstCaseLoss: -W/(B - W) * 100; 0 when W >= 0. */
  breakEvenPercent: number;
  /** worstCaseLoss >= 0: the pair can never lose (it is also an arbitrage or a zero-margin pair). */
  isGuaranteedProfit: boolean;
  /** worstCaseLoss when isGuaranteedProfit, else null. */
  guaranteedRoi: number | null;
  /** Key numbers (deduplicated, in the given order) that some middle number hits. */
  keyNumbers: number[];
  /** Sum of pmf over the middle numbers that hit a key number (signed middle numbers only). */
  keyNumberProbability: number;
  /** Percent of the total wagered on [above, below]; sums to 100. */
  stakePercent: [number, number];
  /** 1/d_above + 1/d_below as a fraction (e.g. 1.043). */
  marketOverround: number;
}

/**
 * Width of the middle window.
 * Formula: below.threshold - above.threshold. Positive means a window exists (for half-point
 * lines every integer inside wins both bets); 0 with equal integer lines means no middle
 * (both push on that number); negative means both sides can lose (not a middle).
 */
export function middleGap(sides: { above: { threshold: number }; below: { threshold: number } }): number {
  return sides.below.threshold - sides.above.threshold;
}

/** Largest window middleNumbers will enumerate (guards against absurd inputs). */
const MAX_MIDDLE_WIDTH = 100_000;

/**
 * Integers k with above < k < below (both bets win).
 * Formula: k = floor(above) + 1, ..., ceil(below) - 1.
 * Examples: (2.5, 7.5) -> [3, 4, 5, 6, 7]; (3, 7) -> [4, 5, 6]; (44.5, 47.5) -> [45, 46, 47];
 * (3, 3.5) -> []; below <= above -> [].
 * @throws RangeError for non-finite thresholds or a window wider than 100,000.
 */
export function middleNumbers(above: number, below: number): number[] {
  if (!Number.isFinite(above) || !Number.isFinite(below)) {
    throw new RangeError(`middleNumbers: thresholds must be finite (${above}, ${below})`);
  }
  const first = Math.floor(above) + 1;
  const last = Math.ceil(below) - 1;
  if (last - first > MAX_MIDDLE_WIDTH) throw new RangeError('middleNumbers: window too wide');
  const out: number[] = [];
  for (let k = first; k <= last; k++) out.push(k);
  return out;
}

/**
 * Key numbers that occur among `numbers`: every k in keyNumbers (deduplicated, original order)
 * such that some x in numbers has (absolute ? |x| : x) === k. For spreads (signed home margins)
 * keep absolute = true so that a window containing -3 reports key number 3.
 */
export function keyNumbersIn(numbers: readonly number[], keyNumbers: readonly number[], absolute = true): number[] {
  const out: number[] = [];
  for (const k of keyNumbers) {
    if (out.includes(k)) continue;
    for (const x of numbers) {
      if ((absolute ? Math.abs(x) : x) === k) {
        out.push(k);
        break;
      }
    }
  }
  return out;
}

function assertSide(side: MiddleSide, kind: 'above' | 'below'): void {
  if (side.kind !== kind) throw new RangeError(`analyzeMiddle: ${kind} side has kind '${side.kind}'`);
  if (!Number.isFinite(side.threshold) || !Number.isInteger(side.threshold * 2)) {
    throw new RangeError(`analyzeMiddle: threshold ${side.threshold} must be a multiple of 0.5 (quarter lines are not supported)`);
  }
  if (!Number.isFinite(side.decimal) || side.decimal <= 1) {
    throw new RangeError(`analyzeMiddle: decimal odds ${side.decimal} must be finite and > 1`);
  }
}

function toPmf(pmf: PmfLike): Pmf {
  if (pmf instanceof Pmf) return pmf;
  let total = 0;
  for (const v of pmf.values()) total += v;
  if (!(Math.abs(total - 1) <= 1e-6)) throw new RangeError(`analyzeMiddle: pmf sums to ${total}, not 1`);
  return Pmf.from(pmf);
}

/**
 * Prices a middle.
 *
 * Stakes (per 100 wagered): with S = 1/dA + 1/dB and P = 100/S, stake_A = P/dA and
 * stake_B = P/dB (stake_i proportional to 1/d_i), so a winning side always returns exactly P and
 * the result is the same whichever side wins alone.
 * Profit for an outcome X: (sum of returns) - 100, where a winning side returns P, a pushing side
 * returns its stake and a losing side returns 0. Hence exactly-one-wins = P - 100,
 * both win = 2P - 100, one wins + one pushes = P + stake - 100, both push = 0.
 * EV = sum_X P(X) profit(X). worstCaseLoss / bestCaseProfit are the min / max profit over the
 * outcomes that can occur for these lines (independent of the pmf). breakEvenPercent =
 * -W/(B - W) * 100 (equal to (S - 1) * 100 when a middle window exists).
 * keyNumberProbability counts P(x) only for the signed middle numbers x whose |x| (or x when
 * keyNumbersAbsolute = false) is a key number: e.g. window 3..7 with key 3 counts P(X = 3) but not
 * P(X = -3), which does not win both bets.
 * @throws RangeError for a side of the wrong kind, a threshold that is not a multiple of 0.5,
 *   decimal odds <= 1, a negative gap (both sides could lose: not a middle), or a Map pmf that
 *   does not sum to 1 within 1e-6.
 */
export function analyzeMiddle(input: MiddleInput): MiddleAnalysis {
  const { above, below } = input;
  assertSide(above, 'above');
  assertSide(below, 'below');
  const gap = middleGap(input);
  if (gap < 0) {
    throw new RangeError(`analyzeMiddle: below threshold ${below.threshold} is under above threshold ${above.threshold}`);
  }
  const pmf = toPmf(input.pmf);

  const tA = above.threshold;
  const tB = below.threshold;
  const overround = 1 / above.decimal + 1 / below.decimal;
  const payout = 100 / overround;
  const stakeA = payout / above.decimal;
  const stakeB = payout / below.decimal;

  const profit = (x: number): number => {
    const retA = x > tA ? payout : x === tA ? stakeA : 0;
    const retB = x < tB ? payout : x === tB ? stakeB : 0;
    const p = retA + retB - 100;
    // Both pushing returns exactly the stakes; do not let rounding turn "no loss" into -1e-14.
    return Math.abs(p) < 1e-9 ? 0 : p;
  };

  // Outcome classes that can occur: one integer below both lines, every integer from floor(tA)
  // to ceil(tB), and one integer above both lines.
  const lo = Math.floor(tA) - 1;
  const hi = Math.ceil(tB) + 1;
  let worst = Number.POSITIVE_INFINITY;
  let best = Number.NEGATIVE_INFINITY;
  for (let x = lo; x <= hi; x++) {
    const p = profit(x);
    if (p < worst) worst = p;
    if (p > best) best = p;
  }

  let ev = 0;
  pmf.forEach((x, p) => {
    if (p > 0) ev += p * profit(x);
  });

  const numbers = middleNumbers(tA, tB);
  let middleProbability = 0;
  for (const x of numbers) middleProbability += pmf.p(x);

  let pushProbability = 0;
  if (Number.isInteger(tA)) pushProbability += pmf.p(tA);
  if (Number.isInteger(tB) && tB !== tA) pushProbability += pmf.p(tB);

  const absolute = input.keyNumbersAbsolute ?? true;
  const keys = keyNumbersIn(numbers, input.keyNumbers, absolute);
  let keyNumberProbability = 0;
  for (const x of numbers) {
    if (keys.includes(absolute ? Math.abs(x) : x)) keyNumberProbability += pmf.p(x);
  }

  const guaranteed = worst >= 0;
  return {
    middleNumbers: numbers,
    middleSize: gap,
    middleProbability,
    pushProbability,
    expectedValue: ev,
    roiPercent: ev,
    worstCaseLoss: worst,
    bestCaseProfit: best,
    breakEvenPercent: guaranteed ? 0 : (-worst / (best - worst)) * 100,
    isGuaranteedProfit: guaranteed,
    guaranteedRoi: guaranteed ? worst : null,
    keyNumbers: keys,
    keyNumberProbability,
    stakePercent: [stakeA, stakeB],
    marketOverround: overround,
  };
}

/**
 * 0-100 quality scores shown next to +EV bets and middles. They are heuristics that rank
 * opportunities; they are not probabilities.
 */

/** Inputs of {@link evConfidenceScore}. */
export interface EvConfidenceInput {
  /** Number of books pricing this market (consensus depth). */
  bookCount: number;
  /** Width in cents of the sharp reference's two-way line (see marketWidth), null if unknown. */
  sharpMarketWidth: number | null;
  /** Hold of the sharp reference market in percent (overround * 100). */
  sharpHoldPercent: number;
  /** Age of the offered price in seconds (now - last update; time is an argument, never read here). */
  oddsAgeSeconds: number;
  /** In-play market. */
  isLive: boolean;
  /** Main line (false for alternate spreads/totals). */
  isMainLine: boolean;
  /** Number of sharp books the fair probability was derived from. */
  sharpRefCount: number;
  /** The bet's EV in percent. */
  evPercent: number;
}

function assertNonNegative(name: string, x: number): void {
  if (!Number.isFinite(x) || x < 0) throw new RangeError(`${name} must be finite and >= 0, got ${x}`);
}

function assertFinite(name: string, x: number): void {
  if (!Number.isFinite(x)) throw new RangeError(`${name} must be finite, got ${x}`);
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** Staleness penalty (points) for {@link evConfidenceScore}. */
function stalenessPenalty(age: number, live: boolean): number {
  if (live) return age <= 5 ? 0 : age <= 15 ? 10 : age <= 60 ? 25 : 40;
  return age <= 30 ? 0 : age <= 120 ? 5 : age <= 600 ? 15 : 30;
}

/**
 * Confidence (0-100, integer) that a +EV signal is real rather than an artefact of thin, wide,
 * stale or mis-referenced prices. Formula: clamp(100 - sum of penalties, 0, 100).
 *
 * | input             | condition                                  | penalty |
 * |-------------------|--------------------------------------------|---------|
 * | bookCount         | < 3 / 3-4 / 5-7 / >= 8                     | 25 / 15 / 5 / 0 |
 * | sharpMarketWidth  | null (unknown)                             | 10      |
 * |                   | <= 10 / <= 20 / <= 30 / > 30 cents         | 0 / 5 / 12 / 20 |
 * | sharpHoldPercent  | <= 3 / <= 5 / <= 8 / > 8                   | 0 / 5 / 10 / 20 |
 * | oddsAgeSeconds    | pre-match: <= 30 / <= 120 / <= 600 / more  | 0 / 5 / 15 / 30 |
 * |                   | live:      <= 5 / <= 15 / <= 60 / more     | 0 / 10 / 25 / 40 |
 * | isLive            | true                                       | 10      |
 * | isMainLine        | false (alternate line)                     | 10      |
 * | sharpRefCount     | 0 / 1 / >= 2                               | 30 / 10 / 0 |
 * | evPercent         | <= 10 / <= 15 / <= 25 / > 25 (too good)    | 0 / 15 / 30 / 50 |
 *
 * The score never increases when bookCount or sharpRefCount fall, or when width, hold, age or
 * evPercent (above 10) rise.
 * @throws RangeError for negative or non-finite counts/ages, or non-finite width/hold/EV.
 */
export function evConfidenceScore(input: EvConfidenceInput): number {
  assertNonNegative('bookCount', input.bookCount);
  assertNonNegative('sharpRefCount', input.sharpRefCount);
  assertNonNegative('oddsAgeSeconds', input.oddsAgeSeconds);
  assertFinite('sharpHoldPercent', input.sharpHoldPercent);
  assertFinite('evPercent', input.evPercent);
  if (input.sharpMarketWidth !== null) assertFinite('sharpMarketWidth', input.sharpMarketWidth);

  let penalty = 0;
  const books = input.bookCount;
  penalty += books < 3 ? 25 : books < 5 ? 15 : books < 8 ? 5 : 0;

  const width = input.sharpMarketWidth;
  penalty += width === null ? 10 : width <= 10 ? 0 : width <= 20 ? 5 : width <= 30 ? 12 : 20;

  const hold = input.sharpHoldPercent;
  penalty += hold <= 3 ? 0 : hold <= 5 ? 5 : hold <= 8 ? 10 : 20;

  penalty += stalenessPenalty(input.oddsAgeSeconds, input.isLive);
  if (input.isLive) penalty += 10;
  if (!input.isMainLine) penalty += 10;

  const refs = input.sharpRefCount;
  penalty += refs < 1 ? 30 : refs < 2 ? 10 : 0;

  const ev = input.evPercent;
  penalty += ev <= 10 ? 0 : ev <= 15 ? 15 : ev <= 25 ? 30 : 50;

  return Math.round(clamp(100 - penalty, 0, 100));
}

/** Inputs of {@link middleQualityScore} (fields as returned by analyzeMiddle, money per 100 wagered). */
export interface MiddleQualityInput {
  /** P(both sides win), 0-1. */
  middleProbability: number;
  /** Expected profit per 100 wagered. */
  expectedValue: number;
  /** Width of the middle window in points/goals. */
  middleSize: number;
  /** P(landing on a key number inside the window), 0-1. */
  keyNumberProbability: number;
  /** Profit when exactly one side wins (negative = loss) per 100 wagered. */
  worstCaseLoss: number;
  /** Age in seconds of the older of the two prices. */
  oddsAgeSeconds: number;
  /** In-play market. */
  isLive: boolean;
}

/** Freshness multiplier for {@link middleQualityScore}. */
function freshness(age: number, live: boolean): number {
  if (live) return age <= 5 ? 1 : age <= 15 ? 0.9 : age <= 60 ? 0.75 : 0.5;
  return age <= 30 ? 1 : age <= 120 ? 0.9 : age <= 600 ? 0.75 : 0.5;
}

/**
 * Quality (0-100, integer) of a middle. Weighted blend of components each clamped to [0, 1],
 * times a freshness multiplier:
 *
 * | component            | formula                              | weight |
 * |----------------------|--------------------------------------|--------|
 * | middleProbability    | min(1, middleProbability / 0.20)     | 40     |
 * | expectedValue        | clamp((expectedValue + 5) / 15, 0, 1) (-5 -> 0, +10 -> 1) | 25 |
 * | worstCaseLoss        | clamp(1 + worstCaseLoss / 10, 0, 1) (-10 -> 0, >= 0 -> 1) | 15 |
 * | keyNumberProbability | min(1, keyNumberProbability / 0.15)  | 10     |
 * | middleSize           | clamp(middleSize / 7, 0, 1)          | 10     |
 *
 * | oddsAgeSeconds | pre-match: <= 30 / <= 120 / <= 600 / more -> x1 / x0.9 / x0.75 / x0.5 |
 * |                | live:      <= 5 / <= 15 / <= 60 / more    -> x1 / x0.9 / x0.75 / x0.5 |
 * | isLive         | x0.85 |
 *
 * score = round(clamp(sum(weight * component) * multipliers, 0, 100)). Every component is
 * non-decreasing in its input and the multipliers are positive, so the score never decreases
 * when middleProbability or expectedValue increases with everything else fixed.
 * @throws RangeError for probabilities outside [0, 1], a negative age or non-finite values.
 */
export function middleQualityScore(input: MiddleQualityInput): number {
  const { middleProbability, expectedValue, middleSize, keyNumberProbability, worstCaseLoss, oddsAgeSeconds, isLive } = input;
  if (!(middleProbability >= 0 && middleProbability <= 1)) {
    throw new RangeError(`middleProbability must be in [0, 1], got ${middleProbability}`);
  }
  if (!(keyNumberProbability >= 0 && keyNumberProbability <= 1)) {
    throw new RangeError(`keyNumberProbability must be in [0, 1], got ${keyNumberProbability}`);
  }
  assertFinite('expectedValue', expectedValue);
  assertFinite('middleSize', middleSize);
  assertFinite('worstCaseLoss', worstCaseLoss);
  assertNonNegative('oddsAgeSeconds', oddsAgeSeconds);

  const raw =
    40 * Math.min(1, middleProbability / 0.2) +
    25 * clamp((expectedValue + 5) / 15, 0, 1) +
    15 * clamp(1 + worstCaseLoss / 10, 0, 1) +
    10 * Math.min(1, keyNumberProbability / 0.15) +
    10 * clamp(middleSize / 7, 0, 1);
  const multiplier = freshness(oddsAgeSeconds, isLive) * (isLive ? 0.85 : 1);
  return Math.round(clamp(raw * multiplier, 0, 100));
}

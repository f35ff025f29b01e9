import { probabilityToAmerican, roundAmerican } from './odds.js';

/**
 * Expected value of a 1-unit bet, in percent of stake.
 * Formula: EV% = (p * d - 1) * 100, with p the fair (no-vig) probability and d the offered
 * decimal odds. E.g. p = 0.5, d = 2.1 -> (1.05 - 1) * 100 = +5%.
 * @throws RangeError unless 0 < p < 1 and d is finite and > 1.
 */
export function evPercent(fairProbability: number, decimal: number): number {
  if (!Number.isFinite(fairProbability) || fairProbability <= 0 || fairProbability >= 1) {
    throw new RangeError(`evPercent: fair probability ${fairProbability} is not in (0, 1)`);
  }
  if (!Number.isFinite(decimal) || decimal <= 1) {
    throw new RangeError(`evPercent: decimal odds ${decimal} must be finite and > 1`);
  }
  return (fairProbability * decimal - 1) * 100;
}

/**
 * Fair ("no-vig") American odds for a fair probability, as an integer.
 * Formula: roundAmerican(p > 0.5 ? -100 p/(1 - p) : 100 (1 - p)/p); even money is +100.
 * @throws RangeError unless 0 < p < 1.
 */
export function fairAmerican(fairProbability: number): number {
  return roundAmerican(probabilityToAmerican(fairProbability));
}

/** Distance of one American price from even money in cents: a < 0 ? |a| - 100 : 100 - a. */
function centsFromEven(a: number): number {
  if (!Number.isFinite(a) || Math.abs(a) < 100) {
    throw new RangeError(`marketWidth: invalid American odds ${a}`);
  }
  return a < 0 ? -a - 100 : 100 - a;
}

/**
 * Width of a two-way line in "cents".
 * Formula: width = c(a1) + c(a2) with c(a) = |a| - 100 for a favourite (a < 0) and 100 - a for
 * an underdog (a > 0). Equivalently: both negative -> |a1| + |a2| - 200; favourite/underdog ->
 * |favourite| - underdog; both positive -> 200 - a1 - a2.
 * Examples: -110/-110 -> 20; -115/+105 -> 10; -140/+120 -> 20; +100/-100 -> 0.
 * The result is signed: a negative width (e.g. +105/+105 -> -10) means the two prices together
 * beat even money (a negative-hold / arbitrage pair). Symmetric in its arguments.
 * @throws RangeError for invalid American odds.
 */
export function marketWidth(americanA: number, americanB: number): number {
  return centsFromEven(americanA) + centsFromEven(americanB);
}

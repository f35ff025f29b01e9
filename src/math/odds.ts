/**
 * Odds-format conversions.
 *
 * Conventions used throughout `src/math`:
 * - American odds `a` are valid when finite and |a| >= 100. +100 and -100 are the same price
 *   (even money, decimal 2.0); rounded output always uses +100 for even money.
 * - Decimal odds `d` are valid when finite and d > 1 (the stake is included in the return).
 * - Implied probability is `1 / d` and must lie strictly inside (0, 1).
 * - All conversions are unrounded unless the name says otherwise (`roundAmerican`, `roundTo`,
 *   `normalizePrice`).
 */

function assertAmerican(a: number): void {
  if (!Number.isFinite(a) || Math.abs(a) < 100) {
    throw new RangeError(`Invalid American odds: ${a} (must be finite with |a| >= 100)`);
  }
}

function assertDecimal(d: number): void {
  if (!Number.isFinite(d) || d <= 1) {
    throw new RangeError(`Invalid decimal odds: ${d} (must be finite and > 1)`);
  }
}

function assertProbability(p: number): void {
  if (!Number.isFinite(p) || p <= 0 || p >= 1) {
    throw new RangeError(`Invalid probability: ${p} (must satisfy 0 < p < 1)`);
  }
}

/**
 * American to decimal odds.
 * Formula: a > 0 ? 1 + a/100 : 1 + 100/|a|.
 * @throws RangeError when a is non-finite or |a| < 100.
 */
export function americanToDecimal(a: number): number {
  assertAmerican(a);
  return a > 0 ? 1 + a / 100 : 1 - 100 / a;
}

/**
 * Decimal to (unrounded) American odds.
 * Formula: d >= 2 ? (d - 1) * 100 : -100 / (d - 1).
 * @throws RangeError when d is non-finite or d <= 1.
 */
export function decimalToAmerican(d: number): number {
  assertDecimal(d);
  return d >= 2 ? (d - 1) * 100 : -100 / (d - 1);
}

/**
 * Rounds an American price to the nearest integer, half away from zero
 * (r = sign(a) * round(|a|)), and never returns a value in (-100, 100):
 * any result with |r| <= 100 (i.e. -100, +100, or a value that would fall inside the gap) is
 * mapped to +100, the canonical form of even money (decimal 2.0).
 * @throws RangeError when a is not finite.
 */
export function roundAmerican(a: number): number {
  if (!Number.isFinite(a)) throw new RangeError(`Invalid American odds: ${a}`);
  const r = Math.round(Math.abs(a));
  if (r <= 100) return 100;
  return a < 0 ? -r : r;
}

/**
 * Decimal odds to implied probability. Formula: p = 1/d.
 * @throws RangeError when d is non-finite or d <= 1.
 */
export function decimalToProbability(d: number): number {
  assertDecimal(d);
  return 1 / d;
}

/**
 * Probability to (fair) decimal odds. Formula: d = 1/p.
 * @throws RangeError unless 0 < p < 1.
 */
export function probabilityToDecimal(p: number): number {
  assertProbability(p);
  return 1 / p;
}

/**
 * American odds to implied probability.
 * Formula: a > 0 ? 100/(a + 100) : |a|/(|a| + 100).
 * @throws RangeError when a is non-finite or |a| < 100.
 */
export function americanToProbability(a: number): number {
  assertAmerican(a);
  return a > 0 ? 100 / (a + 100) : -a / (100 - a);
}

/**
 * Probability to (unrounded) American odds.
 * Formula: p > 0.5 ? -100 p/(1 - p) : 100 (1 - p)/p  (p = 0.5 gives +100).
 * @throws RangeError unless 0 < p < 1.
 */
export function probabilityToAmerican(p: number): number {
  assertProbability(p);
  return p > 0.5 ? (-100 * p) / (1 - p) : (100 * (1 - p)) / p;
}

/**
 * Prediction-market binary contract price (dollars paying $1, 0 < price < 1) to decimal odds.
 * Formula: d = 1/price (fees are not modelled).
 * @throws RangeError unless 0 < price < 1.
 */
export function contractPriceToDecimal(price: number): number {
  if (!Number.isFinite(price) || price <= 0 || price >= 1) {
    throw new RangeError(`Invalid contract price: ${price} (must satisfy 0 < price < 1)`);
  }
  return 1 / price;
}

/**
 * Prediction-market contract price to (unrounded) American odds.
 * Formula: decimalToAmerican(1/price).
 * @throws RangeError unless 0 < price < 1.
 */
export function contractPriceToAmerican(price: number): number {
  return decimalToAmerican(contractPriceToDecimal(price));
}

/**
 * Rounds x to `dp` decimal places, half away from zero, correcting the binary representation
 * error of decimal halves (roundTo(1.005, 2) === 1.01, roundTo(-2.5, 0) === -3).
 * Formula: sign(x) * round(|x| * 10^dp) / 10^dp, where a product within 4 ulps below a half is
 * treated as the half. Allocation-free. Never returns -0.
 * @throws RangeError for non-finite x or dp not an integer in [0, 15].
 */
export function roundTo(x: number, dp: number): number {
  if (!Number.isFinite(x)) throw new RangeError(`roundTo: non-finite value ${x}`);
  if (!Number.isInteger(dp) || dp < 0 || dp > 15) {
    throw new RangeError(`roundTo: dp must be an integer in [0, 15], got ${dp}`);
  }
  const f = 10 ** dp;
  const y = Math.abs(x) * f;
  if (y >= 2 ** 52) return x; // already an integer multiple at this precision
  let r = Math.round(y);
  if (r < y && r + 0.5 - y <= 4 * Number.EPSILON * y) r += 1;
  const out = r / f;
  if (out === 0) return 0;
  return x < 0 ? -out : out;
}

/** Input of {@link normalizePrice}: exactly one field must be present (not undefined). */
export interface PriceInput {
  american?: number;
  decimal?: number;
  probability?: number;
  contract_price?: number;
}

/** Output of {@link normalizePrice}. */
export interface NormalizedPrice {
  /** Integer American odds (roundAmerican; even money is +100). */
  american: number;
  /** Decimal odds rounded to 4 decimal places. */
  decimal: number;
  /** Implied probability (1/decimal, computed before rounding) rounded to 6 decimal places. */
  probability: number;
}

/**
 * Converts one price given in any supported format to all three display formats.
 * Every output is computed from the exact (unrounded) decimal price d:
 *   american = roundAmerican(decimalToAmerican(d)) (for american input: roundAmerican(a)),
 *   decimal = roundTo(d, 4),
 *   probability = roundTo(1/d, 6) (for probability / contract_price input: roundTo(p, 6)).
 * contract_price is treated as a probability (d = 1/price).
 * Consistency guarantee: |americanToDecimal(result.american) - result.decimal| <= 0.0051
 * (integer rounding of American moves the decimal by at most 0.005, the 4-dp rounding by 0.00005).
 * @throws RangeError if zero or several fields are given, the value is invalid for its format,
 *   or the price cannot be represented at the output precision (decimal rounding to <= 1, i.e.
 *   d < 1.00005, or probability rounding to 0 or 1).
 */
export function normalizePrice(input: PriceInput): NormalizedPrice {
  let given = 0;
  if (input.american !== undefined) given++;
  if (input.decimal !== undefined) given++;
  if (input.probability !== undefined) given++;
  if (input.contract_price !== undefined) given++;
  if (given !== 1) {
    throw new RangeError(`normalizePrice: exactly one price field is required, got ${given}`);
  }

  let d: number;
  let p: number;
  let american: number;
  if (input.american !== undefined) {
    d = americanToDecimal(input.american);
    p = americanToProbability(input.american);
    american = roundAmerican(input.american);
  } else if (input.decimal !== undefined) {
    d = input.decimal;
    p = decimalToProbability(d);
    american = roundAmerican(decimalToAmerican(d));
  } else if (input.probability !== undefined) {
    p = input.probability;
    d = probabilityToDecimal(p);
    american = roundAmerican(decimalToAmerican(d));
  } else {
    const price = input.contract_price ?? Number.NaN;
    d = contractPriceToDecimal(price);
    p = price;
    american = roundAmerican(decimalToAmerican(d));
  }

  const decimal = roundTo(d, 4);
  const probability = roundTo(p, 6);
  if (decimal <= 1 || probability <= 0 || probability >= 1) {
    throw new RangeError(`normalizePrice: price ${d} cannot be represented at output precision`);
  }
  return { american, decimal, probability };
}

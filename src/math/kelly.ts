/**
 * Kelly criterion stake as a fraction of bankroll.
 * Formula: f* = max(0, (p * d - 1) / (d - 1)) * fraction, where p is the (fair) win probability,
 * d the decimal odds and `fraction` the Kelly multiplier (1 = full Kelly, 0.25 = quarter Kelly).
 * With 0 < p < 1 and 0 <= fraction <= 1 the result lies in [0, 1): (p d - 1) <= (d - 1) since p < 1.
 * Negative-edge bets return 0 (never bet, never a negative stake).
 * @throws RangeError unless 0 < p < 1, d is finite and > 1, and 0 <= fraction <= 1.
 */
export function kellyFraction(probability: number, decimal: number, fraction = 1): number {
  if (!Number.isFinite(probability) || probability <= 0 || probability >= 1) {
    throw new RangeError(`kellyFraction: probability ${probability} is not in (0, 1)`);
  }
  if (!Number.isFinite(decimal) || decimal <= 1) {
    throw new RangeError(`kellyFraction: decimal odds ${decimal} must be finite and > 1`);
  }
  if (!Number.isFinite(fraction) || fraction < 0 || fraction > 1) {
    throw new RangeError(`kellyFraction: fraction ${fraction} is not in [0, 1]`);
  }
  const full = (probability * decimal - 1) / (decimal - 1);
  return full > 0 ? full * fraction : 0;
}

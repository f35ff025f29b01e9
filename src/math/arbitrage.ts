/**
 * Arbitrage ("sure bet") maths across the legs of one complete market (each leg possibly at a
 * different book). Legs are decimal odds d_i > 1, n >= 2 (two-way, three-way, n-way).
 * All outputs are unrounded; callers round for display.
 */

/** Result of {@link analyzeArbitrage}. */
export interface ArbitrageAnalysis {
  /** Sum of implied probabilities in percent: sum(100 / d_i). */
  impliedTotal: number;
  /** Guaranteed return on total stake in percent: (1 / sum(1/d_i) - 1) * 100 = 10000/impliedTotal - 100. */
  profitPercent: number;
  /** Percent of total stake per leg: (1/d_i) / sum(1/d_j) * 100; sums to 100. */
  stakes: number[];
  /**
   * True when sum(1/d_i) < 1 by more than ARBITRAGE_MIN_MARGIN, i.e. impliedTotal is below 100 once rounded to
   * the 4 decimals it is shown with.
   */
  isArbitrage: boolean;
}

/** Result of {@link stakeAmounts}. */
export interface StakeAmounts {
  /** Stake per leg: totalStake * (1/d_i) / sum(1/d_j). */
  stakes: number[];
  /** Identical return whichever leg wins: stakes[i] * d_i = totalStake / sum(1/d_j). */
  payout: number;
  /** payout - totalStake (negative when there is no arbitrage). */
  profit: number;
}

/**
 * How far below 1 the sum of inverses must be for an arbitrage: half of the smallest implied_total step shown
 * (0.0001 percent). Prices whose inverses add up to exactly 1 (1.04 and 26, 1.08 and 13.5) sum to 1 - 1e-16 in
 * floating point: that is rounding, not a sure bet, and it would be shown as implied_total 100, profit 0.
 */
export const ARBITRAGE_MIN_MARGIN = 5e-7;

function inverseSum(decimals: readonly number[]): number {
  const n = decimals.length;
  if (n < 2) throw new RangeError(`arbitrage needs at least 2 legs, got ${n}`);
  let s = 0;
  for (let i = 0; i < n; i++) {
    const d = decimals[i] as number;
    if (!Number.isFinite(d) || d <= 1) {
      throw new RangeError(`arbitrage: decimal odds ${d} at leg ${i} must be finite and > 1`);
    }
    s += 1 / d;
  }
  return s;
}

/**
 * Analyses the best available price on every outcome of one market.
 * With S = sum(1/d_i):
 *   impliedTotal = 100 S (percent), profitPercent = (1/S - 1) * 100 = 10000/impliedTotal - 100,
 *   stakes[i] = (1/d_i)/S * 100 (percent of total stake), isArbitrage = S < 1 - ARBITRAGE_MIN_MARGIN.
 * Staking stakes[i] percent on each leg returns 100/S percent of the total stake whichever leg wins.
 * @throws RangeError for fewer than 2 legs or any decimal that is non-finite or <= 1.
 */
export function analyzeArbitrage(decimals: readonly number[]): ArbitrageAnalysis {
  const s = inverseSum(decimals);
  const n = decimals.length;
  const stakes = new Array<number>(n);
  for (let i = 0; i < n; i++) stakes[i] = 100 / (decimals[i] as number) / s;
  return { impliedTotal: 100 * s, profitPercent: (1 / s - 1) * 100, stakes, isArbitrage: s < 1 - ARBITRAGE_MIN_MARGIN };
}

/**
 * Splits `totalStake` across the legs so every outcome returns the same payout.
 * Formula: payout = totalStake / S, stakes[i] = payout / d_i (so stakes sum to totalStake and
 * stakes[i] * d_i = payout for every i), profit = payout - totalStake.
 * @throws RangeError for invalid legs (see {@link analyzeArbitrage}) or a totalStake that is not
 *   finite and > 0.
 */
export function stakeAmounts(decimals: readonly number[], totalStake: number): StakeAmounts {
  if (!Number.isFinite(totalStake) || totalStake <= 0) {
    throw new RangeError(`stakeAmounts: total stake ${totalStake} must be finite and > 0`);
  }
  const s = inverseSum(decimals);
  const payout = totalStake / s;
  const n = decimals.length;
  const stakes = new Array<number>(n);
  for (let i = 0; i < n; i++) stakes[i] = payout / (decimals[i] as number);
  return { stakes, payout, profit: payout - totalStake };
}

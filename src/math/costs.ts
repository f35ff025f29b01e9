/**
 * What an arbitrage keeps after the venues' costs (pure functions). Two kinds of cost, per book:
 *
 * - `commission`: a fraction of the net winnings of a winning bet (exchanges: Betfair 5%, ...);
 * - `fee_rate`: a prediction market's trading fee, paid when a contract is bought, of
 *   `fee_rate x contracts x P x (1 - P)` (P = the contract price, 1 / decimal): Kalshi's published formula,
 *   with rate 0.07. A stake s buys s / P contracts, so the fee is `fee_rate x s x (1 - P)`.
 */
export interface VenueCost {
  commission: number;
  feeRate: number;
}

export const NO_COST: VenueCost = { commission: 0, feeRate: 0 };

export interface CostLeg {
  decimal: number;
  /** The leg's share of the total stake (0-1; the legs sum to 1). */
  stake: number;
  cost: VenueCost;
}

/**
 * The arbitrage's profit in percent of the total stake after costs, in the worst case over which leg wins:
 * the winning leg returns `stake x decimal`, less its commission on `stake x (decimal - 1)`; every leg's
 * trading fee is paid whatever happens.
 */
export function netProfitPercent(legs: readonly CostLeg[]): number {
  let fees = 0;
  for (const l of legs) fees += l.cost.feeRate * l.stake * (1 - 1 / l.decimal);
  let worst = Number.POSITIVE_INFINITY;
  for (const l of legs) {
    const ret = l.stake * l.decimal - l.cost.commission * l.stake * (l.decimal - 1);
    worst = Math.min(worst, ret - 1 - fees);
  }
  return worst * 100;
}

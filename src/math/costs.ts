/**
 * What a bet keeps after the venue's costs (pure functions). Two kinds of cost, per venue:
 *
 * - `commission`: a fraction of the net winnings of a winning bet (exchanges);
 * - `feeRate`: a prediction market's trading fee, paid when a contract is bought, of
 *   `feeRate x contracts x P x (1 - P)` (P = the contract price, 1 / decimal): Kalshi's general trading fee formula
 *   (config/costs.json gives its source). A stake s buys s / P contracts, so the fee is `feeRate x s x (1 - P)`.
 *
 * Every net figure is per unit of **outlay**: what leaves the bettor's account, stakes plus fees. A leg's net decimal
 * is what one unit of outlay returns when it wins:
 * `(1 + (decimal - 1) x (1 - commission)) / (1 + feeRate x (1 - 1 / decimal))`.
 */
export interface VenueCost {
  commission: number;
  feeRate: number;
}

export const NO_COST: VenueCost = { commission: 0, feeRate: 0 };

/** What one unit of outlay (stake plus the trading fee) returns when the bet wins, after the commission on its winnings. */
export function netDecimal(decimal: number, cost: VenueCost): number {
  const ret = 1 + (decimal - 1) * (1 - cost.commission);
  return ret / (1 + cost.feeRate * (1 - 1 / decimal));
}

/** EV per unit of outlay, in percent, after the venue's costs: `fair x netDecimal - 1`. */
export function netEvPercent(fairProbability: number, decimal: number, cost: VenueCost): number {
  return (fairProbability * netDecimal(decimal, cost) - 1) * 100;
}

/** One leg of an arbitrage: its price and its venue's costs. */
export interface CostLeg {
  decimal: number;
  cost: VenueCost;
}

/** An arbitrage after costs: the outlay split that pays the same whichever leg wins, and what it keeps. */
export interface NetArbitrage {
  /** Each leg's share of the total outlay (stake plus its fee), in percent; they sum to 100. */
  stakePercent: number[];
  /** The profit in percent of the total outlay, whichever leg wins: `100 / sum(1 / netDecimal) - 100`. */
  profitPercent: number;
}

/**
 * The arbitrage rebalanced on net decimals: each leg's outlay is proportional to `1 / netDecimal`, so every
 * outcome returns the same `1 / sum(1 / netDecimal)` per unit of total outlay (fees included in the base).
 */
export function netArbitrage(legs: readonly CostLeg[]): NetArbitrage {
  const inv = legs.map((l) => 1 / netDecimal(l.decimal, l.cost));
  const total = inv.reduce((s, x) => s + x, 0);
  return { stakePercent: inv.map((x) => (x / total) * 100), profitPercent: (1 / total - 1) * 100 };
}

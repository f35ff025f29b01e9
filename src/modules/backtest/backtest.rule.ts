import { DEVIG_METHODS, type DevigMethod, type Staking } from '../../math/index.js';

/**
 * A betting rule a backtest applies to every +EV price the detector finds: take it when its EV (devigged with
 * `devig`) reaches `minEv` percent at an allowed book, at most one bet per market, staked flat or by a Kelly
 * fraction with a cap, at the detected price or, with a delay, at the price in force at that book after it.
 */
export interface BacktestRule {
  /** Minimum EV at detection, percent of stake. */
  minEv: number;
  devig: DevigMethod;
  /** Books whose prices may be bet (null: every book). The sharp reference book is never bet against itself. */
  books: string[] | null;
  staking: Staking;
  /** Reaction time: the bet is placed this many seconds after detection, at the price then in force (none if gone). */
  delaySeconds: number;
  /** Starting bankroll in units (Kelly stakes are fractions of the running bankroll). */
  bankroll: number;
}

export const DEFAULT_RULE: BacktestRule = {
  minEv: 2,
  devig: 'power',
  books: null,
  staking: { kind: 'flat', units: 1 },
  delaySeconds: 0,
  bankroll: 1000,
};

/** Default cap on a Kelly stake: 5% of the bankroll. */
export const DEFAULT_KELLY_CAP = 0.05;

/** Most simulated days one backtest replays. */
export const MAX_SIMULATED_DAYS = 60;

/** What is wrong with a rule, or null when it is usable. */
export function ruleProblem(rule: BacktestRule): string | null {
  if (!Number.isFinite(rule.minEv) || rule.minEv < 0 || rule.minEv > 100) return 'min_ev must be a number from 0 to 100 (percent)';
  if (!DEVIG_METHODS.includes(rule.devig)) return `devig must be one of ${DEVIG_METHODS.join(', ')}`;
  if (rule.books !== null && (!rule.books.length || rule.books.some((b) => !/^[a-z0-9_]{1,64}$/.test(b))))
    return 'books must be a non-empty list of book ids (lower-case letters, digits, underscores)';
  if (rule.staking.kind === 'flat' && !(rule.staking.units > 0 && rule.staking.units <= 1e6))
    return 'flat stake must be > 0 and <= 1000000 units';
  if (rule.staking.kind === 'kelly') {
    if (!(rule.staking.fraction > 0 && rule.staking.fraction <= 1)) return 'kelly fraction must be > 0 and <= 1';
    if (!(rule.staking.cap > 0 && rule.staking.cap <= 1)) return 'cap must be > 0 and <= 1 (a fraction of the bankroll)';
  }
  if (!Number.isFinite(rule.delaySeconds) || rule.delaySeconds < 0 || rule.delaySeconds > 3600)
    return 'delay must be from 0 to 3600 seconds';
  if (!(rule.bankroll > 0 && rule.bankroll <= 1e9)) return 'bankroll must be > 0 and <= 1000000000 units';
  return null;
}

/**
 * Closing-line value and grading: plain functions, no framework, no clock.
 *
 * CLV% = (closing no-vig probability x entry decimal - 1) x 100 (as the public /historical/clv defines it): the expected
 * return of the bet taken at detection, valued at the sharp reference's devigged closing line.
 */

import { devig, type DevigMethod } from '../../math/index.js';

/** CLV in percent of the stake, rounded to 4 decimals (null when either input is unusable). */
export function clvPercent(closingFairProbability: number, entryDecimal: number): number | null {
  if (!(closingFairProbability > 0 && closingFairProbability < 1) || !(entryDecimal > 1)) return null;
  return Math.round((closingFairProbability * entryDecimal - 1) * 100 * 10_000) / 10_000;
}

/**
 * The no-vig closing probability of one outcome: the reference book's closing decimals of the complete
 * market (every outcome, in one order) devigged with `method`; `index` picks the outcome. Null when the
 * market is incomplete or not overround-free-able (decimals <= 1).
 */
export function closingFairProbability(closingDecimals: readonly number[], index: number, method: DevigMethod): number | null {
  if (closingDecimals.length < 2 || index < 0 || index >= closingDecimals.length) return null;
  if (closingDecimals.some((d) => !(d > 1))) return null;
  let fair: number[];
  try {
    fair = devig(
      closingDecimals.map((d) => 1 / d),
      method,
    );
  } catch {
    return null; // the closing market is itself an arbitrage: nothing to devig
  }
  const p = fair[index];
  return p !== undefined && Number.isFinite(p) ? p : null;
}

export type BetResult = 'win' | 'loss' | 'push';

/** What a bet needs to be graded: its market, side and line, as the odds row had them. */
export interface GradableBet {
  marketType: string;
  period: string;
  selectionType: string;
  line: number | null;
  playerName?: string | null;
}

/** The final result of a game as a source reports it (game_state at the end). */
export interface FinalScore {
  sport: string;
  homeScore: number;
  awayScore: number;
  /** Tennis: games per set, home and away (totals and game handicaps are in games). */
  setsHome?: number[];
  setsAway?: number[];
  /** A fight (MMA, boxing): who won, when the score does not say. */
  winner?: 'home' | 'away' | 'draw';
}

const SPREADS = new Set(['point_spread', 'asian_handicap', 'puck_line', 'run_line']);
const TOTALS = new Set(['total_points', 'total_goals', 'total_runs', 'total_games']);

function byLine(diff: number): BetResult {
  return diff > 0 ? 'win' : diff < 0 ? 'loss' : 'push';
}

/**
 * Grades a full-game bet on the final score: moneyline (two-way and three-way with draw), spreads (the
 * selection's own handicap: a home -3.5 wins when home margin - 3.5 > 0) and totals (over/under). Tennis
 * spreads and totals are in games (the sum of the set scores). Returns null for what the final score cannot
 * settle: player props, periods other than the full game, quarter (Asian) lines, or missing data.
 */
export function gradeBet(bet: GradableBet, score: FinalScore): BetResult | null {
  if (bet.period !== 'game' || bet.playerName) return null;
  const tennisGames =
    score.sport === 'tennis' && score.setsHome && score.setsAway
      ? { home: score.setsHome.reduce((s, x) => s + x, 0), away: score.setsAway.reduce((s, x) => s + x, 0) }
      : null;
  if (bet.marketType === 'moneyline') {
    let margin = score.homeScore - score.awayScore;
    if (score.winner) margin = score.winner === 'home' ? 1 : score.winner === 'away' ? -1 : 0;
    switch (bet.selectionType) {
      case 'home':
        return margin > 0 ? 'win' : margin < 0 ? 'loss' : score.sport === 'soccer' ? 'loss' : 'push';
      case 'away':
        return margin < 0 ? 'win' : margin > 0 ? 'loss' : score.sport === 'soccer' ? 'loss' : 'push';
      case 'draw':
        return margin === 0 ? 'win' : 'loss';
      default:
        return null;
    }
  }
  if (bet.line === null || !Number.isFinite(bet.line)) return null;
  // Quarter lines (-0.25, -0.75) split the stake over two lines: not graded as one result.
  if (Math.abs((bet.line * 4) % 2) === 1) return null;
  if (SPREADS.has(bet.marketType)) {
    const useGames = score.sport === 'tennis';
    if (useGames && !tennisGames) return null;
    const margin = useGames ? tennisGames!.home - tennisGames!.away : score.homeScore - score.awayScore;
    if (bet.selectionType === 'home') return byLine(margin + bet.line);
    if (bet.selectionType === 'away') return byLine(-margin + bet.line);
    return null;
  }
  if (TOTALS.has(bet.marketType)) {
    const useGames = score.sport === 'tennis';
    if (useGames && !tennisGames) return null;
    const total = useGames ? tennisGames!.home + tennisGames!.away : score.homeScore + score.awayScore;
    if (bet.selectionType === 'over') return byLine(total - bet.line);
    if (bet.selectionType === 'under') return byLine(bet.line - total);
    return null;
  }
  return null;
}

/** The final score a game_state object reports, or null when it has no numeric score. */
export function finalScoreOf(sport: string, state: Record<string, unknown> | null | undefined): FinalScore | null {
  if (!state) return null;
  const h = state.home_score;
  const a = state.away_score;
  if (typeof h !== 'number' || typeof a !== 'number' || !Number.isFinite(h) || !Number.isFinite(a)) return null;
  const out: FinalScore = { sport, homeScore: h, awayScore: a };
  const nums = (v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === 'number') ? (v as number[]) : undefined);
  const sh = nums(state.sets_home);
  const sa = nums(state.sets_away);
  if (sh && sa) {
    out.setsHome = sh;
    out.setsAway = sa;
  }
  if (state.winner === 'home' || state.winner === 'away' || state.winner === 'draw') out.winner = state.winner;
  return out;
}

/** Summary of a group of recorded predictions (one of the `groups` of /historical/clv). */
export interface ClvGroupStats {
  total_predictions: number;
  total_graded: number;
  wins: number;
  losses: number;
  pushes: number;
  /** wins / (wins + losses), 4 decimals; null without a decided bet. */
  win_rate: number | null;
  /** Mean CLV% over the predictions whose CLV is known; null when none. */
  avg_clv_percent: number | null;
  /** Predictions with a known CLV, and how many of them beat the close (CLV > 0). */
  clv_count: number;
  beat_close: number;
  /** Mean EV% at detection. */
  avg_ev_percent: number | null;
  /** Flat 1-unit stakes on the graded bets: profit in units and per bet staked (ROI %). */
  units: number;
  roi_percent: number | null;
}

export interface PredictionOutcome {
  entryDecimal: number;
  evPercent: number;
  clvPercent: number | null;
  result: BetResult | null;
}

const round = (v: number, dp: number) => Math.round(v * 10 ** dp) / 10 ** dp;

/** Aggregates predictions: counts, win rate, mean CLV and EV, flat-stake profit. */
export function summarise(items: readonly PredictionOutcome[]): ClvGroupStats {
  let wins = 0;
  let losses = 0;
  let pushes = 0;
  let clvSum = 0;
  let clvCount = 0;
  let beat = 0;
  let evSum = 0;
  let units = 0;
  for (const p of items) {
    evSum += p.evPercent;
    if (p.clvPercent !== null) {
      clvSum += p.clvPercent;
      clvCount++;
      if (p.clvPercent > 0) beat++;
    }
    if (p.result === 'win') {
      wins++;
      units += p.entryDecimal - 1;
    } else if (p.result === 'loss') {
      losses++;
      units -= 1;
    } else if (p.result === 'push') pushes++;
  }
  const graded = wins + losses + pushes;
  return {
    total_predictions: items.length,
    total_graded: graded,
    wins,
    losses,
    pushes,
    win_rate: wins + losses ? round(wins / (wins + losses), 4) : null,
    avg_clv_percent: clvCount ? round(clvSum / clvCount, 4) : null,
    clv_count: clvCount,
    beat_close: beat,
    avg_ev_percent: items.length ? round(evSum / items.length, 4) : null,
    units: round(units, 4),
    roi_percent: graded ? round((units / graded) * 100, 4) : null,
  };
}

/** A closing price of the reference book, as the closing line stored it. */
export interface ClosingPrice {
  group_key: string;
  selection_type: string;
  odds_decimal: number;
}

/**
 * The no-vig closing probability of a recorded bet: the reference book's closing prices on the bet's market
 * group (one per outcome) devigged by `method`. Null when the reference closed fewer outcomes of the group
 * than it quoted at detection (`outcomeCount`), or not the bet's side.
 */
export function closingProbabilityFor(
  bet: { groupKey: string; selectionType: string; outcomeCount: number },
  closing: readonly ClosingPrice[],
  method: DevigMethod,
): number | null {
  const byOutcome = new Map<string, number>();
  for (const c of closing)
    if (c.group_key === bet.groupKey && !byOutcome.has(c.selection_type)) byOutcome.set(c.selection_type, c.odds_decimal);
  if (byOutcome.size < Math.max(2, bet.outcomeCount) || !byOutcome.has(bet.selectionType)) return null;
  const outcomes = [...byOutcome.keys()];
  return closingFairProbability(
    outcomes.map((o) => byOutcome.get(o)!),
    outcomes.indexOf(bet.selectionType),
    method,
  );
}

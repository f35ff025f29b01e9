/**
 * Closing-line value and grading: plain functions, no framework, no clock.
 *
 * CLV% = (closing no-vig probability x entry decimal - 1) x 100 (as the public /historical/clv defines it): the expected
 * return of the bet taken at detection, valued at the sharp reference's devigged closing line.
 */

import { netDecimal, type VenueCost } from '../../math/costs.js';
import { devig, fitLineProbability, type DevigMethod, type LineKind } from '../../math/index.js';

/** CLV in percent of the stake, rounded to 4 decimals (null when either input is unusable). */
export function clvPercent(closingFairProbability: number, entryDecimal: number): number | null {
  if (!(closingFairProbability > 0 && closingFairProbability < 1) || !(entryDecimal > 1)) return null;
  return Math.round((closingFairProbability * entryDecimal - 1) * 100 * 10_000) / 10_000;
}

/**
 * CLV after the venue's costs, in percent of the outlay (stake plus fee), 4 decimals: the closing no-vig probability
 * times the entry's net decimal (costs.ts), minus 1. Equal to clvPercent where the venue charges nothing; null when
 * either input is unusable or the venue's cost is unknown.
 */
export function netClvPercent(closingFairProbability: number, entryDecimal: number, cost: VenueCost | null): number | null {
  if (cost === null || clvPercent(closingFairProbability, entryDecimal) === null) return null;
  return Math.round((closingFairProbability * netDecimal(entryDecimal, cost) - 1) * 100 * 10_000) / 10_000;
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
  /** Predictions that count (void ones are left out of every figure but `void_count`). */
  total_predictions: number;
  /** Predictions of games postponed or cancelled: void, in no other figure. */
  void_count: number;
  total_graded: number;
  wins: number;
  losses: number;
  pushes: number;
  /** wins / (wins + losses), 4 decimals; null without a decided bet. */
  win_rate: number | null;
  /** Mean CLV% over the predictions whose CLV is known; null when none. */
  avg_clv_percent: number | null;
  /** Mean CLV% after the venues' costs, over the predictions whose CLV and venue cost are known; null when none. */
  avg_net_clv_percent: number | null;
  /** Predictions with a known CLV and a known venue cost (the base of avg_net_clv_percent). */
  net_clv_count: number;
  /** Predictions with a known CLV, and how many of them beat the close (CLV > 0). */
  clv_count: number;
  /** Of `clv_count`: valued at the close of the bet's own line, or at a line the score model fitted to another closing line. */
  clv_same_line: number;
  clv_fitted: number;
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
  /** CLV after the venue's costs (netClvPercent); null or absent when unknown. */
  netClvPercent?: number | null;
  clvMethod?: ClvMethod | null;
  result: BetResult | null;
  /** Set when the game was postponed or cancelled: the prediction is void. */
  voidReason?: string | null;
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
  let voided = 0;
  let fitted = 0;
  let netSum = 0;
  let netCount = 0;
  for (const p of items) {
    if (p.voidReason) {
      voided++;
      continue;
    }
    evSum += p.evPercent;
    if (p.clvPercent !== null) {
      clvSum += p.clvPercent;
      clvCount++;
      if (p.clvPercent > 0) beat++;
      if (p.clvMethod === 'fitted_distribution') fitted++;
      if (p.netClvPercent !== undefined && p.netClvPercent !== null) {
        netSum += p.netClvPercent;
        netCount++;
      }
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
  const counted = items.length - voided;
  return {
    total_predictions: counted,
    void_count: voided,
    total_graded: graded,
    wins,
    losses,
    pushes,
    win_rate: wins + losses ? round(wins / (wins + losses), 4) : null,
    avg_clv_percent: clvCount ? round(clvSum / clvCount, 4) : null,
    avg_net_clv_percent: netCount ? round(netSum / netCount, 4) : null,
    net_clv_count: netCount,
    clv_count: clvCount,
    clv_same_line: clvCount - fitted,
    clv_fitted: fitted,
    beat_close: beat,
    avg_ev_percent: counted ? round(evSum / counted, 4) : null,
    units: round(units, 4),
    roi_percent: graded ? round((units / graded) * 100, 4) : null,
  };
}

/** A closing price of the reference book, as the closing line stored it. */
export interface ClosingPrice {
  group_key: string;
  selection_type: string;
  odds_decimal: number;
  market_type?: string;
  period?: string;
  line?: number | null;
  player_name?: string | null;
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

/** How a closing probability was found: the close of the bet's own line, or the score model fitted to another line. */
export type ClvMethod = 'same_line' | 'fitted_distribution';

export interface ClosingValue {
  probability: number;
  method: ClvMethod;
  /** The closing line the probability comes from (home-side line for spreads; the bet's own line for same_line). */
  referenceLine: number | null;
}

/** What valuing a bet at the close needs: its market group and side, its line, sport and market. */
export interface ClosableBet {
  groupKey: string;
  selectionType: string;
  outcomeCount: number;
  sport: string;
  marketType: string;
  period: string;
  line: number | null;
  playerName?: string | null;
}

const FIT_SPREADS = new Set(['point_spread', 'puck_line', 'run_line']);

/** The parts of a group key: event | market | period | subject | line. */
function groupParts(key: string): { ladder: string; eventId: string; market: string; period: string; line: number | null } | null {
  const cut = key.lastIndexOf('|');
  if (cut < 0) return null;
  const ladder = key.slice(0, cut);
  const parts = ladder.split('|');
  const tail = key.slice(cut + 1);
  const line = tail === '' ? null : Number(tail);
  if (parts.length < 4 || (line !== null && !Number.isFinite(line))) return null;
  return { ladder, eventId: parts[0]!, market: parts[1]!, period: parts[2]!, line };
}

/** The no-vig probability of the home side (spreads) or the over (totals) of each two-way closing group, by group key. */
function twoWayGroups(closing: readonly ClosingPrice[], method: DevigMethod): Map<string, { line: number; p: number; market: string }> {
  const sides = new Map<string, Map<string, number>>();
  for (const c of closing) {
    let m = sides.get(c.group_key);
    if (!m) sides.set(c.group_key, (m = new Map()));
    if (!m.has(c.selection_type)) m.set(c.selection_type, c.odds_decimal);
  }
  const out = new Map<string, { line: number; p: number; market: string }>();
  for (const [key, m] of sides) {
    const g = groupParts(key);
    if (!g || g.line === null || m.size !== 2) continue;
    const first = m.has('home') ? 'home' : m.has('over') ? 'over' : null;
    const second = first === 'home' ? 'away' : 'under';
    if (!first || !m.has(second)) continue;
    const p = closingFairProbability([m.get(first)!, m.get(second)!], 0, method);
    if (p !== null) out.set(key, { line: g.line, p, market: g.market });
  }
  return out;
}

/**
 * The no-vig closing probability of a recorded bet, and how it was found. The close of the bet's own line
 * (`same_line`, {@link closingProbabilityFor}) when the reference book closed it; otherwise, for a full-game spread
 * or total with a half or whole line, `fitted_distribution`: the sport's score model located on the reference
 * book's closing line of the same ladder nearest the bet's (an alternate when it closed one, else the main line),
 * then read at the bet's line ({@link fitLineProbability}); a spread of hockey, baseball, soccer and the generic
 * model takes the expected total from the reference book's closing total nearest 50/50. Null when neither works.
 */
export function closingValueFor(bet: ClosableBet, closing: readonly ClosingPrice[], method: DevigMethod): ClosingValue | null {
  const same = closingProbabilityFor(bet, closing, method);
  if (same !== null) return { probability: same, method: 'same_line', referenceLine: bet.line };
  const kind: LineKind | null = FIT_SPREADS.has(bet.marketType) ? 'spread' : TOTALS.has(bet.marketType) ? 'total' : null;
  if (!kind || bet.period !== 'game' || bet.playerName || bet.line === null || !Number.isFinite(bet.line)) return null;
  if (!Number.isInteger(bet.line * 2)) return null; // quarter lines split the stake over two lines
  const sideFirst = kind === 'spread' ? bet.selectionType === 'home' : bet.selectionType === 'over';
  const sideSecond = kind === 'spread' ? bet.selectionType === 'away' : bet.selectionType === 'under';
  if (!sideFirst && !sideSecond) return null;
  const own = groupParts(bet.groupKey);
  if (!own) return null;
  const toLine = kind === 'spread' && sideSecond ? -bet.line : bet.line;
  const groups = twoWayGroups(closing, method);
  let ref: { line: number; p: number } | undefined;
  for (const [key, g] of groups) {
    if (!key.startsWith(`${own.ladder}|`) || key.slice(own.ladder.length + 1).includes('|')) continue;
    const d = Math.abs(g.line - toLine);
    const best = ref ? Math.abs(ref.line - toLine) : Infinity;
    if (d < best || (d === best && ref && Math.abs(g.p - 0.5) < Math.abs(ref.p - 0.5))) ref = g;
  }
  if (!ref) return null;
  let expectedTotal: number | undefined;
  if (kind === 'spread') {
    let nearest: { line: number; p: number } | undefined;
    for (const [key, g] of groups) {
      const parts = groupParts(key);
      if (!parts || parts.eventId !== own.eventId || parts.period !== own.period || !TOTALS.has(g.market)) continue;
      if (parts.ladder.split('|')[3] !== '') continue; // a team total or a player's total is not the game's
      if (!nearest || Math.abs(g.p - 0.5) < Math.abs(nearest.p - 0.5)) nearest = g;
    }
    expectedTotal = nearest?.line;
  }
  const p = fitLineProbability({ sport: bet.sport, kind, fromLine: ref.line, fromProbability: ref.p, toLine, expectedTotal });
  if (p === null) return null;
  return { probability: sideFirst ? p : 1 - p, method: 'fitted_distribution', referenceLine: ref.line };
}

/** A mean with its 95% confidence interval (normal approximation: mean +- 1.96 sd / sqrt(n); null below 2 values). */
export interface MeanInterval {
  mean: number;
  low: number;
  high: number;
}

/** Mean and 95% interval of a sample (sample sd, n - 1); null for an empty sample, no interval for a single value. */
export function meanInterval(xs: readonly number[]): MeanInterval | null {
  const n = xs.length;
  if (!n) return null;
  const mean = xs.reduce((s, x) => s + x, 0) / n;
  if (n < 2) return { mean, low: Number.NaN, high: Number.NaN };
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
  const half = (1.96 * sd) / Math.sqrt(n);
  return { mean, low: mean - half, high: mean + half };
}

/** EV at detection against CLV on the same bets: each with its interval, and the paired difference CLV - EV. */
export interface LikeForLike {
  /** Bets with both figures (void ones left out). */
  n: number;
  ev: MeanInterval | null;
  clv: MeanInterval | null;
  /** Mean of CLV - EV per bet: below 0 when the close valued the bets less than detection did. */
  clvMinusEv: MeanInterval | null;
}

/** Compares EV and CLV over the bets that have both (a CLV known, not void): like with like. */
export function likeForLike(items: ReadonlyArray<Pick<PredictionOutcome, 'evPercent' | 'clvPercent' | 'voidReason'>>): LikeForLike {
  const both = items.filter((p): p is typeof p & { clvPercent: number } => p.clvPercent !== null && !p.voidReason);
  return {
    n: both.length,
    ev: meanInterval(both.map((p) => p.evPercent)),
    clv: meanInterval(both.map((p) => p.clvPercent)),
    clvMinusEv: meanInterval(both.map((p) => p.clvPercent - p.evPercent)),
  };
}

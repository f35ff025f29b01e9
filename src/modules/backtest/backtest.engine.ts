/**
 * The backtest engine: replays a window (simulated days, an imported file) through the service's own ingestion
 * pipeline, board and +EV detector, applies a rule, grades the bets at the results and reports.
 */

import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import { betProfit, maxDrawdown, meanOf, roiInterval, stakeFor, type BetOutcome } from '../../math/index.js';
import { OddsBoard } from '../board/odds-board.js';
import { closingFairProbability, clvPercent, finalScoreOf, gradeBet } from '../clv/clv.math.js';
import type { DetectContext } from '../detection/group-info.js';
import { groupInfo } from '../detection/group-info.js';
import { detectEv } from '../ev/ev.detector.js';
import { IngestionPipeline } from '../ingestion/pipeline.js';
import type { BacktestRule } from './backtest.rule.js';
import type { ReplaySource } from './replay-source.js';

/** Markets the final score grades (full game; quarter lines and props are not bet). */
const GRADABLE = new Set(['moneyline', 'point_spread', 'total_points', 'run_line', 'puck_line', 'total_runs', 'total_goals']);

export interface BacktestBet {
  n: number;
  event_id: string;
  event: string;
  league: string;
  start_time: string;
  market: string;
  selection: string;
  line: number | null;
  book: string;
  sharp_book: string;
  detected_at: string;
  placed_at: string;
  decimal_detected: number;
  decimal_taken: number;
  fair_probability: number;
  ev_percent: number;
  ev_taken_percent: number;
  /** The source's own probability of the selection when the bet was placed (simulated days only). */
  true_probability: number | null;
  true_edge_percent: number | null;
  stake: number;
  outcome: BetOutcome;
  profit: number;
  clv_percent: number | null;
  settled_at: string | null;
  bankroll_after: number | null;
}

export interface BacktestSummary {
  detections: number;
  bets: number;
  /** Detections whose price was gone (or had gone in-play) after the delay: no bet. */
  missed: number;
  won: number;
  lost: number;
  push: number;
  void: number;
  turnover: number;
  profit: number;
  roi_percent: number | null;
  roi_ci95_percent: [number, number] | null;
  roi_standard_error_percent: number | null;
  avg_ev_percent: number | null;
  avg_ev_taken_percent: number | null;
  avg_clv_percent: number | null;
  clv_bets: number;
  start_bankroll: number;
  end_bankroll: number;
  max_drawdown: number;
  max_drawdown_percent: number;
}

/**
 * The proof on simulated days: over the decided bets (won or lost; a push has no edge to realise) whose true
 * probability is known, the realised ROI and its 95% interval against the stake-weighted true edge (the ROI the
 * simulator's own probabilities predict).
 */
export interface TruthCheck {
  bets: number;
  roi_percent: number | null;
  roi_ci95_percent: [number, number] | null;
  expected_roi_percent: number | null;
  avg_true_edge_percent: number | null;
  within_ci: boolean | null;
}

export interface BacktestReport {
  source: { kind: string; description: string; from: string; to: string; results: boolean };
  rule: BacktestRule;
  summary: BacktestSummary;
  truth: TruthCheck | null;
  bankroll: Array<{ at: string; bankroll: number }>;
  notes: string[];
  bets: BacktestBet[];
}

export interface Progress {
  /** Fraction of the window replayed, 0..1. */
  done: number;
  now: number;
  bets: number;
}

interface OpenBet {
  bet: BacktestBet;
  row: OddsRow;
  outcomeIndex: number;
  /** The sharp reference's last pregame decimals of the market (outcome order): its closing line. */
  closing: number[] | null;
}

interface Pending {
  dueAt: number;
  rowId: string;
  detectedRow: OddsRow;
  event: BoardEvent;
  fair: number;
  ev: number;
  sharpBook: string;
  detectedAt: number;
  outcomeIndex: number;
}

const iso = (t: number): string => new Date(t).toISOString();
const round = (x: number, d = 4): number => Math.round(x * 10 ** d) / 10 ** d;

/**
 * Replays `source` and applies `rule`. `onProgress` is called now and then (every `yieldEvery` ticks the loop
 * also yields to the event loop, so a server stays responsive while a job runs).
 */
export async function runBacktest(
  source: ReplaySource,
  rule: BacktestRule,
  opts: { onProgress?: (p: Progress) => void; yieldEvery?: number; signal?: AbortSignal } = {},
): Promise<BacktestReport> {
  const catalog = source.catalog;
  const board = new OddsBoard();
  const pipeline = new IngestionPipeline(catalog, board);
  const allowed = rule.books ? new Set(rule.books) : null;
  const taken = new Set<string>();
  const open = new Map<string, OpenBet[]>(); // by group key
  const openByEvent = new Map<string, OpenBet[]>();
  const pending: Pending[] = [];
  const bets: BacktestBet[] = [];
  const curve: Array<{ at: number; bankroll: number }> = [{ at: source.from, bankroll: rule.bankroll }];
  let bankroll = rule.bankroll;
  let detections = 0;
  let missed = 0;
  const span = Math.max(1, source.to - source.from);
  const yieldEvery = opts.yieldEvery ?? 200;
  let i = 0;

  const place = (p: Pending, row: OddsRow, now: number): void => {
    const stake = stakeFor(rule.staking, bankroll, p.fair, row.decimal);
    if (!(stake > 0)) return;
    const truth = source.truth?.(row, p.event) ?? null;
    const bet: BacktestBet = {
      n: bets.length + 1,
      event_id: p.event.id,
      event: `${p.event.awayTeam} @ ${p.event.homeTeam}`,
      league: p.event.league,
      start_time: iso(p.event.startTime),
      market: row.marketType,
      selection: row.selectionType,
      line: row.line,
      book: row.sportsbook,
      sharp_book: p.sharpBook,
      detected_at: iso(p.detectedAt),
      placed_at: iso(now),
      decimal_detected: p.detectedRow.decimal,
      decimal_taken: row.decimal,
      fair_probability: round(p.fair, 6),
      ev_percent: round(p.ev * 100),
      ev_taken_percent: round((p.fair * row.decimal - 1) * 100),
      true_probability: truth === null ? null : round(truth, 6),
      true_edge_percent: truth === null ? null : round((truth * row.decimal - 1) * 100),
      stake: round(stake, 6),
      outcome: 'void',
      profit: 0,
      clv_percent: null,
      settled_at: null,
      bankroll_after: null,
    };
    bets.push(bet);
    const ob: OpenBet = { bet, row, outcomeIndex: p.outcomeIndex, closing: null };
    const list = open.get(row.groupKey) ?? [];
    list.push(ob);
    open.set(row.groupKey, list);
    const evList = openByEvent.get(p.event.id) ?? [];
    evList.push(ob);
    openByEvent.set(p.event.id, evList);
  };

  const settle = (ob: OpenBet, outcome: BetOutcome, now: number): void => {
    const b = ob.bet;
    b.outcome = outcome;
    b.profit = round(betProfit(outcome, b.stake, b.decimal_taken), 6);
    b.settled_at = iso(now);
    if (ob.closing) {
      const p = closingFairProbability(ob.closing, ob.outcomeIndex, rule.devig);
      b.clv_percent = p === null ? null : clvPercent(p, b.decimal_taken);
    }
    bankroll += b.profit;
    b.bankroll_after = round(bankroll, 6);
    curve.push({ at: now, bankroll });
    const g = open.get(ob.row.groupKey);
    if (g) {
      const rest = g.filter((x) => x !== ob);
      if (rest.length) open.set(ob.row.groupKey, rest);
      else open.delete(ob.row.groupKey);
    }
  };

  for (const tick of source.ticks()) {
    if (opts.signal?.aborted) throw new Error('backtest cancelled');
    const now = tick.now;
    const cs = pipeline.process(tick.batch, now).changeSet;
    board.applyChangeSet(cs);
    const ctx: DetectContext = { board, catalog, now, memo: new Map() };

    // Delayed bets due now: the price in force at that book, if it is still there (and still pregame).
    for (let k = pending.length - 1; k >= 0; k--) {
      const p = pending[k]!;
      if (p.dueAt > now) continue;
      pending.splice(k, 1);
      const row = board.rows.get(p.rowId);
      const ev = board.events.get(p.event.id);
      if (!row || !row.isActive || row.isLive || !ev || ev.status !== 'upcoming' || ev.startTime <= now) {
        missed++;
        continue;
      }
      place(p, row, now);
    }

    const groups = new Set<string>();
    for (const r of cs.upserted) groups.add(r.groupKey);
    for (const g of groups) {
      // The closing line: the sharp reference's last complete pregame market of each open bet's group.
      const obs = open.get(g);
      if (obs) {
        const info = groupInfo(ctx, g);
        for (const ob of obs) {
          const ev = board.events.get(ob.row.eventId);
          if (!info || !ev || ev.status !== 'upcoming' || ev.startTime <= now) continue;
          const legs = info.byBook.complete(ob.bet.sharp_book);
          if (legs && !legs.some((l) => l.isLive)) ob.closing = legs.map((l) => l.decimal);
        }
      }
      if (now > source.betUntil) continue;
      for (const rec of detectEv(ctx, g)) {
        const row = rec.row;
        const event = board.events.get(row.eventId);
        if (!event || event.status !== 'upcoming' || event.startTime <= now || event.startTime > source.startsBy || row.isLive) continue;
        if (!GRADABLE.has(row.marketType) || row.period !== 'game' || row.playerName) continue;
        if (row.line !== null && Math.abs((row.line * 4) % 2) === 1) continue;
        if (allowed && !allowed.has(row.sportsbook)) continue;
        const fair = rec.fair[rule.devig];
        if (!(fair > 0 && fair < 1)) continue;
        const ev = fair * row.decimal - 1;
        if (ev * 100 < rule.minEv) continue;
        if (taken.has(row.ladderKey)) continue;
        taken.add(row.ladderKey);
        detections++;
        const info = groupInfo(ctx, g);
        const p: Pending = {
          dueAt: now + rule.delaySeconds * 1000,
          rowId: row.id,
          detectedRow: row,
          event,
          fair,
          ev,
          sharpBook: rec.sharpBook,
          detectedAt: now,
          outcomeIndex: info ? info.outcomes.indexOf(row.selectionType) : -1,
        };
        if (rule.delaySeconds > 0) pending.push(p);
        else place(p, row, now);
      }
    }

    // Results: a game that ended settles its bets at the final score.
    for (const e of cs.events) {
      if (e.status !== 'ended') continue;
      const obs = openByEvent.get(e.id);
      if (!obs) continue;
      openByEvent.delete(e.id);
      const score = finalScoreOf(e.sport, e.gameState);
      for (const ob of obs) {
        const g = score ? gradeBet(ob.row, score) : null;
        settle(ob, g === 'win' ? 'won' : g === 'loss' ? 'lost' : g === 'push' ? 'push' : 'void', now);
      }
    }

    if (++i % yieldEvery === 0) {
      opts.onProgress?.({ done: Math.min(1, (now - source.from) / span), now, bets: bets.length });
      await new Promise((r) => setImmediate(r));
    }
  }
  // Bets the window never saw end: void (no result), stake back.
  let unsettled = 0;
  for (const obs of openByEvent.values())
    for (const ob of obs) {
      unsettled++;
      settle(ob, 'void', source.to);
    }
  missed += pending.length;
  opts.onProgress?.({ done: 1, now: source.to, bets: bets.length });
  return report(source, rule, bets, curve, detections, missed, unsettled);
}

function report(
  source: ReplaySource,
  rule: BacktestRule,
  bets: BacktestBet[],
  curve: Array<{ at: number; bankroll: number }>,
  detections: number,
  missed: number,
  unsettled: number,
): BacktestReport {
  const graded = bets.filter((b) => b.outcome !== 'void');
  const count = (o: BetOutcome) => bets.filter((b) => b.outcome === o).length;
  const roi = roiInterval(
    graded.map((b) => ({ stake: b.stake, profit: b.profit, decimal: b.decimal_taken, probability: b.fair_probability })),
  );
  const turnover = graded.reduce((s, b) => s + b.stake, 0);
  const profit = graded.reduce((s, b) => s + b.profit, 0);
  const dd = maxDrawdown(curve.map((c) => c.bankroll));
  const pct = (x: number | null): number | null => (x === null ? null : round(x * 100));
  const clvs = bets.map((b) => b.clv_percent);
  const summary: BacktestSummary = {
    detections,
    bets: bets.length,
    missed,
    won: count('won'),
    lost: count('lost'),
    push: count('push'),
    void: count('void'),
    turnover: round(turnover),
    profit: round(profit),
    roi_percent: pct(roi.roi),
    roi_ci95_percent: roi.low === null || roi.high === null ? null : [round(roi.low * 100), round(roi.high * 100)],
    roi_standard_error_percent: pct(roi.standardError),
    avg_ev_percent: nullableRound(meanOf(bets.map((b) => b.ev_percent))),
    avg_ev_taken_percent: nullableRound(meanOf(bets.map((b) => b.ev_taken_percent))),
    avg_clv_percent: nullableRound(meanOf(clvs)),
    clv_bets: clvs.filter((c) => c !== null).length,
    start_bankroll: rule.bankroll,
    end_bankroll: round(curve[curve.length - 1]!.bankroll),
    max_drawdown: round(dd.amount),
    max_drawdown_percent: round(dd.fraction * 100),
  };
  const notes: string[] = [];
  if (!source.hasResults)
    notes.push('The window carries no results: every bet is void (ungraded); ROI, profit and drawdown are not measured.');
  if (unsettled) notes.push(`${unsettled} bet(s) on games that had not ended by the end of the window: void.`);
  if (missed) notes.push(`${missed} detection(s) had no price left after the ${rule.delaySeconds} s delay: no bet.`);
  return {
    source: { kind: source.kind, description: source.describe(), from: iso(source.from), to: iso(source.to), results: source.hasResults },
    rule,
    summary,
    truth: source.truth ? truthCheck(bets) : null,
    bankroll: curve.map((c) => ({ at: iso(c.at), bankroll: round(c.bankroll) })),
    notes,
    bets,
  };
}

function nullableRound(x: number | null): number | null {
  return x === null ? null : round(x);
}

function truthCheck(bets: BacktestBet[]): TruthCheck {
  const decided = bets.filter((b) => (b.outcome === 'won' || b.outcome === 'lost') && b.true_edge_percent !== null);
  const roi = roiInterval(
    decided.map((b) => ({ stake: b.stake, profit: b.profit, decimal: b.decimal_taken, probability: b.true_probability })),
  );
  const turnover = decided.reduce((s, b) => s + b.stake, 0);
  const expected = turnover > 0 ? decided.reduce((s, b) => s + b.stake * b.true_edge_percent!, 0) / turnover : null;
  const ci: [number, number] | null = roi.low === null || roi.high === null ? null : [round(roi.low * 100), round(roi.high * 100)];
  return {
    bets: decided.length,
    roi_percent: roi.roi === null ? null : round(roi.roi * 100),
    roi_ci95_percent: ci,
    expected_roi_percent: nullableRound(expected),
    avg_true_edge_percent: nullableRound(meanOf(decided.map((b) => b.true_edge_percent))),
    within_ci: ci && expected !== null ? expected >= ci[0] && expected <= ci[1] : null,
  };
}

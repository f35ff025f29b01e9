import type { Catalog } from '../../../config/catalog.js';
import { shortHash } from '../../../domain/normalise.js';
import { isQuarterLine } from '../../../domain/normalise.js';
import type { OddsRow } from '../../../domain/odds-row.js';
import {
  analyzeArbitrage,
  analyzeMiddle,
  DEVIG_METHODS,
  devig,
  discretisedNormal,
  marginPmf,
  marketWidth,
  middleQualityScore,
  poissonPmf,
  totalPmf,
  type DevigMethod,
  type Pmf,
} from '../../../math/index.js';
import type { OddsBoard } from '../../board/odds-board.js';
import { checkMarkets, consensusGap, pricesByBook, type ConsensusGap, type MarketCheck } from './guards.js';
import { ageSeconds, bestPerOutcome, isHandicap, outcomesOf, type BookFilter } from './market-groups.js';
import type { ArbitrageRecord, EvRecord, Guards, LowHoldRecord, MiddleRecord, MiddleSideRecord } from './records.js';

/** Opportunities above this profit are data errors, not arbitrages (spec rule 1). */
export const ARB_PROFIT_CAP = 10;
/** Markets whose best prices hold at most this percent are low-hold. */
export const LOW_HOLD_MAX = 5;
/** Middles with an expected value below this (dollars per 100 staked) are not worth listing. */
export const MIDDLE_MIN_EV = -2.5;
/** Sharp reference books for devigging, in order of preference. */
export const SHARP_REFERENCE_BOOKS = ['pinnacle', 'circa', 'bookmaker'] as const;
/** Key numbers of spread markets by sport (spec part 2). */
export const KEY_NUMBERS: Record<string, number[]> = { football: [3, 7, 10, 14], hockey: [1], baseball: [1], soccer: [1] };
/** Typical game totals, for middles on events with no totals market of their own. */
const DEFAULT_TOTAL: Record<string, number> = {
  nba: 226, ncaab: 145, wnba: 165, euroleague: 160, nfl: 45, ncaaf: 54, nhl: 6, mlb: 8.5, atp: 22, wta: 21,
};
const SPORT_TOTAL: Record<string, number> = { basketball: 220, football: 45, hockey: 6, soccer: 2.6, baseball: 8.5, tennis: 22 };

export interface DetectContext {
  board: OddsBoard;
  catalog: Catalog;
  now: number;
  /** Group lookups shared by the detectors during one evaluation (a group is read once, not once per detector). */
  memo?: Map<string, GroupInfo | null>;
  /**
   * Let flagged venue markets (guards.ts: a self-arbitrage or an excessive hold) into detection, their
   * opportunities carrying the flag. Off (the default lists): a flagged market's prices are not used at all.
   */
  includeFlagged?: boolean;
}

export interface GroupInfo {
  rows: OddsRow[];
  first: OddsRow;
  outcomes: readonly string[];
  /** Each book's best active price per outcome. */
  byBook: Map<string, Map<string, OddsRow>>;
  /** The venues whose own market in this group is flagged, by book. */
  flags: Map<string, MarketCheck>;
}

/** The rows and outcome set of a market group, or null when the group is empty or not a closed market. */
export function groupInfo(ctx: DetectContext, groupKey: string): GroupInfo | null {
  if (ctx.memo?.has(groupKey)) return ctx.memo.get(groupKey)!;
  const info = readGroup(ctx, groupKey);
  ctx.memo?.set(groupKey, info);
  return info;
}

function readGroup(ctx: DetectContext, groupKey: string): GroupInfo | null {
  const rows = ctx.board.group(groupKey);
  const first = rows[0];
  if (!first) return null;
  if (first.groupLine !== null && isQuarterLine(first.groupLine) && first.marketType !== 'asian_handicap') return null;
  const outcomes = outcomesOf(ctx.catalog, first.marketType, first.sport);
  if (!outcomes) return null;
  const byBook = pricesByBook(rows, outcomes);
  return { rows, first, outcomes, byBook, flags: checkMarkets(byBook, outcomes, (id) => ctx.catalog.book(id)) };
}

/** The books of a group detection may use: those in scope and, unless flagged markets are let in, not flagged. */
function usable(ctx: DetectContext, g: GroupInfo, inScope: BookFilter): BookFilter {
  return ctx.includeFlagged || !g.flags.size ? inScope : (b) => inScope(b) && !g.flags.has(b);
}

/** The guards' findings on prices of one group: flagged venues among them, and prices far from the consensus. */
function guardsOf(g: GroupInfo, rows: readonly OddsRow[]): Guards {
  const flagged: MarketCheck[] = [];
  const offConsensus: ConsensusGap[] = [];
  for (const r of rows) {
    const f = g.flags.get(r.sportsbook);
    if (f && !flagged.includes(f)) flagged.push(f);
    const gap = consensusGap(r, g.byBook, (b) => g.flags.has(b));
    if (gap) offConsensus.push(gap);
  }
  return { flagged, offConsensus };
}

/** The flag of a row's own venue market, when its group is a closed market and the venue's market is flagged. */
function flagOf(ctx: DetectContext, r: OddsRow): MarketCheck | undefined {
  return groupInfo(ctx, r.groupKey)?.flags.get(r.sportsbook);
}

function isAlternate(board: OddsBoard, r: OddsRow): boolean {
  if (r.groupLine === null) return false;
  const main = board.mainLine(r.ladderKey);
  return main !== null && main !== r.groupLine;
}

export function arbitrageId(groupKey: string, legs: readonly OddsRow[]): string {
  return shortHash(['arb', groupKey, ...legs.map((l) => `${l.selectionType}:${l.sportsbook}`)]);
}

/**
 * The implied total (sum of 1/decimal) of a group's best prices among all books, or null when an outcome has
 * no active price. A narrower set of books never has better prices, so this bounds every scope from below:
 * at or above 1 no scope holds an arbitrage, above 1 + LOW_HOLD_MAX% no scope is low-hold.
 */
export function impliedTotalAllBooks(ctx: DetectContext, groupKey: string): number | null {
  const g = groupInfo(ctx, groupKey);
  if (!g) return null;
  const best = bestPerOutcome(g.rows, g.outcomes, () => true);
  return best ? best.legs.reduce((s, l) => s + 1 / l.decimal, 0) : null;
}

/** The arbitrage of a group among the books in scope: the best price of every outcome summing below 100%. */
export function detectArbitrage(ctx: DetectContext, groupKey: string, inScope: BookFilter): ArbitrageRecord | null {
  const g = groupInfo(ctx, groupKey);
  if (!g) return null;
  const best = bestPerOutcome(g.rows, g.outcomes, usable(ctx, g, inScope));
  if (!best) return null;
  const a = analyzeArbitrage(best.legs.map((l) => l.decimal));
  if (!a.isArbitrage || a.profitPercent <= 0 || a.profitPercent > ARB_PROFIT_CAP) return null;
  return {
    kind: 'arbitrage',
    id: arbitrageId(groupKey, best.legs),
    source: groupKey,
    eventId: g.first.eventId,
    marketType: g.first.marketType,
    detectedAt: ctx.now,
    updatedAt: ctx.now,
    legs: best.legs.map((row, i) => ({ row, impliedProbability: 1 / row.decimal, stakePercent: a.stakes[i]! })),
    line: g.first.groupLine,
    impliedTotal: a.impliedTotal,
    profitPercent: a.profitPercent,
    isAlternateLine: isAlternate(ctx.board, g.first),
    guards: guardsOf(g, best.legs),
  };
}

/** The hold of a group's best prices among the books in scope, when at most LOW_HOLD_MAX percent. */
export function detectLowHold(ctx: DetectContext, groupKey: string, inScope: BookFilter): LowHoldRecord | null {
  const g = groupInfo(ctx, groupKey);
  if (!g) return null;
  const best = bestPerOutcome(g.rows, g.outcomes, usable(ctx, g, inScope));
  if (!best) return null;
  const implied = best.legs.map((l) => 1 / l.decimal);
  const sum = implied.reduce((s, p) => s + p, 0);
  const hold = (sum - 1) * 100;
  if (hold > LOW_HOLD_MAX) return null;
  return {
    kind: 'low_hold',
    id: shortHash(['lh', groupKey]),
    source: groupKey,
    eventId: g.first.eventId,
    marketType: g.first.marketType,
    detectedAt: ctx.now,
    updatedAt: ctx.now,
    sides: best.legs.map((row, i) => ({ row, books: [...new Set(best.tied[i]!.map((t) => t.sportsbook))].sort(), fairProbability: implied[i]! / sum })),
    line: g.first.groupLine,
    holdPercent: hold,
    allBooks: [...best.books].sort(),
    isAlternateLine: isAlternate(ctx.board, g.first),
    guards: guardsOf(g, best.legs),
  };
}

/**
 * +EV prices of a group: the sharp reference book's complete market is devigged (every method), and every
 * other book's active price above the fair value by any method is an opportunity (one per book and side).
 * A flagged sharp market is never devigged (the next sharp book that quotes the whole market is used), and
 * flagged venues' prices are candidates only when flagged markets are let in.
 */
export function detectEv(ctx: DetectContext, groupKey: string, sharpBook?: string): EvRecord[] {
  const g = groupInfo(ctx, groupKey);
  if (!g) return [];
  let ref: { book: string; legs: OddsRow[] } | null = null;
  let sharpRefCount = 0;
  for (const book of SHARP_REFERENCE_BOOKS) {
    if (g.flags.has(book)) continue;
    const best = bestPerOutcome(g.rows, g.outcomes, (b) => b === book);
    if (!best) continue;
    sharpRefCount++;
    if (!ref && !sharpBook) ref = { book, legs: best.legs };
  }
  if (sharpBook) {
    const best = g.flags.has(sharpBook) ? null : bestPerOutcome(g.rows, g.outcomes, (b) => b === sharpBook);
    ref = best ? { book: sharpBook, legs: best.legs } : null;
  }
  if (!ref) return [];
  const implied = ref.legs.map((l) => 1 / l.decimal);
  const sum = implied.reduce((s, p) => s + p, 0);
  if (sum <= 1) return [];
  const fairBy = {} as Record<DevigMethod, number[]>;
  for (const m of DEVIG_METHODS) fairBy[m] = devig(implied, m);
  const width = ref.legs.length === 2 ? marketWidth(ref.legs[0]!.american, ref.legs[1]!.american) : null;
  const isMain = !isAlternate(ctx.board, g.first);
  const refGuards = guardsOf(g, ref.legs);
  const inScope = usable(ctx, g, () => true);
  const out: EvRecord[] = [];
  g.outcomes.forEach((outcome, i) => {
    const quoting = g.rows.filter((r) => r.isActive && r.selectionType === outcome && inScope(r.sportsbook));
    const bookCount = new Set(quoting.map((r) => r.sportsbook)).size;
    for (const r of quoting) {
      if (r.sportsbook === ref.book) continue;
      const fair = {} as Record<DevigMethod, number>;
      let bestEv = Number.NEGATIVE_INFINITY;
      for (const m of DEVIG_METHODS) {
        fair[m] = fairBy[m][i]!;
        bestEv = Math.max(bestEv, fair[m] * r.decimal - 1);
      }
      if (bestEv <= 0) continue;
      const own = guardsOf(g, [r]);
      out.push({
        kind: 'ev',
        id: shortHash(['ev', groupKey, outcome, r.sportsbook]),
        source: groupKey,
        eventId: r.eventId,
        marketType: r.marketType,
        detectedAt: ctx.now,
        updatedAt: ctx.now,
        row: r,
        line: r.line,
        sharpBook: ref.book,
        sharpRows: ref.legs,
        fair,
        bookCount,
        sharpRefCount,
        sharpHoldPercent: (sum - 1) * 100,
        marketWidth: width,
        isMainLine: isMain,
        guards: { flagged: own.flagged, offConsensus: [...own.offConsensus, ...refGuards.offConsensus] },
      });
    }
  });
  return out;
}

const pmfCache = new Map<string, Pmf>();

function cachedPmf(key: string, build: () => Pmf): Pmf | null {
  let p = pmfCache.get(key);
  if (!p) {
    try {
      p = build();
    } catch {
      return null;
    }
    if (pmfCache.size > 20_000) pmfCache.clear();
    pmfCache.set(key, p);
  }
  return p;
}

const half = (x: number) => Math.round(x * 2) / 2;

/** The outcome distribution a ladder's middles are priced on, from the consensus main lines. */
function ladderPmf(ctx: DetectContext, first: OddsRow): Pmf | null {
  const main = ctx.board.mainLine(first.ladderKey);
  if (main === null) return null;
  const e = ctx.board.events.get(first.eventId);
  const sport = first.sport;
  if (first.marketType.startsWith('player_') || first.marketType === 'team_total') {
    const mean = Math.max(0.25, main);
    return cachedPmf(`prop|${half(mean)}`, () => (mean < 15 ? poissonPmf(mean) : discretisedNormal(mean, Math.max(1, 0.3 * mean))));
  }
  const totalLadder = `${first.eventId}|total_points|${first.period}|`;
  const eventTotal = ctx.board.mainLine(totalLadder) ?? DEFAULT_TOTAL[e?.league ?? ''] ?? SPORT_TOTAL[sport];
  if (eventTotal === undefined) return null;
  if (isHandicap(first.marketType)) {
    // main is the home side's handicap: the home team is expected to win by -main.
    return cachedPmf(`m|${sport}|${half(-main)}|${half(eventTotal)}`, () => marginPmf(sport, -main, eventTotal));
  }
  return cachedPmf(`t|${sport}|${half(main)}`, () => totalPmf(sport, main));
}

function sideOf(r: OddsRow): { kind: 'above' | 'below'; threshold: number } | null {
  if (r.line === null || isQuarterLine(r.line)) return null;
  if (isHandicap(r.marketType)) {
    if (r.selectionType === 'home') return { kind: 'above', threshold: -r.line };
    if (r.selectionType === 'away') return { kind: 'below', threshold: r.line };
    return null;
  }
  if (r.selectionType === 'over') return { kind: 'above', threshold: r.line };
  if (r.selectionType === 'under') return { kind: 'below', threshold: r.line };
  return null;
}

/**
 * Each book's main line in a ladder: among the lines where it quotes both sides, the most balanced one (the
 * two implied probabilities closest to each other).
 */
export function bookMainLines(rows: readonly OddsRow[]): Map<string, number> {
  const byBookLine = new Map<string, Map<number, { a?: number; b?: number }>>();
  for (const r of rows) {
    if (r.groupLine === null) continue;
    let lines = byBookLine.get(r.sportsbook);
    if (!lines) byBookLine.set(r.sportsbook, (lines = new Map()));
    const pair = lines.get(r.groupLine) ?? {};
    if (r.selectionType === 'home' || r.selectionType === 'over') pair.a = r.probability;
    else if (r.selectionType === 'away' || r.selectionType === 'under') pair.b = r.probability;
    lines.set(r.groupLine, pair);
  }
  const out = new Map<string, number>();
  for (const [book, lines] of byBookLine) {
    let best: number | null = null;
    let bestGap = Number.POSITIVE_INFINITY;
    for (const [line, p] of lines) {
      if (p.a === undefined || p.b === undefined) continue;
      const gap = Math.abs(p.a - p.b);
      if (gap < bestGap || (gap === bestGap && best !== null && Math.abs(line) < Math.abs(best))) {
        best = line;
        bestGap = gap;
      }
    }
    if (best !== null) out.set(book, best);
  }
  return out;
}

export function middleId(ladderKey: string, a: OddsRow, b: OddsRow): string {
  return shortHash(['mid', ladderKey, a.sportsbook, a.selectionType, a.line, b.sportsbook, b.selectionType, b.line], 16);
}

/**
 * Middles of a ladder among the books in scope: a side winning above one line and a side winning below a
 * higher line at another book, so both can win. For each pair of lines the best price of each side (from two
 * different books) is analysed on the sport's outcome distribution; pairs worth less than MIDDLE_MIN_EV per
 * 100 staked are left out. Quarter lines and Asian handicaps never enter.
 */
export function detectMiddles(ctx: DetectContext, ladderKey: string, inScope: BookFilter): MiddleRecord[] {
  const ids = ctx.board.ids('ladder', ladderKey);
  if (!ids || ids.size < 2) return [];
  const rows: OddsRow[] = [];
  for (const id of ids) {
    const r = ctx.board.rows.get(id);
    if (r && r.isActive && inScope(r.sportsbook) && (ctx.includeFlagged || !flagOf(ctx, r))) rows.push(r);
  }
  const first = rows[0];
  if (!first || first.marketType === 'asian_handicap') return [];
  const outcomes = outcomesOf(ctx.catalog, first.marketType, first.sport);
  if (!outcomes || outcomes.length !== 2) return [];
  // Only each book's own main line: a middle is two books disagreeing on the line, not a pair of alternates
  // (alternate rungs are priced off the same line and carry their own juice).
  const mains = bookMainLines(rows);
  // Top two books per (side, threshold).
  const above = new Map<number, OddsRow[]>();
  const below = new Map<number, OddsRow[]>();
  for (const r of rows) {
    if (mains.get(r.sportsbook) !== r.groupLine) continue;
    const s = sideOf(r);
    if (!s) continue;
    const m = s.kind === 'above' ? above : below;
    const list = m.get(s.threshold);
    if (list) list.push(r);
    else m.set(s.threshold, [r]);
  }
  // Keep the two best prices from distinct books per threshold.
  for (const m of [above, below]) {
    for (const [t, list] of m) {
      list.sort((x, y) => y.decimal - x.decimal || (x.sportsbook < y.sportsbook ? -1 : 1));
      const distinct: OddsRow[] = [];
      for (const x of list) if (distinct.length < 2 && !distinct.some((d) => d.sportsbook === x.sportsbook)) distinct.push(x);
      m.set(t, distinct);
    }
  }
  if (!above.size || !below.size) return [];
  const pmf = ladderPmf(ctx, first);
  if (!pmf) return [];
  const keyNumbers = isHandicap(first.marketType) ? (KEY_NUMBERS[first.sport] ?? []) : [];
  const out: MiddleRecord[] = [];
  for (const [ta, listA] of above) {
    for (const [tb, listB] of below) {
      if (tb - ta < 0.5) continue;
      let pick: [OddsRow, OddsRow] | null = null;
      let bestOver = Number.POSITIVE_INFINITY;
      for (const a of listA) {
        for (const b of listB) {
          if (a.sportsbook === b.sportsbook) continue;
          const over = 1 / a.decimal + 1 / b.decimal;
          if (over < bestOver) {
            bestOver = over;
            pick = [a, b];
          }
        }
      }
      if (!pick) continue;
      const [a, b] = pick;
      let analysis;
      try {
        analysis = analyzeMiddle({ above: { kind: 'above', threshold: ta, decimal: a.decimal }, below: { kind: 'below', threshold: tb, decimal: b.decimal }, pmf, keyNumbers });
      } catch {
        continue;
      }
      if (analysis.expectedValue < MIDDLE_MIN_EV && !analysis.isGuaranteedProfit) continue;
      const side1: MiddleSideRecord = { row: a, kind: 'above', threshold: ta, winProbability: 1 - pmf.cdf(ta) };
      const side2: MiddleSideRecord = { row: b, kind: 'below', threshold: tb, winProbability: pmf.cdf(Math.ceil(tb) - 1) };
      const age = Math.max(ageSeconds(ctx.board, a, ctx.now), ageSeconds(ctx.board, b, ctx.now));
      const ga = groupInfo(ctx, a.groupKey);
      const gb = groupInfo(ctx, b.groupKey);
      const guards: Guards = { flagged: [], offConsensus: [] };
      for (const [gi, row] of [[ga, a], [gb, b]] as const) {
        if (!gi) continue;
        const found = guardsOf(gi, [row]);
        guards.flagged.push(...found.flagged);
        guards.offConsensus.push(...found.offConsensus);
      }
      out.push({
        kind: 'middles',
        id: middleId(ladderKey, a, b),
        source: ladderKey,
        eventId: first.eventId,
        marketType: first.marketType,
        detectedAt: ctx.now,
        updatedAt: ctx.now,
        side1,
        side2,
        analysis,
        sport: first.sport,
        qualityScore: middleQualityScore({
          middleProbability: analysis.middleProbability,
          expectedValue: analysis.expectedValue,
          middleSize: analysis.middleSize,
          keyNumberProbability: analysis.keyNumberProbability,
          worstCaseLoss: analysis.worstCaseLoss,
          oddsAgeSeconds: age,
          isLive: a.isLive || b.isLive,
        }),
        guards,
      });
    }
  }
  return out;
}

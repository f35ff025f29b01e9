import type { Catalog } from '../../config/catalog.js';
import { isQuarterLine } from '../../domain/normalise.js';
import type { OddsRow } from '../../domain/odds-row.js';
import type { OddsBoard } from '../board/odds-board.js';
import type { Guards } from './detector.js';
import { checkMarkets, consensusGap, pricesByBook, type ConsensusGap, type MarketCheck } from './guards.js';
import { bestPerOutcome, outcomesOf, type BookFilter } from './market-groups.js';

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
export function usable(ctx: DetectContext, g: GroupInfo, inScope: BookFilter): BookFilter {
  return ctx.includeFlagged || !g.flags.size ? inScope : (b) => inScope(b) && !g.flags.has(b);
}

/** The guards' findings on prices of one group: flagged venues among them, and prices far from the consensus. */
export function guardsOf(g: GroupInfo, rows: readonly OddsRow[]): Guards {
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
export function flagOf(ctx: DetectContext, r: OddsRow): MarketCheck | undefined {
  return groupInfo(ctx, r.groupKey)?.flags.get(r.sportsbook);
}

/** Whether a row is on another line than its ladder's consensus main line (an alternate line). */
export function isAlternate(board: OddsBoard, r: OddsRow): boolean {
  if (r.groupLine === null) return false;
  const main = board.mainLine(r.ladderKey);
  return main !== null && main !== r.groupLine;
}

/**
 * The implied total (sum of 1/decimal) of a group's best prices among all books, or null when an outcome has
 * no active price. A narrower set of books never has better prices, so this bounds every scope from below:
 * at or above 1 no scope holds an arbitrage, and a hold above a ceiling among all books is above it in every
 * scope (Detector.mayFind).
 */
export function impliedTotalAllBooks(ctx: DetectContext, groupKey: string): number | null {
  const g = groupInfo(ctx, groupKey);
  if (!g) return null;
  const best = bestPerOutcome(g.rows, g.outcomes, () => true);
  return best ? best.legs.reduce((s, l) => s + 1 / l.decimal, 0) : null;
}

import type { Catalog } from '../../config/catalog.js';
import { isQuarterLine } from '../../domain/normalise.js';
import type { OddsRow } from '../../domain/odds-row.js';
import type { OddsBoard } from '../board/odds-board.js';
import {
  BookPrices,
  checkMarkets,
  consensusGapOf,
  outcomeConsensus,
  type ConsensusGap,
  type MarketCheck,
  type OutcomeConsensus,
  type Guards,
} from './guards.js';
import { outcomesOf, type BookFilter, type GroupBest } from './market-groups.js';

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
  /** The board's own array of the group's rows (replaced, never mutated, when the group changes). */
  rows: readonly OddsRow[];
  first: OddsRow;
  outcomes: readonly string[];
  /** Each book's best active price per outcome. */
  byBook: BookPrices;
  /** The venues whose own market in this group is flagged, by book. */
  flags: ReadonlyMap<string, MarketCheck>;
  /** The books with an active price in this group that the catalog does not describe (unverified). */
  unverified: ReadonlySet<string>;
  /** The active rows of each outcome (outcome order; rows in group order). */
  byOutcome: OddsRow[][];
  /** Filled on first use during one evaluation: the best prices among all books (bestOf with every book). */
  allBest?: GroupBest | null;
  /** Filled on first use: the implied total of those best prices (impliedTotalAllBooks). */
  allBestTotal?: number | null;
  /** Filled on first use: the consensus table of each selection type (flagged venues left out). */
  consensus?: Map<string, OutcomeConsensus>;
}

/** The rows and outcome set of a market group, or null when the group is empty or not a closed market. */
export function groupInfo(ctx: DetectContext, groupKey: string): GroupInfo | null {
  const hit = ctx.memo?.get(groupKey);
  if (hit !== undefined) return hit;
  const info = readGroup(ctx, groupKey);
  ctx.memo?.set(groupKey, info);
  return info;
}

/**
 * The flagged venue markets of each group read, by the board's array of its rows (replaced, never mutated, when
 * a row of the group changes) and catalog: the flags are a function of the rows alone, so a later evaluation
 * that only needs them (a ladder's middles) reads an unchanged group no more. Weak: an array the board dropped
 * takes its entry with it. null: no flagged market (or not a closed market).
 */
const flagsByRows = new WeakMap<Catalog, WeakMap<readonly OddsRow[], GroupInfo['flags'] | null>>();

function flagCache(catalog: Catalog): WeakMap<readonly OddsRow[], GroupInfo['flags'] | null> {
  let byRows = flagsByRows.get(catalog);
  if (!byRows) flagsByRows.set(catalog, (byRows = new WeakMap()));
  return byRows;
}

/** The venues whose own market in a group is flagged (groupInfo(...).flags), or undefined when none is. */
export function groupFlags(ctx: DetectContext, groupKey: string): ReadonlyMap<string, MarketCheck> | undefined {
  const hit = ctx.memo?.get(groupKey);
  if (hit !== undefined) return hit?.flags.size ? hit.flags : undefined;
  const cached = flagCache(ctx.catalog).get(ctx.board.groupRows(groupKey));
  if (cached !== undefined) return cached ?? undefined;
  const flags = groupInfo(ctx, groupKey)?.flags;
  return flags?.size ? flags : undefined;
}

function readGroup(ctx: DetectContext, groupKey: string): GroupInfo | null {
  const rows = ctx.board.groupRows(groupKey);
  const info = readRows(ctx, rows);
  if (rows.length) flagCache(ctx.catalog).set(rows, info?.flags.size ? info.flags : null);
  return info;
}

const NO_BOOKS: ReadonlySet<string> = new Set();

function readRows(ctx: DetectContext, rows: readonly OddsRow[]): GroupInfo | null {
  const first = rows[0];
  if (!first) return null;
  if (first.groupLine !== null && isQuarterLine(first.groupLine) && first.marketType !== 'asian_handicap') return null;
  const outcomes = outcomesOf(ctx.catalog, first.marketType, first.sport);
  if (!outcomes) return null;
  // One pass: each active row's outcome is looked up once, for both tables (as pricesByBook builds byBook).
  const byBook = new BookPrices(outcomes);
  const byOutcome: OddsRow[][] = [];
  for (let i = 0; i < outcomes.length; i++) byOutcome.push([]);
  for (const r of rows) {
    if (!r.isActive) continue;
    const i = outcomes.indexOf(r.selectionType);
    if (i < 0) continue;
    byBook.offer(r, i);
    byOutcome[i]!.push(r);
  }
  // Most groups hold only catalogued books: they share one empty set instead of each allocating its own.
  let unverified: Set<string> | undefined;
  for (const b of byBook.books) if (!ctx.catalog.isVerified(b)) (unverified ??= new Set()).add(b);
  const flags = checkMarkets(byBook, outcomes, (id) => ctx.catalog.book(id));
  return { rows, first, outcomes, byBook, byOutcome, flags, unverified: unverified ?? NO_BOOKS };
}

/**
 * bestPerOutcome() of a group (same result) from its rows per outcome: the best active price of each outcome
 * among the books in scope, null when an outcome has none.
 */
export function bestOf(g: GroupInfo, inScope: BookFilter): GroupBest | null {
  const n = g.outcomes.length;
  const legs: OddsRow[] = new Array<OddsRow>(n);
  const tied: OddsRow[][] = new Array<OddsRow[]>(n);
  const books = new Set<string>();
  for (let i = 0; i < n; i++) {
    let cur: OddsRow | undefined;
    let ties: OddsRow[] = [];
    for (const r of g.byOutcome[i]!) {
      if (!inScope(r.sportsbook)) continue;
      books.add(r.sportsbook);
      if (!cur || r.decimal > cur.decimal) {
        cur = r;
        ties = [r];
      } else if (r.decimal === cur.decimal) {
        ties.push(r);
        if (r.sportsbook < cur.sportsbook) cur = r;
      }
    }
    if (!cur) return null;
    legs[i] = cur;
    tied[i] = ties;
  }
  return { legs, tied, books };
}

/** The best prices of a group among all books, computed once per evaluation. */
export function allBooksBest(g: GroupInfo): GroupBest | null {
  if (g.allBest === undefined) g.allBest = bestOf(g, () => true);
  return g.allBest;
}

/**
 * How far a price of the group is from the other books' consensus on its outcome (guards.ts consensusGap). Flagged
 * venues and unverified books are not part of the consensus (an unverified book's own price is still judged).
 */
export function consensusGapIn(g: GroupInfo, r: OddsRow): ConsensusGap | null {
  const tables = (g.consensus ??= new Map());
  let table = tables.get(r.selectionType);
  if (!table)
    tables.set(r.selectionType, (table = outcomeConsensus(g.byBook, r.selectionType, (b) => g.flags.has(b) || g.unverified.has(b))));
  return consensusGapOf(r, table);
}

/** The books of a group detection may use: those in scope and, unless flagged markets are let in, not flagged. */
export function usable(ctx: DetectContext, g: GroupInfo, inScope: BookFilter): BookFilter {
  return ctx.includeFlagged || !g.flags.size ? inScope : (b) => inScope(b) && !g.flags.has(b);
}

/**
 * The guards' findings on prices of one group: flagged venues among them, prices far from the consensus, and
 * unverified books.
 */
export function guardsOf(g: GroupInfo, rows: readonly OddsRow[]): Guards {
  const flagged: MarketCheck[] = [];
  const offConsensus: ConsensusGap[] = [];
  const unverified: string[] = [];
  for (const r of rows) {
    const f = g.flags.get(r.sportsbook);
    if (f && !flagged.includes(f)) flagged.push(f);
    const gap = consensusGapIn(g, r);
    if (gap) offConsensus.push(gap);
    if (g.unverified.has(r.sportsbook) && !unverified.includes(r.sportsbook)) unverified.push(r.sportsbook);
  }
  return { flagged, offConsensus, unverified };
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
  if (g.allBestTotal === undefined) g.allBestTotal = bestTotal(g);
  return g.allBestTotal;
}

/** The sum of 1/decimal of each outcome's best active price (in outcome order), as allBooksBest's legs give it, or null. */
function bestTotal(g: GroupInfo): number | null {
  let total = 0;
  for (const rows of g.byOutcome) {
    const first = rows[0];
    if (!first) return null;
    let best = first.decimal;
    for (const r of rows) if (r.decimal > best) best = r.decimal;
    total += 1 / best;
  }
  return total;
}

import type { Catalog } from '../../config/catalog.js';
import { HANDICAP_MARKETS } from '../../domain/normalise.js';
import type { OddsRow } from '../../domain/odds-row.js';
import type { OddsBoard } from '../board/odds-board.js';

// Shared and frozen: outcomesOf runs for every group read.
const TWO_WAY: readonly string[] = Object.freeze(['home', 'away']);
const THREE_WAY: readonly string[] = Object.freeze(['home', 'draw', 'away']);
const OVER_UNDER: readonly string[] = Object.freeze(['over', 'under']);

/** The complementary outcomes of a market group, or null when the market's outcome set is not closed. */
export function outcomesOf(catalog: Catalog, marketType: string, sport: string): readonly string[] | null {
  switch (catalog.outcomeSet(marketType, sport)) {
    case 'two_way':
      return TWO_WAY;
    case 'three_way':
      return THREE_WAY;
    case 'over_under':
      return OVER_UNDER;
    default:
      return null;
  }
}

export type BookFilter = (book: string) => boolean;

const scopeFilters = new WeakSet<BookFilter>();
/**
 * Marks a filter as a detection scope's (one per distinct tier book set, kept as long as the engine): what a detector
 * may keep per-filter results for. A caller's own filter (a request naming its books) is not one.
 */
export function scopeFilter(f: BookFilter): BookFilter {
  scopeFilters.add(f);
  return f;
}
export const isScopeFilter = (f: BookFilter): boolean => scopeFilters.has(f);

export interface GroupBest {
  /** One best row per outcome, in outcome order. */
  legs: OddsRow[];
  /** Every active row of each outcome at its best price (ties), per outcome. */
  tied: OddsRow[][];
  /** Books quoting the group (active rows, in scope). */
  books: Set<string>;
}

/**
 * The best active price of each outcome of a group among the books in scope. Null when an outcome has no
 * active price (an incomplete market never yields an opportunity). Suspended rows never enter.
 */
export function bestPerOutcome(rows: readonly OddsRow[], outcomes: readonly string[], inScope: BookFilter): GroupBest | null {
  const legs: Array<OddsRow | undefined> = outcomes.map(() => undefined);
  const tied: OddsRow[][] = outcomes.map(() => []);
  const books = new Set<string>();
  for (const r of rows) {
    if (!r.isActive || !inScope(r.sportsbook)) continue;
    const i = outcomes.indexOf(r.selectionType);
    if (i < 0) continue;
    books.add(r.sportsbook);
    const cur = legs[i];
    if (!cur || r.decimal > cur.decimal) {
      legs[i] = r;
      tied[i] = [r];
    } else if (r.decimal === cur.decimal) {
      tied[i]!.push(r);
      if (r.sportsbook < cur.sportsbook) legs[i] = r;
    }
  }
  for (const l of legs) if (!l) return null;
  return { legs: legs as OddsRow[], tied, books };
}

/** A game's total markets: its middles on spreads (and on other totals) are priced on the total. */
export const GAME_TOTAL_MARKETS: ReadonlySet<string> = new Set(['total_points', 'total_goals', 'total_runs']);
/** Sports whose spread is a fixed +-1.5 (puck line, run line). */
const FIXED_SPREAD_SPORTS: ReadonlySet<string> = new Set(['hockey', 'baseball']);

/**
 * Whether a market's middles are priced on the game's moneyline: the spread of a fixed-spread sport (puck line,
 * run line) sits at +-1.5 whoever is favoured, so its main line says nothing of the expected margin.
 */
export function pricedOnMoneyline(marketType: string, sport: string): boolean {
  return isHandicap(marketType) && FIXED_SPREAD_SPORTS.has(sport);
}

/**
 * What the line ladders of a game are priced on: when a ladder key (`event|market|period|subject`) is a game
 * total or a moneyline (no subject), its game (`event|period`, the key the engine files the game's line ladders
 * under) and which of the two it is; null otherwise. Read without splitting the key (this runs on every price
 * change).
 */
export function gamePricing(ladderKey: string): { game: string; by: 'total' | 'moneyline' } | null {
  const a = ladderKey.indexOf('|');
  if (a <= 0) return null;
  const market = ladderMarket(ladderKey);
  const by = GAME_TOTAL_MARKETS.has(market) ? 'total' : market === 'moneyline' ? 'moneyline' : null;
  if (!by) return null;
  const b = ladderKey.indexOf('|', a + 1);
  const c = b < 0 ? -1 : ladderKey.indexOf('|', b + 1);
  const period = b < 0 ? undefined : c < 0 ? ladderKey.slice(b + 1) : ladderKey.slice(b + 1, c);
  if (c >= 0) {
    const d = ladderKey.indexOf('|', c + 1);
    if ((d < 0 ? ladderKey.slice(c + 1) : ladderKey.slice(c + 1, d)) !== '') return null;
  }
  return { game: `${ladderKey.slice(0, a)}|${period}`, by };
}

/** The market of a ladder key (`event|market|period|subject`). */
export function ladderMarket(ladderKey: string): string {
  const a = ladderKey.indexOf('|');
  const b = ladderKey.indexOf('|', a + 1);
  return b < 0 ? ladderKey.slice(a + 1) : ladderKey.slice(a + 1, b);
}

/** The line an opportunity on a group shows: a spread's home-side handicap, a total's line, null without. */
export function displayLine(r: OddsRow): number | null {
  return r.groupLine;
}

export function isPlayerProp(marketType: string): boolean {
  return marketType.startsWith('player_');
}

export function isHandicap(marketType: string): boolean {
  return HANDICAP_MARKETS.has(marketType);
}

/** Seconds since a row was last confirmed. */
export function ageSeconds(board: OddsBoard, r: OddsRow, now: number): number {
  return Math.max(0, (now - board.seenAt(r)) / 1000);
}

import { foldName } from '../../config/catalog.js';
import type { FuturesMarket, FuturesPrice } from '../../domain/futures.js';
import { devig, type DevigMethod } from '../../math/devig.js';

/**
 * Futures arithmetic: the complementary groups of a market, the n-way devig of a sharp book's complete market,
 * +EV and low-hold over them. Plain functions.
 *
 * Groups: the runners of a team or player market are one n-way group (every selection typed `other`);
 * over/under prices form one two-way group per subject and line; yes/no prices one per question.
 *
 * Completeness: a book's two-way market is complete when it quotes both sides. An n-way market's field is every
 * runner the market is known to have: the union of the runners quoted by any book (any source) with a live price.
 * A book's n-way market is complete when it quotes every runner of that field (at least two) and its implied
 * probabilities add up to at least 1. A list of the favourites is never complete, however high its margin:
 * devigged, it would hand the unquoted runners' chances to the quoted ones. When only one book quotes a market,
 * its own list is the known field.
 *
 * Staleness: a price leaves the field when its source has not sent or confirmed it within the source's window
 * (`staleAfterMs`, src/modules/stores/futures/futures-store.ts; the store leaves it out of `livePricesOf`); a runner no
 * book quotes any more is no longer in the field.
 */

export interface FuturesGroup {
  key: string;
  marketId: string;
  kind: 'n_way' | 'over_under' | 'yes_no';
  subject: string;
  line: number | null;
  prices: FuturesPrice[];
  /** n-way: every runner any book quotes (the known field); two-way: the sides quoted. */
  field: Set<string>;
}

/** The outcome a price is within its group: the runner (folded name) or the side. */
export function outcomeOf(g: Pick<FuturesGroup, 'kind'>, p: FuturesPrice): string {
  return g.kind === 'n_way' ? foldName(p.selection) || p.selection.toLowerCase() : p.selectionType;
}

function subjectOf(p: FuturesPrice): string {
  return foldName(p.selection.replace(/\b(over|under|yes|no)\b\s*$/i, '').replace(/[:\s]+$/, '')) || '-';
}

export function groupsOf(market: Pick<FuturesMarket, 'id'>, prices: readonly FuturesPrice[]): FuturesGroup[] {
  const groups = new Map<string, FuturesGroup>();
  for (const p of prices) {
    let kind: FuturesGroup['kind'] = 'n_way';
    if (p.selectionType === 'over' || p.selectionType === 'under') kind = 'over_under';
    else if (p.selectionType === 'yes' || p.selectionType === 'no') kind = 'yes_no';
    const subject = kind === 'n_way' ? '' : subjectOf(p);
    const line = kind === 'over_under' ? p.line : null;
    const key = kind === 'n_way' ? market.id : `${market.id}|${kind}|${subject}|${line ?? ''}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, marketId: market.id, kind, subject, line, prices: [], field: new Set() }));
    g.prices.push(p);
    g.field.add(outcomeOf(g, p));
  }
  return [...groups.values()];
}

/** One book's market in a group: its price per outcome (the most recently changed when it posts one twice). */
export function bookMarket(g: FuturesGroup, book: string): Map<string, FuturesPrice> {
  const out = new Map<string, FuturesPrice>();
  for (const p of g.prices) {
    if (p.sportsbook !== book) continue;
    const o = outcomeOf(g, p);
    const prev = out.get(o);
    if (!prev || p.changedAt > prev.changedAt) out.set(o, p);
  }
  return out;
}

/**
 * Whether a book's market in the group is complete: both sides of a two-way group; for an n-way group every
 * runner of the known field (at least two) with implied probabilities adding up to at least 1.
 */
export function isComplete(g: Pick<FuturesGroup, 'kind' | 'field'>, m: ReadonlyMap<string, FuturesPrice>): boolean {
  if (g.kind === 'over_under') return m.has('over') && m.has('under');
  if (g.kind === 'yes_no') return m.has('yes') && m.has('no');
  if (m.size < 2) return false;
  for (const o of g.field) if (!m.has(o)) return false;
  let sum = 0;
  for (const p of m.values()) sum += 1 / p.decimal;
  return sum >= 1;
}

export function booksOf(g: FuturesGroup): string[] {
  return [...new Set(g.prices.map((p) => p.sportsbook))].sort();
}

/** The sharp reference: the first of `sharpBooks` whose market in the group is complete, with its fair probabilities. */
export function sharpReference(
  g: FuturesGroup,
  sharpBooks: readonly string[],
  method: DevigMethod,
): { book: string; fair: Map<string, number>; holdPercent: number } | null {
  for (const book of sharpBooks) {
    const m = bookMarket(g, book);
    if (!isComplete(g, m)) continue;
    const outcomes = [...m.keys()];
    const implied = outcomes.map((o) => 1 / m.get(o)!.decimal);
    const sum = implied.reduce((a, b) => a + b, 0);
    const fair = devig(implied, method);
    return { book, fair: new Map(outcomes.map((o, i) => [o, fair[i]!])), holdPercent: (sum - 1) * 100 };
  }
  return null;
}

export interface FuturesEv {
  price: FuturesPrice;
  outcome: string;
  sharpBook: string;
  sharpHoldPercent: number;
  fairProbability: number;
  evPercent: number;
}

/**
 * +EV prices of a group: every price of another book in scope on an outcome the sharp reference quotes, with
 * EV% = (fair probability x decimal - 1) x 100, when above `minEv`.
 */
export function futuresEv(
  g: FuturesGroup,
  opts: { sharpBooks: readonly string[]; method: DevigMethod; inScope(book: string): boolean; minEv: number },
): FuturesEv[] {
  const ref = sharpReference(g, opts.sharpBooks, opts.method);
  if (!ref) return [];
  const out: FuturesEv[] = [];
  for (const p of g.prices) {
    if (p.sportsbook === ref.book || opts.sharpBooks.includes(p.sportsbook) || !opts.inScope(p.sportsbook)) continue;
    const o = outcomeOf(g, p);
    const fair = ref.fair.get(o);
    if (fair === undefined) continue;
    const ev = (fair * p.decimal - 1) * 100;
    if (ev > opts.minEv)
      out.push({ price: p, outcome: o, sharpBook: ref.book, sharpHoldPercent: ref.holdPercent, fairProbability: fair, evPercent: ev });
  }
  return out.sort((a, b) => b.evPercent - a.evPercent);
}

export interface FuturesHold {
  group: FuturesGroup;
  /** The book whose complete market gives the outcome set (n-way: a book quoting the whole known field). */
  fieldBook: string;
  sides: Array<{ outcome: string; price: FuturesPrice; books: string[]; fairProbability: number }>;
  holdPercent: number;
  books: string[];
}

/**
 * The hold of a group's best prices among the books in scope: over the outcomes of a complete book market in
 * scope (for an n-way group: one quoting the whole known field, so a book listing only favourites never defines
 * it), sum of 1 / best decimal - 1, in percent. Null when no book in scope is complete.
 */
export function futuresHold(g: FuturesGroup, inScope: (book: string) => boolean): FuturesHold | null {
  let field: { book: string; m: Map<string, FuturesPrice> } | null = null;
  for (const book of booksOf(g)) {
    if (!inScope(book)) continue;
    const m = bookMarket(g, book);
    if (isComplete(g, m) && (!field || m.size > field.m.size)) field = { book, m };
  }
  if (!field) return null;
  const sides: FuturesHold['sides'] = [];
  const used = new Set<string>();
  for (const o of field.m.keys()) {
    let best: FuturesPrice | null = null;
    let books: string[] = [];
    for (const p of g.prices) {
      if (!inScope(p.sportsbook) || outcomeOf(g, p) !== o) continue;
      if (!best || p.decimal > best.decimal) {
        best = p;
        books = [p.sportsbook];
      } else if (p.decimal === best.decimal && !books.includes(p.sportsbook)) books.push(p.sportsbook);
    }
    sides.push({ outcome: o, price: best!, books: books.sort(), fairProbability: 0 });
    for (const b of books) used.add(b);
  }
  const sum = sides.reduce((s, x) => s + 1 / x.price.decimal, 0);
  for (const s of sides) s.fairProbability = 1 / s.price.decimal / sum;
  return { group: g, fieldBook: field.book, sides, holdPercent: (sum - 1) * 100, books: [...used].sort() };
}

import type { BookDef } from '../../config/catalog.js';
import type { OddsRow } from '../../domain/odds-row.js';

/**
 * Plausibility guards of opportunity detection (pure functions). Two checks, both on one market group:
 *
 * - **Venue integrity**: a venue's own complete market (its best active price on every outcome) must not
 *   cross itself and must not hold far more than that kind of venue usually does. A sportsbook sets both
 *   prices and an exchange matches both sides in one order book, so neither can sum below 100% except by a
 *   data error (a stale side, lay prices read as back, a side of another line); a prediction market trades
 *   each contract in its own order book, so a small cross-contract arbitrage there is real. A flagged
 *   market is kept out of detection (see detectors.ts).
 * - **Consensus**: a price far from the median of the other books on the same outcome (a stale or
 *   mislabelled line) puts a warning on every opportunity that uses it.
 */

export type MarketFlag = 'self_arbitrage' | 'excess_hold';

/**
 * A venue's market is a self-arbitrage below this implied total (a fraction): a sportsbook or an exchange
 * below 99.9% (the 0.1% absorbs price rounding: -110/+110 stored as 1.9091/2.1 sums to 0.999997), a
 * prediction market below 98% (a cross-contract arbitrage up to about 2% profit is real there).
 */
export const SELF_ARBITRAGE_FLOOR: Record<BookDef['settlement'], number> = { sportsbook: 0.999, exchange: 0.999, prediction: 0.98 };

/** A venue's usual hold on a two-way market, in percent, by margin profile (three-way markets: 1.5 times). */
export const USUAL_HOLD: Record<BookDef['margin_profile'], number> = { sharp: 3, exchange: 3, prediction: 4, soft: 7 };

/** A venue's market is flagged when it holds more than this many points above its usual hold. */
export const EXCESS_HOLD_MARGIN = 10;

/** The consensus check: at least this many other books, and a gap beyond both bounds, make a price an outlier. */
export const OFF_CONSENSUS = {
  /** Other books (unflagged, active) quoting the same outcome needed for a consensus. */
  minOtherBooks: 3,
  /** Gap in log-odds between the price's implied probability and the consensus. */
  logOdds: 0.35,
  /** Gap in implied probability (a fraction: 0.05 = 5 percentage points). */
  probability: 0.05,
} as const;

export interface MarketCheck {
  book: string;
  flag: MarketFlag;
  /** The venue's own implied total (fraction, 0.97 = 97%). */
  impliedTotal: number;
  /** The bound it crossed (fraction): the self-arbitrage floor or 1 + the hold ceiling. */
  limit: number;
}

export interface ConsensusGap {
  book: string;
  selectionType: string;
  /** The price's implied probability. */
  probability: number;
  /** Median implied probability of the other books on the same outcome. */
  consensus: number;
  otherBooks: number;
}

/** What the plausibility guards found on the prices an opportunity uses. */
export interface Guards {
  /** Venue markets it uses that are flagged: only when flagged markets were let in (`include_flagged`). */
  flagged: MarketCheck[];
  /** Prices it uses that are far from the other books' consensus on the same outcome. */
  offConsensus: ConsensusGap[];
  /** Books it uses that the catalog does not describe (Catalog.isVerified false), each once. */
  unverified: string[];
}

type BookInfo = Pick<BookDef, 'settlement' | 'margin_profile'>;
/** Unknown books (not in the catalog yet) are judged as ordinary sportsbooks. */
const DEFAULT_BOOK: BookInfo = { settlement: 'sportsbook', margin_profile: 'soft' };

/** The hold (percent) above which a venue's market of `outcomes` outcomes is flagged. */
export function holdCeiling(book: BookInfo | undefined, outcomes: number): number {
  const usual = USUAL_HOLD[(book ?? DEFAULT_BOOK).margin_profile] ?? USUAL_HOLD.soft;
  return usual * (outcomes >= 3 ? 1.5 : 1) + EXCESS_HOLD_MARGIN;
}

/**
 * Each book's best active price per outcome of a group, in flat arrays (no map per book: a group is read on
 * every evaluation and most of its books price every outcome). Books are in the order their first active
 * price appears; each book's outcomes in the order they were first priced (the order its total is summed in).
 */
export class BookPrices {
  /** The books with an active price, in order of first appearance. */
  readonly books: string[] = [];
  private readonly index = new Map<string, number>();
  /** best[b * n + o]: book b's best active price on outcome o. */
  private readonly best: Array<OddsRow | undefined> = [];
  /** order[b * n + k]: the k-th outcome book b priced (k < counts[b]). */
  private readonly order: number[] = [];
  private readonly counts: number[] = [];

  constructor(readonly outcomes: readonly string[]) {}

  /** Takes a row's price when it is the book's best on its outcome (`o`: the outcome's index). */
  offer(r: OddsRow, o: number): void {
    const n = this.outcomes.length;
    let b = this.index.get(r.sportsbook);
    if (b === undefined) {
      b = this.books.length;
      this.index.set(r.sportsbook, b);
      this.books.push(r.sportsbook);
      this.counts.push(0);
      for (let i = 0; i < n; i++) this.best.push(undefined);
    }
    const cur = this.best[b * n + o];
    if (!cur) {
      this.order[b * n + this.counts[b]!] = o;
      this.counts[b]!++;
    }
    if (!cur || r.decimal > cur.decimal) this.best[b * n + o] = r;
  }

  /** A book's best active price on an outcome (by index). */
  price(book: string, o: number): OddsRow | undefined {
    const b = this.index.get(book);
    return b === undefined ? undefined : this.best[b * this.outcomes.length + o];
  }

  /** A book's best prices on every outcome (outcome order), or null when it misses one. */
  complete(book: string): OddsRow[] | null {
    const b = this.index.get(book);
    const n = this.outcomes.length;
    if (b === undefined || this.counts[b] !== n) return null;
    return this.best.slice(b * n, b * n + n) as OddsRow[];
  }

  /** The implied total (sum of 1/decimal, in the order the book priced its outcomes) of the i-th book's complete market, or null. */
  completeTotal(i: number): number | null {
    const n = this.outcomes.length;
    if (this.counts[i] !== n) return null;
    let total = 0;
    for (let k = 0; k < n; k++) total += 1 / this.best[i * n + this.order[i * n + k]!]!.decimal;
    return total;
  }

  /** The i-th book's best price on an outcome (by index). */
  priceAt(i: number, o: number): OddsRow | undefined {
    return this.best[i * this.outcomes.length + o];
  }
}

/** Each book's best active price per outcome of a group (books missing an outcome are not complete). */
export function pricesByBook(rows: readonly OddsRow[], outcomes: readonly string[]): BookPrices {
  const out = new BookPrices(outcomes);
  for (const r of rows) {
    if (!r.isActive) continue;
    const o = outcomes.indexOf(r.selectionType);
    if (o >= 0) out.offer(r, o);
  }
  return out;
}

/**
 * The venues whose own market in a group is not sound: a self-arbitrage or an excessive hold. A venue
 * missing an outcome (or with a suspended side) is not judged.
 */
export function checkMarkets(
  byBook: BookPrices,
  outcomes: readonly string[],
  bookDef: (id: string) => BookInfo | undefined,
): ReadonlyMap<string, MarketCheck> {
  // Most groups have no flagged venue: they share one empty map instead of each allocating its own.
  let flags: Map<string, MarketCheck> | undefined;
  for (let i = 0; i < byBook.books.length; i++) {
    const total = byBook.completeTotal(i);
    if (total === null) continue;
    const book = byBook.books[i]!;
    const def = bookDef(book) ?? DEFAULT_BOOK;
    const floor = SELF_ARBITRAGE_FLOOR[def.settlement] ?? SELF_ARBITRAGE_FLOOR.sportsbook;
    const ceiling = 1 + holdCeiling(def, outcomes.length) / 100;
    if (total < floor) (flags ??= new Map()).set(book, { book, flag: 'self_arbitrage', impliedTotal: total, limit: floor });
    else if (total > ceiling) (flags ??= new Map()).set(book, { book, flag: 'excess_hold', impliedTotal: total, limit: ceiling });
  }
  return flags ?? NO_FLAGS;
}

const NO_FLAGS: ReadonlyMap<string, MarketCheck> = new Map();

const logit = (p: number) => Math.log(p / (1 - p));

/**
 * The books quoting one outcome of a group for the consensus check (each book's best active price; excluded
 * venues left out), sorted by implied probability: built once per group and outcome, then every price's
 * consensusGapOf() is a lookup instead of a collect-and-sort of the other books.
 */
export interface OutcomeConsensus {
  /** Implied probabilities (1 / decimal), ascending. */
  probabilities: number[];
  /** The book of each probability. */
  books: string[];
}

export function outcomeConsensus(byBook: BookPrices, selectionType: string, excluded: (book: string) => boolean): OutcomeConsensus {
  const entries: Array<{ p: number; book: string }> = [];
  const o = byBook.outcomes.indexOf(selectionType);
  for (let i = 0; o >= 0 && i < byBook.books.length; i++) {
    const book = byBook.books[i]!;
    if (excluded(book)) continue;
    const r = byBook.priceAt(i, o);
    if (r) entries.push({ p: 1 / r.decimal, book });
  }
  entries.sort((a, b) => a.p - b.p);
  return { probabilities: entries.map((e) => e.p), books: entries.map((e) => e.book) };
}

/**
 * consensusGap() of a price on a prebuilt OutcomeConsensus of its outcome (same result: the median of the
 * other books' probabilities, the price's own book left out).
 */
export function consensusGapOf(row: OddsRow, table: OutcomeConsensus): ConsensusGap | null {
  const { probabilities: ps, books } = table;
  const own = books.indexOf(row.sportsbook);
  const n = own < 0 ? ps.length : ps.length - 1;
  if (n < OFF_CONSENSUS.minOtherBooks) return null;
  const at = (j: number) => (own >= 0 && j >= own ? ps[j + 1]! : ps[j]!);
  const m = n >> 1;
  const consensus = n % 2 ? at(m) : (at(m - 1) + at(m)) / 2;
  const p = 1 / row.decimal;
  if (p <= 0 || p >= 1 || consensus <= 0 || consensus >= 1) return null;
  const far = Math.abs(logit(p) - logit(consensus)) > OFF_CONSENSUS.logOdds && Math.abs(p - consensus) > OFF_CONSENSUS.probability;
  return far ? { book: row.sportsbook, selectionType: row.selectionType, probability: p, consensus, otherBooks: n } : null;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * How far a price is from the consensus of the other books on its outcome, when it is an outlier: its
 * implied probability and the median of the other books' (each book's best active price; flagged venues
 * left out) differ by more than OFF_CONSENSUS.logOdds in log-odds AND more than OFF_CONSENSUS.probability.
 * Null when it is not, or when fewer than OFF_CONSENSUS.minOtherBooks other books quote the outcome.
 */
export function consensusGap(row: OddsRow, byBook: BookPrices, excluded: (book: string) => boolean): ConsensusGap | null {
  const others: number[] = [];
  const o = byBook.outcomes.indexOf(row.selectionType);
  for (let i = 0; o >= 0 && i < byBook.books.length; i++) {
    const book = byBook.books[i]!;
    if (book === row.sportsbook || excluded(book)) continue;
    const r = byBook.priceAt(i, o);
    if (r) others.push(1 / r.decimal);
  }
  if (others.length < OFF_CONSENSUS.minOtherBooks) return null;
  const consensus = median(others);
  const p = 1 / row.decimal;
  if (p <= 0 || p >= 1 || consensus <= 0 || consensus >= 1) return null;
  const far = Math.abs(logit(p) - logit(consensus)) > OFF_CONSENSUS.logOdds && Math.abs(p - consensus) > OFF_CONSENSUS.probability;
  return far ? { book: row.sportsbook, selectionType: row.selectionType, probability: p, consensus, otherBooks: others.length } : null;
}

/**
 * Whether an opportunity rests on a probable mapping error: one of its prices (or, for +EV, the sharp prices it is
 * devigged from) is far off the other books' consensus. A mislabelled line (another line's prices, a contract on
 * the other team, a three-way handicap read as an Asian one) looks exactly like this, and so does a stale line
 * no one can still take: it is not offered as value in the default lists (`include_flagged=true` shows it, with
 * PRICE_OFF_CONSENSUS).
 */
export function probableMappingError(g: Pick<Guards, 'offConsensus'>): boolean {
  return g.offConsensus.length > 0;
}

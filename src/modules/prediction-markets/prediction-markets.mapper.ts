import type { BookDef } from '../../config/catalog.js';
import type { FuturesMarket, FuturesPrice } from '../../domain/futures.js';
import { slugId, titleFromId } from '../../domain/normalise.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import { roundTo } from '../../math/odds.js';

/**
 * Exchange and prediction-market contracts as markets of their own. Plain functions.
 *
 * A venue is a book of class `prediction` (Kalshi, Polymarket, Novig, ...) or `exchange` (Betfair, ProphetX, ...).
 * A game contract is the venue's rows of one market of one game on the board (the outcomes of one group: both
 * sides of a moneyline, over and under one total): it is linked to the game's canonical event. A futures or
 * question contract is the venue's prices of one futures market (a Yes/No question about one runner is a contract
 * per runner): it is linked to no event, ever (`linked_event_id` null: the venue's own event id is not a join key).
 */

export const VENUE_CLASSES: ReadonlySet<BookDef['class']> = new Set(['prediction', 'exchange']);
export const MARKET_STATUSES = ['open', 'suspended', 'closed'] as const;
export type MarketStatus = (typeof MARKET_STATUSES)[number];
/** The category of a game contract (futures contracts are in their market's kind: championship_winner, mvp, ...). */
export const GAME_CATEGORY = 'game';

export interface ContractOutcome {
  name: string;
  selection_type: string;
  line: number | null;
  price: { american: number; decimal: number; probability: number };
  /** Best bid, best ask, last trade (contract price 0-1); null when none rests. */
  bid: number | null;
  ask: number | null;
  last: number | null;
  volume: number | null;
  open_interest: number | null;
  /** The odds row id (game contracts, as /odds gives it) or the futures price id (as /futures/odds gives it). */
  odds_id: string;
}

export interface ContractMarket {
  market_id: string;
  venue: string;
  source_ids: { market_id: string; event_id: string | null; selection_ids: string[] };
  title: string;
  category: string;
  sport: string;
  league: string;
  market_type: string;
  status: MarketStatus;
  outcomes: ContractOutcome[];
  volume: number | null;
  open_interest: number | null;
  sportsbook_ref: { id: string; label: string; numerical_id: number | null } | null;
  linked_event_id: string | null;
  futures_market_id: string | null;
  closes_at: string;
  updated_at: string;
}

const SIDE_ORDER = ['home', 'away', 'draw', 'over', 'under', 'yes', 'no'];
const iso = (ms: number) => new Date(ms).toISOString();

/** A sum of the values sent; null when none was. */
function sumKnown(xs: ReadonlyArray<number | null | undefined>): number | null {
  let total: number | null = null;
  for (const x of xs) if (typeof x === 'number') total = (total ?? 0) + x;
  return total === null ? null : roundTo(total, 6);
}

/** One outcome of a contract, from a board row or a futures price (both carry the quote's fields). */
function outcome(q: OddsRow | FuturesPrice, name: string) {
  return {
    name,
    selection_type: q.selectionType,
    line: q.line,
    price: price(q),
    bid: q.bid ?? null,
    ask: q.ask ?? null,
    last: q.last ?? null,
    volume: q.volume ?? null,
    open_interest: q.openInterest ?? null,
    odds_id: q.id,
  };
}

function price(p: { american: number; decimal: number; probability: number }) {
  return { american: p.american, decimal: roundTo(p.decimal, 4), probability: roundTo(p.probability, 6) };
}

export function sportsbookRef(book: BookDef | undefined): ContractMarket['sportsbook_ref'] {
  return book ? { id: book.id, label: book.display_name, numerical_id: book.numerical_id } : null;
}

function bySide(a: { selectionType: string; selection: string }, b: { selectionType: string; selection: string }): number {
  const ra = SIDE_ORDER.indexOf(a.selectionType);
  const rb = SIDE_ORDER.indexOf(b.selectionType);
  return (
    (ra < 0 ? SIDE_ORDER.length : ra) - (rb < 0 ? SIDE_ORDER.length : rb) ||
    (a.selection < b.selection ? -1 : a.selection > b.selection ? 1 : 0)
  );
}

/** The venue's own id of a game contract: its market id when the source sent one, else event, market, period, player, line. */
export function gameVenueId(r: OddsRow): string {
  if (r.marketId) return r.marketId;
  const parts = [r.externalEventId ?? r.eventId, r.marketType];
  if (r.period && r.period !== 'game') parts.push(r.period);
  if (r.playerName) parts.push(slugId(r.playerName, 60));
  if (r.groupLine !== null) parts.push(String(r.groupLine));
  return parts.join('-');
}

/** Game status as a contract's: ended or cancelled games are closed; a market none of whose outcomes takes orders is suspended. */
function gameStatus(e: BoardEvent, rows: readonly OddsRow[]): MarketStatus {
  if (e.status === 'ended' || e.status === 'cancelled') return 'closed';
  return rows.some((r) => r.isActive) && e.status !== 'postponed' ? 'open' : 'suspended';
}

/** One game contract: the rows of one venue in one group (the outcomes of one market of one game). */
export function gameContract(rows: readonly OddsRow[], e: BoardEvent, book: BookDef | undefined): ContractMarket {
  const sorted = [...rows].sort(bySide);
  const first = sorted[0]!;
  const venueId = gameVenueId(first);
  const market = titleFromId(first.marketType);
  const who = first.playerName ? ` ${first.playerName}` : '';
  const at = first.groupLine !== null && first.marketType !== 'moneyline' ? ` ${Math.abs(first.groupLine)}` : '';
  return {
    market_id: `${first.sportsbook}:${venueId}`,
    venue: first.sportsbook,
    source_ids: { market_id: venueId, event_id: first.externalEventId, selection_ids: sorted.map((r) => r.selectionId ?? r.id) },
    title: `${e.awayTeam} @ ${e.homeTeam}:${who} ${market}${at}`,
    category: GAME_CATEGORY,
    sport: e.sport,
    league: e.league,
    market_type: first.marketType,
    status: gameStatus(e, sorted),
    outcomes: sorted.map((r) => outcome(r, r.selection)),
    volume: sumKnown(sorted.map((r) => r.volume)),
    open_interest: sumKnown(sorted.map((r) => r.openInterest)),
    sportsbook_ref: sportsbookRef(book),
    linked_event_id: e.id,
    futures_market_id: null,
    closes_at: iso(e.startTime),
    updated_at: iso(sorted.reduce((a, r) => Math.max(a, r.changedAt), 0)),
  };
}

/** A Yes/No contract's runner ("Craig Counsell: Yes" -> "Craig Counsell"); null for a plain yes/no or a runner of an n-way market. */
export function runnerOf(p: Pick<FuturesPrice, 'selection' | 'selectionType'>): string | null {
  if (p.selectionType !== 'yes' && p.selectionType !== 'no') return null;
  const m = /^(.*\S)\s*:\s*(yes|no)$/i.exec(p.selection.trim());
  return m ? m[1]! : null;
}

/**
 * The futures contracts of one venue in one futures market: one per runner of a Yes/No question asked about
 * several runners, else one with every outcome the venue quotes. Never linked to an event.
 */
export function futuresContracts(
  m: FuturesMarket,
  prices: readonly FuturesPrice[],
  book: BookDef | undefined,
  now: number,
): ContractMarket[] {
  const byRunner = new Map<string, FuturesPrice[]>();
  for (const p of prices) {
    const k = runnerOf(p) ?? '';
    const list = byRunner.get(k);
    if (list) list.push(p);
    else byRunner.set(k, [p]);
  }
  const out: ContractMarket[] = [];
  for (const [runner, ps] of byRunner) {
    const sorted = [...ps].sort(bySide);
    const first = sorted[0]!;
    const venueId = runner ? `${m.id}-${slugId(runner, 60)}` : m.id;
    const title = runner ? (m.name.includes('...') ? m.name.replace('...', runner) : `${m.name}: ${runner}`) : m.name;
    out.push({
      market_id: `${first.sportsbook}:${venueId}`,
      venue: first.sportsbook,
      source_ids: { market_id: venueId, event_id: first.externalId, selection_ids: sorted.map((p) => p.id) },
      title,
      category: m.kind,
      sport: m.sport,
      league: m.league,
      market_type: m.kind,
      status: m.closesAt < now ? 'closed' : 'open',
      outcomes: sorted.map((p) => outcome(p, runner ? (p.selectionType === 'yes' ? 'Yes' : 'No') : p.selection)),
      volume: sumKnown(sorted.map((p) => p.volume)),
      open_interest: sumKnown(sorted.map((p) => p.openInterest)),
      sportsbook_ref: sportsbookRef(book),
      linked_event_id: null,
      futures_market_id: m.id,
      closes_at: iso(m.closesAt),
      updated_at: iso(sorted.reduce((a, p) => Math.max(a, p.changedAt), 0)),
    });
  }
  return out;
}

export interface CategoryCount {
  id: string;
  label: string;
  market_count: number;
  books: Array<{ id: string; label: string; market_count: number }>;
}

/** Markets per category and, within one, per venue: most markets first (then by id). */
export function categoriesOf(markets: readonly ContractMarket[]): CategoryCount[] {
  const cats = new Map<string, Map<string, { label: string; n: number }>>();
  for (const m of markets) {
    const c = cats.get(m.category) ?? new Map<string, { label: string; n: number }>();
    cats.set(m.category, c);
    const b = c.get(m.venue) ?? { label: m.sportsbook_ref?.label ?? m.venue, n: 0 };
    b.n++;
    c.set(m.venue, b);
  }
  const desc = <T extends { market_count: number; id: string }>(a: T, b: T) => b.market_count - a.market_count || (a.id < b.id ? -1 : 1);
  return [...cats]
    .map(([id, books]) => ({
      id,
      label: id === GAME_CATEGORY ? 'Game contracts' : titleFromId(id),
      market_count: [...books.values()].reduce((a, b) => a + b.n, 0),
      books: [...books].map(([bid, b]) => ({ id: bid, label: b.label, market_count: b.n })).sort(desc),
    }))
    .sort(desc);
}

/**
 * Futures (outright) markets: a question settled at season's end or on a date (who wins the title, the MVP,
 * a team's win total, a yes/no proposition), priced at several books. Not events with two teams: they never
 * go on the odds board. Times are epoch ms.
 */

/** `future_type` of `/futures`: a team, a player, an over/under or a yes/no market. */
export type FutureType = 'TEAM' | 'PLAYER' | 'OVER_UNDER' | 'YES_NO';
export const FUTURE_TYPES: readonly FutureType[] = ['TEAM', 'PLAYER', 'OVER_UNDER', 'YES_NO'];

/** What a source says about the futures market of a quote (explicit: simulator, The Odds API outrights). */
export interface FutureTag {
  /** Stable market key within the league (e.g. `championship_2026`): the same key at every book is one market. */
  market: string;
  /** Display name ("NBA Championship 2026-27"). */
  name: string;
  type: FutureType;
  /** What is asked: championship_winner, conference_winner, division_winner, mvp, win_total, make_playoffs, ... */
  kind: string;
  /** The book's own id of the market, when it has one (deep links: a Kalshi series ticker, a Polymarket slug). */
  externalId?: string | null;
}

export interface FuturesMarket {
  /** `{league}_{key}` (catalog league id). */
  id: string;
  name: string;
  sport: string;
  league: string;
  futureType: FutureType;
  kind: string;
  /** When it settles or trading closes (the source's time; approximate). */
  closesAt: number;
  /**
   * A replayed capture's market: kept apart from the live markets (its id and name carry the import), never in
   * the live lists, +EV or low-hold, never expired; withdrawn by `import:remove`.
   */
  history?: boolean;
}

export interface FuturesPrice {
  /** Hash of book, market, selection, side and line: stable while the same thing is quoted. */
  id: string;
  marketId: string;
  sportsbook: string;
  selection: string;
  /** Canonical side: `other` (a team or player of an n-way market), `over`/`under`, `yes`/`no`. */
  selectionType: string;
  line: number | null;
  american: number;
  decimal: number;
  probability: number;
  /** The book's own market id (deep links), when the source gives one. */
  externalId: string | null;
  /** When we last saw the price or line change. */
  changedAt: number;
  /** When its source last sent or confirmed it (a price not confirmed within its source's window has left the market). */
  lastSeenAt: number;
  /**
   * Exchanges and prediction markets (absent or null elsewhere, and when the source sends none): best bid, best
   * ask and last trade as a contract price (0-1), amount traded and contracts outstanding.
   */
  bid?: number | null;
  ask?: number | null;
  last?: number | null;
  volume?: number | null;
  openInterest?: number | null;
  /** The batch source that last sent it (`simulator-futures`, `odds_api`, `import:<name>`, ...): its staleness window. */
  source?: string;
}

/** One accepted futures quote, resolved against the catalog. */
export interface ResolvedFuture {
  market: FuturesMarket;
  price: Omit<FuturesPrice, 'changedAt' | 'lastSeenAt'>;
  at: number;
}

/** What one apply changed (persisted, published to the other instances). */
export interface FuturesChange {
  markets: FuturesMarket[];
  prices: FuturesPrice[];
  /** Ids whose lastSeenAt moved (unchanged prices confirmed). */
  seen: string[];
  /** Price ids withdrawn (an import removed, a price past its staleness window). */
  removedPrices?: string[];
  /** Market ids withdrawn (closed long ago, or left without a price). */
  removedMarkets?: string[];
  at: number;
}

import type { FutureTag } from './futures.js';

/**
 * Domain types shared by ingestion, the board, detection and the API. Plain data, no framework.
 * Times are epoch milliseconds.
 */

export type EventStatus = 'upcoming' | 'live' | 'ended' | 'postponed' | 'cancelled';

/** A price in any one of the formats sources use. */
export interface PriceInput {
  american?: number;
  decimal?: number;
  probability?: number;
  /** Prediction-market binary contract price in dollars, 0-1. */
  contract_price?: number;
}

/** Identifies one price at one book (everything but the price itself). */
export interface QuoteKey {
  /** Sportsbook id (or an Odds API key, or any spelling of a catalog book); an unknown book is registered. */
  book: string;
  /** League id or any of its aliases or slug forms; a league the catalog lacks is registered under `sport`. */
  league: string;
  /** Sport of the league (id or alias); needed only to register a league the catalog does not know. */
  sport?: string | null;
  /** The source's display name of the league (e.g. The Odds API's sport_title), used when it is registered. */
  leagueName?: string | null;
  /** Team names as the source spells them (empty for futures without teams). */
  homeTeam: string;
  awayTeam: string;
  /** Event start (prediction markets: contract close time). */
  startTime: number;
  /** Doubleheader game number when the source gives one (1, 2). */
  gameNumber?: number;
  /** True when the source's start time is approximate (futures, prediction-market close times). */
  approximateStart?: boolean;
  /** Catalog market type id (e.g. moneyline, point_spread, total_points, player_points). */
  marketType: string;
  /** 'game' (default) or a period such as '1h', '1q', 'p1', 'f5'. */
  period?: string;
  /** Team name, 'Over'/'Under', 'Draw', a player, a score... */
  selection: string;
  /** Canonical side: home, away, draw, over, under, yes, no, other, ... (an Odds item's `selection_type`). */
  selectionType: string;
  /** Handicap or total; null/undefined without a line. For spreads, the selection's own handicap. */
  line?: number | null;
  playerName?: string | null;
  /** Player props and player futures: the player's team as the source names it (not part of the key). */
  playerTeam?: string | null;
  statCategory?: string | null;
  /**
   * Set by sources that know a quote is a futures (outright) price, with its market: ingestion hands such quotes
   * to the futures store (src/modules/stores/futures), never to the board. Quotes without it are recognised too
   * (src/domain/future-quote.ts).
   */
  future?: FutureTag;
}

/** One price reported by a provider. */
export interface Quote extends QuoteKey {
  price: PriceInput;
  isLive?: boolean;
  /** false = suspended (price frozen); default true. */
  isActive?: boolean;
  /** The book's own change time, when the source sends one. */
  sourceTime?: number | null;
  externalEventId?: string | null;
  marketId?: string | null;
  selectionId?: string | null;
  maxBet?: number | null;
  /** Exchanges and prediction markets: amount traded on the selection (the venue's native units). */
  volume?: number | null;
  /** Exchanges and prediction markets: amount traded in the last 24 hours. */
  volume24h?: number | null;
  /** Prediction markets: contracts outstanding. */
  openInterest?: number | null;
  /**
   * Exchanges and prediction markets: the best resting bid and ask and the last trade of the selection's contract,
   * as a contract price in dollars (0-1, the probability it pays). Absent or null: no quote rests (no trade yet).
   */
  bid?: number | null;
  ask?: number | null;
  last?: number | null;
  /** Baseball: the probable or actual starting pitchers, when the source names them. */
  homePitcher?: string | null;
  awayPitcher?: string | null;
}

/** Live state of a game (score, period, clock), as the simulator or a feed reports it. */
export interface GameState {
  home_score: number;
  away_score: number;
  game_period?: string;
  game_clock?: string;
  possession?: 'home' | 'away';
  [extra: string]: unknown;
}

/** What a provider says about an event itself. */
export interface EventUpdate {
  league: string;
  homeTeam: string;
  awayTeam: string;
  startTime: number;
  gameNumber?: number;
  book?: string;
  externalEventId?: string | null;
  status?: EventStatus;
  gameState?: GameState | null;
}

/** Public betting splits (handle % and bet %) of one event at one book. Shares are fractions 0-1. */
export interface SplitsInput {
  book: string;
  league: string;
  homeTeam: string;
  awayTeam: string;
  startTime: number;
  spread?: { away_line: number; home_line: number; handle_pct: { away: number; home: number }; bets_pct: { away: number; home: number } };
  total?: { line: number; handle_pct: { over: number; under: number }; bets_pct: { over: number; under: number } };
  moneyline?: {
    away_odds: number;
    home_odds: number;
    handle_pct: { away: number; home: number };
    bets_pct: { away: number; home: number };
  };
  fetchedAt: number;
}

/** One delivery from a provider. Removals withdraw prices (a book pulled a rung or a market). */
export interface ProviderBatch {
  source: string;
  quotes: Quote[];
  removals?: QuoteKey[];
  /** Remove every price of these books on these events (a game finished, a book dropped an event). */
  eventRemovals?: Array<{ book?: string; league: string; homeTeam: string; awayTeam: string; startTime: number; gameNumber?: number }>;
  events?: EventUpdate[];
  splits?: SplitsInput[];
  /**
   * Books whose whole current state this batch confirms (delta feeds: whatever they did not change is still
   * quoted as it was). Their prices count as seen now without being listed one by one.
   */
  confirms?: string[];
  /** Rows to remove by id (an import withdrawing what it brought before): board rows and futures prices. */
  removeIds?: string[];
  /**
   * The batch is history (a replayed capture): its futures quotes go to markets of their own, never into the
   * live futures markets, and never go stale.
   */
  history?: boolean;
  /** Report each quote's row id (`IngestReport.ids`). */
  reportIds?: boolean;
}

/** A source of prices: simulator, file import, upstream feed. */
export interface OddsProvider {
  readonly name: string;
  /** Milliseconds between polls; the ingestion scheduler calls poll() at this interval. */
  readonly intervalMs: number;
  /** Optional long preparation (catching up to `now`), done without holding the event loop; before start(). */
  prepare?(now: number): Promise<void>;
  /** Called once before the first poll. */
  start?(now: number): Promise<ProviderBatch | null> | ProviderBatch | null;
  poll(now: number): Promise<ProviderBatch | null> | ProviderBatch | null;
  stop?(): Promise<void> | void;
}

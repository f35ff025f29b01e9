import type { BookDef, LeagueDef } from '../config/catalog.js';
import type { EventStatus, GameState } from './types.js';

/**
 * One current price on the board: compact, numbers and interned strings; response objects are built at the
 * edge. Times are epoch ms.
 */
export interface OddsRow {
  id: string;
  sportsbook: string;
  eventId: string;
  sport: string;
  league: string;
  marketType: string;
  period: string;
  /** event|market|period|subject: one ladder of lines (subject = player, or team for team totals). */
  ladderKey: string;
  /** ladder|home-side line: the complementary outcomes of one market. */
  groupKey: string;
  /** Line seen from the home side (spreads) or the line itself; null without a line. */
  groupLine: number | null;
  selection: string;
  selectionType: string;
  line: number | null;
  playerName: string | null;
  statCategory: string | null;
  american: number;
  decimal: number;
  probability: number;
  isLive: boolean;
  isActive: boolean;
  /** When we last saw the price, line, live or active state change (the row's `timestamp`). */
  changedAt: number;
  /** The book's own change time when the source sends one, else when we first saw the current price. */
  oddsChangedAt: number;
  /** Last time any source confirmed the row. */
  lastSeenAt: number;
  externalEventId: string | null;
  marketId: string | null;
  selectionId: string | null;
  maxBet: number | null;
  /** Exchange and prediction-market data (null or absent elsewhere, and when the source sends none). */
  volume?: number | null;
  volume24h?: number | null;
  openInterest?: number | null;
  /** Exchange and prediction-market best bid, best ask and last trade (contract price 0-1); null: none rests. */
  bid?: number | null;
  ask?: number | null;
  last?: number | null;
  /** Baseball starters as the source names them (null or absent when it does not). */
  homePitcher?: string | null;
  awayPitcher?: string | null;
}

export interface BoardEvent {
  id: string;
  sport: string;
  league: string;
  homeTeam: string;
  awayTeam: string;
  homeKey: string;
  awayKey: string;
  startTime: number;
  status: EventStatus;
  externalIds: Record<string, string>;
  gameState: GameState | null;
  firstSeenAt: number;
  updatedAt: number;
  endedAt: number | null;
}

export interface RemovedRow {
  id: string;
  sportsbook: string;
  eventId: string;
  removedAt: number;
}

/** What one ingest changed: the unit the board publishes, persists and replays (delayed view, replicas). */
export interface ChangeSet {
  version: number;
  /** Publication sequence (stamped when the change set goes on the bus; stream frame ids derive from it). */
  seq?: number;
  at: number;
  upserted: OddsRow[];
  removed: RemovedRow[];
  events: BoardEvent[];
  eventsRemoved: string[];
  /** Ids confirmed unchanged (their lastSeenAt moved to `at`). */
  seen: string[];
  /** Books whose every price is confirmed as of `at` (delta feeds). */
  confirmed?: string[];
  /** Leagues and books registered on first sight by this change set (every instance's catalog adopts them). */
  catalog?: { leagues: LeagueDef[]; books: BookDef[] };
}

export function isChangeSetEmpty(cs: ChangeSet): boolean {
  return (
    !cs.upserted.length && !cs.removed.length && !cs.events.length && !cs.eventsRemoved.length && !cs.seen.length && !cs.confirmed?.length
  );
}

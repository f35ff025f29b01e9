import { decimalToAmerican, roundAmerican } from '../../math/odds.js';
import type { Move, PriceMark, SelectionMovement } from '../../math/line-movement.js';
import type { ChangeRow, StoredSeries } from '../stores/line-history/line-history.repository.js';
import type {
  BookMovementDto,
  HistoryPointDto,
  PriceMarkDto,
  PriceMoveDto,
  SelectionMovementDto,
  SteamMoveDto,
} from './dto/odds-history.response.dto.js';

export const iso = (ms: number): string => new Date(ms).toISOString();
/** Steam moves listed per selection: the latest ones (steam_count says how many there were). */
export const STEAM_LISTED = 50;
const seconds = (ms: number): number => Math.round(ms) / 1000;

/** A stored change as a point of GET /odds/history. */
export function toPoint(c: ChangeRow): HistoryPointDto {
  const removed = c.priceE4 === null;
  return {
    at: iso(c.at),
    odds_american: c.american,
    odds_decimal: c.priceE4 === null ? null : c.priceE4 / 10_000,
    is_live: c.isLive,
    status: removed ? 'removed' : c.isActive ? 'open' : 'suspended',
  };
}

/**
 * The American price a book showed at a decimal price: as stored with its changes (`american`, by book and decimal),
 * else converted (only for a price no change of the page carries, which the movement never produces).
 */
function americanOf(american: ReadonlyMap<string, number>, book: string, decimal: number): number {
  return american.get(`${book}|${decimal}`) ?? roundAmerican(decimalToAmerican(decimal));
}

function markDto(m: PriceMark | null, american: ReadonlyMap<string, number>): PriceMarkDto | null {
  return m ? { sportsbook: m.book, odds_american: americanOf(american, m.book, m.decimal), odds_decimal: m.decimal, at: iso(m.at) } : null;
}

function moveDto(m: Move, american: ReadonlyMap<string, number>): PriceMoveDto {
  return {
    sportsbook: m.book,
    at: iso(m.at),
    from_american: americanOf(american, m.book, m.from),
    to_american: americanOf(american, m.book, m.to),
    from_decimal: m.from,
    to_decimal: m.to,
  };
}

/** One selection's movement as an item of GET /odds/movement. */
export function movementItem(s: StoredSeries, m: SelectionMovement, american: ReadonlyMap<string, number>): SelectionMovementDto {
  const books: BookMovementDto[] = m.books.map((b) => ({
    sportsbook: b.book,
    open: markDto(b.open, american),
    current: markDto(b.current, american),
    high: markDto(b.high, american),
    low: markDto(b.low, american),
    quoting: b.quoting,
    moves: b.moves.length,
    first_move_at: b.moves.length ? iso(b.moves[0]!.at) : null,
    last_move_at: b.moves.length ? iso(b.moves[b.moves.length - 1]!.at) : null,
  }));
  const steam: SteamMoveDto[] = m.steam.slice(-STEAM_LISTED).map((st) => ({
    at: iso(st.at),
    direction: st.direction,
    leader: moveDto(st.leader, american),
    followers: st.followers.map((f) => ({
      ...moveDto({ book: f.book, at: f.at, from: f.from, to: f.to }, american),
      lag_seconds: seconds(f.lagMs),
    })),
    max_lag_seconds: seconds(Math.max(0, ...st.followers.map((f) => f.lagMs))),
  }));
  return {
    market_type: s.marketType,
    period: s.period,
    selection: s.selection,
    selection_type: s.selectionType,
    line: s.line,
    player_name: s.playerName,
    open: markDto(m.best.open, american),
    current: markDto(m.best.current, american),
    high: markDto(m.best.high, american),
    low: markDto(m.best.low, american),
    moves: m.moves.length,
    books_moved: books.filter((b) => b.moves > 0).length,
    first_mover: m.firstMover ? moveDto(m.firstMover, american) : null,
    steam_count: m.steam.length,
    steam,
    books,
  };
}

import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '../../../common/http/api-responses.js';

export const POINT_STATUSES = ['open', 'suspended', 'removed'] as const;
export type PointStatus = (typeof POINT_STATUSES)[number];

/** One stored change of a series. */
export class HistoryPointDto {
  @ApiProperty({ example: '2026-11-22T18:04:11.000Z', description: 'When the change was seen' }) at: string;
  @ApiProperty({ type: Number, nullable: true, example: -115, description: 'American price; null when removed' })
  odds_american: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 1.8696, description: 'Decimal price (4 decimals); null when removed' })
  odds_decimal: number | null;
  @ApiProperty({ example: false }) is_live: boolean;
  @ApiProperty({
    enum: POINT_STATUSES,
    example: 'open',
    description: 'open: quoted; suspended: shown but not taking bets; removed: withdrawn by the book (the series ends or pauses here)',
  })
  status: PointStatus;
}

/** One book's price series of one selection at one line. */
export class HistorySeriesDto {
  @ApiProperty({ example: 'draftkings' }) sportsbook: string;
  @ApiProperty({ example: 'point_spread' }) market_type: string;
  @ApiProperty({ example: 'game', description: 'game, or a period such as 1h' }) period: string;
  @ApiProperty({ example: 'Boston Celtics' }) selection: string;
  @ApiProperty({ example: 'home' }) selection_type: string;
  @ApiProperty({ type: Number, nullable: true, example: -3.5, description: "The selection's own line; null without one" }) line:
    number | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'Player of a prop; null otherwise' }) player_name: string | null;
  @ApiProperty({ example: 'a1b2c3d4e5f60718', description: 'The odds row id (GET /odds) the series records' }) odds_id: string;
  @ApiProperty({ type: [HistoryPointDto], description: 'Changes in the window, oldest first' }) points: HistoryPointDto[];
  @ApiProperty({ example: false, description: 'True when the window holds more changes than `max_points`' }) truncated: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'When truncated: the time of the first change left out (pass as `from` to continue); else null',
  })
  next_from: string | null;
}

/** `meta` of GET /odds/history. */
export class HistoryMetaDto extends PageMetaDto {
  @ApiProperty({ example: 'nba_celtics_lakers_2026-11-22_b3' }) event_id: string;
  @ApiProperty({ example: '2026-11-08T18:00:00.000Z', description: 'Window start applied' }) from: string;
  @ApiProperty({ example: '2026-11-22T18:00:00.000Z', description: "Window end applied (a delayed tier's ends its delay ago)" }) to: string;
  @ApiProperty({ example: 0, description: "The tier's data delay in seconds: nothing newer than now minus it is shown" })
  delay_seconds: number;
  @ApiProperty({ example: 14, description: 'How long changes are kept (LINE_HISTORY_RETENTION_DAYS)' }) retention_days: number;
  @ApiProperty({ example: 412, description: 'Changes on this page' }) points: number;
  @ApiProperty({ example: 'database' }) source: string;
}

/** A price of a book at a time (open, current, high or low). */
export class PriceMarkDto {
  @ApiProperty({ example: 'pinnacle', description: 'The book holding it (the first by name when several do)' }) sportsbook: string;
  @ApiProperty({ example: -112 }) odds_american: number;
  @ApiProperty({ example: 1.8929 }) odds_decimal: number;
  @ApiProperty({
    example: '2026-11-22T17:58:03.000Z',
    description: 'Since when (a book: its change; the best price: when it became the best)',
  })
  at: string;
}

/** A change of one book's quoted price. */
export class PriceMoveDto {
  @ApiProperty({ example: 'pinnacle' }) sportsbook: string;
  @ApiProperty({ example: '2026-11-22T17:58:03.000Z' }) at: string;
  @ApiProperty({ example: -105 }) from_american: number;
  @ApiProperty({ example: -112 }) to_american: number;
  @ApiProperty({ example: 1.9524 }) from_decimal: number;
  @ApiProperty({ example: 1.8929 }) to_decimal: number;
}

export class SteamFollowerDto extends PriceMoveDto {
  @ApiProperty({ example: 42.5, description: "Seconds after the leader's move" }) lag_seconds: number;
}

/** A steam move: the first book to move, and the books that moved the same way within the window after it. */
export class SteamMoveDto {
  @ApiProperty({ example: '2026-11-22T17:58:03.000Z', description: "The leader's move" }) at: string;
  @ApiProperty({
    enum: ['shortening', 'drifting'],
    example: 'shortening',
    description: 'shortening: the price fell (money on it); drifting: it rose',
  })
  direction: string;
  @ApiProperty({ type: PriceMoveDto, description: 'The first book to move' }) leader: PriceMoveDto;
  @ApiProperty({ type: [SteamFollowerDto], description: 'The books that followed, in the order they moved' }) followers: SteamFollowerDto[];
  @ApiProperty({ example: 61.2, description: 'Seconds until the last follower moved' }) max_lag_seconds: number;
}

/** One book's movement of a selection in the window. */
export class BookMovementDto {
  @ApiProperty({ example: 'draftkings' }) sportsbook: string;
  @ApiProperty({ type: PriceMarkDto, nullable: true, description: 'Its price in force at the window start, else its first quote in it' })
  open: PriceMarkDto | null;
  @ApiProperty({ type: PriceMarkDto, nullable: true, description: 'Its last quoted price at the window end' }) current: PriceMarkDto | null;
  @ApiProperty({ type: PriceMarkDto, nullable: true }) high: PriceMarkDto | null;
  @ApiProperty({ type: PriceMarkDto, nullable: true }) low: PriceMarkDto | null;
  @ApiProperty({ example: true, description: 'Whether it quotes at the window end (false: suspended or withdrawn)' }) quoting: boolean;
  @ApiProperty({ example: 4, description: 'Changes of its quoted price in the window (a suspension is not a move)' }) moves: number;
  @ApiProperty({ type: String, nullable: true, example: '2026-11-22T17:58:40.000Z' }) first_move_at: string | null;
  @ApiProperty({ type: String, nullable: true, example: '2026-11-22T18:20:12.000Z' }) last_move_at: string | null;
}

/** The movement of one selection (at one line) across the books in scope. */
export class SelectionMovementDto {
  @ApiProperty({ example: 'point_spread' }) market_type: string;
  @ApiProperty({ example: 'game' }) period: string;
  @ApiProperty({ example: 'Boston Celtics' }) selection: string;
  @ApiProperty({ example: 'home' }) selection_type: string;
  @ApiProperty({ type: Number, nullable: true, example: -3.5 }) line: number | null;
  @ApiProperty({ type: String, nullable: true, example: null }) player_name: string | null;
  @ApiProperty({ type: PriceMarkDto, nullable: true, description: 'The best price across the books at the window start (else its first)' })
  open: PriceMarkDto | null;
  @ApiProperty({ type: PriceMarkDto, nullable: true, description: 'The best price at the window end (null: no book quotes)' })
  current: PriceMarkDto | null;
  @ApiProperty({ type: PriceMarkDto, nullable: true, description: 'The highest the best price stood at in the window' })
  high: PriceMarkDto | null;
  @ApiProperty({ type: PriceMarkDto, nullable: true, description: 'The lowest the best price stood at in the window' })
  low: PriceMarkDto | null;
  @ApiProperty({ example: 9, description: "Moves of all the books' quoted prices" }) moves: number;
  @ApiProperty({ example: 3, description: 'Books that moved' }) books_moved: number;
  @ApiProperty({ type: PriceMoveDto, nullable: true, description: 'The first move in the window' }) first_mover: PriceMoveDto | null;
  @ApiProperty({ example: 1, description: 'Steam moves in the window' }) steam_count: number;
  @ApiProperty({ type: [SteamMoveDto], description: 'The steam moves, oldest first (the latest 50 when there were more)' })
  steam: SteamMoveDto[];
  @ApiProperty({ type: [BookMovementDto] }) books: BookMovementDto[];
}

/** `meta` of GET /odds/movement. */
export class MovementMetaDto extends PageMetaDto {
  @ApiProperty({ example: 'nba_celtics_lakers_2026-11-22_b3' }) event_id: string;
  @ApiProperty({ example: '2026-11-08T18:00:00.000Z' }) from: string;
  @ApiProperty({ example: '2026-11-22T18:00:00.000Z' }) to: string;
  @ApiProperty({ example: 0 }) delay_seconds: number;
  @ApiProperty({ example: 14 }) retention_days: number;
  @ApiProperty({ example: 60, description: 'Steam window applied (seconds)' }) steam_window: number;
  @ApiProperty({ example: 2, description: 'Followers a steam move needs' }) steam_min_followers: number;
  @ApiProperty({
    example: false,
    description: 'True when a series held more than 50,000 changes in the window (figures from its first 50,000)',
  })
  truncated: boolean;
  @ApiProperty({ example: 'database' }) source: string;
}

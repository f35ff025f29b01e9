import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CursorPaginationDto, PageMetaDto } from '../../../common/http/api-responses.js';
import { RefBlocksDto } from '../../opportunity-lists/dto/opportunity-item.response.dto.js';

/** One price of one book for one outcome (odds-item.ts builds it from a board row). */
export class OddsItemDto extends RefBlocksDto {
  @ApiProperty({
    description: 'Row id, stable while the book offers the outcome',
    example: 'draftkings:nba_celtics_lakers_2026-11-22_b3:moneyline:home',
  })
  id: string;
  @ApiProperty({ example: 'draftkings' }) sportsbook: string;
  @ApiProperty({ example: 'DraftKings' }) sportsbook_name: string;
  @ApiProperty({ example: 'nba_celtics_lakers_2026-11-22_b3' }) event_id: string;
  @ApiProperty({ type: String, nullable: true, description: "The book's own event id, when the feed sends one" }) external_event_id:
    string | null;
  @ApiProperty({ type: String, nullable: true, description: "The book's own market id, when the feed sends one" }) market_id: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The book's own selection id, when the feed sends one" }) selection_id:
    string | null;
  @ApiProperty({ example: 'basketball' }) sport: string;
  @ApiProperty({ example: 'nba' }) league: string;
  @ApiProperty({ description: 'Empty when the event left the board', example: 'Boston Celtics' }) home_team: string;
  @ApiProperty({ description: 'Empty when the event left the board', example: 'Los Angeles Lakers' }) away_team: string;
  @ApiProperty({ description: '"Away @ Home"', example: 'Los Angeles Lakers @ Boston Celtics' }) event_name: string;
  @ApiProperty({ example: 'moneyline' }) market_type: string;
  @ApiProperty({ description: 'full_game, 1h, 1q, ...', example: 'full_game' }) period: string;
  @ApiProperty({ description: 'The outcome as the book names it', example: 'Boston Celtics' }) selection: string;
  @ApiProperty({ description: 'home, away, draw, over, under, yes, no or other', example: 'home' }) selection_type: string;
  @ApiPropertyOptional({
    enum: ['home', 'away', 'draw'],
    description:
      'The team axis of the selection: `home`/`away`/`draw`, or the first part of a compound selection_type (`home_over` -> `home`); on a team total, the team it is about. Absent when the selection has no team side (a game total, yes/no, double chance)',
    example: 'home',
  })
  team_side?: 'home' | 'away' | 'draw';
  @ApiPropertyOptional({
    description:
      'The slice of the contest the market settles on: `full_game`, `1st_half`, `2nd_half`, `1st_quarter`…`4th_quarter`, `1st_period`…, `1st_inning`…, `1st_5_innings`, `1st_set`…; from the market type or the period. Absent for a period code the service does not know',
    example: 'full_game',
  })
  market_segment?: string;
  @ApiProperty({ example: -150 }) odds_american: number;
  @ApiProperty({ example: 1.6667 }) odds_decimal: number;
  @ApiProperty({ description: 'Implied probability, 1 / decimal', example: 0.6 }) probability: number;
  @ApiProperty({ description: 'Same as probability', example: 0.6 }) odds_probability: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Spread or total line; null without one', example: null }) line: number | null;
  @ApiProperty({ description: "The line is the ladder's consensus main line (true without a line)" }) is_main_line: boolean;
  @ApiProperty({ description: 'A line of a ladder other than its main line' }) is_alternate_line: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Scheduled start; null when the event left the board' })
  event_start_time: string | null;
  @ApiProperty() is_live: boolean;
  @ApiProperty({
    description:
      'true: open and bettable; false: suspended at the book, the price frozen at its last bettable value (an `odds:update` and an `odds:locked` frame announce the change)',
  })
  is_active: boolean;
  @ApiProperty({
    format: 'date-time',
    description:
      'When the pipeline last delivered or refreshed the row: it advances with every ingest that carries or confirms the price, even when the price did not change (a freshness signal, not a price-change time)',
  })
  timestamp: string;
  @ApiProperty({
    format: 'date-time',
    description:
      "When the price, line or live state last changed: the book's own change time when the feed sends one, else when the service first saw the current price. A confirmation without a change leaves it as it is",
  })
  odds_changed_at: string;
  @ApiProperty({ format: 'date-time', description: 'When a source last confirmed the price (the same instant as `timestamp`)' })
  last_seen_at: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'GET /deeplink/{id} for this price, which redirects to the book; null for a book without a link template',
  })
  deep_link: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The player, on player props' }) player_name: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The statistic, on player props' }) stat_category: string | null;
  @ApiPropertyOptional({ description: 'The largest stake the book takes, when the feed sends it' }) max_bet?: number;
  @ApiProperty({ format: 'uuid', description: 'A stable UUID (version 5) of the event' }) event_uuid: string;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['self_arbitrage', 'excess_hold', null],
    description:
      'The guards\' verdict on this venue\'s own market (README "Guards"): a flagged market stays out of every opportunity; null when sound or not judged',
  })
  market_flag: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Exchange and prediction-market rows: amount traded (null elsewhere)' })
  volume: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Exchange and prediction-market rows: traded in the last 24 h' }) volume_24h:
    number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Prediction-market rows: open interest' }) open_interest: number | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Baseball rows: the home starting pitcher (null until a source names one)',
  })
  home_pitcher?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Baseball rows: the away starting pitcher' }) away_pitcher?:
    string | null;
}

/** /odds/best: the best price of a selection, and how many books offered it. */
export class BestOddsItemDto extends OddsItemDto {
  @ApiProperty({ description: 'Books in scope pricing this selection', example: 7 }) books_compared: number;
}

/** /odds with group_by=event: one event and its rows. */
export class OddsEventGroupDto {
  @ApiProperty({ example: 'nba_celtics_lakers_2026-11-22_b3' }) event_id: string;
  @ApiProperty({ example: 'Los Angeles Lakers @ Boston Celtics' }) event_name: string;
  @ApiProperty({ example: 'basketball' }) sport: string;
  @ApiProperty({ example: 'nba' }) league: string;
  @ApiProperty({ example: 'Boston Celtics' }) home_team: string;
  @ApiProperty({ example: 'Los Angeles Lakers' }) away_team: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) start_time: string | null;
  @ApiProperty() is_live: boolean;
  @ApiProperty({ type: [OddsItemDto], description: "The event's rows (projected by `fields` when given)" }) odds: OddsItemDto[];
}

/** The filters an odds read echoes (null: not given). */
export class OddsFiltersDto {
  @ApiProperty({ type: [String], nullable: true }) sport: string[] | null;
  @ApiProperty({ type: [String], nullable: true }) league: string[] | null;
  @ApiProperty({ type: [String], nullable: true, description: "The books asked for; null: the tier's default books" }) sportsbook:
    string[] | null;
  @ApiProperty({ type: [String], nullable: true }) market: string[] | null;
  @ApiProperty({ type: String, nullable: true, description: 'Event ids, comma-separated' }) event: string | null;
  @ApiProperty({ type: Boolean, nullable: true }) live: boolean | null;
  @ApiProperty({ type: String, nullable: true }) team: string | null;
}

/** `meta` of /odds and /events/{id}/odds. */
export class OddsListMetaDto {
  @ApiProperty({ description: 'Items on this page (rows, or events with group_by=event)' }) count: number;
  @ApiProperty({ description: 'Items matching in all' }) total: number;
  @ApiProperty({ type: CursorPaginationDto }) pagination: CursorPaginationDto;
  @ApiProperty({ type: [String], description: 'The books in scope' }) books_available: string[];
  @ApiPropertyOptional({ type: [String], description: 'The books on this page (not with group_by)' }) books_returned?: string[];
  @ApiPropertyOptional({ enum: ['event'], description: 'Present with group_by=event' }) group_by?: string;
  @ApiProperty({ format: 'date-time', description: "When the data of the caller's view last changed" }) updated_at: string;
  @ApiProperty({ type: OddsFiltersDto }) filters: OddsFiltersDto;
}

/** `meta` of /odds/best. */
export class BestOddsMetaDto extends PageMetaDto {
  @ApiProperty({ type: [String], description: 'The books in scope' }) books_available: string[];
  @ApiProperty({ type: OddsFiltersDto }) filters: OddsFiltersDto;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

/** `meta` of /odds/delta. */
export class DeltaMetaDto extends PageMetaDto {
  @ApiProperty({ format: 'date-time', description: 'Pass as the next `since`' }) server_time: string;
  @ApiProperty({ type: [String], description: 'Books with changed rows' }) books_changed: string[];
  @ApiProperty({ type: OddsFiltersDto }) filters: OddsFiltersDto;
  @ApiProperty({ format: 'date-time', description: 'The `since` asked for' }) since: string;
}

/** A row withdrawn since `since` (/odds/delta). */
export class RemovedRowDto {
  @ApiProperty() id: string;
  @ApiProperty() sportsbook: string;
  @ApiProperty({ format: 'date-time' }) removed_at: string;
}

/** `meta` of /odds/comparison. */
export class ComparisonMetaDto {
  @ApiProperty() event_id: string;
  @ApiProperty({ example: 'Los Angeles Lakers @ Boston Celtics' }) event_name: string;
  @ApiProperty({ format: 'date-time' }) start_time: string;
  @ApiProperty() is_live: boolean;
  @ApiProperty({ type: [String], description: 'Books in scope that price the event' }) books_available: string[];
  @ApiProperty({ type: [String], description: 'Market types in the answer' }) markets: string[];
  @ApiProperty({ type: [String], nullable: true, description: 'The market filter asked for' }) market_filter: string[] | null;
  @ApiProperty({ description: 'Rows in the answer' }) count: number;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class BatchFiltersDto {
  @ApiProperty({ type: [String], nullable: true, description: "The books asked for; null: the tier's default books" }) sportsbook:
    string[] | null;
  @ApiProperty({ type: String, nullable: true }) market: string | null;
}

/** `meta` of /odds/batch. */
export class BatchMetaDto {
  @ApiProperty({ description: 'Distinct event ids asked for' }) requested: number;
  @ApiProperty({ description: 'Of them, events on the board' }) found: number;
  @ApiProperty({ type: [String], description: 'Ids not on the board' }) missing: string[];
  @ApiProperty({ description: 'Events per request on this tier' }) max_batch: number;
  @ApiProperty({ type: BatchFiltersDto }) filters: BatchFiltersDto;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

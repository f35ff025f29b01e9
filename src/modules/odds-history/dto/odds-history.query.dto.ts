import { TimeParam } from '../../../common/time/time-param.js';
import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MarketParam } from '../../../common/http/filter-params.js';
import { BooleanParam, CsvList, IntParam, PageQuery, StringParam } from '../../../common/http/query.js';

const NUMBER = /^[+-]?(\d{1,6}(\.\d{1,4})?|\.\d{1,4})$/;

/**
 * What both line-history routes take: one event (required: the service answers its absence with a 400 naming it),
 * the books (the tier book rules of /odds), the markets, selections, lines and periods, and a time window.
 */
export class LineHistoryFilterParams {
  @ApiPropertyOptional({
    description: 'Event id (required; alias event_id), such as `nba_celtics_lakers_2026-11-22_b3`. Missing: 400 invalid_request naming it.',
  })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(300)
  event?: string;

  @ApiPropertyOptional({ description: 'Alias of event' })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(300)
  event_id?: string;

  @ApiPropertyOptional({
    type: [String],
    description:
      "Sportsbook id(s), comma-separated (alias books), such as `draftkings,pinnacle`; omitted: the tier's default books. A book above the tier, or more books than the tier's maximum, is 403 tier_restricted.",
  })
  @IsOptional()
  @CsvList({ lowercase: true, aliases: ['books'] })
  @IsString({ each: true })
  sportsbook?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Alias of sportsbook' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  books?: string[];

  @ApiPropertyOptional({
    type: [String],
    description:
      'Selection(s), comma-separated: a side (`home`, `away`, `draw`, `over`, `under`) or a selection as the odds rows name it (case-insensitive), such as `home`',
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  selection?: string[];

  @ApiPropertyOptional({
    type: [String],
    description:
      "Line(s), comma-separated, as the selection's own line (a home spread -3.5, its away side +3.5; a total 221.5), such as `-3.5`",
  })
  @IsOptional()
  @CsvList()
  @Matches(NUMBER, { each: true, message: 'line must be a number such as -3.5 (comma-separated for several)' })
  line?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Period(s), comma-separated, such as `game` or `1h`' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  @MaxLength(20, { each: true })
  period?: string[];

  @ApiPropertyOptional({
    description:
      'Window start: RFC 3339 (`2026-11-22T18:00:00Z`) or Unix seconds. Default: the oldest change kept (LINE_HISTORY_RETENTION_DAYS).',
  })
  @IsOptional()
  @TimeParam()
  from?: string;

  @ApiPropertyOptional({
    description:
      "Window end: RFC 3339 or Unix seconds. Default: now; a free key's window ends 60 s ago whatever it asks (its data delay). Before `from`: 400.",
  })
  @IsOptional()
  @TimeParam()
  to?: string;
}

/** GET /odds/history: with_prior. */
class PriorParam {
  @ApiPropertyOptional({
    type: Boolean,
    description:
      'true: each series starts with its change in force at `from` (its last one before it; its time is then earlier than `from`), and a series quoted then but unchanged in the window is listed too, so a chart of the window starts at the prices of its start',
  })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'with_prior must be true or false' })
  with_prior?: boolean;
}

/** GET /odds/history. */
export class LineHistoryQuery extends IntersectionType(
  PageQuery({ defaultLimit: 50, maxLimit: 200, maxOffset: 5000 }),
  LineHistoryFilterParams,
  MarketParam,
  PriorParam,
) {
  @ApiPropertyOptional({
    description:
      'Changes per series (1-10000, default 1000): a series with more in the window holds its oldest ones, `truncated` true and `next_from` to continue from. A page holds at most 100,000 changes: it ends early (fewer series than `limit`, `has_more` true) rather than exceed it.',
    type: 'integer',
    minimum: 1,
    maximum: 10_000,
  })
  @IsOptional()
  @IntParam()
  @IsInt({ message: 'max_points must be an integer' })
  @Min(1, { message: 'max_points must be at least 1' })
  @Max(10_000, { message: 'max_points must not be greater than 10000' })
  max_points?: number;
}

/** GET /odds/movement. */
export class LineMovementQuery extends IntersectionType(
  PageQuery({ defaultLimit: 50, maxLimit: 200, maxOffset: 5000 }),
  LineHistoryFilterParams,
  MarketParam,
) {
  @ApiPropertyOptional({
    description:
      "Steam window in seconds (1-3600, default 60): a book's move in the same direction within this long after another's follows it",
    type: 'integer',
    minimum: 1,
    maximum: 3600,
  })
  @IsOptional()
  @IntParam()
  @IsInt({ message: 'steam_window must be an integer number of seconds' })
  @Min(1, { message: 'steam_window must be at least 1' })
  @Max(3600, { message: 'steam_window must not be greater than 3600' })
  steam_window?: number;

  @ApiPropertyOptional({
    description: 'Books that must follow a move for it to count as steam (1-50, default 2)',
    type: 'integer',
    minimum: 1,
    maximum: 50,
  })
  @IsOptional()
  @IntParam()
  @IsInt({ message: 'steam_min_followers must be an integer' })
  @Min(1, { message: 'steam_min_followers must be at least 1' })
  @Max(50, { message: 'steam_min_followers must not be greater than 50' })
  steam_min_followers?: number;
}

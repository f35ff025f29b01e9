import { DateParam, TimeParam } from '../../../common/time/time-param.js';
import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  BookParams,
  EventParams,
  LiveParam,
  MarketParam,
  PriceBoundsParams,
  SportLeagueParams,
  TeamParam,
} from '../../../common/http/filter-params.js';
import {
  BaseQuery,
  BooleanParam,
  CsvList,
  IntParam,
  PAGE_DEFAULT,
  PageQuery,
  SearchText,
  StringParam,
  splitList,
} from '../../../common/http/query.js';
import { ODDS_FIELDS } from '../odds-item.js';
import { SORT_FIELDS } from '../odds-sort.js';

const SORT_VALUES = SORT_FIELDS.flatMap((f) => [f, `-${f}`]);

/** sort and fields: the orders and the projection of Odds rows (/odds and /odds/delta). */
class OddsSortParams {
  @ApiPropertyOptional({
    enum: SORT_VALUES,
    description: 'Sort field; prefix "-" for descending, such as `-odds_decimal`. Default: event start, event, market, line, book.',
  })
  @IsOptional()
  @StringParam()
  @IsIn(SORT_VALUES, { message: `sort must be one of ${SORT_VALUES.join(', ')}` })
  sort?: string;

  @ApiPropertyOptional({
    type: [String],
    description: `Comma-separated projection, such as \`id,sportsbook,odds_american\`; allowed: ${ODDS_FIELDS.join(', ')}`,
  })
  @IsOptional()
  @CsvList()
  @IsIn(ODDS_FIELDS as unknown as string[], { each: true, message: `fields must be a comma-separated list of: ${ODDS_FIELDS.join(', ')}` })
  fields?: string[];
}

/** Main lines only (`is_main_line`, and `main`, its alias that the TypeScript client sends). */
class MainLineParams {
  @ApiPropertyOptional({ description: 'true: main lines only (rows with is_main_line true)', type: Boolean })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'is_main_line must be true or false' })
  is_main_line?: boolean;
  @ApiPropertyOptional({ description: 'Alias of is_main_line (the TypeScript SDK sends it)', type: Boolean })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'main must be true or false' })
  main?: boolean;
}

const ODDS_PAGE = PageQuery({ defaultLimit: 50, maxLimit: 500, maxOffset: 5000 });

export class ListOddsQuery extends IntersectionType(
  ODDS_PAGE,
  SportLeagueParams,
  BookParams,
  MarketParam,
  EventParams,
  LiveParam,
  TeamParam,
  PriceBoundsParams,
  OddsSortParams,
  MainLineParams,
) {
  @ApiPropertyOptional({ description: 'Game date (YYYY-MM-DD; US Eastern for US leagues, UTC otherwise), such as `2026-11-22`' })
  @IsOptional()
  @DateParam()
  date?: string;
  @ApiPropertyOptional({ description: 'Text search over teams, league and sport (partial; must contain a letter or digit)' })
  @IsOptional()
  @SearchText()
  q?: string;

  @ApiPropertyOptional({ enum: ['event'], description: 'Group rows by event (limit and offset then count events)' })
  @IsOptional()
  @StringParam()
  @IsIn(['event'], { message: 'group_by accepts only "event"' })
  group_by?: string;

  @ApiPropertyOptional({
    description: 'Opaque cursor from meta.pagination.next_cursor; takes precedence over offset and pages past offset 5000',
  })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(2000)
  cursor?: string;
}

export class BestOddsQuery extends IntersectionType(
  PageQuery(PAGE_DEFAULT),
  SportLeagueParams,
  BookParams,
  MarketParam,
  EventParams,
  LiveParam,
  TeamParam,
  PriceBoundsParams,
  MainLineParams,
) {}

/**
 * /odds/comparison: one event (required), the filters of /odds that narrow its rows (the TypeScript client sends
 * its /odds parameters here too), and a page over the books.
 */
export class ComparisonQuery extends IntersectionType(BaseQuery, SportLeagueParams, BookParams, MarketParam, LiveParam, MainLineParams) {
  @ApiPropertyOptional({ description: 'Event id (required; alias event_id), such as `nba_celtics_lakers_2026-11-22_b3`' })
  @IsOptional()
  @StringParam()
  @IsString()
  event?: string;
  @ApiPropertyOptional({ description: 'Alias of event' }) @IsOptional() @StringParam() @IsString() event_id?: string;

  @ApiPropertyOptional({
    description:
      'Books per page (1-500): `data` holds the rows of the books `meta.books_available` lists from position `offset`, `limit` of them. Omitted: every book.',
    minimum: 1,
    maximum: 500,
    type: 'integer',
  })
  @IsOptional()
  @IntParam()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(500, { message: 'limit must not be greater than 500' })
  limit?: number;

  @ApiPropertyOptional({
    description: 'Books of `meta.books_available` to skip (0-5000)',
    default: 0,
    minimum: 0,
    maximum: 5000,
    type: 'integer',
  })
  @IsOptional()
  @IntParam()
  @IsInt({ message: 'offset must be an integer' })
  @Min(0, { message: 'offset must not be negative' })
  @Max(5000, { message: 'offset must not be greater than 5000', context: { code: 'offset_too_large', max_offset: 5000 } })
  offset?: number;
}

export class DeltaQuery extends IntersectionType(
  ODDS_PAGE,
  SportLeagueParams,
  BookParams,
  MarketParam,
  EventParams,
  LiveParam,
  OddsSortParams,
) {
  @ApiPropertyOptional({
    description:
      'RFC 3339 time (required), such as `2026-11-22T18:00:00Z` (or a date, midnight UTC, or Unix seconds): rows changed after it, and ids removed after it. Chain calls with meta.server_time. An impossible date or a time outside 1970-01-01..9999-12-31 is 400.',
  })
  @IsOptional()
  @TimeParam()
  since?: string;
}

export class EventOddsQuery extends IntersectionType(ODDS_PAGE, BookParams, MarketParam) {}

export class BatchOddsBody {
  @ApiProperty({
    type: [String],
    description:
      "Event ids (1 to the tier's batch size: free 5, hobby 20, pro 50, sharp/enterprise 100). Unknown ids are listed in meta.missing.",
    example: ['nba_celtics_lakers_2026-11-22_b3'],
  })
  @Transform(({ value }) => (typeof value === 'string' ? splitList(value) : value))
  @IsArray({ message: 'event_ids must be an array of event ids' })
  @ArrayMinSize(1, { message: 'event_ids must name at least one event' })
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(300, { each: true })
  event_ids: string[];

  @ApiPropertyOptional({
    description: "One sportsbook, or several comma-separated; omitted: the tier's default books",
    example: 'draftkings',
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  sportsbook?: string;

  @ApiPropertyOptional({ description: 'One market type or alias, or several comma-separated', example: 'moneyline' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  market?: string;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, Max, Min } from 'class-validator';
import { BaseQuery, BooleanParam, CsvList, IntParam, PageQuery, SearchText, StringParam, splitList } from '../../../common/http/query.js';
import { ODDS_FIELDS } from '../odds-item.js';
import { SORT_FIELDS } from '../odds-query.js';

const SORT_VALUES = SORT_FIELDS.flatMap((f) => [f, `-${f}`]);

export class ListOddsQuery extends PageQuery({ defaultLimit: 50, maxLimit: 500, maxOffset: 5000 }) {
  @ApiPropertyOptional({ type: [String] }) @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) sport?: string[];
  @ApiPropertyOptional({ type: [String] }) @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) league?: string[];
  @ApiPropertyOptional({ description: 'Sportsbook id(s); omitted: the tier\'s default books. A book above the tier or more books than the tier\'s maximum is 403 tier_restricted.', example: 'draftkings,fanduel' })
  @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) sportsbook?: string[];
  @ApiPropertyOptional({ description: 'Extra book(s) on top of the default set', example: 'betmgm' })
  @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) add_sportsbook?: string[];
  @ApiPropertyOptional({ description: 'Market type(s) or category aliases (main, spread, total, props, alts)', example: 'moneyline' })
  @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) market?: string[];
  @ApiPropertyOptional({ description: 'Event id(s) (alias: event_id)' }) @IsOptional() @CsvList() @IsString({ each: true }) event?: string[];
  @ApiPropertyOptional({ description: 'Alias of event' }) @IsOptional() @CsvList() @IsString({ each: true }) event_id?: string[];
  @ApiPropertyOptional({ type: Boolean }) @IsOptional() @BooleanParam() @IsBoolean({ message: 'live must be true or false' }) live?: boolean;
  @ApiPropertyOptional({ description: 'Team name or alias (partial; must contain a letter or digit)', example: 'celtics' }) @IsOptional() @SearchText() team?: string;
  @ApiPropertyOptional({ description: 'Game date (YYYY-MM-DD; US Eastern for US leagues, UTC otherwise)', example: '2026-11-22' })
  @IsOptional() @StringParam() @IsString() @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'date must be YYYY-MM-DD' }) date?: string;
  @ApiPropertyOptional({ description: 'Text search over teams, league and sport (partial; must contain a letter or digit)' }) @IsOptional() @SearchText() q?: string;
  @ApiPropertyOptional({ description: 'Lowest American price', example: -200, type: Number })
  @IsOptional() @IntParam() @IsInt({ message: 'min_odds must be an integer American price' }) @Min(-100000) @Max(100000) min_odds?: number;
  @ApiPropertyOptional({ description: 'Highest American price', example: 200, type: Number })
  @IsOptional() @IntParam() @IsInt({ message: 'max_odds must be an integer American price' }) @Min(-100000) @Max(100000) max_odds?: number;
  @ApiPropertyOptional({ description: 'true: main lines only (rows with is_main_line true)', type: Boolean }) @IsOptional() @BooleanParam() @IsBoolean({ message: 'is_main_line must be true or false' }) is_main_line?: boolean;
  @ApiPropertyOptional({ description: 'Alias of is_main_line (the TypeScript SDK sends it)', type: Boolean }) @IsOptional() @BooleanParam() @IsBoolean({ message: 'main must be true or false' }) main?: boolean;

  @ApiPropertyOptional({ enum: SORT_VALUES, description: 'Sort field; prefix "-" for descending. Default: event start, event, market, line, book.', example: '-odds_decimal' })
  @IsOptional() @StringParam() @IsIn(SORT_VALUES, { message: `sort must be one of ${SORT_VALUES.join(', ')}` })
  sort?: string;

  @ApiPropertyOptional({ description: `Comma-separated projection; allowed: ${ODDS_FIELDS.join(', ')}`, example: 'id,sportsbook,odds_american' })
  @IsOptional() @CsvList() @IsIn(ODDS_FIELDS as unknown as string[], { each: true, message: `fields must be a comma-separated list of: ${ODDS_FIELDS.join(', ')}` })
  fields?: string[];

  @ApiPropertyOptional({ enum: ['event'], description: 'Group rows by event (limit and offset then count events)' })
  @IsOptional() @StringParam() @IsIn(['event'], { message: 'group_by accepts only "event"' })
  group_by?: string;

  @ApiPropertyOptional({ description: 'Opaque cursor from meta.pagination.next_cursor; takes precedence over offset and pages past offset 5000' })
  @IsOptional() @StringParam() @IsString() @MaxLength(2000)
  cursor?: string;
}

export class BestOddsQuery extends PageQuery({ defaultLimit: 50, maxLimit: 200, maxOffset: 5000 }) {
  @ApiPropertyOptional({ type: [String] }) @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) sport?: string[];
  @ApiPropertyOptional({ type: [String] }) @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) league?: string[];
  @ApiPropertyOptional({ description: 'Books to compare; omitted: the tier\'s default books', example: 'draftkings,fanduel,betmgm' })
  @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) sportsbook?: string[];
  @ApiPropertyOptional() @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) add_sportsbook?: string[];
  @ApiPropertyOptional({ example: 'moneyline' }) @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) market?: string[];
  @ApiPropertyOptional() @IsOptional() @CsvList() @IsString({ each: true }) event?: string[];
  @ApiPropertyOptional({ description: 'Alias of event' }) @IsOptional() @CsvList() @IsString({ each: true }) event_id?: string[];
  @ApiPropertyOptional({ type: Boolean }) @IsOptional() @BooleanParam() @IsBoolean({ message: 'live must be true or false' }) live?: boolean;
  @ApiPropertyOptional({ example: 'celtics' }) @IsOptional() @SearchText() team?: string;
  @ApiPropertyOptional({ type: Number }) @IsOptional() @IntParam() @IsInt({ message: 'min_odds must be an integer American price' }) @Min(-100000) @Max(100000) min_odds?: number;
  @ApiPropertyOptional({ type: Number }) @IsOptional() @IntParam() @IsInt({ message: 'max_odds must be an integer American price' }) @Min(-100000) @Max(100000) max_odds?: number;
  @ApiPropertyOptional({ type: Boolean, description: 'true: main lines only' }) @IsOptional() @BooleanParam() @IsBoolean({ message: 'is_main_line must be true or false' }) is_main_line?: boolean;
  @ApiPropertyOptional({ description: 'Alias of is_main_line', type: Boolean }) @IsOptional() @BooleanParam() @IsBoolean({ message: 'main must be true or false' }) main?: boolean;
}

export class ComparisonQuery extends BaseQuery {
  @ApiProperty({ description: 'Event id (required; alias event_id)', example: 'nba_celtics_lakers_2026-11-22_b3', required: false })
  @IsOptional() @StringParam() @IsString() event?: string;
  @ApiPropertyOptional({ description: 'Alias of event' }) @IsOptional() @StringParam() @IsString() event_id?: string;
  @ApiPropertyOptional({ example: 'moneyline,point_spread' }) @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) market?: string[];
  @ApiPropertyOptional({ description: 'Books; omitted: the tier\'s default books' }) @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) sportsbook?: string[];
  @ApiPropertyOptional() @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) add_sportsbook?: string[];
}

export class DeltaQuery extends PageQuery({ defaultLimit: 50, maxLimit: 500, maxOffset: 5000 }) {
  @ApiProperty({ description: 'RFC 3339 time (required): rows changed after it, and ids removed after it. Chain calls with meta.server_time.', example: '2026-11-22T18:00:00Z', required: false })
  @IsOptional() @StringParam() @IsString() since?: string;
  @ApiPropertyOptional({ type: [String] }) @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) sport?: string[];
  @ApiPropertyOptional({ type: [String] }) @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) league?: string[];
  @ApiPropertyOptional() @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) sportsbook?: string[];
  @ApiPropertyOptional() @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) add_sportsbook?: string[];
  @ApiPropertyOptional() @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) market?: string[];
  @ApiPropertyOptional() @IsOptional() @CsvList() @IsString({ each: true }) event?: string[];
  @ApiPropertyOptional({ description: 'Alias of event' }) @IsOptional() @CsvList() @IsString({ each: true }) event_id?: string[];
  @ApiPropertyOptional({ type: Boolean }) @IsOptional() @BooleanParam() @IsBoolean({ message: 'live must be true or false' }) live?: boolean;
  @ApiPropertyOptional({ enum: SORT_VALUES }) @IsOptional() @StringParam() @IsIn(SORT_VALUES, { message: `sort must be one of ${SORT_VALUES.join(', ')}` }) sort?: string;
  @ApiPropertyOptional({ description: 'Projection, as on /odds' }) @IsOptional() @CsvList() @IsIn(ODDS_FIELDS as unknown as string[], { each: true, message: `fields must be a comma-separated list of: ${ODDS_FIELDS.join(', ')}` }) fields?: string[];
}

export class EventOddsQuery extends PageQuery({ defaultLimit: 50, maxLimit: 500, maxOffset: 5000 }) {
  @ApiPropertyOptional({ example: 'draftkings,fanduel' }) @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) sportsbook?: string[];
  @ApiPropertyOptional() @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) add_sportsbook?: string[];
  @ApiPropertyOptional({ example: 'moneyline' }) @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true }) market?: string[];
}

export class BatchOddsBody {
  @ApiProperty({ type: [String], description: 'Event ids (1 to the tier\'s batch size: free 5, hobby 20, pro 50, sharp/enterprise 100). Unknown ids are listed in meta.missing.', example: ['nba_celtics_lakers_2026-11-22_b3'] })
  @Transform(({ value }) => (typeof value === 'string' ? splitList(value) : value))
  @IsArray({ message: 'event_ids must be an array of event ids' }) @ArrayMinSize(1, { message: 'event_ids must name at least one event' }) @ArrayMaxSize(1000) @IsString({ each: true }) @MaxLength(300, { each: true })
  event_ids: string[];

  @ApiPropertyOptional({ description: 'One sportsbook, or several comma-separated; omitted: the tier\'s default books', example: 'draftkings' })
  @IsOptional() @IsString() @MaxLength(500)
  sportsbook?: string;

  @ApiPropertyOptional({ description: 'One market type or alias, or several comma-separated', example: 'moneyline' })
  @IsOptional() @IsString() @MaxLength(500)
  market?: string;
}


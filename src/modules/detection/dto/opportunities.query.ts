import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { BooleanParam, CsvList, IntParam, NumberParam, PageQuery, SearchText, StringParam } from '../../../common/http/query.js';
import { DEVIG_METHODS } from '../../../math/devig.js';

const sortValues = (names: string[]) => names.flatMap((n) => [n, `-${n}`]);
export const EV_SORTS = sortValues(['ev', 'odds', 'confidence', 'start_time', 'kelly']);
export const ARB_SORTS = sortValues(['profit', 'start_time', 'sport']);
export const MIDDLE_SORTS = sortValues(['quality', 'ev', 'probability', 'middle_size']);
export const LOW_HOLD_SORTS = sortValues(['hold', 'market', 'sport']);
export const DATE_RANGES = ['today', 'tomorrow', 'week'];

/** Filters every opportunity list accepts. */
export class OpportunityFilters extends PageQuery({ defaultLimit: 50, maxLimit: 200, maxOffset: 5000 }) {
  @ApiPropertyOptional({ description: 'Sport id(s), comma-separated', example: 'basketball' })
  @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true })
  sport?: string[];

  @ApiPropertyOptional({ description: 'League id(s) or aliases, comma-separated', example: 'nba' })
  @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true })
  league?: string[];

  @ApiPropertyOptional({
    description: 'Books to consider (comma-separated). Omitted: the tier\'s default books, in which opportunities are found continuously; naming books narrows to opportunities among them. A book above the tier or more books than the tier allows is 403.',
    example: 'draftkings,fanduel,betmgm',
  })
  @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true })
  sportsbook?: string[];

  @ApiPropertyOptional({ description: 'Extra book(s) added to the tier\'s default set' })
  @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true })
  add_sportsbook?: string[];

  @ApiPropertyOptional({ description: 'Market type(s) or aliases (main, spread, total, props)', example: 'moneyline,spread' })
  @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true })
  market?: string[];

  @ApiPropertyOptional({ description: 'Event id(s) (alias event_id)' })
  @IsOptional() @CsvList() @IsString({ each: true })
  event?: string[];

  @ApiPropertyOptional({ description: 'Alias of event' })
  @IsOptional() @CsvList() @IsString({ each: true })
  event_id?: string[];

  @ApiPropertyOptional({ description: 'Team name or alias (partial; must contain a letter or digit)', example: 'celtics' })
  @IsOptional() @SearchText()
  team?: string;

  @ApiPropertyOptional({ type: Boolean, description: 'true: live only; false: pre-game only' })
  @IsOptional() @BooleanParam() @IsBoolean({ message: 'live must be true or false' })
  live?: boolean;

  @ApiPropertyOptional({ description: 'Only opportunities whose stalest price was confirmed at most this many seconds ago', example: 60, type: Number })
  @IsOptional() @NumberParam() @IsNumber({}, { message: 'max_odds_age must be a number of seconds' }) @Min(0)
  max_odds_age?: number;

  @ApiPropertyOptional({ enum: DATE_RANGES, description: 'Start date window in US Eastern time: today, tomorrow, or the next 7 days' })
  @IsOptional() @StringParam() @IsIn(DATE_RANGES, { message: `date_range must be one of ${DATE_RANGES.join(', ')}` })
  date_range?: string;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      'true: also list opportunities built on flagged venue markets (a venue whose own sides cross below 100% or hold far more than usual), with a VENUE_SELF_ARBITRAGE or VENUE_EXCESS_HOLD warning. Default false: a flagged market\'s prices are left out of detection.',
  })
  @IsOptional() @BooleanParam() @IsBoolean({ message: 'include_flagged must be true or false' })
  include_flagged?: boolean;
}

class OddsBounds extends OpportunityFilters {
  @ApiPropertyOptional({ description: 'Lowest American price (every leg)', example: -200, type: Number })
  @IsOptional() @IntParam() @IsInt({ message: 'min_odds must be an integer American price' }) @Min(-100000) @Max(100000)
  min_odds?: number;

  @ApiPropertyOptional({ description: 'Highest American price (every leg)', example: 400, type: Number })
  @IsOptional() @IntParam() @IsInt({ message: 'max_odds must be an integer American price' }) @Min(-100000) @Max(100000)
  max_odds?: number;
}

export class EvQuery extends OddsBounds {
  @ApiPropertyOptional({ description: 'Minimum EV in percent (default 0)', example: 2, type: Number })
  @IsOptional() @NumberParam() @IsNumber({}, { message: 'min_ev must be a number (percent)' }) @Min(-100) @Max(1000)
  min_ev?: number;

  @ApiPropertyOptional({ description: 'Maximum EV in percent', example: 15, type: Number })
  @IsOptional() @NumberParam() @IsNumber({}, { message: 'max_ev must be a number (percent)' }) @Min(-100) @Max(1000)
  max_ev?: number;

  @ApiPropertyOptional({ description: 'Minimum width of the sharp two-way market, in cents', type: Number })
  @IsOptional() @NumberParam() @IsNumber({}, { message: 'min_market_width must be a number' })
  min_market_width?: number;

  @ApiPropertyOptional({ description: 'Maximum width of the sharp two-way market, in cents (narrow = sharper)', example: 25, type: Number })
  @IsOptional() @NumberParam() @IsNumber({}, { message: 'max_market_width must be a number' })
  max_market_width?: number;

  @ApiPropertyOptional({ enum: EV_SORTS, description: 'ev (highest first, the default), odds, confidence, start_time, kelly; "-" reverses' })
  @IsOptional() @StringParam() @IsIn(EV_SORTS, { message: `sort must be one of ${EV_SORTS.join(', ')}` })
  sort?: string;

  @ApiPropertyOptional({ enum: DEVIG_METHODS, description: 'How the sharp line is devigged (default power); echoed in each item', example: 'power' })
  @IsOptional() @StringParam() @IsIn(DEVIG_METHODS as unknown as string[], { message: `devig_method must be one of ${DEVIG_METHODS.join(', ')}` })
  devig_method?: string;
}

export class ArbitrageQuery extends OddsBounds {
  @ApiPropertyOptional({ description: 'Minimum profit in percent (1.0 = 1%)', default: 0.5, example: 1, type: Number })
  @IsOptional() @NumberParam() @IsNumber({}, { message: 'min_profit must be a number (percent)' }) @Min(0) @Max(100)
  min_profit?: number;

  @ApiPropertyOptional({ enum: ['json', 'csv'], default: 'json', description: 'csv: a file arbitrage_<YYYY-MM-DD>.csv' })
  @IsOptional() @StringParam() @IsIn(['json', 'csv'], { message: 'format must be json or csv' })
  format?: string;

  @ApiPropertyOptional({ enum: ['best'], description: 'best: only the highest-profit arbitrage per event' })
  @IsOptional() @StringParam() @IsIn(['best'], { message: 'group accepts only "best"' })
  group?: string;

  @ApiPropertyOptional({ enum: ARB_SORTS, description: 'profit (highest first, the default), start_time, sport; "-" reverses' })
  @IsOptional() @StringParam() @IsIn(ARB_SORTS, { message: `sort must be one of ${ARB_SORTS.join(', ')}` })
  sort?: string;
}

export class MiddlesQuery extends OpportunityFilters {
  @ApiPropertyOptional({ description: 'Minimum middle size in points', default: 0.5, type: Number })
  @IsOptional() @NumberParam() @IsNumber({}, { message: 'min_size must be a number of points' }) @Min(0) @Max(1000)
  min_size?: number;

  @ApiPropertyOptional({ enum: MIDDLE_SORTS, description: 'quality (highest first, the default), ev, probability, middle_size; "-" reverses' })
  @IsOptional() @StringParam() @IsIn(MIDDLE_SORTS, { message: `sort must be one of ${MIDDLE_SORTS.join(', ')}` })
  sort?: string;
}

export class MiddlesSummaryQuery {
  @ApiPropertyOptional({ example: 'football' })
  @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true })
  sport?: string[];

  @ApiPropertyOptional({ example: 'nfl' })
  @IsOptional() @CsvList({ lowercase: true }) @IsString({ each: true })
  league?: string[];

  @IsOptional() @IsString() @StringParam()
  api_key?: string;

  @IsOptional() @IsString() @StringParam()
  state?: string;
}

export class LowHoldQuery extends OddsBounds {
  @ApiPropertyOptional({ description: 'Maximum hold in percent (at most 5: markets are tracked up to 5% hold; negative hold is an arbitrage)', default: 5, type: Number })
  @IsOptional() @NumberParam() @IsNumber({}, { message: 'max_hold must be a number (percent)' }) @Min(-100) @Max(5, { message: 'max_hold must not be greater than 5 (low-hold markets are tracked up to 5%)' })
  max_hold?: number;

  @ApiPropertyOptional({ enum: LOW_HOLD_SORTS, description: 'hold (lowest first, the default), market, sport; "-" reverses' })
  @IsOptional() @StringParam() @IsIn(LOW_HOLD_SORTS, { message: `sort must be one of ${LOW_HOLD_SORTS.join(', ')}` })
  sort?: string;
}

import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNumber, IsOptional, IsString, Min } from 'class-validator';
import {
  EventParams,
  LiveParam,
  MarketParam,
  PriceBoundsParams,
  SportLeagueParams,
  TeamParam,
} from '../../../common/http/filter-params.js';
import { BooleanParam, CsvList, NumberParam, PAGE_DEFAULT, PageQuery, StringParam } from '../../../common/http/query.js';

/** The values of a `sort` parameter: each field (and each other name of one), and each reversed with "-". */
export const sortValues = (names: string[], aliases: Readonly<Record<string, string>> = {}) =>
  [...names, ...Object.keys(aliases)].flatMap((n) => [n, `-${n}`]);
export const DATE_RANGES = ['today', 'tomorrow', 'week'];

/** Filters every opportunity list accepts. */
export class OpportunityFilters extends IntersectionType(
  PageQuery(PAGE_DEFAULT),
  SportLeagueParams,
  MarketParam,
  EventParams,
  TeamParam,
  LiveParam,
) {
  @ApiPropertyOptional({
    description:
      "Books to consider (comma-separated). Omitted: the tier's default books, in which opportunities are found continuously; naming books narrows to opportunities among them. A book above the tier or more books than the tier allows is 403.",
    example: 'draftkings,fanduel,betmgm',
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sportsbook?: string[];

  @ApiPropertyOptional({ description: "Extra book(s) added to the tier's default set" })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  add_sportsbook?: string[];

  @ApiPropertyOptional({
    description: 'Only opportunities whose stalest price was confirmed at most this many seconds ago',
    example: 60,
    type: Number,
  })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'max_odds_age must be a number of seconds' })
  @Min(0)
  max_odds_age?: number;

  @ApiPropertyOptional({ enum: DATE_RANGES, description: 'Start date window in US Eastern time: today, tomorrow, or the next 7 days' })
  @IsOptional()
  @StringParam()
  @IsIn(DATE_RANGES, { message: `date_range must be one of ${DATE_RANGES.join(', ')}` })
  date_range?: string;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      "true: also list opportunities built on flagged venue markets (a venue whose own sides cross below 100% or hold far more than usual), with a VENUE_SELF_ARBITRAGE or VENUE_EXCESS_HOLD warning. Default false: a flagged market's prices are left out of detection.",
  })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'include_flagged must be true or false' })
  include_flagged?: boolean;
}

/** The price bounds of the lists whose items are prices (every leg within them). */
export class OddsBounds extends IntersectionType(OpportunityFilters, PriceBoundsParams) {}

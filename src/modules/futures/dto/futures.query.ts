import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { CsvList, NumberParam, PAGE_DEFAULT, PageQuery, SearchText, StringParam } from '../../../common/http/query.js';
import { DEVIG_METHODS } from '../../../math/devig.js';
import { FUTURE_TYPES } from '../../../domain/futures.js';

const TYPES_MESSAGE = `future_type must be one or more of ${FUTURE_TYPES.join(', ')}`;

/** Filters every futures route takes. */
export class FuturesFilters extends PageQuery(PAGE_DEFAULT) {
  @ApiPropertyOptional({ type: String, description: 'Sport id(s), comma-separated', example: 'basketball' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  sport?: string[];

  @ApiPropertyOptional({ type: String, description: 'League id(s) or aliases, comma-separated', example: 'nba' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  league?: string[];

  @ApiPropertyOptional({ type: String, description: `Market kind(s): ${FUTURE_TYPES.join(', ')} (case-insensitive)`, example: 'TEAM' })
  @IsOptional()
  @CsvList()
  @IsString({ each: true })
  @IsIn([...FUTURE_TYPES, ...FUTURE_TYPES.map((t) => t.toLowerCase())], { each: true, message: TYPES_MESSAGE })
  future_type?: string[];

  @ApiPropertyOptional({
    type: String,
    description: 'Futures market id(s) (`market_id` of /futures), comma-separated',
    example: 'nba_championship_2026',
  })
  @IsOptional()
  @CsvList()
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  future_id?: string[];

  @ApiPropertyOptional({
    type: String,
    description: "Sportsbook id(s); omitted: the tier's default books (tier book rules apply)",
    example: 'draftkings,fanduel',
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sportsbook?: string[];

  @ApiPropertyOptional({ type: String, description: 'Extra book(s) on top of the default set', example: 'pinnacle' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  add_sportsbook?: string[];

  @ApiPropertyOptional({ description: 'Text in the market name or the selection (accents and case ignored)', example: 'celtics' })
  @IsOptional()
  @SearchText()
  q?: string;
}

export class FuturesOddsQuery extends FuturesFilters {}

export class FuturesEvQuery extends FuturesFilters {
  @ApiPropertyOptional({ description: 'Minimum EV in percent (default 0)', example: 2, type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'min_ev must be a number (percent)' })
  @Min(-100)
  @Max(1000)
  min_ev?: number;

  @ApiPropertyOptional({ enum: DEVIG_METHODS, description: 'How the sharp market is devigged (default power)', example: 'power' })
  @IsOptional()
  @StringParam()
  @IsIn(DEVIG_METHODS as unknown as string[], { message: `devig_method must be one of ${DEVIG_METHODS.join(', ')}` })
  devig_method?: string;
}

export class FuturesLowHoldQuery extends FuturesFilters {
  @ApiPropertyOptional({ description: 'Maximum hold in percent (default 5)', default: 5, type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'max_hold must be a number (percent)' })
  @Min(-100)
  @Max(100)
  max_hold?: number;
}

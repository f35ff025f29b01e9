import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';
import { CsvList, IntParam, NumberParam, StringParam } from '../../../common/http/query.js';
import { OpportunityFilters, sortValues } from '../../opportunity-lists/dto/opportunity-filters.query.js';

export const MIDDLE_SORTS = sortValues(['quality', 'ev', 'probability', 'middle_size']);

export class MiddlesQuery extends OpportunityFilters {
  @ApiPropertyOptional({ description: 'Minimum middle size in points', default: 0.5, type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'min_size must be a number of points' })
  @Min(0)
  @Max(1000)
  min_size?: number;

  @ApiPropertyOptional({ type: Number, description: 'Both sides priced at least this (American odds, e.g. -200)', example: -200 })
  @IsOptional()
  @IntParam()
  @IsInt({ message: 'min_odds must be an integer American price' })
  @Min(-100000)
  @Max(100000)
  min_odds?: number;

  @ApiPropertyOptional({ type: Number, description: 'Both sides priced at most this (American odds, e.g. 200)', example: 200 })
  @IsOptional()
  @IntParam()
  @IsInt({ message: 'max_odds must be an integer American price' })
  @Min(-100000)
  @Max(100000)
  max_odds?: number;

  @ApiPropertyOptional({
    enum: MIDDLE_SORTS,
    description: 'quality (highest first, the default), ev, probability, middle_size; "-" reverses',
  })
  @IsOptional()
  @StringParam()
  @IsIn(MIDDLE_SORTS, { message: `sort must be one of ${MIDDLE_SORTS.join(', ')}` })
  sort?: string;
}

export class MiddlesSummaryQuery {
  @ApiPropertyOptional({ example: 'football' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sport?: string[];

  @ApiPropertyOptional({ example: 'nfl' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  league?: string[];

  @IsOptional()
  @IsString()
  @StringParam()
  api_key?: string;

  @IsOptional()
  @IsString()
  @StringParam()
  state?: string;
}

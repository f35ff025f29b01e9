import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { NumberParam, StringParam } from '../../../common/http/query.js';
import { OddsBounds, sortValues } from '../../opportunity-lists/dto/opportunity-filters.query.js';
import { dict } from '../../../domain/dict.js';

/** Other names of the arbitrage orders (as the clients' docstrings spell them). */
export const ARB_SORT_ALIASES: Readonly<Record<string, string>> = dict({ time: 'start_time' });
export const ARB_SORTS = sortValues(['profit', 'start_time', 'sport', 'market'], ARB_SORT_ALIASES);

export class ArbitrageQuery extends OddsBounds {
  @ApiPropertyOptional({ description: 'Minimum profit in percent (1.0 = 1%)', default: 0.5, example: 1, type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'min_profit must be a number (percent)' })
  @Min(0)
  @Max(100)
  min_profit?: number;

  @ApiPropertyOptional({ enum: ['json', 'csv'], default: 'json', description: 'csv: a file arbitrage_<YYYY-MM-DD>.csv' })
  @IsOptional()
  @StringParam()
  @IsIn(['json', 'csv'], { message: 'format must be json or csv' })
  format?: string;

  @ApiPropertyOptional({ enum: ['best'], description: 'best: only the highest-profit arbitrage per event' })
  @IsOptional()
  @StringParam()
  @IsIn(['best'], { message: 'group accepts only "best"' })
  group?: string;

  @ApiPropertyOptional({
    enum: ARB_SORTS,
    description:
      'profit (highest first, the default), start_time (alias time; soonest kickoff first), sport (A-Z, then profit), market (market type A-Z, then profit); "-" reverses',
  })
  @IsOptional()
  @StringParam()
  @IsIn(ARB_SORTS, { message: `sort must be one of ${ARB_SORTS.join(', ')}` })
  sort?: string;
}

import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { NumberParam, StringParam } from '../../../common/http/query.js';
import { DEVIG_METHODS } from '../../../math/devig.js';
import { OddsBounds, sortValues } from '../../opportunity-lists/dto/opportunity-filters.query.js';

/** Other names of the +EV orders (as the public documentation and the clients' docstrings spell them). */
export const EV_SORT_ALIASES: Readonly<Record<string, string>> = {
  confidence_score: 'confidence',
  kelly_percent: 'kelly',
  time: 'start_time',
  books: 'book_count',
};
export const EV_SORTS = sortValues(['ev', 'odds', 'confidence', 'start_time', 'kelly', 'book_count'], EV_SORT_ALIASES);

export class EvQuery extends OddsBounds {
  @ApiPropertyOptional({ description: 'Minimum EV in percent (default 0)', example: 2, type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'min_ev must be a number (percent)' })
  @Min(-100)
  @Max(1000)
  min_ev?: number;

  @ApiPropertyOptional({ description: 'Maximum EV in percent', example: 15, type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'max_ev must be a number (percent)' })
  @Min(-100)
  @Max(1000)
  max_ev?: number;

  @ApiPropertyOptional({ description: 'Minimum width of the sharp two-way market, in cents', type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'min_market_width must be a number' })
  min_market_width?: number;

  @ApiPropertyOptional({ description: 'Maximum width of the sharp two-way market, in cents (narrow = sharper)', example: 25, type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'max_market_width must be a number' })
  max_market_width?: number;

  @ApiPropertyOptional({
    enum: EV_SORTS,
    description:
      'ev (highest EV first, the default), odds (highest price first), confidence (alias confidence_score; highest first), start_time (alias time; soonest kickoff first), kelly (alias kelly_percent; largest stake first), book_count (alias books: most books quoting the selection first); "-" reverses',
  })
  @IsOptional()
  @StringParam()
  @IsIn(EV_SORTS, { message: `sort must be one of ${EV_SORTS.join(', ')}` })
  sort?: string;

  @ApiPropertyOptional({
    enum: DEVIG_METHODS,
    description: 'How the sharp line is devigged (default power); echoed in each item',
    example: 'power',
  })
  @IsOptional()
  @StringParam()
  @IsIn(DEVIG_METHODS as unknown as string[], { message: `devig_method must be one of ${DEVIG_METHODS.join(', ')}` })
  devig_method?: string;
}

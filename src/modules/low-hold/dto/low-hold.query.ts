import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { NumberParam, StringParam } from '../../../common/http/query.js';
import { OddsBounds, sortValues } from '../../opportunity-lists/dto/opportunity-filters.query.js';

export const LOW_HOLD_SORTS = sortValues(['hold', 'market', 'sport']);

export class LowHoldQuery extends OddsBounds {
  @ApiPropertyOptional({
    description: 'Maximum hold in percent (at most 5: markets are tracked up to 5% hold; negative hold is an arbitrage)',
    default: 5,
    type: Number,
  })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'max_hold must be a number (percent)' })
  @Min(-100)
  @Max(5, { message: 'max_hold must not be greater than 5 (low-hold markets are tracked up to 5%)' })
  max_hold?: number;

  @ApiPropertyOptional({ enum: LOW_HOLD_SORTS, description: 'hold (lowest first, the default), market, sport; "-" reverses' })
  @IsOptional()
  @StringParam()
  @IsIn(LOW_HOLD_SORTS, { message: `sort must be one of ${LOW_HOLD_SORTS.join(', ')}` })
  sort?: string;
}

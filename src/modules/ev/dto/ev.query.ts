import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { BooleanParam, NumberParam, StringParam } from '../../../common/http/query.js';
import { DEVIG_METHODS } from '../../../math/devig.js';
import { OddsBounds, sortValues } from '../../opportunity-lists/dto/opportunity-filters.query.js';
import { dict } from '../../../domain/dict.js';

/** Other names of the +EV orders (as the public documentation and the clients' docstrings spell them). */
export const EV_SORT_ALIASES: Readonly<Record<string, string>> = dict({
  confidence_score: 'confidence',
  kelly_percent: 'kelly',
  time: 'start_time',
  books: 'book_count',
});
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

  @ApiPropertyOptional({ description: 'Minimum full-Kelly stake in percent of bankroll (2 = 2%, kelly_percent 0.02)', type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'min_kelly must be a number (percent of bankroll)' })
  @Min(0)
  @Max(100)
  min_kelly?: number;

  @ApiPropertyOptional({ description: 'Maximum full-Kelly stake in percent of bankroll (2 = 2%, kelly_percent 0.02)', type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'max_kelly must be a number (percent of bankroll)' })
  @Min(0)
  @Max(100)
  max_kelly?: number;

  @ApiPropertyOptional({ description: 'Minimum confidence_score (0-100)', type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'min_confidence must be a number from 0 to 100' })
  @Min(0)
  @Max(100)
  min_confidence?: number;

  @ApiPropertyOptional({ description: 'Maximum confidence_score (0-100)', type: Number })
  @IsOptional()
  @NumberParam()
  @IsNumber({}, { message: 'max_confidence must be a number from 0 to 100' })
  @Min(0)
  @Max(100)
  max_confidence?: number;

  @ApiPropertyOptional({ type: Boolean, description: 'true: player props only; false: game markets only' })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'is_player_prop must be true or false' })
  is_player_prop?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'true: alternate lines only; false: main lines (and markets without lines) only' })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'is_alternate_line must be true or false' })
  is_alternate_line?: boolean;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: only items with an arbitrage on the same market (arb_available); false: only without',
  })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'arb_available must be true or false' })
  arb_available?: boolean;

  @ApiPropertyOptional({ description: 'Player name, exact (case-insensitive), such as `Aaron Judge` (alias: player)' })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(100)
  player_name?: string;

  @ApiPropertyOptional({ description: 'Alias of player_name' })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(100)
  player?: string;

  @ApiPropertyOptional({ description: 'Player-prop stat category, exact (case-insensitive), such as `points`' })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(100)
  stat_category?: string;

  @ApiPropertyOptional({ description: 'Selection name, exact (case-insensitive), such as `Over` or a team name' })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(200)
  selection?: string;

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

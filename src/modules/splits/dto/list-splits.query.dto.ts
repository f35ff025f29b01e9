import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { BaseQuery, CsvList, IntParam } from '../../../common/http/query.js';
import { SPLITS_MARKETS, type SplitsMarket } from '../../stores/splits/splits-store.js';

/**
 * GET /splits: limit default 100, max 200; offset max 5000 (past it 400 offset_too_large).
 * The same rules as PageQuery, spelled out here so the OpenAPI text carries examples.
 */
export class ListSplitsQuery extends BaseQuery {
  @ApiPropertyOptional({ description: 'Page size (1-200)', default: 100, minimum: 1, maximum: 200, type: 'integer', example: 50 })
  @IntParam()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(200, { message: 'limit must not be greater than 200' })
  limit: number = 100;

  @ApiPropertyOptional({
    description: 'Items to skip (0-5000; past it 400 offset_too_large)',
    default: 0,
    minimum: 0,
    maximum: 5000,
    type: 'integer',
    example: 100,
  })
  @IntParam()
  @IsInt({ message: 'offset must be an integer' })
  @Min(0, { message: 'offset must not be negative' })
  @Max(5000, { message: 'offset must not be greater than 5000', context: { code: 'offset_too_large', max_offset: 5000 } })
  offset: number = 0;

  @ApiPropertyOptional({ description: 'Sport id(s), comma-separated; an unknown sport is 400', example: 'basketball', type: String })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sport?: string[];

  @ApiPropertyOptional({
    description: 'League id(s) or aliases, comma-separated; an unknown league is 400',
    example: 'nba,nfl',
    type: String,
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  league?: string[];

  @ApiPropertyOptional({
    description: 'Splits source(s), comma-separated: `draftkings` (recreational) and/or `circa` (sharp-friendly); any other book is 400',
    example: 'circa',
    type: String,
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sportsbook?: string[];

  @ApiPropertyOptional({
    description: 'Event id(s), comma-separated (alias: event_id)',
    example: 'nba_celtics_lakers_2026-11-22_b3',
    type: String,
  })
  @IsOptional()
  @CsvList()
  @IsString({ each: true })
  event?: string[];

  @ApiPropertyOptional({ description: 'Alias of event', example: 'nba_celtics_lakers_2026-11-22_b3', type: String })
  @IsOptional()
  @CsvList()
  @IsString({ each: true })
  event_id?: string[];

  @ApiPropertyOptional({
    description:
      'Market(s), comma-separated: `spread`, `total`, `moneyline`; keeps entries with splits for at least one of them. Anything else is 400.',
    example: 'spread,total',
    type: String,
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsIn(SPLITS_MARKETS as unknown as string[], {
    each: true,
    message: `market must be a comma-separated list of: ${SPLITS_MARKETS.join(', ')}`,
  })
  market?: SplitsMarket[];
}

import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { BaseQuery, CsvList, PAGE_DEFAULT, PageQuery, StringParam } from '../../../common/http/query.js';
import { MARKET_STATUSES } from '../prediction-markets.mapper.js';

const Venue = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      description: 'Venue(s): exchange or prediction-market book ids, comma-separated (omitted: every venue the tier may use)',
      example: 'kalshi,polymarket',
    }),
    IsOptional(),
    CsvList({ lowercase: true }),
    IsString({ each: true }),
    MaxLength(64, { each: true }),
  );

const League = () =>
  applyDecorators(
    ApiPropertyOptional({ type: String, description: 'League id(s) or aliases, comma-separated (unknown league: 400)', example: 'mlb' }),
    IsOptional(),
    CsvList({ lowercase: true }),
    IsString({ each: true }),
    MaxLength(100, { each: true }),
  );

const Status = () =>
  applyDecorators(
    ApiPropertyOptional({
      enum: MARKET_STATUSES,
      description: 'open (takes orders), suspended (no outcome takes orders), closed (game over, question closed)',
    }),
    IsOptional(),
    StringParam(),
    IsIn([...MARKET_STATUSES], { message: `status must be one of ${MARKET_STATUSES.join(', ')}` }),
  );

/** GET /prediction-markets/categories. */
export class PredictionMarketCategoriesQuery extends BaseQuery {
  @Venue() venue?: string[];
  @League() league?: string[];
  @Status() status?: string;
}

/** GET /prediction-markets. */
export class PredictionMarketsQuery extends PageQuery(PAGE_DEFAULT) {
  @Venue() venue?: string[];
  @League() league?: string[];
  @Status() status?: string;

  @ApiPropertyOptional({
    type: String,
    description: 'Category id(s) (`id` of /prediction-markets/categories: `game`, or a futures kind such as championship_winner, mvp)',
    example: 'game',
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  category?: string[];

  @ApiPropertyOptional({
    description: 'Linked canonical event id: the game contracts of one game',
    example: 'mlb_rays_redsox_2026-07-12_b3',
  })
  @IsOptional()
  @StringParam()
  @IsString({ message: 'event_id must be a string' })
  @MinLength(1, { message: 'event_id must not be empty' })
  @MaxLength(200, { message: 'event_id must be at most 200 characters' })
  event_id?: string;
}

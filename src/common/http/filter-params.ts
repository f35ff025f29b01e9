import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { BooleanParam, CsvList, IntParam, SearchText, StringParam } from './query.js';

/**
 * Query filters several endpoints share, each declared once (description, parsing, validation) and combined
 * into an endpoint's query class with `IntersectionType` (@nestjs/swagger), which carries the OpenAPI,
 * class-validator and class-transformer metadata over. An endpoint whose filter means something else keeps
 * its own declaration.
 */

/** sport and league: ids or aliases, comma-separated. */
export class SportLeagueParams {
  @ApiPropertyOptional({ type: [String], description: 'Sport id(s), comma-separated, such as `basketball`' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sport?: string[];

  @ApiPropertyOptional({ type: [String], description: 'League id(s) or aliases, comma-separated, such as `nba`' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  league?: string[];
}

/** The books a request covers, under the tier's book rules. */
export class BookParams {
  @ApiPropertyOptional({
    type: [String],
    description:
      "Sportsbook id(s), comma-separated, such as `draftkings,fanduel`; omitted: the tier's default books. A book above the tier, or more books than the tier's maximum, is 403 tier_restricted.",
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sportsbook?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Extra book(s) on top of the default set, such as `betmgm`' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  add_sportsbook?: string[];
}

/** market: market types or category aliases; `market_type` is an alias (its values are added to market's). */
export class MarketParam {
  @ApiPropertyOptional({
    type: [String],
    description:
      'Market type(s) or category aliases (main, spread, total, props, alts), comma-separated, such as `moneyline` (alias: market_type)',
  })
  @IsOptional()
  @CsvList({ lowercase: true, aliases: ['market_type'] })
  @IsString({ each: true })
  market?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Alias of market', example: 'point_spread' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  market_type?: string[];
}

/** event, and its alias event_id. */
export class EventParams {
  @ApiPropertyOptional({ type: [String], description: 'Event id(s), comma-separated (alias: event_id)' })
  @IsOptional()
  @CsvList()
  @IsString({ each: true })
  event?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Alias of event' })
  @IsOptional()
  @CsvList()
  @IsString({ each: true })
  event_id?: string[];
}

export class LiveParam {
  @ApiPropertyOptional({ type: Boolean, description: 'true: live only; false: pre-game only; omitted: both' })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'live must be true or false' })
  live?: boolean;
}

export class TeamParam {
  @ApiPropertyOptional({ description: 'Team name or alias (partial; must contain a letter or digit), such as `celtics`' })
  @IsOptional()
  @SearchText()
  team?: string;
}

/** Bounds on American prices. */
export class PriceBoundsParams {
  @ApiPropertyOptional({ type: Number, description: 'Lowest American price (on opportunities: of every leg), such as `-200`' })
  @IsOptional()
  @IntParam()
  @IsInt({ message: 'min_odds must be an integer American price' })
  @Min(-100000)
  @Max(100000)
  min_odds?: number;

  @ApiPropertyOptional({ type: Number, description: 'Highest American price (on opportunities: of every leg), such as `200`' })
  @IsOptional()
  @IntParam()
  @IsInt({ message: 'max_odds must be an integer American price' })
  @Min(-100000)
  @Max(100000)
  max_odds?: number;
}

/**
 * One event, required (`event_id`, alias `event`): the routes about a single event's history (/splits/history,
 * /odds/closing). Declared optional so that the service answers a missing id with a 400 naming it.
 */
export class OneEventParam {
  @ApiProperty({
    description: 'Event id (required; alias: event). Missing: 400 invalid_request naming it.',
    example: 'nba_celtics_lakers_2026-11-22_b3',
    required: true,
  })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(300)
  event_id?: string;

  @ApiPropertyOptional({ description: 'Alias of event_id', example: 'nba_celtics_lakers_2026-11-22_b3' })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(300)
  event?: string;
}

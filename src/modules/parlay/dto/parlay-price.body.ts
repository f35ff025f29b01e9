import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsNumber, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';

const idText = (description: string, example: string) => (target: object, key: string) => {
  ApiPropertyOptional({ description, example })(target, key);
  IsOptional()(target, key);
  IsString({ message: `${key} must be a string` })(target, key);
  MinLength(1, { message: `${key} must not be empty` })(target, key);
  MaxLength(200, { message: `${key} must be at most 200 characters` })(target, key);
};

/** One leg: an odds row id, or an event, market and selection (line and sportsbook when several prices match). */
export class ParlayLegBody {
  @idText('An odds row id, as /odds returns it (`id`); or give event_id, market and selection', '3f9a1c2b7d4e5f60')
  odds_id?: string;

  @idText('Event id', 'nfl_chiefs_bills_2026-11-22_a1')
  event_id?: string;

  @idText('Market type (`market_type` of /odds)', 'point_spread')
  market?: string;

  @idText('Selection: its name, or its side (home, away, draw, over, under)', 'home')
  selection?: string;

  @ApiPropertyOptional({ description: "The selection's line (needed when the book quotes several)", example: -7.5 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'line must be a number' })
  line?: number;

  @idText("Sportsbook (default: the slip's book)", 'draftkings')
  sportsbook?: string;
}

/** `POST /parlay/price` body. */
export class ParlayPriceBody {
  @ApiProperty({ type: [ParlayLegBody], description: 'The legs: 2 to 10' })
  @IsArray({ message: 'legs must be an array of legs' })
  @IsObject({ each: true, message: 'every leg must be an object' })
  @ValidateNested({ each: true })
  @Type(() => ParlayLegBody)
  legs: ParlayLegBody[];

  @ApiPropertyOptional({ description: 'The book of the slip, for legs that name none', example: 'draftkings' })
  @IsOptional()
  @IsString({ message: 'sportsbook must be a string' })
  @MinLength(1, { message: 'sportsbook must not be empty' })
  @MaxLength(200, { message: 'sportsbook must be at most 200 characters' })
  sportsbook?: string;
}

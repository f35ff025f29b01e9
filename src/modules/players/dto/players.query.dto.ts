import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { CsvList, PAGE_DEFAULT, PageQuery, SearchText, StringParam } from '../../../common/http/query.js';

/** GET /players. */
export class PlayersQuery extends PageQuery(PAGE_DEFAULT) {
  @ApiPropertyOptional({ type: String, description: 'League id(s) or aliases, comma-separated (unknown league: 400)', example: 'mlb' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  league?: string[];

  @ApiPropertyOptional({
    description: "The player's current team: its id (`team_id`, the `/teams` id) or its name (accents and case ignored)",
    example: 'boston_red_sox',
  })
  @IsOptional()
  @StringParam()
  @IsString({ message: 'team must be a string' })
  @MinLength(1, { message: 'team must not be empty' })
  @MaxLength(200, { message: 'team must be at most 200 characters' })
  team?: string;

  @ApiPropertyOptional({ description: 'Part of the player name (accents and case ignored)', example: 'witt' })
  @IsOptional()
  @SearchText()
  q?: string;
}

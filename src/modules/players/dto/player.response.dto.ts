import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One player the sources quoted. Optional keys are absent (never null) when unknown. */
export class PlayerDto {
  @ApiProperty({
    example: 'baseball_mlb_bobby_witt_jr',
    description: 'sport_league_name: the `player_id` of +EV items and settlements, the same whichever source quoted the player',
  })
  id: string;

  @ApiProperty({ example: 'Bobby Witt Jr.', description: 'The name as the first source quoting the player spelled it' })
  display_name: string;

  @ApiPropertyOptional({ example: 'Bobby', description: 'The first word of the name (absent for a one-word name)' })
  first_name?: string;

  @ApiPropertyOptional({ example: 'Witt Jr.', description: 'The rest of the name (absent for a one-word name)' })
  last_name?: string;

  @ApiProperty({ type: [String], example: ['mlb'], description: 'The leagues the player is quoted in' })
  leagues: string[];

  @ApiPropertyOptional({
    example: 'kansas_city_royals',
    description:
      'The team the latest quote naming one gives (the `/teams` id; a team the catalog does not know: its name as a slug). Absent when no source named it',
  })
  team_id?: string;
}

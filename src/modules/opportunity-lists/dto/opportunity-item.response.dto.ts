import { ApiProperty } from '@nestjs/swagger';

import { RefBlocksDto } from '../../reference/dto/ref-blocks.response.dto.js';

export { LabelRefDto, RefBlocksDto, SportRefDto, TeamRefDto } from '../../reference/dto/ref-blocks.response.dto.js';

/** The event and market fields every opportunity item starts with (present.ts eventBlock). */
export class OpportunityEventDto extends RefBlocksDto {
  @ApiProperty({ description: 'Event id', example: 'nba_celtics_lakers_2026-11-22_b3' }) event_id: string;
  @ApiProperty({ description: '"Away @ Home" (the event id when the event is unknown)', example: 'Los Angeles Lakers @ Boston Celtics' })
  event_name: string;
  @ApiProperty({ example: 'basketball' }) sport: string;
  @ApiProperty({ example: 'nba' }) league: string;
  @ApiProperty({ description: 'Empty when the event is unknown', example: 'Boston Celtics' }) home_team: string;
  @ApiProperty({ description: 'Empty when the event is unknown', example: 'Los Angeles Lakers' }) away_team: string;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'Scheduled start (ISO 8601); null when the event is unknown',
  })
  start_time: string | null;
  @ApiProperty({ description: 'Market type id', example: 'point_spread' }) market_type: string;
  @ApiProperty({ description: 'Period (full_game, 1h, 1q, ...)', example: 'full_game' }) period: string;
  @ApiProperty({ description: 'Whether the market is a player prop' }) is_player_prop: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'The player, on player props' }) player_name: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The statistic, on player props (points, rebounds, ...)' }) stat_category:
    string | null;
}

export const WARNINGS_DESCRIPTION = 'Warnings with their thresholds are listed in the README, "Opportunities"';

import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '../../../common/http/api-responses.js';
import { RefBlocksDto } from '../../reference/dto/ref-blocks.response.dto.js';

/** One event (game) on the board (events.service.ts `view`). */
export class EventDto extends RefBlocksDto {
  @ApiProperty({ description: '{league}_{teamA}_{teamB}_{YYYY-MM-DD}_b{N}', example: 'nba_celtics_lakers_2026-11-22_b3' }) id: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: "Each source's own id of the event, by source",
    example: { odds_api: 'e912304de2b2ce35b473ce2ecd3d1502' },
  })
  external_ids: Record<string, string>;
  @ApiProperty({ example: 'basketball' }) sport: string;
  @ApiProperty({ example: 'nba' }) league: string;
  @ApiProperty({ example: 'Boston Celtics' }) home_team: string;
  @ApiProperty({ example: 'Los Angeles Lakers' }) away_team: string;
  @ApiProperty({ format: 'date-time' }) start_time: string;
  @ApiProperty({ enum: ['upcoming', 'live', 'ended', 'postponed', 'cancelled'] }) status: string;
  @ApiProperty() is_live: boolean;
  @ApiProperty({ description: 'Books pricing the event', example: 12 }) book_count: number;
  @ApiProperty({ type: [String], description: 'Market types priced', example: ['moneyline', 'point_spread', 'total_points'] })
  markets: string[];
  @ApiProperty({ type: [String], description: 'Books pricing the event' }) books: string[];
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description: 'The live game state (score, period, clock, situation; README "Game state"); null when the event is not live',
  })
  game_state: Record<string, unknown> | null;
}

/** `meta` of /events. */
export class EventsMetaDto extends PageMetaDto {
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

/** `meta` of /events/{id}/markets. */
export class EventMarketsMetaDto {
  @ApiProperty() event_id: string;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The catalog's block for a team (README "Reference blocks"): present when the team is in the catalog. */
export class TeamRefDto {
  @ApiProperty({ description: 'Catalog team id', example: 'nba_boston_celtics' }) id: string;
  @ApiProperty({ description: 'Numeric id of the team', example: 2 }) numerical_id: number;
  @ApiProperty({ description: 'Team name', example: 'Boston Celtics' }) name: string;
  @ApiProperty({ description: 'Abbreviation', example: 'BOS' }) abbreviation: string;
}

export class SportRefDto {
  @ApiProperty({ description: 'Sport id', example: 'basketball' }) id: string;
  @ApiProperty({ description: 'Numeric id of the sport', example: 1 }) numerical_id: number;
  @ApiProperty({ description: 'Sport name', example: 'Basketball' }) name: string;
}

/** The catalog's block for a league, a market type or a book. */
export class LabelRefDto {
  @ApiProperty({ description: 'Catalog id', example: 'nba' }) id: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Numeric id, when the catalog has one', example: 7 }) numerical_id: number | null;
  @ApiProperty({ description: 'Display label', example: 'NBA' }) label: string;
}

/** The catalog's reference blocks of an item, each present only when the entity is in the catalog. */
export class RefBlocksDto {
  @ApiPropertyOptional({ type: TeamRefDto, description: 'The home team' }) home?: TeamRefDto;
  @ApiPropertyOptional({ type: TeamRefDto, description: 'The away team' }) away?: TeamRefDto;
  @ApiPropertyOptional({ type: SportRefDto }) sport_ref?: SportRefDto;
  @ApiPropertyOptional({ type: LabelRefDto, description: 'The league' }) league_ref?: LabelRefDto;
  @ApiPropertyOptional({ type: LabelRefDto, description: 'The market type' }) market_ref?: LabelRefDto;
  @ApiPropertyOptional({ type: LabelRefDto, description: 'The book' }) sportsbook_ref?: LabelRefDto;
}

/** The event and market fields every opportunity item starts with (present.ts eventBlock). */
export class OpportunityEventDto extends RefBlocksDto {
  @ApiProperty({ description: 'Event id', example: 'nba_celtics_lakers_2026-11-22_b3' }) event_id: string;
  @ApiProperty({ description: '"Away @ Home" (the event id when the event is unknown)', example: 'Los Angeles Lakers @ Boston Celtics' }) event_name: string;
  @ApiProperty({ example: 'basketball' }) sport: string;
  @ApiProperty({ example: 'nba' }) league: string;
  @ApiProperty({ description: 'Empty when the event is unknown', example: 'Boston Celtics' }) home_team: string;
  @ApiProperty({ description: 'Empty when the event is unknown', example: 'Los Angeles Lakers' }) away_team: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Scheduled start (ISO 8601); null when the event is unknown' }) start_time: string | null;
  @ApiProperty({ description: 'Market type id', example: 'point_spread' }) market_type: string;
  @ApiProperty({ description: 'Period (full_game, 1h, 1q, ...)', example: 'full_game' }) period: string;
  @ApiProperty({ description: 'Whether the market is a player prop' }) is_player_prop: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'The player, on player props' }) player_name: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The statistic, on player props (points, rebounds, ...)' }) stat_category: string | null;
}

export const WARNINGS_DESCRIPTION = 'Warnings with their thresholds are listed in the README, "Opportunities"';

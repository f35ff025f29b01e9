import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The live state of one game: score, period, clock, situation, and the stale flags. Sport-specific fields appear where the source has them. */
export class GameStateDto {
  @ApiProperty({ example: 'Boston Celtics' }) home_team: string;
  @ApiProperty({ example: 'Los Angeles Lakers' }) away_team: string;
  @ApiProperty({ example: 'basketball' }) sport: string;
  @ApiProperty({ example: 'nba' }) league: string;
  @ApiProperty({ example: 55 }) home_score: number;
  @ApiProperty({ example: 50 }) away_score: number;
  @ApiProperty({ enum: [true] }) is_live: true;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'simulator',
    description: 'The source the situational fields come from (the most recent report at the furthest period)',
  })
  primary_book: string | null;
  @ApiProperty({ example: 14, description: 'Books quoting the game now' }) book_count: number;
  @ApiProperty({
    example: 1,
    description: "Sources reporting the game's state in the last 2 minutes (scores by consensus of at least two)",
  })
  source_count: number;
  @ApiPropertyOptional({
    example: 'Q3',
    description: 'Q1-Q4, 1H/HT/2H, P1-P3, OT, S1-S5 (tennis sets), R1-R5 (rounds), T5/B5 (innings), F/FT',
  })
  game_period?: string;
  @ApiPropertyOptional({ example: '5:42', description: 'Counts down (basketball, football, hockey, rounds) or up (soccer: 49:06)' })
  game_clock?: string;
  @ApiPropertyOptional({ enum: ['home', 'away'], description: 'Team with the ball (basketball, football)' }) possession?: 'home' | 'away';
  @ApiPropertyOptional({ enum: ['home', 'away'], description: 'Serving player (tennis)' }) server?: 'home' | 'away';
  @ApiPropertyOptional({ type: [Number], example: [6, 3, 2], description: 'Games per set (tennis), the current set last' })
  sets_home?: number[];
  @ApiPropertyOptional({ type: [Number], example: [4, 6, 1] }) sets_away?: number[];
  @ApiPropertyOptional({ example: '2026-11-22T20:00:04.000Z', description: 'When the primary source last reported' }) updated_at?: string;
  @ApiPropertyOptional({ example: '2026-11-22T20:00:04.000Z', description: 'When any source last reported' }) reported_at?: string;
  @ApiPropertyOptional({ enum: [true], description: 'Only when true: the primary source has been quiet for more than 10 s' }) stale?: true;
  @ApiPropertyOptional({ enum: [true], description: 'Only when true: no source has reported for more than 30 s' }) aggregator_stale?: true;
}

export class GameStateListResponseDto {
  @ApiProperty({ enum: [true] }) success: true;
  @ApiProperty({
    description: 'Sport -> event id -> game state (live games only). A sport the catalog does not know: `{}`.',
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: { $ref: '#/components/schemas/GameStateDto' } },
  })
  data: Record<string, Record<string, GameStateDto>>;
  @ApiProperty({ example: '2026-11-22T20:00:05.000Z' }) updated_at: string;
  @ApiProperty({ example: { count: 12, sport: 'basketball' } }) meta: { count: number; sport: string | null };
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One closing price (one line of a book in /odds/closing). */
export class ClosingLineItemDto {
  @ApiProperty({ example: 'pinnacle' }) sportsbook: string;
  @ApiProperty({ example: 'point_spread' }) market_type: string;
  @ApiProperty({ example: 'game', description: 'game, or a period such as 1h' }) period: string;
  @ApiProperty({ example: 'Boston Celtics -3.5' }) selection: string;
  @ApiProperty({ example: 'home' }) selection_type: string;
  @ApiPropertyOptional({ example: -3.5, description: 'Absent for markets without a line' }) line?: number;
  @ApiProperty({ example: -108, description: 'American odds, integer' }) odds_american: number;
  @ApiProperty({ example: 1.926, description: 'Decimal odds, 3 decimals' }) odds_decimal: number;
  @ApiPropertyOptional({ example: 'Jayson Tatum' }) player_name?: string;
  @ApiPropertyOptional({ example: 'points' }) stat_category?: string;
}

export class ClosingLinesDataDto {
  @ApiProperty({ example: 'nba_celtics_lakers_2026-11-22_b3' }) event_id: string;
  @ApiProperty({ example: 'basketball' }) sport: string;
  @ApiProperty({ example: 'nba' }) league: string;
  @ApiProperty({ example: 'Boston Celtics' }) home_team: string;
  @ApiProperty({ example: 'Los Angeles Lakers' }) away_team: string;
  @ApiProperty({ example: '2026-11-22T00:30:00.000Z' }) event_start_time: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-22T00:30:04.000Z',
    description: 'The first capture among the books returned; null when none was captured (yet)',
  })
  captured_at: string | null;
  @ApiProperty({
    description: 'Book id -> its closing prices (every market it quoted before it went live). `{}` before the game starts.',
    type: 'object',
    additionalProperties: { type: 'array', items: { $ref: '#/components/schemas/ClosingLineItemDto' } },
    example: {
      pinnacle: [
        {
          sportsbook: 'pinnacle',
          market_type: 'moneyline',
          period: 'game',
          selection: 'Boston Celtics',
          selection_type: 'home',
          odds_american: -150,
          odds_decimal: 1.667,
        },
      ],
    },
  })
  books: Record<string, ClosingLineItemDto[]>;
}

export class ClosingLinesMetaDto {
  @ApiProperty({ example: 'database' }) source: string;
  @ApiProperty({ example: 12, description: 'Books in `data.books`' }) book_count: number;
  @ApiProperty({ example: 168, description: 'How long closing lines are kept (CLOSING_LINES_RETENTION_HOURS)' }) retention_hours: number;
  @ApiProperty({ example: '2026-11-22T01:00:00.000Z' }) updated_at: string;
}

export class ClosingLinesResponseDto {
  @ApiProperty({ enum: [true] }) success: true;
  @ApiProperty({ type: ClosingLinesDataDto }) data: ClosingLinesDataDto;
  @ApiProperty({ type: ClosingLinesMetaDto }) meta: ClosingLinesMetaDto;
  @ApiProperty({ format: 'date-time', description: 'When the response was made' }) updated_at: string;
}

import { ApiProperty } from '@nestjs/swagger';

export class SideSharesDto {
  @ApiProperty({ description: 'Share of the away side (fraction 0-1)', example: 0.38 }) away: number;
  @ApiProperty({ description: 'Share of the home side (fraction 0-1)', example: 0.62 }) home: number;
}

export class OverUnderSharesDto {
  @ApiProperty({ description: 'Share on the over (fraction 0-1)', example: 0.64 }) over: number;
  @ApiProperty({ description: 'Share on the under (fraction 0-1)', example: 0.36 }) under: number;
}

export class SpreadSplitsDto {
  @ApiProperty({ description: 'The away spread line (as in /splits/history)', example: 3.5 }) away_line: number;
  @ApiProperty({ description: 'The home spread line', example: -3.5 }) home_line: number;
  @ApiProperty({
    description: 'Deprecated: the same line as away_line, under the name the public product (and its SDKs) use here; not a price',
    example: 3.5,
  })
  away_odds: number;
  @ApiProperty({ description: 'Deprecated: the same line as home_line; not a price', example: -3.5 }) home_odds: number;
  @ApiProperty({ type: SideSharesDto, description: 'Share of the money' }) handle_pct: SideSharesDto;
  @ApiProperty({ type: SideSharesDto, description: 'Share of the tickets' }) bets_pct: SideSharesDto;
}

export class TotalSplitsDto {
  @ApiProperty({ example: 221.5 }) line: number;
  @ApiProperty({ type: OverUnderSharesDto }) handle_pct: OverUnderSharesDto;
  @ApiProperty({ type: OverUnderSharesDto }) bets_pct: OverUnderSharesDto;
}

export class MoneylineSplitsDto {
  @ApiProperty({ description: 'Away American odds', example: 135 }) away_odds: number;
  @ApiProperty({ description: 'Home American odds', example: -155 }) home_odds: number;
  @ApiProperty({ type: SideSharesDto }) handle_pct: SideSharesDto;
  @ApiProperty({ type: SideSharesDto }) bets_pct: SideSharesDto;
}

/** One (event, book) split. */
export class SplitsGameDto {
  @ApiProperty({ example: 'nba_celtics_lakers_2026-11-22_b3' }) event_id: string;
  @ApiProperty({ example: 'basketball' }) sport: string;
  @ApiProperty({ example: 'nba' }) league: string;
  @ApiProperty({ example: 'draftkings', enum: ['draftkings', 'circa'] }) sportsbook: string;
  @ApiProperty({ example: 'Los Angeles Lakers' }) away_team: string;
  @ApiProperty({ example: 'Boston Celtics' }) home_team: string;
  @ApiProperty({ type: SpreadSplitsDto, nullable: true, description: 'null when the book publishes no spread splits for the game' })
  spread: SpreadSplitsDto | null;
  @ApiProperty({ type: TotalSplitsDto, nullable: true }) total: TotalSplitsDto | null;
  @ApiProperty({ type: MoneylineSplitsDto, nullable: true }) moneyline: MoneylineSplitsDto | null;
  @ApiProperty({ description: 'When the book published these numbers (RFC 3339)', example: '2026-11-22T17:55:00.000Z' }) fetched_at: string;
}

export class SplitsPaginationDto {
  @ApiProperty({ example: 100 }) limit: number;
  @ApiProperty({ example: 0 }) offset: number;
  @ApiProperty({ example: 42, description: 'Items in this page' }) count: number;
  @ApiProperty({ example: 42, description: 'All matches' }) total: number;
  @ApiProperty({ example: false }) has_more: boolean;
  @ApiProperty({ example: null, nullable: true, type: 'integer' }) next_offset: number | null;
}

export class SplitsListMetaDto {
  @ApiProperty({ example: 42 }) count: number;
  @ApiProperty({ example: 42 }) total: number;
  @ApiProperty({ type: SplitsPaginationDto }) pagination: SplitsPaginationDto;
}

export class SplitsListResponseDto {
  @ApiProperty({ example: true }) success: true;
  @ApiProperty({ type: [SplitsGameDto] }) data: SplitsGameDto[];
  @ApiProperty({ type: SplitsPaginationDto }) pagination: SplitsPaginationDto;
  @ApiProperty({ type: SplitsListMetaDto }) meta: SplitsListMetaDto;
  @ApiProperty({ description: 'Response time (RFC 3339)', example: '2026-11-22T18:00:00.000Z' }) updated_at: string;
}

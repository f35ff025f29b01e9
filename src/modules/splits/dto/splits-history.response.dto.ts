import { ApiProperty } from '@nestjs/swagger';
import { MoneylineSplitsDto, OverUnderSharesDto, SideSharesDto } from './splits-game.response.dto.js';

export class SpreadHistoryDto {
  @ApiProperty({ example: 3.5 }) away_line: number;
  @ApiProperty({ example: -3.5 }) home_line: number;
  @ApiProperty({ type: SideSharesDto }) handle_pct: SideSharesDto;
  @ApiProperty({ type: SideSharesDto }) bets_pct: SideSharesDto;
}

export class TotalHistoryDto {
  @ApiProperty({ example: 221.5 }) line: number;
  @ApiProperty({ type: OverUnderSharesDto }) handle_pct: OverUnderSharesDto;
  @ApiProperty({ type: OverUnderSharesDto }) bets_pct: OverUnderSharesDto;
}

/** One book's split at one capture. */
export class SplitsHistoryEntryDto {
  @ApiProperty({ example: 'circa', enum: ['draftkings', 'circa'] }) book: string;
  @ApiProperty({ description: 'Capture time (RFC 3339)', example: '2026-11-22T17:55:00.000Z' }) ts: string;
  @ApiProperty({ description: 'Capture time, Unix seconds (fractional)', example: 1795370100 }) timestamp: number;
  @ApiProperty({ type: SpreadHistoryDto, nullable: true }) spread: SpreadHistoryDto | null;
  @ApiProperty({ type: TotalHistoryDto, nullable: true }) total: TotalHistoryDto | null;
  @ApiProperty({ type: MoneylineSplitsDto, nullable: true }) moneyline: MoneylineSplitsDto | null;
}

export class SplitsHistoryMetaDto {
  @ApiProperty({ example: 'nba_celtics_lakers_2026-11-22_b3' }) event_id: string;
  @ApiProperty({ description: 'Snapshots matching the filters, before the limit', example: 576 }) total: number;
  @ApiProperty({ description: 'Snapshots returned', example: 100 }) count: number;
  @ApiProperty({
    description: 'The limit applied (null when sportsbook is set: every match is returned)',
    nullable: true,
    type: 'integer',
    example: 100,
  })
  limit: number | null;
  @ApiProperty({ description: 'True when only the most recent `limit` snapshots are returned', example: true }) truncated: boolean;
  @ApiProperty({ description: 'Distinct source books among the matches', type: [String], example: ['circa', 'draftkings'] })
  books: string[];
  @ApiProperty({
    description: 'Capture time of the first returned snapshot (RFC 3339)',
    nullable: true,
    type: String,
    example: '2026-11-22T09:40:00.000Z',
  })
  oldest: string | null;
  @ApiProperty({
    description: 'Capture time of the last returned snapshot (RFC 3339)',
    nullable: true,
    type: String,
    example: '2026-11-22T17:55:00.000Z',
  })
  newest: string | null;
  @ApiProperty({ description: 'Response time (RFC 3339)', example: '2026-11-22T18:00:00.000Z' }) updated_at: string;
}

export class SplitsHistoryResponseDto {
  @ApiProperty({ example: true }) success: true;
  @ApiProperty({ type: [SplitsHistoryEntryDto], description: 'Oldest first' }) data: SplitsHistoryEntryDto[];
  @ApiProperty({ type: SplitsHistoryMetaDto }) meta: SplitsHistoryMetaDto;
  @ApiProperty({ format: 'date-time', description: 'When the response was made' }) updated_at?: string;
}

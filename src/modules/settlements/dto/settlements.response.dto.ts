import { ApiProperty } from '@nestjs/swagger';

const nullableNumber = (example: number, description: string) => ApiProperty({ type: Number, nullable: true, example, description });
const nullableString = (example: string, description: string) => ApiProperty({ type: String, nullable: true, example, description });

/** One settled +EV signal. */
export class SettlementDto {
  @ApiProperty({ example: '3f2a9c0d1e4b5a67', description: 'The +EV opportunity id (`id` of /opportunities/ev)' }) hash_id: string;
  @ApiProperty({ example: 'nfl_chiefs_bills_2026-11-22_a1' }) game_id: string;
  @ApiProperty({ example: 'Buffalo Bills @ Kansas City Chiefs', description: 'Away @ home' }) game: string;
  @ApiProperty({ example: 'football' }) sport: string;
  @ApiProperty({ example: 'nfl' }) league: string;
  @ApiProperty({ example: 'Kansas City Chiefs' }) home_team: string;
  @ApiProperty({ example: 'Buffalo Bills' }) away_team: string;
  @ApiProperty({ example: '2026-11-22T18:00:00.000Z' }) start_time: string;
  @ApiProperty({ example: 'draftkings', description: 'The book the +EV price was at' }) sportsbook: string;
  @ApiProperty({ example: 'point_spread' }) market_type: string;
  @nullableString('full_game', 'The slice of the game the market settles on') market_segment: string | null;
  @ApiProperty({ example: 'Kansas City Chiefs' }) selection: string;
  @ApiProperty({ example: 'home' }) selection_type: string;
  @nullableNumber(-3.5, "The selection's line (null: moneyline)") line: number | null;
  @nullableString('football_nfl_patrick_mahomes', 'Player props: sport_league_name') player_id: string | null;
  @nullableString('Patrick Mahomes', 'Player props') player_name: string | null;
  @ApiProperty({ example: 105, description: 'The price taken (at the first detection)' }) odds_american: number;
  @ApiProperty({ example: 2.05 }) odds_decimal: number;
  @ApiProperty({ example: 0.5123, description: 'The fair probability at detection (sharp book devigged)' }) fair_probability: number;
  @ApiProperty({ example: 2.52, description: 'EV% at detection' }) ev_percent: number;
  @ApiProperty({ enum: ['won', 'lost', 'push', 'void'], example: 'won' }) outcome: string;
  @nullableString('postponed', 'void: postponed or cancelled') void_reason: string | null;
  @nullableNumber(1.84, 'CLV% against the sharp book close (null: not captured)') clv_percent: number | null;
  @nullableNumber(0.52, "The sharp book's no-vig closing probability") closing_probability: number | null;
  @ApiProperty({ example: '2026-11-22T15:04:05.000Z' }) detected_at: string;
  @nullableString('2026-11-22T21:15:00.000Z', 'When it was graded (null for void)') settled_at: string | null;
}

export class SettlementsPageDto {
  @ApiProperty({ example: 2, description: 'Settlements matching the filters' }) total_settlements: number;
  @ApiProperty({ example: false, description: 'true: more settlements follow this page (see next_offset)' }) truncated: boolean;
  @ApiProperty({ type: Number, nullable: true, example: null, description: 'offset of the next page; null on the last' })
  next_offset: number | null;
  @ApiProperty({ type: [SettlementDto] }) settlements: SettlementDto[];
}

export class SettlementsFiltersDto {
  @nullableString('3f2a9c0d1e4b5a67', '') hash_id: string | null;
  @nullableString('nfl_chiefs_bills_2026-11-22_a1', '') game_id: string | null;
  @nullableString('point_spread', '') market_type: string | null;
  @nullableString('Over', '') selection: string | null;
  @nullableString('baseball_mlb_corbin_carroll', '') player_id: string | null;
}

export class SettlementsMetaDto {
  @ApiProperty({ example: 'ev_grading' }) source: string;
  @ApiProperty({ example: 100 }) limit: number;
  @ApiProperty({ example: 0 }) offset: number;
  @nullableString('2026-08-24', "The earliest game date the tier's window reaches (null: no limit)") grading_cutoff: string | null;
  @ApiProperty({ example: '2026-11-22T21:30:00.000Z' }) updated_at: string;
  @ApiProperty({ type: SettlementsFiltersDto }) filters: SettlementsFiltersDto;
}

export class SettlementsResponseDto {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ type: SettlementsPageDto }) data: SettlementsPageDto;
  @ApiProperty({ type: SettlementsMetaDto }) meta: SettlementsMetaDto;
  @ApiProperty({ example: '2026-11-22T21:30:00.000Z' }) updated_at: string;
}

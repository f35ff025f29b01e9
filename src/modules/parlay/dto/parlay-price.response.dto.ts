import { ApiProperty } from '@nestjs/swagger';

export class ParlayLegEchoDto {
  @ApiProperty({ example: '3f9a1c2b7d4e5f60' }) odds_id: string;
  @ApiProperty({ example: 'nfl_chiefs_bills_2026-11-22_a1' }) event_id: string;
  @ApiProperty({ example: 'football' }) sport: string;
  @ApiProperty({ example: 'nfl' }) league: string;
  @ApiProperty({ type: String, nullable: true, example: 'Kansas City Chiefs' }) home_team: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Buffalo Bills' }) away_team: string | null;
  @ApiProperty({ example: 'draftkings' }) sportsbook: string;
  @ApiProperty({ example: 'point_spread' }) market: string;
  @ApiProperty({ type: String, nullable: true, example: 'full_game' }) market_segment: string | null;
  @ApiProperty({ example: 'Kansas City Chiefs' }) selection: string;
  @ApiProperty({ example: 'home' }) selection_type: string;
  @ApiProperty({ type: Number, nullable: true, example: -7.5 }) line: number | null;
  @ApiProperty({ type: String, nullable: true, example: null }) player_name: string | null;
  @ApiProperty({ example: -110 }) odds_american: number;
  @ApiProperty({ example: 1.909 }) odds_decimal: number;
  @ApiProperty({ example: 0.5, description: "The leg's fair probability (its market devigged)" }) fair_probability: number;
  @ApiProperty({ example: false }) is_live: boolean;
}

export class ParlayFairPriceDto {
  @ApiProperty({ example: 264 }) odds_american: number;
  @ApiProperty({ example: 3.636 }) odds_decimal: number;
  @ApiProperty({ example: 0.275, description: 'The modelled probability that every leg wins (given no push)' }) probability: number;
  @ApiProperty({ example: 0.25, description: "The product of the legs' fair probabilities (independent legs)" })
  independent_probability: number;
}

export class ParlayModelDto {
  @ApiProperty({ type: ParlayFairPriceDto, nullable: true, description: 'null: the slip cannot be priced (see `reason`)' })
  price: ParlayFairPriceDto | null;
  @ApiProperty({ example: 2 }) leg_count: number;
  @ApiProperty({ example: 'sharpapi_model', enum: ['sharpapi_model'] }) source: string;
  @ApiProperty({ example: 'Modelled fair price ...; not a sportsbook parlay quote.' }) note: string;
  @ApiProperty({ required: false, example: 'mutually_exclusive', enum: ['mutually_exclusive', 'unpriceable'] }) reason?: string;
  @ApiProperty({
    required: false,
    type: 'array',
    items: { type: 'array', items: { type: 'integer' } },
    example: [[0, 1]],
    description: 'Pairs of leg indexes that cannot both win',
  })
  conflicting_legs?: number[][];
}

export class ParlayPriceDataDto {
  @ApiProperty({ example: 'draftkings' }) sportsbook: string;
  @ApiProperty({ type: [ParlayLegEchoDto] }) legs: ParlayLegEchoDto[];
  @ApiProperty({ type: ParlayModelDto }) parlay: ParlayModelDto;
  @ApiProperty({ type: [String], nullable: true, example: null }) warnings: string[] | null;
}

export class ParlayPriceResponseDto {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ type: ParlayPriceDataDto }) data: ParlayPriceDataDto;
  @ApiProperty({ example: '2026-11-22T15:04:05.000Z' }) updated_at: string;
}

import { ApiProperty, OmitType } from '@nestjs/swagger';

/** Summary of one group of recorded +EV detections. */
export class ClvGroupDto {
  @ApiProperty({ example: 'draftkings', description: 'The group: a book, sport, league, market type, UTC day or devig book' })
  group_key: string;
  @ApiProperty({ example: 412, description: 'Detections recorded in the group that count (void ones are not counted)' })
  total_predictions: number;
  @ApiProperty({
    example: 3,
    description: 'Detections on games postponed or cancelled: void, left out of every other figure of the group',
  })
  void_count: number;
  @ApiProperty({ example: 380, description: 'Detections graded win, loss or push' }) total_graded: number;
  @ApiProperty({ example: 190 }) wins: number;
  @ApiProperty({ example: 185 }) losses: number;
  @ApiProperty({ example: 5 }) pushes: number;
  @ApiProperty({ type: Number, nullable: true, example: 0.5067, description: 'wins / (wins + losses)' }) win_rate: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 1.23,
    description: 'Mean CLV% = (closing no-vig probability x entry decimal - 1) x 100, over the detections whose CLV is known',
  })
  avg_clv_percent: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.87,
    description:
      "Mean CLV% after the venues' costs (config/costs.json): the closing no-vig probability x the entry's net decimal - 1, per unit of outlay; equal to the gross CLV at a sportsbook; over the detections whose CLV and venue cost are known",
  })
  avg_net_clv_percent: number | null;
  @ApiProperty({ example: 396, description: 'Detections with a known CLV and a known venue cost (the base of avg_net_clv_percent)' })
  net_clv_count: number;
  @ApiProperty({
    example: 398,
    description:
      "Detections with a known CLV: the reference book closed the bet's own line (whole market), or another line of the same spread or total that the sport's score model was fitted to",
  })
  clv_count: number;
  @ApiProperty({ example: 371, description: "Of clv_count: valued at the close of the bet's own line (clv_method same_line)" })
  clv_same_line: number;
  @ApiProperty({
    example: 27,
    description:
      "Of clv_count: the bet's line did not close; valued by the sport's score model fitted to the reference book's nearest closing line (clv_method fitted_distribution)",
  })
  clv_fitted: number;
  @ApiProperty({ example: 251, description: 'Of those, how many beat the close (CLV > 0)' }) beat_close: number;
  @ApiProperty({ type: Number, nullable: true, example: 2.1, description: 'Mean EV% at detection' }) avg_ev_percent: number | null;
  @ApiProperty({ example: 6.4, description: 'Profit of flat 1-unit stakes on the graded detections, in units' }) units: number;
  @ApiProperty({ type: Number, nullable: true, example: 1.68, description: 'units / graded detections x 100' }) roi_percent: number | null;
}

/** The summary of every detection in the window: a group without a key. */
export class ClvOverallDto extends OmitType(ClvGroupDto, ['group_key'] as const) {}

export class ClvDateRangeDto {
  @ApiProperty({ example: '2026-11-15T00:00:00.000Z' }) from: string;
  @ApiProperty({ example: '2026-11-22T23:59:59.999Z' }) to: string;
}

export class ClvDataDto {
  @ApiProperty({ type: ClvDateRangeDto }) date_range: ClvDateRangeDto;
  @ApiProperty({ example: 'sportsbook', enum: ['sportsbook', 'sport', 'league', 'market', 'day', 'devig_book'] }) group_by: string;
  @ApiProperty({ example: 'power', description: 'The devig method of the fair and closing probabilities (CLV_DEVIG_METHOD)' })
  devig_method: string;
  @ApiProperty({ type: ClvOverallDto, description: 'Every detection in the window' }) overall: ClvOverallDto;
  @ApiProperty({ type: [ClvGroupDto] }) groups: ClvGroupDto[];
}

export class ClvMetaDto {
  @ApiProperty({ example: { sport: null, league: ['nba'], sportsbook: null, devig_book: null } }) filters: Record<string, string[] | null>;
  @ApiProperty({ example: 'database' }) source: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 90,
    description: 'How far back the tier may look: free 7, hobby 30, pro 90, sharp 365, enterprise null (no limit)',
  })
  tier_window_days: number | null;
  @ApiProperty({ example: false, description: 'True when `from` was moved to the start of the tier window' }) window_clamped: boolean;
  @ApiProperty({ example: '2026-11-22T21:00:00.000Z' }) updated_at: string;
}

export class ClvResponseDto {
  @ApiProperty({ enum: [true] }) success: true;
  @ApiProperty({ type: ClvDataDto }) data: ClvDataDto;
  @ApiProperty({ type: ClvMetaDto }) meta: ClvMetaDto;
  @ApiProperty({ format: 'date-time', description: 'When the response was made' }) updated_at: string;
}

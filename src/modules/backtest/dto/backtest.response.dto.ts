import { ApiProperty } from '@nestjs/swagger';

/** `202` of POST /historical/backtest: the job. */
export class BacktestStartedDataDto {
  @ApiProperty({ description: 'The job id (a UUID)', example: '9fd10a1b-bda6-40fe-b2b3-c9d55f55e53e' })
  id: string;

  @ApiProperty({ description: 'running', example: 'running' })
  status: string;
}

/** GET /historical/backtest/{id}: the job. */
export class BacktestJobDataDto {
  @ApiProperty({ example: '9fd10a1b-bda6-40fe-b2b3-c9d55f55e53e' })
  id: string;

  @ApiProperty({ enum: ['running', 'done', 'failed'], example: 'done' })
  status: string;

  @ApiProperty({ description: 'Percent of the window replayed', example: 100 })
  progress: number;

  @ApiProperty({ description: 'Bets placed so far', example: 31 })
  bets_so_far: number;

  @ApiProperty({ example: '2026-11-27T17:29:24.238Z' })
  created_at: string;

  @ApiProperty({ nullable: true, type: String, example: '2026-11-27T17:30:07.523Z' })
  finished_at: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Why it failed', example: null })
  error: string | null;

  @ApiProperty({
    nullable: true,
    type: Object,
    description: 'When done: source, rule, summary, truth (simulated days), bankroll curve, notes and every bet (docs/backtest.md)',
  })
  report: Record<string, unknown> | null;
}

export class BacktestStartedDto {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ type: BacktestStartedDataDto }) data: BacktestStartedDataDto;
  @ApiProperty({ example: '2026-11-27T17:29:24.238Z' }) updated_at: string;
}

export class BacktestJobDto {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ type: BacktestJobDataDto }) data: BacktestJobDataDto;
  @ApiProperty({ example: '2026-11-27T17:29:24.238Z' }) updated_at: string;
}

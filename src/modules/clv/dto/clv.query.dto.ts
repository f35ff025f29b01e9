import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { BaseQuery, CsvList, StringParam } from '../../../common/http/query.js';

/** What the track record can be grouped by (`group_by`). */
export const CLV_GROUPS = ['sportsbook', 'sport', 'league', 'market', 'day', 'devig_book'] as const;
export type ClvGroupBy = (typeof CLV_GROUPS)[number];

/** GET /historical/clv. */
export class ClvQuery extends BaseQuery {
  @ApiPropertyOptional({
    description:
      'Window start (detection time): RFC 3339 or YYYY-MM-DD (UTC). Default: 7 days ago. Earlier than the tier window allows: moved to the window start (`meta.window_clamped`).',
    example: '2026-11-15',
  })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(40)
  from?: string;

  @ApiPropertyOptional({
    description: 'Window end: RFC 3339 or YYYY-MM-DD (the whole day). Default: now. Before `from`: 400.',
    example: '2026-11-22',
  })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(40)
  to?: string;

  @ApiPropertyOptional({
    description: 'How to group: sportsbook (default), sport, league, market, day, devig_book',
    enum: CLV_GROUPS,
    example: 'sportsbook',
  })
  @IsOptional()
  @StringParam()
  @IsIn(CLV_GROUPS as unknown as string[], { message: `group_by must be one of ${CLV_GROUPS.join(', ')}` })
  group_by?: ClvGroupBy;

  @ApiPropertyOptional({ description: 'Sports (comma-separated)', example: 'basketball', type: String })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sport?: string[];

  @ApiPropertyOptional({ description: 'Leagues (ids or aliases, comma-separated)', example: 'nba', type: String })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  league?: string[];

  @ApiPropertyOptional({ description: 'Books the +EV price was at (comma-separated)', example: 'draftkings', type: String })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sportsbook?: string[];

  @ApiPropertyOptional({
    description: 'Sharp reference books devigged (pinnacle, circa, bookmaker; comma-separated)',
    example: 'pinnacle',
    type: String,
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  devig_book?: string[];
}

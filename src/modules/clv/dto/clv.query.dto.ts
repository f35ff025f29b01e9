import { TimeParam } from '../../../common/time/time-param.js';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { BaseQuery, CsvList, StringParam } from '../../../common/http/query.js';

/** What the track record can be grouped by (`group_by`). */
export const CLV_GROUPS = ['sportsbook', 'sport', 'league', 'market', 'day', 'devig_book'] as const;
export type ClvGroupBy = (typeof CLV_GROUPS)[number];

/** GET /historical/clv. */
export class ClvQuery extends BaseQuery {
  @ApiPropertyOptional({
    description:
      'Window start (detection time): RFC 3339, YYYY-MM-DD (UTC) or Unix seconds, from 1970-01-01 to 9999-12-31 (an impossible date is 400). Default: 7 days ago. Earlier than the tier window allows: moved to the window start (`meta.window_clamped`).',
    example: '2026-11-15',
  })
  @IsOptional()
  @TimeParam()
  from?: string;

  @ApiPropertyOptional({
    description: 'Window end: RFC 3339, YYYY-MM-DD (the whole day) or Unix seconds. Default: now. Before `from`: 400.',
    example: '2026-11-22',
  })
  @IsOptional()
  @TimeParam({ dateAlone: 'end' })
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

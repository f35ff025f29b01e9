import { TimeParam } from '../../../common/time/time-param.js';
import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { OneEventParam } from '../../../common/http/filter-params.js';
import { BaseQuery, CsvList, IntParam } from '../../../common/http/query.js';

/** GET /splits/history. `event_id` is required; the service says so with a 400 naming it. */
export class SplitsHistoryQuery extends IntersectionType(BaseQuery, OneEventParam) {
  @ApiPropertyOptional({
    description:
      'Only these books (`draftkings`, `circa`; comma-separated; any other book is 400). When set, `limit` is ignored and every snapshot in the window is returned.',
    example: 'draftkings',
    type: String,
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sportsbook?: string[];

  @ApiPropertyOptional({
    description: 'Window start, inclusive: RFC 3339 (a time without offset is UTC) or Unix seconds. Anything else is 400.',
    example: '2026-11-21T18:00:00Z',
  })
  @IsOptional()
  @TimeParam()
  start_time?: string;

  @ApiPropertyOptional({
    description: 'Window end, inclusive: RFC 3339 or Unix seconds; must not be before start_time (400). Anything else is 400.',
    example: '1795370400',
  })
  @IsOptional()
  @TimeParam()
  end_time?: string;

  @ApiPropertyOptional({
    description: 'Most recent snapshots to return (1-200; out of range is 400). Ignored when sportsbook is set.',
    default: 100,
    minimum: 1,
    maximum: 200,
    type: 'integer',
    example: 100,
  })
  @IntParam()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(200, { message: 'limit must not be greater than 200' })
  limit: number = 100;
}

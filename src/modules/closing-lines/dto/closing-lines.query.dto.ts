import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { OneEventParam } from '../../../common/http/filter-params.js';
import { BaseQuery, CsvList } from '../../../common/http/query.js';

/** GET /odds/closing. `event_id` is required; the service says so with a 400 naming it. */
export class ClosingLinesQuery extends IntersectionType(BaseQuery, OneEventParam) {
  @ApiPropertyOptional({
    description: "Only these books (comma-separated; the tier book rules of /odds apply). Default: the tier's default books.",
    example: 'pinnacle,draftkings',
    type: String,
  })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sportsbook?: string[];

  @ApiPropertyOptional({ description: 'Alias of sportsbook', example: 'pinnacle', type: String })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  books?: string[];
}

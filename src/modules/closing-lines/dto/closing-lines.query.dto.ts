import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { BaseQuery, CsvList, StringParam } from '../../../common/http/query.js';

/** GET /odds/closing. `event_id` is required; the service says so with a 400 naming it. */
export class ClosingLinesQuery extends BaseQuery {
  @ApiProperty({
    description: 'Event id (required; alias: event). Missing: 400 invalid_request naming it.',
    example: 'nba_celtics_lakers_2026-11-22_b3',
    required: true,
  })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(300)
  event_id?: string;

  @ApiPropertyOptional({ description: 'Alias of event_id', example: 'nba_celtics_lakers_2026-11-22_b3' })
  @IsOptional()
  @StringParam()
  @IsString()
  @MaxLength(300)
  event?: string;

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

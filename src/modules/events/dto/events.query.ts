import { DateParam } from '../../../common/time/time-param.js';
import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { LiveParam, SportLeagueParams, TeamParam } from '../../../common/http/filter-params.js';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { BooleanParam, CsvList, PAGE_DEFAULT, PageQuery, SearchText } from '../../../common/http/query.js';

export class ListEventsQuery extends IntersectionType(PageQuery(PAGE_DEFAULT), SportLeagueParams, LiveParam, TeamParam) {
  @ApiPropertyOptional({ description: 'Only events with prices from these books (comma-separated)', example: 'draftkings' })
  @IsOptional()
  @CsvList({ lowercase: true })
  @IsString({ each: true })
  sportsbook?: string[];

  @ApiPropertyOptional({ description: 'true: only events with a live score; false: only without', type: Boolean })
  @IsOptional()
  @BooleanParam()
  @IsBoolean({ message: 'has_score must be true or false' })
  has_score?: boolean;

  @ApiPropertyOptional({
    description: 'Local date of the game (US Eastern for US leagues, UTC otherwise), YYYY-MM-DD',
    example: '2026-11-22',
  })
  @IsOptional()
  @DateParam()
  date?: string;

  @ApiPropertyOptional({
    description: 'Text search over teams, league and sport (partial; must contain a letter or digit)',
    example: 'celtics',
  })
  @IsOptional()
  @SearchText()
  q?: string;
}

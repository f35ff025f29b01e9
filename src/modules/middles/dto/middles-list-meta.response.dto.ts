import { ApiProperty } from '@nestjs/swagger';
import { OpportunityListMetaDto } from '../../opportunity-lists/dto/opportunity-meta.response.dto.js';

export class MiddlesSummaryCountDto {
  @ApiProperty({ description: 'Matches in all' }) count: number;
}

export class MiddlesFiltersDto {
  @ApiProperty({ type: [String], nullable: true }) sport: string[] | null;
  @ApiProperty({ type: [String], nullable: true }) league: string[] | null;
  @ApiProperty({ type: [String], nullable: true, description: "The books asked for; null: the tier's default books" }) sportsbook:
    string[] | null;
  @ApiProperty({ type: [String], nullable: true }) market: string[] | null;
  @ApiProperty({ description: 'The minimum middle size applied' }) min_size: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Lowest American price of either side (min_odds), null when not asked' })
  min_odds: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Highest American price of either side (max_odds), null when not asked' })
  max_odds: number | null;
}

/** `meta` of /opportunities/middles. */
export class MiddlesListMetaDto extends OpportunityListMetaDto {
  @ApiProperty({ type: MiddlesSummaryCountDto }) summary: MiddlesSummaryCountDto;
  @ApiProperty({ type: MiddlesFiltersDto }) filters: MiddlesFiltersDto;
}

export class MiddlesSummaryFiltersDto {
  @ApiProperty({ type: [String], nullable: true }) sport: string[] | null;
  @ApiProperty({ type: [String], nullable: true }) league: string[] | null;
}

/** `meta` of /opportunities/middles/summary. */
export class MiddlesSummaryMetaDto {
  @ApiProperty({ example: 'cache' }) source: string;
  @ApiProperty({ type: MiddlesSummaryFiltersDto }) filters: MiddlesSummaryFiltersDto;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

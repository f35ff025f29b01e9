import { ApiProperty } from '@nestjs/swagger';
import { COUNTS, OpportunityFiltersEchoDto, OpportunityListMetaDto } from '../../opportunity-lists/dto/opportunity-meta.response.dto.js';

export class LowHoldSummaryDto {
  @ApiProperty({ description: 'Matches in all' }) count: number;
  @ApiProperty({ description: 'Mean hold % of the matches' }) avg_hold: number;
  @ApiProperty({ description: 'Lowest hold % of the matches' }) min_hold: number;
  @ApiProperty(COUNTS('market type')) by_market: Record<string, number>;
  @ApiProperty(COUNTS('sport')) by_sport: Record<string, number>;
}

export class LowHoldFiltersDto extends OpportunityFiltersEchoDto {
  @ApiProperty({ description: 'The maximum hold % applied' }) max_hold: number;
}

/** `meta` of /opportunities/low_hold. */
export class LowHoldListMetaDto extends OpportunityListMetaDto {
  @ApiProperty({ type: LowHoldSummaryDto }) summary: LowHoldSummaryDto;
  @ApiProperty({ type: LowHoldFiltersDto }) filters: LowHoldFiltersDto;
}

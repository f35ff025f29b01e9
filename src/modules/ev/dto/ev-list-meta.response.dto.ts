import { ApiProperty } from '@nestjs/swagger';
import { COUNTS, OpportunityFiltersEchoDto, OpportunityListMetaDto } from '../../opportunity-lists/dto/opportunity-meta.response.dto.js';

export class EvSummaryDto {
  @ApiProperty({ description: 'Matches in all' }) count: number;
  @ApiProperty({ description: 'Mean EV % of the matches' }) avg_ev: number;
  @ApiProperty({ description: 'Highest EV % of the matches' }) max_ev: number;
  @ApiProperty(COUNTS('book')) by_sportsbook: Record<string, number>;
  @ApiProperty(COUNTS('sport')) by_sport: Record<string, number>;
  @ApiProperty(COUNTS('market type')) by_market: Record<string, number>;
}

/** `meta` of /opportunities/ev. */
export class EvListMetaDto extends OpportunityListMetaDto {
  @ApiProperty({ enum: ['multiplicative', 'additive', 'power', 'shin', 'worst_case'], description: 'The devig method the EV % uses' })
  devig_method: string;
  @ApiProperty({ type: EvSummaryDto }) summary: EvSummaryDto;
  @ApiProperty({ type: OpportunityFiltersEchoDto }) filters: OpportunityFiltersEchoDto;
}

import { ApiProperty } from '@nestjs/swagger';
import { COUNTS, OpportunityFiltersEchoDto, OpportunityListMetaDto } from '../../opportunity-lists/dto/opportunity-meta.response.dto.js';

export class ArbitrageSummaryDto {
  @ApiProperty({ description: 'Matches in all' }) count: number;
  @ApiProperty({ description: 'Mean profit % of the matches' }) avg_profit: number;
  @ApiProperty({ description: 'Highest profit % of the matches' }) max_profit: number;
  @ApiProperty(COUNTS('market type')) by_market: Record<string, number>;
  @ApiProperty(COUNTS('sport')) by_sport: Record<string, number>;
}

export class ArbitrageFiltersDto extends OpportunityFiltersEchoDto {
  @ApiProperty({ description: 'The minimum profit % applied' }) min_profit: number;
  @ApiProperty({ type: String, nullable: true }) group: string | null;
}

/** `meta` of /opportunities/arbitrage. */
export class ArbitrageListMetaDto extends OpportunityListMetaDto {
  @ApiProperty({ type: ArbitrageSummaryDto }) summary: ArbitrageSummaryDto;
  @ApiProperty({ type: ArbitrageFiltersDto }) filters: ArbitrageFiltersDto;
  @ApiProperty({ description: 'Books in scope' }) books_analyzed: number;
}

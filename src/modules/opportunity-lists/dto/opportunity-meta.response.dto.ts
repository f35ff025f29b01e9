import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '../../../common/http/api-responses.js';

/** A count per key (a book, a sport, a market type). */
export const COUNTS = (what: string) =>
  ({ type: 'object', additionalProperties: { type: 'integer' }, description: `Items per ${what}` }) as const;

/** The filters every opportunity list echoes in `meta.filters` (opportunity-lists.ts `echo`; null: not given). */
export class OpportunityFiltersEchoDto {
  @ApiProperty({ type: [String], nullable: true }) sport: string[] | null;
  @ApiProperty({ type: [String], nullable: true }) league: string[] | null;
  @ApiProperty({ type: [String], nullable: true, description: "The books asked for; null: the tier's default books" }) sportsbook:
    string[] | null;
  @ApiProperty({ type: [String], nullable: true }) market: string[] | null;
  @ApiProperty({ type: String, nullable: true, description: 'Event ids, comma-separated' }) event: string | null;
  @ApiProperty({ type: String, nullable: true }) team: string | null;
  @ApiProperty({ type: Boolean, nullable: true }) live: boolean | null;
  @ApiProperty({ type: String, nullable: true }) date_range: string | null;
  @ApiProperty({ type: Number, nullable: true }) max_odds_age: number | null;
  @ApiProperty() include_flagged: boolean;
}

/** What the `meta` of every opportunity list holds besides its filters and summary. */
export class OpportunityListMetaDto extends PageMetaDto {
  @ApiProperty({ description: 'Where the list was read from (the live registries)', example: 'cache' }) source: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { OpportunityEventDto, WARNINGS_DESCRIPTION } from '../../opportunity-lists/dto/opportunity-item.response.dto.js';

export class LowHoldOddsDto {
  @ApiProperty({ example: -105 }) american: number;
  @ApiProperty({ example: 1.9524 }) decimal: number;
  @ApiProperty({ description: '1 / decimal', example: 0.512195 }) implied_probability: number;
  @ApiProperty({ description: 'Same as implied_probability', example: 0.512195 }) probability: number;
  @ApiProperty({ description: "The side's implied probability with the market's hold taken out proportionally", example: 0.504808 })
  fair_probability: number;
}

/** One side of a low-hold market: its best price and every book offering it. */
export class LowHoldSideDto {
  @ApiProperty({ description: 'The outcome as the book names it', example: 'Over' }) selection: string;
  @ApiProperty({ example: 'over' }) selection_type: string;
  @ApiProperty({ type: [String], description: 'Every book offering the best price (sorted)', example: ['draftkings', 'fanduel'] })
  books: string[];
  @ApiProperty({ type: Number, nullable: true, example: 220.5 }) line: number | null;
  @ApiProperty({ type: LowHoldOddsDto }) odds: LowHoldOddsDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      "Each book's link (the deep-link resolver, `/api/v1/deeplink/{odds id}`); a book without a link template is left out, never null",
    example: { draftkings: '/api/v1/deeplink/3f9a1c2b7d4e5f60' },
  })
  deep_links: Record<string, string>;
}

/** One market whose best prices in scope hold at most 5%. */
export class LowHoldItemDto extends OpportunityEventDto {
  @ApiProperty({ description: 'Stable while the market stays low-hold (lowercase hex)', example: '5be0c2a94f1d7e36' }) id: string;
  @ApiProperty({ type: Number, nullable: true, example: 220.5 }) line: number | null;
  @ApiProperty({ description: "(sum of the sides' best implied probabilities - 1) x 100", example: 1.2345 }) hold_percentage: number;
  @ApiProperty({ type: LowHoldSideDto }) side1: LowHoldSideDto;
  @ApiProperty({ type: LowHoldSideDto }) side2: LowHoldSideDto;
  @ApiProperty({ type: LowHoldSideDto, nullable: true, description: 'The third outcome of a three-way market; null on two-way markets' })
  side3: LowHoldSideDto | null;
  @ApiProperty({ description: 'A side is live' }) is_live: boolean;
  @ApiProperty({ description: "The market's line is not its consensus main line" }) is_alternate_line: boolean;
  @ApiProperty({ type: [String], description: 'Every book quoting the market in scope' }) all_books: string[];
  @ApiProperty({ description: '0 to 100: fewer than 4 books, live, stale or alternate lower it', example: 90 }) confidence: number;
  @ApiProperty({ description: 'Seconds since the stalest side was confirmed', example: 4.5 }) odds_age_seconds: number;
  @ApiProperty({ description: 'The stalest side was last confirmed more than 60 s ago (live: 10 s)' }) possibly_stale: boolean;
  @ApiProperty({
    type: [String],
    description: `The guards' warnings only: PRICE_OFF_CONSENSUS, VENUE_SELF_ARBITRAGE, VENUE_EXCESS_HOLD, UNVERIFIED_BOOK. ${WARNINGS_DESCRIPTION}`,
  })
  warnings: string[];
  @ApiProperty({ format: 'date-time', description: 'First detection (kept while the market stays low-hold)' }) detected_at: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { OpportunityEventDto, RefBlocksDto, WARNINGS_DESCRIPTION } from '../../opportunity-lists/dto/opportunity-item.response.dto.js';

export class MiddleOddsDto {
  @ApiProperty({ example: -110 }) american: number;
  @ApiProperty({ example: 1.9091 }) decimal: number;
  @ApiProperty({ description: "The book's implied probability", example: 0.52381 }) probability: number;
  @ApiProperty({ description: "Model probability that this side wins (the sport's outcome distribution)", example: 0.55123 })
  fair_probability: number;
}

/** One side of a middle: a book's main-line price. */
export class MiddleSideDto extends RefBlocksDto {
  @ApiProperty({ description: 'The book', example: 'draftkings' }) book: string;
  @ApiProperty({ description: 'The outcome as the book names it', example: 'Kansas City Chiefs' }) selection: string;
  @ApiProperty({ description: 'home, away, over or under', example: 'home' }) selection_type: string;
  @ApiProperty({ type: Number, nullable: true, example: -2.5 }) line: number | null;
  @ApiProperty({ description: 'American odds (the same as odds.american)', example: -110 }) odds_american: number;
  @ApiProperty({ description: 'Decimal odds (the same as odds.decimal)', example: 1.9091 }) odds_decimal: number;
  @ApiProperty({ description: "The book's implied probability (the same as odds.probability)", example: 0.52381 })
  odds_probability: number;
  @ApiProperty({ description: 'Model probability that this side wins (the same as odds.fair_probability)', example: 0.55123 })
  fair_probability: number;
  @ApiProperty({ type: MiddleOddsDto, description: 'The same price, nested' }) odds: MiddleOddsDto;
  @ApiProperty({ description: 'Share of the total stake, in percent, so either winning side pays the same', example: 50.0 })
  stake_percent: number;
  @ApiProperty({ description: 'Seconds since the price was confirmed', example: 4.5 }) odds_age_seconds: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The deep-link resolver for this price (`/api/v1/deeplink/{odds id}`: 302 to the book's bet slip, event or home page); null for a book without a link template",
  })
  deep_link: string | null;
}

/** One middle: two books' lines leaving a window where both bets win. */
export class MiddleAltPriceDto {
  @ApiProperty({ example: 'fanduel' }) book: string;
  @ApiProperty({ description: 'American odds', example: -105 }) odds: number;
}

export class MiddleItemDto extends OpportunityEventDto {
  @ApiProperty({ description: '16 lowercase hexadecimal characters, stable while the middle lives', example: '3f2a9c0d1e4b5a67' })
  id: string;
  @ApiProperty({ type: MiddleSideDto, description: 'The side that wins above its line' }) side1: MiddleSideDto;
  @ApiProperty({ type: MiddleSideDto, description: 'The side that wins below its line' }) side2: MiddleSideDto;
  @ApiProperty({ description: 'True on a team-total market' }) is_team_total: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'The team of a team total; null otherwise', example: null }) team_name:
    string | null;
  @ApiProperty({
    type: [MiddleAltPriceDto],
    nullable: true,
    description: 'Other books with side 1 at the same line, best first; null when none',
  })
  alt_side1: MiddleAltPriceDto[] | null;
  @ApiProperty({
    type: [MiddleAltPriceDto],
    nullable: true,
    description: 'Other books with side 2 at the same line, best first; null when none',
  })
  alt_side2: MiddleAltPriceDto[] | null;
  @ApiProperty({ description: 'Width of the window in points', example: 5 }) middle_size: number;
  @ApiProperty({ type: [Number], description: 'The results on which both sides win', example: [3, 4, 5, 6, 7] }) middle_numbers: number[];
  @ApiProperty({ description: 'Probability that both sides win', example: 0.142311 }) middle_probability: number;
  @ApiProperty({ description: 'Probability that a side pushes', example: 0 }) push_probability: number;
  @ApiProperty({ description: 'Dollars per 100 staked in total', example: 9.8765 }) expected_value: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "expected_value after the venues' costs (config/costs.json), per 100 of outlay (stakes plus trading fees): the pair priced on each side's net decimal, (1 + (decimal - 1) x (1 - commission)) / (1 + fee_rate x (1 - 1 / decimal)), a push returning the outlay; equals expected_value when both sides are sportsbooks; null when a side's venue cost is unknown (UNKNOWN_VENUE_COST)",
    example: 9.8765,
  })
  estimated_net_expected_value: number | null;
  @ApiProperty({ description: 'expected_value as a percentage of the stake', example: 9.8765 }) roi_percentage: number;
  @ApiProperty({ description: 'Loss per 100 staked when only one side wins (negative)', example: -4.5455 }) worst_case_loss: number;
  @ApiProperty({ description: 'Profit per 100 staked when both sides win', example: 90.9091 }) best_case_profit: number;
  @ApiProperty({ description: 'Middle probability at which expected_value is 0, in percent', example: 4.7619 }) break_even_percent: number;
  @ApiProperty({ description: 'Seconds since the staler side was confirmed', example: 4.5 }) odds_age_seconds: number;
  @ApiProperty({ description: 'Even the worst case wins (the middle is also an arbitrage)' }) is_guaranteed_profit: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'The worst-case return in percent, when guaranteed' }) guaranteed_roi:
    number | null;
  @ApiProperty({ type: [Number], description: "The sport's key numbers inside the window", example: [3, 7] }) key_numbers: number[];
  @ApiProperty({ description: 'Probability of landing on a key number inside the window', example: 0.1234 }) key_number_probability: number;
  @ApiProperty({ description: '0 to 100: probability, EV, size, key numbers, worst case, age, liveness', example: 72 })
  quality_score: number;
  @ApiProperty({ description: 'Sum of the two implied probabilities', example: 1.047619 }) market_overround: number;
  @ApiProperty({ description: 'A side is live' }) is_live: boolean;
  @ApiProperty({
    type: [String],
    description: `HIGH_PROBABILITY, LARGE_GAP, STALE_ODDS, LIVE_GAME, GUARANTEED_PROFIT, PRICE_OFF_CONSENSUS, VENUE_SELF_ARBITRAGE, VENUE_EXCESS_HOLD, UNKNOWN_VENUE_COST, UNVERIFIED_BOOK. ${WARNINGS_DESCRIPTION}`,
  })
  warnings: string[];
  @ApiProperty({ format: 'date-time', description: 'First detection (kept while the middle lives)' }) detected_at: string;
}

class MiddlesBestEvDto {
  @ApiProperty({ description: 'The highest expected_value', example: 12.5 }) ev: number;
  @ApiProperty({ example: 'football' }) sport: string;
  @ApiProperty({ description: 'Its market type', example: 'point_spread' }) market: string;
}

const COUNTS = { type: 'object', additionalProperties: { type: 'integer' } } as const;

/** Counts and averages over the current middles. */
export class MiddlesSummaryDto {
  @ApiProperty({ description: 'Middles in all', example: 46 }) total: number;
  @ApiProperty({ description: 'With a positive expected value', example: 12 }) positive_ev_count: number;
  @ApiProperty({ description: 'Guaranteed profits', example: 0 }) guaranteed_profit_count: number;
  @ApiProperty({ description: 'On player props', example: 3 }) player_prop_count: number;
  @ApiProperty({ ...COUNTS, description: 'Middles per sport' }) by_sport: Record<string, number>;
  @ApiProperty({ ...COUNTS, description: 'Middles per market type' }) by_market: Record<string, number>;
  @ApiProperty({ ...COUNTS, description: 'Middles per book (each middle counts for both its books)' }) by_sportsbook: Record<
    string,
    number
  >;
  @ApiProperty({ description: 'Average middle_size', example: 2.5 }) avg_middle_size: number;
  @ApiProperty({ description: 'Average middle_probability', example: 0.08 }) avg_probability: number;
  @ApiProperty({ description: 'Average expected_value', example: -0.5 }) avg_ev: number;
  @ApiProperty({
    type: MiddlesBestEvDto,
    nullable: true,
    description: 'The middle with the highest expected_value; null when there is none',
  })
  best_ev: MiddlesBestEvDto | null;
  @ApiProperty({ description: 'Middles with a key number inside the window', example: 4 }) has_key_numbers_count: number;
}

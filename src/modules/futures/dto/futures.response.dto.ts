import { ApiProperty } from '@nestjs/swagger';
import { DEVIG_METHODS } from '../../../math/devig.js';
import { FUTURE_TYPES } from '../../../domain/futures.js';

/** One futures market (`GET /futures`). */
export class FuturesMarketDto {
  @ApiProperty({ description: 'Futures market id (the `future_id` of /futures/odds)', example: 'nba_championship_2026' }) market_id: string;
  @ApiProperty({ example: 'NBA Championship 2026-27' }) display_name: string;
  @ApiProperty({ example: 'basketball' }) sport: string;
  @ApiProperty({ example: 'nba' }) league: string;
  @ApiProperty({ enum: FUTURE_TYPES }) future_type: string;
  @ApiProperty({
    description: 'What is asked: championship_winner, conference_winner, division_winner, mvp, win_total, make_playoffs, ...',
    example: 'championship_winner',
  })
  kind: string;
  @ApiProperty({ description: 'Distinct selections (runners, or sides and lines) quoted by the books in scope', example: 30 })
  selection_count: number;
  @ApiProperty({ type: [String], description: 'Books in scope quoting it (sorted)', example: ['draftkings', 'fanduel', 'pinnacle'] })
  books_available: string[];
  @ApiProperty({ description: 'When it settles or trading closes (approximate)' }) closes_at: string;
  @ApiProperty({ description: 'Last price change among the books in scope' }) last_update: string;
}

/** One futures price at one book (`GET /futures/odds`). */
export class FuturesOddsDto {
  @ApiProperty({ description: 'Stable id of the price (book, market, selection, side, line); also a deep-link id' }) id: string;
  @ApiProperty({ example: 'Boston Celtics' }) selection: string;
  @ApiProperty({ description: '`other` for a runner of an n-way market; over, under, yes, no', example: 'other' }) selection_type: string;
  @ApiProperty({ example: 'draftkings' }) sportsbook: string;
  @ApiProperty({ example: 'DraftKings' }) sportsbook_name: string;
  @ApiProperty({ example: 450 }) odds_american: number;
  @ApiProperty({ example: 5.5 }) odds_decimal: number;
  @ApiProperty({ description: 'Implied probability (1 / decimal)', example: 0.181818 }) probability: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Win total and other over/under lines; null otherwise', example: null }) line:
    number | null;
  @ApiProperty({ enum: FUTURE_TYPES }) future_type: string;
  @ApiProperty({ example: 'nba_championship_2026' }) future_market_id: string;
  @ApiProperty({ example: 'NBA Championship 2026-27' }) future_market_name: string;
  @ApiProperty({ example: 'basketball' }) sport: string;
  @ApiProperty({ example: 'nba' }) league: string;
  @ApiProperty({ description: 'When the market settles or closes (approximate)' }) event_start_time: string;
  @ApiProperty({ description: 'When we last saw the price change' }) timestamp: string;
  @ApiProperty({ description: 'Last time a source confirmed the price' }) last_seen_at: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Fair probability from the devigged sharp reference (power), when a sharp book prices the whole market; null otherwise',
  })
  fair_probability: number | null;
  @ApiProperty({ type: Number, nullable: true, description: '(fair_probability x decimal - 1) x 100; null without a sharp reference' })
  ev_percentage: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "EV% after the venue's costs (config/costs.json), per unit of outlay: (fair probability x net decimal - 1) x 100, net decimal = (1 + (decimal - 1) x (1 - commission)) / (1 + fee_rate x (1 - 1 / decimal)); equals ev_percentage at a sportsbook; null when the venue's cost is unknown or there is no sharp reference",
  })
  estimated_net_ev_percentage: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The deep-link resolver for this price; null for a book without a link template',
  })
  deep_link: string | null;
}

/** One +EV futures price (`GET /futures/ev`). */
export class FuturesEvDto {
  @ApiProperty({ description: 'Stable while the opportunity lives (lowercase hex)' }) id: string;
  @ApiProperty() future_market_id: string;
  @ApiProperty() future_market_name: string;
  @ApiProperty({ enum: FUTURE_TYPES }) future_type: string;
  @ApiProperty() sport: string;
  @ApiProperty() league: string;
  @ApiProperty() selection: string;
  @ApiProperty() selection_type: string;
  @ApiProperty({ type: Number, nullable: true }) line: number | null;
  @ApiProperty() sportsbook: string;
  @ApiProperty() odds_american: number;
  @ApiProperty() odds_decimal: number;
  @ApiProperty({ description: "Fair probability by n-way devig of the sharp reference's complete market" }) fair_probability: number;
  @ApiProperty({ description: 'Fair American odds' }) no_vig_odds: number;
  @ApiProperty({ description: 'EV% = (fair probability x decimal - 1) x 100' }) ev_percentage: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "EV% after the venue's costs (config/costs.json), per unit of outlay: (fair probability x net decimal - 1) x 100, net decimal = (1 + (decimal - 1) x (1 - commission)) / (1 + fee_rate x (1 - 1 / decimal)); equals ev_percentage at a sportsbook; null when the venue's cost is unknown",
  })
  estimated_net_ev_percentage: number | null;
  @ApiProperty({ description: 'Full-Kelly stake as a fraction of bankroll, 0 to 1' }) kelly_percent: number;
  @ApiProperty({ description: 'The sharp reference (first of Pinnacle, Circa, BookMaker whose market is complete)' }) sharp_book: string;
  @ApiProperty({ description: "The reference market's hold in percent" }) sharp_hold_percent: number;
  @ApiProperty({ description: 'Outcomes in the devigged reference market' }) sharp_outcomes: number;
  @ApiProperty({ enum: DEVIG_METHODS }) devig_method: string;
  @ApiProperty() timestamp: string;
  @ApiProperty({ type: String, nullable: true }) deep_link: string | null;
}

export class FuturesHoldOddsDto {
  @ApiProperty() american: number;
  @ApiProperty() decimal: number;
  @ApiProperty() implied_probability: number;
  @ApiProperty({ description: 'Same as implied_probability' }) probability: number;
  @ApiProperty({ description: 'Implied probability with the hold taken out proportionally' }) fair_probability: number;
}

export class FuturesHoldSideDto {
  @ApiProperty() selection: string;
  @ApiProperty() selection_type: string;
  @ApiProperty({ type: [String], description: 'Every book offering the best price' }) books: string[];
  @ApiProperty({ type: FuturesHoldOddsDto }) odds: FuturesHoldOddsDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: "Each book's deep link; books without a link template are left out",
  })
  deep_links: Record<string, string>;
}

/** A low-hold futures market (`GET /futures/low_hold`). */
export class FuturesLowHoldDto {
  @ApiProperty({ description: 'Stable lowercase hex id' }) id: string;
  @ApiProperty() future_market_id: string;
  @ApiProperty() future_market_name: string;
  @ApiProperty({ enum: FUTURE_TYPES }) future_type: string;
  @ApiProperty() sport: string;
  @ApiProperty() league: string;
  @ApiProperty({ type: Number, nullable: true }) line: number | null;
  @ApiProperty({ description: '(sum of 1 / best decimal over the field - 1) x 100' }) hold_percentage: number;
  @ApiProperty({ description: 'The book whose complete market gives the field (the outcomes summed)' }) field_book: string;
  @ApiProperty({ type: [FuturesHoldSideDto] }) sides: FuturesHoldSideDto[];
  @ApiProperty({ type: [String] }) all_books: string[];
}

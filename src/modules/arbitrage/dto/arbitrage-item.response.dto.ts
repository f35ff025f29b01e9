import { ApiProperty } from '@nestjs/swagger';
import { OpportunityEventDto, RefBlocksDto, WARNINGS_DESCRIPTION } from '../../opportunity-lists/dto/opportunity-item.response.dto.js';

/** One leg: the best price of one outcome and the share of the total stake it takes. */
export class ArbitrageLegDto extends RefBlocksDto {
  @ApiProperty({ example: 'draftkings' }) sportsbook: string;
  @ApiProperty({ description: 'The outcome as the book names it', example: 'Boston Celtics' }) selection: string;
  @ApiProperty({ description: 'home, away, draw, over, under, ...', example: 'home' }) selection_type: string;
  @ApiProperty({ type: Number, nullable: true, description: 'The line of this price; null without one', example: -3.5 }) line:
    number | null;
  @ApiProperty({ example: 110 }) odds_american: number;
  @ApiProperty({ example: 2.1 }) odds_decimal: number;
  @ApiProperty({ description: '1 / decimal', example: 0.47619 }) implied_probability: number;
  @ApiProperty({
    description: "The leg's share of the total stake, in percent: implied probability / implied total x 100",
    example: 49.3974,
  })
  stake_percent: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "The leg's share of the total outlay (its stake plus its trading fee), in percent, split on the legs' net decimals so that every outcome pays the same after costs: the split behind estimated_net_profit_percent. Null when a leg's venue cost is unknown (UNKNOWN_VENUE_COST)",
    example: 48.1481,
  })
  net_stake_percent: number | null;
  @ApiProperty({ format: 'date-time', description: 'When the price, line or state last changed' }) timestamp: string;
  @ApiProperty({ type: String, nullable: true, description: "The book's own event id, when the feed sends one" }) external_event_id:
    string | null;
  @ApiProperty({ type: String, nullable: true, description: "The book's own selection id, when the feed sends one" }) selection_id:
    string | null;
  @ApiProperty({ type: String, nullable: true, description: "The book's own market id, when the feed sends one" }) market_id: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The deep-link resolver for this price (`/api/v1/deeplink/{odds id}`: 302 to the book's bet slip, event or home page); null for a book without a link template",
  })
  deep_link: string | null;
}

/** One arbitrage: the best price of every outcome of a market summing below 100%. */
export class ArbitrageItemDto extends OpportunityEventDto {
  @ApiProperty({ description: 'Stable while the arbitrage lives (lowercase hex)', example: '3f2a9c0d1e4b5a67' }) id: string;
  @ApiProperty({ type: Number, nullable: true, description: 'The line of the market; null without one', example: 220.5 }) line:
    number | null;
  @ApiProperty({ description: '100 / implied_total x 100 - 100', example: 3.735 }) profit_percent: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "Profit in percent of the total outlay (stakes plus trading fees) after the venues' costs (config/costs.json: exchange commission on net winnings, prediction-market trading fees), with the legs staked as net_stake_percent so that every outcome pays the same: 100 / sum(1 / net decimal) - 100, net decimal = (1 + (decimal - 1) x (1 - commission)) / (1 + fee_rate x (1 - 1 / decimal)). Equals profit_percent when every leg is a sportsbook; null when a leg's venue cost is unknown (UNKNOWN_VENUE_COST)",
    example: 1.1111,
  })
  estimated_net_profit_percent: number | null;
  @ApiProperty({ description: "Sum of the legs' implied probabilities, in percent", example: 96.3995 }) implied_total: number;
  @ApiProperty({ description: 'A leg is live' }) is_live: boolean;
  @ApiProperty({ description: "The market's line is not its consensus main line" }) is_alternate_line: boolean;
  @ApiProperty({ description: 'The stalest leg was last confirmed more than 60 s ago (live: 10 s)' }) possibly_stale: boolean;
  @ApiProperty({ description: 'Seconds since the stalest leg was confirmed', example: 4.5 }) oldest_odds_age_seconds: number;
  @ApiProperty({
    type: [String],
    description: `LIVE_GAME, LIVE_HIGH_PROFIT_SUSPICIOUS, LOW_IMPLIED_TOTAL, POTENTIALLY_STALE_ODDS, VERY_STALE_ODDS, PRICE_OFF_CONSENSUS, VENUE_SELF_ARBITRAGE, VENUE_EXCESS_HOLD, UNKNOWN_VENUE_COST, UNVERIFIED_BOOK. ${WARNINGS_DESCRIPTION}`,
  })
  warnings: string[];
  @ApiProperty({ description: 'Whether a leg is also a +EV price' }) ev_available: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'The best EV% (power devig) among the legs' }) ev_percentage: number | null;
  @ApiProperty({ type: [ArbitrageLegDto], description: 'One leg per outcome (two or three)' }) legs: ArbitrageLegDto[];
  @ApiProperty({ format: 'date-time', description: 'First detection (kept while the arbitrage lives)' }) detected_at: string;
}

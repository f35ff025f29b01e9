import { ApiProperty } from '@nestjs/swagger';
import { DEVIG_METHODS } from '../../../math/devig.js';
import { OpportunityEventDto, WARNINGS_DESCRIPTION } from '../../opportunity-lists/dto/opportunity-item.response.dto.js';

/** One +EV price: a book's price above the devigged sharp line. */
export class EvItemDto extends OpportunityEventDto {
  @ApiProperty({ description: 'Stable while the opportunity lives (lowercase hex)', example: '9c1f0a7b3e2d4c58' }) id: string;
  @ApiProperty({ description: 'Alias of event_id' }) game_id: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Canonical player id on player props (sport_league_player-slug); null otherwise',
    example: 'baseball_mlb_corbin_carroll',
  })
  player_id: string | null;
  @ApiProperty({ description: 'Alias of event_name' }) game: string;
  @ApiProperty({ description: 'Alias of market_type' }) market: string;
  @ApiProperty({ description: 'The outcome as the book names it', example: 'Boston Celtics' }) selection: string;
  @ApiProperty({ description: 'home, away, draw, over, under, yes, no', example: 'home' }) selection_type: string;
  @ApiProperty({ type: Number, nullable: true, description: 'The line of the price (spread or total); null without one', example: -3.5 })
  line: number | null;
  @ApiProperty({ description: 'The book offering the price', example: 'draftkings' }) sportsbook: string;
  @ApiProperty({ example: 120 }) odds_american: number;
  @ApiProperty({ example: 2.2 }) odds_decimal: number;
  @ApiProperty({ description: 'EV% = (fair probability x decimal - 1) x 100', example: 3.4521 }) ev_percentage: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "EV per unit of outlay after the venue's costs (config/costs.json), in percent: (fair probability x net decimal - 1) x 100, net decimal = (1 + (decimal - 1) x (1 - commission)) / (1 + fee_rate x (1 - 1 / decimal)); equals ev_percentage at a sportsbook; null when the venue's cost is unknown (UNKNOWN_VENUE_COST)",
    example: 0.5724,
  })
  estimated_net_ev_percentage: number | null;
  @ApiProperty({ description: 'Fair probability of the outcome by devig_method', example: 0.470238 }) fair_probability: number;
  @ApiProperty({ description: 'Fair American odds (no vig)', example: 113 }) no_vig_odds: number;
  @ApiProperty({ enum: DEVIG_METHODS, description: 'How the sharp line was devigged' }) devig_method: string;
  @ApiProperty({ description: 'The sharp reference book devigged', example: 'pinnacle' }) sharp_book: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Width of the sharp two-way market in cents; null on three-way markets',
    example: 20,
  })
  market_width: number | null;
  @ApiProperty() is_live: boolean;
  @ApiProperty({ type: String, nullable: true, description: "The book's own event id, when the feed sends one" }) external_event_id:
    string | null;
  @ApiProperty({ type: String, nullable: true, description: "The book's own selection id, when the feed sends one" }) selection_id:
    string | null;
  @ApiProperty({ format: 'date-time', description: 'First detection (kept while the opportunity lives)' }) detected_at: string;
  @ApiProperty({ description: 'Confidence 0 to 100 (books quoting, sharp width and hold, age, liveness, main line)', example: 78 })
  confidence_score: number;
  @ApiProperty({ description: 'Full-Kelly stake as a fraction of bankroll, 0 to 1', example: 0.028753 }) kelly_percent: number;
  @ApiProperty({ description: 'Books quoting this selection', example: 12 }) book_count: number;
  @ApiProperty({ description: 'Whether an arbitrage (all books) exists on the same market' }) arb_available: boolean;
  @ApiProperty({ type: Number, nullable: true, description: "That arbitrage's profit percent" }) arb_profit: number | null;
  @ApiProperty({ description: 'The price or a sharp price was last confirmed more than 60 s ago (live: 10 s)' }) possibly_stale: boolean;
  @ApiProperty({ description: 'Seconds since the stalest price used was confirmed', example: 4.5 }) oldest_odds_age_seconds: number;
  @ApiProperty({
    type: [String],
    description: `LIVE_STALE_ODDS, POTENTIALLY_STALE_ODDS, SINGLE_SHARP_REF, LOW_IMPLIED_TOTAL, PRICE_OFF_CONSENSUS, VENUE_SELF_ARBITRAGE, VENUE_EXCESS_HOLD, UNKNOWN_VENUE_COST, UNVERIFIED_BOOK. ${WARNINGS_DESCRIPTION}`,
  })
  warnings: string[];
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The deep-link resolver for this price (`/api/v1/deeplink/{odds id}`: 302 to the book's bet slip, event or home page); null for a book without a link template",
  })
  deep_link: string | null;
}

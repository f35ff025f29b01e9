import { ApiProperty } from '@nestjs/swagger';

const nullableNumber = (example: number | null, description: string) => ApiProperty({ type: Number, nullable: true, example, description });
const nullableString = (example: string | null, description: string) => ApiProperty({ type: String, nullable: true, example, description });

export class ContractPriceDto {
  @ApiProperty({ example: -122 }) american: number;
  @ApiProperty({ example: 1.8197 }) decimal: number;
  @ApiProperty({ example: 0.55, description: 'Implied probability (the contract price in dollars)' }) probability: number;
}

export class ContractOutcomeDto {
  @ApiProperty({ example: 'Boston Red Sox', description: 'The outcome (a side, a runner, Yes or No)' }) name: string;
  @ApiProperty({ example: 'home' }) selection_type: string;
  @nullableNumber(null, 'The line (null without one)') line: number | null;
  @ApiProperty({ type: ContractPriceDto }) price: ContractPriceDto;
  @nullableNumber(0.54, 'Best resting bid, contract price 0-1 (null: no bid rests)') bid: number | null;
  @nullableNumber(0.56, 'Best resting ask, contract price 0-1 (null: no ask rests)') ask: number | null;
  @nullableNumber(0.55, 'Last trade, contract price 0-1 (null: none reported)') last: number | null;
  @nullableNumber(15230, "Amount traded on the outcome, in the venue's units (null: unknown)") volume: number | null;
  @nullableNumber(9138, 'Contracts outstanding (null: unknown)') open_interest: number | null;
  @ApiProperty({
    example: '9f2c4e1a0b3d5c67',
    description: 'The odds row id (game contracts, /odds) or the futures price id (/futures/odds)',
  })
  odds_id: string;
}

export class ContractSourceIdsDto {
  @ApiProperty({
    example: 'mlb_rays_redsox_2026-07-12_b3-moneyline',
    description: "The venue's id of the market (after the colon of market_id)",
  })
  market_id: string;
  @nullableString('mlb_rays_redsox_2026-07-12_b3', "The venue's event or series id, when the source sent one") event_id: string | null;
  @ApiProperty({ type: [String], description: "The venue's selection ids (or the row ids), one per outcome" }) selection_ids: string[];
}

export class ContractSportsbookRefDto {
  @ApiProperty({ example: 'polymarket' }) id: string;
  @ApiProperty({ example: 'Polymarket' }) label: string;
  @ApiProperty({ type: Number, nullable: true, example: 41 }) numerical_id: number | null;
}

/** One exchange or prediction-market contract. */
export class PredictionMarketDto {
  @ApiProperty({ example: 'polymarket:mlb_rays_redsox_2026-07-12_b3-moneyline', description: '{venue}:{venue id}' }) market_id: string;
  @ApiProperty({ example: 'polymarket' }) venue: string;
  @ApiProperty({ type: ContractSourceIdsDto }) source_ids: ContractSourceIdsDto;
  @ApiProperty({ example: 'Tampa Bay Rays @ Boston Red Sox: Moneyline' }) title: string;
  @ApiProperty({
    example: 'game',
    description: '`game` for a game contract, else the futures kind (championship_winner, mvp, outright, ...)',
  })
  category: string;
  @ApiProperty({ example: 'baseball' }) sport: string;
  @ApiProperty({ example: 'mlb' }) league: string;
  @ApiProperty({ example: 'moneyline' }) market_type: string;
  @ApiProperty({ enum: ['open', 'suspended', 'closed'], example: 'open' }) status: string;
  @ApiProperty({ type: [ContractOutcomeDto] }) outcomes: ContractOutcomeDto[];
  @nullableNumber(30460, 'Sum of the outcomes\u2019 volume (null: unknown)') volume: number | null;
  @nullableNumber(18276, 'Sum of the outcomes\u2019 open interest (null: unknown)') open_interest: number | null;
  @ApiProperty({ type: ContractSportsbookRefDto, nullable: true }) sportsbook_ref: ContractSportsbookRefDto | null;
  @nullableString(
    'mlb_rays_redsox_2026-07-12_b3',
    "The canonical event id (as /events gives it) of a game contract; always null for a futures or question contract (the venue's own event id is never offered as a join key)",
  )
  linked_event_id: string | null;
  @nullableString(null, 'The /futures market id of a futures contract (null for a game contract)') futures_market_id: string | null;
  @ApiProperty({ example: '2026-07-12T23:44:29.241Z', description: 'Game start (game contracts) or when the question closes' })
  closes_at: string;
  @ApiProperty({ example: '2026-07-13T01:45:50.346Z', description: 'When an outcome last changed' }) updated_at: string;
}

export class CategoryBookDto {
  @ApiProperty({ example: 'kalshi' }) id: string;
  @ApiProperty({ example: 'Kalshi' }) label: string;
  @ApiProperty({ example: 260 }) market_count: number;
}

export class PredictionMarketCategoryDto {
  @ApiProperty({ example: 'game', description: '`game` (game contracts) or a futures kind' }) id: string;
  @ApiProperty({ example: 'Game contracts' }) label: string;
  @ApiProperty({ example: 412 }) market_count: number;
  @ApiProperty({ type: [CategoryBookDto], description: 'Markets per venue, most first' }) books: CategoryBookDto[];
}

class CategoriesFiltersDto {
  @ApiProperty({ type: [String], nullable: true, example: null }) venue: string[] | null;
  @ApiProperty({ type: [String], nullable: true, example: null }) league: string[] | null;
  @nullableString(null, '') status: string | null;
}

class CategoriesMetaDto {
  @ApiProperty({ example: 3 }) count: number;
  @ApiProperty({ type: CategoriesFiltersDto }) filters: CategoriesFiltersDto;
  @ApiProperty({ example: '2026-07-13T01:46:00.000Z' }) updated_at: string;
}

export class PredictionMarketCategoriesResponseDto {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ type: [PredictionMarketCategoryDto] }) data: PredictionMarketCategoryDto[];
  @ApiProperty({ type: CategoriesMetaDto }) meta: CategoriesMetaDto;
  @ApiProperty({ example: '2026-07-13T01:46:00.000Z' }) updated_at: string;
}

import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { ApiPagedResponse } from '../../common/http/api-responses.js';
import { PredictionMarketCategoriesQuery, PredictionMarketsQuery } from './dto/prediction-markets.query.dto.js';
import { PredictionMarketCategoriesResponseDto, PredictionMarketDto } from './dto/prediction-market.response.dto.js';
import { PredictionMarketsService } from './prediction-markets.service.js';

const VENUES_NOTE =
  'Venues are the exchange and prediction-market books (Kalshi, Polymarket, Novig, ProphetX, Betfair, ...); `venue` naming a sportsbook or an unknown book is 400.';

@ApiTags('Prediction markets')
@Controller('prediction-markets')
export class PredictionMarketsController {
  constructor(private readonly markets: PredictionMarketsService) {}

  @Get()
  @RequiresFeature('prediction_markets')
  @ApiPagedResponse(PredictionMarketDto, { description: 'Exchange and prediction-market contracts, game contracts first' })
  @ApiOperation({
    summary: 'Prediction-market and exchange contracts (hobby and up)',
    description: `Every exchange and prediction-market contract as a market of its own: \`market_id\` is "{venue}:{venue id}", \`outcomes[]\` each with \`price\` (american, decimal, probability), \`bid\`/\`ask\`/\`last\` (contract price 0-1, explicit null when no quote rests), volume and open interest where the source sends them. A game contract (a venue's market on a game) has \`linked_event_id\`, the canonical event; a futures or question contract always has \`linked_event_id\` null. Filters \`venue\`, \`category\`, \`league\`, \`event_id\` (linked event), \`status\`; \`limit\` (default 50, at most 200) and \`offset\`. ${VENUES_NOTE} Feature \`prediction_markets\` (hobby and up).`,
  })
  list(@Query() q: PredictionMarketsQuery, @CurrentAccount() account: Account) {
    return this.markets.list(account, q);
  }

  @Get('categories')
  @RequiresFeature('prediction_markets')
  @ApiOkResponse({ type: PredictionMarketCategoriesResponseDto })
  @ApiOperation({
    summary: 'Prediction-market categories (hobby and up)',
    description: `The categories of the contracts (\`game\` for game contracts, else the futures kind: championship_winner, mvp, outright, ...), each with \`market_count\` and the count per venue (\`books[]\`), most markets first. Filters \`venue\`, \`league\`, \`status\`. ${VENUES_NOTE}`,
  })
  categories(@Query() q: PredictionMarketCategoriesQuery, @CurrentAccount() account: Account) {
    return this.markets.categories(account, q);
  }
}

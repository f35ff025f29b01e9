import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { RequiresFeature, RequiresKey } from '../../common/auth/decorators.js';
import { ApiPagedResponse } from '../../common/http/api-responses.js';
import { FuturesEvQuery, FuturesFilters, FuturesLowHoldQuery, FuturesOddsQuery } from './dto/futures.query.js';
import { FuturesEvDto, FuturesLowHoldDto, FuturesMarketDto, FuturesOddsDto } from './dto/futures.response.dto.js';
import { FuturesQueryService } from './futures-query.service.js';

const BOOKS_NOTE =
  "Without `sportsbook` the tier's default books apply; naming a book above the tier, or more books than the tier's maximum, is 403 tier_restricted.";

@ApiTags('Futures')
@Controller('futures')
export class FuturesController {
  constructor(private readonly futures: FuturesQueryService) {}

  @Get()
  @RequiresKey()
  @ApiPagedResponse(FuturesMarketDto, { description: 'Futures markets quoted by at least one book in scope' })
  @ApiOperation({
    summary: 'Futures markets (every tier)',
    description: `Outright markets: championship, conference and division winners, MVP and other awards, season win totals (OVER_UNDER), yes/no propositions. ${BOOKS_NOTE}`,
  })
  markets(@Query() q: FuturesFilters, @CurrentAccount() account: Account) {
    return this.futures.markets(account, q);
  }

  @Get('odds')
  @RequiresFeature('futures')
  @ApiPagedResponse(FuturesOddsDto, { description: 'Futures prices, favourites first within each market' })
  @ApiOperation({
    summary: 'Futures prices (pro and up)',
    description: `Every price of the futures markets matching the filters (\`future_id\` for one market; unknown id: 404), with the fair probability and EV% where a sharp book (Pinnacle, Circa, BookMaker) prices the whole market. ${BOOKS_NOTE}`,
  })
  odds(@Query() q: FuturesOddsQuery, @CurrentAccount() account: Account) {
    return this.futures.odds(account, q);
  }

  @Get('ev')
  @RequiresFeature('ev')
  @ApiPagedResponse(FuturesEvDto, { description: '+EV futures prices, highest EV first' })
  @ApiOperation({
    summary: '+EV futures prices (pro and up)',
    description: `The sharp reference's complete market (two-way for over/under and yes/no; for an outright, every runner any book quotes, with implied probabilities summing to 1 or more) is devigged n-way (\`devig_method\`, default power); every other book's price on a runner it quotes is listed when EV% = (fair x decimal - 1) x 100 exceeds \`min_ev\`. ${BOOKS_NOTE}`,
  })
  ev(@Query() q: FuturesEvQuery, @CurrentAccount() account: Account) {
    return this.futures.ev(account, q);
  }

  @Get('low_hold')
  @RequiresFeature('low_hold')
  @ApiPagedResponse(FuturesLowHoldDto, { description: 'Low-hold futures markets, lowest hold first' })
  @ApiOperation({
    summary: 'Low-hold futures markets (hobby and up)',
    description: `hold_percentage = (sum over the field of 1 / best decimal - 1) x 100; the field is the outcomes of a complete book market in scope: one quoting every runner any book quotes (a book listing the favourites never defines it). Prices their source has not confirmed within its window are left out; replayed imports (history) never appear. \`max_hold\` default 5. ${BOOKS_NOTE}`,
  })
  lowHold(@Query() q: FuturesLowHoldQuery, @CurrentAccount() account: Account) {
    return this.futures.lowHold(account, q);
  }
}

import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { ParlayPriceBody } from './dto/parlay-price.body.js';
import { ParlayPriceResponseDto } from './dto/parlay-price.response.dto.js';
import { MAX_PARLAY_LEGS, ParlayService } from './parlay.service.js';

@ApiTags('Parlay')
@Controller('parlay')
export class ParlayController {
  constructor(private readonly parlay: ParlayService) {}

  @Post('price')
  @HttpCode(200)
  @RequiresFeature('parlay')
  @ApiOperation({
    summary: 'Modelled fair price of a parlay (pro and up)',
    description: `Body \`{legs: [...], sportsbook?}\`, 2 to ${MAX_PARLAY_LEGS} legs, each \`{odds_id}\` (an odds row id) or \`{event_id, market, selection, line?, sportsbook?}\` (selection: its name or side). All legs are at one book (the slip's). Each leg's fair probability is its market at that book devigged (CLV_DEVIG_METHOD, default power; the sharpest book quoting the whole market when that book quotes one side). Legs on different games multiply. Legs on one game are joined by a joint (margin, total) score model fitted to the game's devigged main spread (or moneyline) and total: margin and total for football and basketball, goal or run rates for soccer, hockey and baseball; the product of the legs is scaled by the model's P(all legs) / product of P(leg). Same-game legs the model cannot join (player props, period markets, team totals, other sports) are refused with \`correlation_unsupported\`. Legs that cannot all win (both sides of a market, over and under the same total) give \`price: null\`, \`reason: "mutually_exclusive"\` and the pairs in \`conflicting_legs\`; live legs add a warning. \`parlay.note\` always says the price is modelled and not a sportsbook parlay quote. 400 codes: \`too_few_legs\`, \`too_many_legs\` (\`max_legs\`), \`unknown_leg\`, \`ambiguous_leg\` (\`leg\` is the index), \`correlation_unsupported\`, \`invalid_request\`.`,
  })
  @ApiOkResponse({ type: ParlayPriceResponseDto })
  @ApiBadRequestResponse({
    description: 'too_few_legs, too_many_legs, unknown_leg, ambiguous_leg, correlation_unsupported or invalid_request',
  })
  price(@Body() body: ParlayPriceBody) {
    return this.parlay.price(body);
  }
}

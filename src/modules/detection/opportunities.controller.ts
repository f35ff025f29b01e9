import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { ArbitrageQuery, EvQuery, LowHoldQuery, MiddlesQuery, MiddlesSummaryQuery } from './dto/opportunities.query.js';
import { OpportunitiesService } from './opportunities.service.js';

const SCOPE_NOTE =
  'Opportunities are found continuously in each tier\'s default book set (hobby: 5 books, pro: 15, sharp and enterprise: all); `sportsbook` narrows to opportunities among the named books (tier book rules apply: a book above the tier or more books than the tier allows is 403 tier_restricted). Suspended prices never enter an opportunity; every leg is a complementary outcome of the same market (same event, period, line and settlement). A venue whose own market crosses itself or holds far over its usual hold is left out (`include_flagged=true` lists what it would add, with VENUE_SELF_ARBITRAGE or VENUE_EXCESS_HOLD); a price far from the other books\' consensus adds PRICE_OFF_CONSENSUS (thresholds in the README, Opportunities).';

@ApiTags('Opportunities')
@Controller('opportunities')
export class OpportunitiesController {
  constructor(private readonly opportunities: OpportunitiesService) {}

  @Get('ev')
  @RequiresFeature('ev')
  @ApiOperation({
    summary: '+EV prices against the devigged sharp line (pro and up)',
    description: `The sharp reference book's complete market (Pinnacle, else Circa, else Bookmaker) is devigged with \`devig_method\` (power by default; multiplicative, additive, shin, worst_case) and every other book's price is compared: EV% = (fair probability x decimal - 1) x 100. One item per +EV book on a selection, highest EV first. \`kelly_percent\` is the full-Kelly stake as a fraction of bankroll (0 to 1). ${SCOPE_NOTE}`,
  })
  ev(@Query() q: EvQuery, @Req() req: FastifyRequest) {
    return this.opportunities.ev(req.account, q);
  }

  @Get('arbitrage')
  @RequiresFeature('arbitrage')
  @ApiProduces('application/json', 'text/csv')
  @ApiOperation({
    summary: 'Arbitrages (hobby and up, with the account\'s arbitrage flag on)',
    description: `implied_total = sum of the legs' implied probabilities in percent (below 100 is an arbitrage); profit_percent = 100 / implied_total x 100 - 100; stake_percent of a leg = its implied probability / implied_total x 100 (three-way too). Above 10% profit is filtered out as a data error. format=csv answers a file arbitrage_<YYYY-MM-DD>.csv (three-way legs 2 and 3 share the "2" columns, joined by " / "; text cells starting with =, +, -, @, tab or CR are prefixed with a single quote, numbers never are). ${SCOPE_NOTE}`,
  })
  async arbitrage(@Query() q: ArbitrageQuery, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    if (q.format === 'csv') {
      const { filename, body } = this.opportunities.arbitrageCsv(req.account, q);
      void reply.header('Content-Type', 'text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="${filename}"`);
      return body;
    }
    return this.opportunities.arbitrage(req.account, q).envelope;
  }

  @Get('middles')
  @RequiresFeature('middles')
  @ApiOperation({
    summary: 'Middles (pro and up)',
    description: `Two books' lines on one market leave a window where both bets win. middle_probability comes from a per-sport distribution of the result (key-number-weighted margins for football, Skellam/Poisson for hockey and soccer, negative binomial for baseball, discretised normals elsewhere) centred on the consensus main line; expected_value is dollars per 100 staked in total, with stakes split so either winning side pays the same. ${SCOPE_NOTE}`,
  })
  middles(@Query() q: MiddlesQuery, @Req() req: FastifyRequest) {
    return this.opportunities.middles(req.account, q);
  }

  @Get('middles/summary')
  @RequiresFeature('middles_summary')
  @ApiOperation({ summary: 'Counts and averages over the current middles (pro and up)' })
  summary(@Query() q: MiddlesSummaryQuery, @Req() req: FastifyRequest) {
    return this.opportunities.middlesSummary(req.account, q);
  }

  @Get('middles/:id')
  @RequiresFeature('middles')
  @ApiParam({ name: 'id', description: '16 lowercase hexadecimal characters', example: '3f2a9c0d1e4b5a67' })
  @ApiOperation({ summary: 'One live middle (400 for a malformed id, 404 when unknown or expired)' })
  middle(@Param('id') id: string, @Req() req: FastifyRequest) {
    return this.opportunities.middle(req.account!, id);
  }

  @Get('low_hold')
  @RequiresFeature('low_hold')
  @ApiOperation({
    summary: 'Low-hold markets (hobby and up)',
    description: `hold_percentage = (sum of the implied probabilities of each side's best price - 1) x 100, over 2 or 3 sides; markets up to 5% hold are tracked, negative hold is an arbitrage. ${SCOPE_NOTE}`,
  })
  lowHold(@Query() q: LowHoldQuery, @Req() req: FastifyRequest) {
    return this.opportunities.lowHold(req.account, q);
  }
}

import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { ApiPagedResponse } from '../../common/http/api-responses.js';
import { LIST_SCOPE_NOTE } from '../opportunity-lists/opportunity-lists.js';
import { ArbitrageService } from './arbitrage.service.js';
import { ArbitrageItemDto } from './dto/arbitrage-item.response.dto.js';
import { ArbitrageListMetaDto } from './dto/arbitrage-list-meta.response.dto.js';
import { ArbitrageQuery } from './dto/arbitrage.query.js';

@ApiTags('Opportunities')
@Controller('opportunities')
export class ArbitrageController {
  constructor(private readonly arbitrage: ArbitrageService) {}

  @Get('arbitrage')
  @RequiresFeature('arbitrage')
  @ApiProduces('application/json', 'text/csv')
  @ApiPagedResponse(ArbitrageItemDto, {
    description: 'Arbitrages, highest profit first by default (format=csv: a CSV file instead)',
    meta: ArbitrageListMetaDto,
  })
  @ApiOperation({
    summary: "Arbitrages (hobby and up, with the account's arbitrage flag on)",
    description: `implied_total = sum of the legs' implied probabilities in percent (below 100 is an arbitrage); profit_percent = 100 / implied_total x 100 - 100; stake_percent of a leg = its implied probability / implied_total x 100 (three-way too). Above 10% profit is filtered out as a data error. format=csv answers a file arbitrage_<YYYY-MM-DD>.csv (three-way legs 2 and 3 share the "2" columns, joined by " / "; text cells starting with =, +, -, @, tab or CR are prefixed with a single quote, numbers never are). ${LIST_SCOPE_NOTE}`,
  })
  list(@Query() q: ArbitrageQuery, @CurrentAccount() account: Account, @Res({ passthrough: true }) reply: FastifyReply) {
    if (q.format === 'csv') {
      const { filename, body } = this.arbitrage.csv(account, q);
      void reply.header('Content-Type', 'text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="${filename}"`);
      return body;
    }
    return this.arbitrage.list(account, q);
  }
}

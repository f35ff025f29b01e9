import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { ApiDataResponse, ApiPagedResponse } from '../../common/http/api-responses.js';
import { MiddlesListMetaDto, MiddlesSummaryMetaDto } from './dto/middles-list-meta.response.dto.js';
import { LIST_SCOPE_NOTE } from '../opportunity-lists/opportunity-lists.js';
import { MiddleItemDto, MiddlesSummaryDto } from './dto/middle-item.response.dto.js';
import { MiddlesQuery, MiddlesSummaryQuery } from './dto/middles.query.js';
import { MiddlesService } from './middles.service.js';

@ApiTags('Opportunities')
@Controller('opportunities')
export class MiddlesController {
  constructor(private readonly middles: MiddlesService) {}

  @Get('middles')
  @RequiresFeature('middles')
  @ApiPagedResponse(MiddleItemDto, { description: 'Middles, best quality first by default', meta: MiddlesListMetaDto })
  @ApiOperation({
    summary: 'Middles (pro and up)',
    description: `Two books' lines on one market leave a window where both bets win. middle_probability comes from a per-sport distribution of the result (key-number-weighted margins for football, Skellam/Poisson for hockey and soccer, negative binomial for baseball, discretised normals elsewhere) centred on the consensus main line; expected_value is dollars per 100 staked in total, with stakes split so either winning side pays the same. ${LIST_SCOPE_NOTE}`,
  })
  list(@Query() q: MiddlesQuery, @CurrentAccount() account: Account) {
    return this.middles.list(account, q);
  }

  @Get('middles/summary')
  @RequiresFeature('middles_summary')
  @ApiDataResponse(MiddlesSummaryDto, { description: 'Counts and averages', meta: MiddlesSummaryMetaDto })
  @ApiOperation({ summary: 'Counts and averages over the current middles (pro and up)' })
  summary(@Query() q: MiddlesSummaryQuery, @CurrentAccount() account: Account) {
    return this.middles.summary(account, q);
  }

  @Get('middles/:id')
  @RequiresFeature('middles')
  @ApiParam({ name: 'id', description: '16 lowercase hexadecimal characters', example: '3f2a9c0d1e4b5a67' })
  @ApiDataResponse(MiddleItemDto, { description: 'The middle' })
  @ApiOperation({ summary: 'One live middle (400 for a malformed id, 404 when unknown or expired)' })
  one(@Param('id') id: string, @CurrentAccount() account: Account) {
    return this.middles.one(account, id);
  }
}

import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { ApiPagedResponse } from '../../common/http/api-responses.js';
import { LowHoldListMetaDto } from './dto/low-hold-list-meta.response.dto.js';
import { LIST_SCOPE_NOTE } from '../opportunity-lists/opportunity-lists.js';
import { LowHoldItemDto } from './dto/low-hold-item.response.dto.js';
import { LowHoldQuery } from './dto/low-hold.query.js';
import { LowHoldService } from './low-hold.service.js';

@ApiTags('Opportunities')
@Controller('opportunities')
export class LowHoldController {
  constructor(private readonly lowHold: LowHoldService) {}

  @Get('low_hold')
  @RequiresFeature('low_hold')
  @ApiPagedResponse(LowHoldItemDto, { description: 'Low-hold markets, lowest hold first by default', meta: LowHoldListMetaDto })
  @ApiOperation({
    summary: 'Low-hold markets (hobby and up)',
    description: `hold_percentage = (sum of the implied probabilities of each side's best price - 1) x 100, over 2 or 3 sides; markets up to 5% hold are tracked, negative hold is an arbitrage. ${LIST_SCOPE_NOTE}`,
  })
  list(@Query() q: LowHoldQuery, @CurrentAccount() account: Account) {
    return this.lowHold.list(account, q);
  }
}

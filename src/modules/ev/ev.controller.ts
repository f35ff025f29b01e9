import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { ApiPagedResponse } from '../../common/http/api-responses.js';
import { EvListMetaDto } from './dto/ev-list-meta.response.dto.js';
import { LIST_SCOPE_NOTE } from '../opportunity-lists/opportunity-lists.js';
import { EvItemDto } from './dto/ev-item.response.dto.js';
import { EvQuery } from './dto/ev.query.js';
import { EvService } from './ev.service.js';

@ApiTags('Opportunities')
@Controller('opportunities')
export class EvController {
  constructor(private readonly ev: EvService) {}

  @Get('ev')
  @RequiresFeature('ev')
  @ApiPagedResponse(EvItemDto, { description: '+EV prices, highest EV first by default', meta: EvListMetaDto })
  @ApiOperation({
    summary: '+EV prices against the devigged sharp line (pro and up)',
    description: `The sharp reference book's complete market (Pinnacle, else Circa, else Bookmaker) is devigged with \`devig_method\` (power by default; multiplicative, additive, shin, worst_case) and every other book's price is compared: EV% = (fair probability x decimal - 1) x 100. One item per +EV book on a selection, highest EV first. \`kelly_percent\` is the full-Kelly stake as a fraction of bankroll (0 to 1). ${LIST_SCOPE_NOTE}`,
  })
  list(@Query() q: EvQuery, @CurrentAccount() account: Account) {
    return this.ev.list(account, q);
  }
}

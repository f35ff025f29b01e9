import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { RequiresKey } from '../../common/auth/decorators.js';
import { envelope } from '../../common/http/envelope.js';
import { AccountService } from './account.service.js';
import { AccountResponse } from './dto/account.response.js';

@ApiTags('Account')
@Controller('account')
export class AccountController {
  constructor(private readonly accounts: AccountService) {}

  @Get()
  @RequiresKey()
  @ApiOperation({ summary: 'The calling key: tier, limits and features', description: 'The key (id masked), its tier, the tier\'s limits and features, and add-ons.' })
  @ApiOkResponse({ type: AccountResponse })
  get(@CurrentAccount() account: Account) {
    return envelope(this.accounts.describe(account));
  }
}

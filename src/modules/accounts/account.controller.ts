import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
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
  @ApiOperation({ summary: 'The calling key: tier, limits and features', description: 'Nested OpenAPI 2.0.0 shape (DECISIONS.md #35-36). The key id is masked.' })
  @ApiOkResponse({ type: AccountResponse })
  get(@Req() req: FastifyRequest) {
    return envelope(this.accounts.describe(req.account!));
  }
}

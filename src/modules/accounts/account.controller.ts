import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { RequiresKey } from '../../common/auth/decorators.js';
import { ApiPagedResponse } from '../../common/http/api-responses.js';
import { envelope, paginate } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { parseCreateKeyBody, parseRotateBody } from './account-bodies.js';
import { AccountService } from './account.service.js';
import { ApiKeysService } from './api-keys.service.js';
import {
  AccountResponse,
  CreateKeyRequest,
  CreatedKeyResponse,
  DeletedKeyResponse,
  KeyItem,
  KeyListMeta,
  RotateKeyRequest,
  RotatedKeyResponse,
  UsageResponse,
} from './dto/account.response.js';

/** Routes whose JSON body may be empty (the SDKs send `Content-Type: application/json` with no body). */
export const OPTIONAL_BODY_ROUTES = new Set(['/api/v1/account/keys', '/api/v1/account/keys/:id/rotate', '/api/v1/account/keys/:id']);

@ApiTags('Account')
@Controller('account')
export class AccountController {
  constructor(
    private readonly accounts: AccountService,
    private readonly keys: ApiKeysService,
    private readonly clock: Clock,
  ) {}

  private updated() {
    return { updated_at: this.clock.iso() };
  }

  @Get()
  @RequiresKey()
  @ApiOperation({
    summary: 'The calling key: tier, limits and features',
    description:
      'Both published shapes in one object (see the README, "Your account"): the flat one (`key_id`, `rate_limit`, `streaming`, the feature tokens in `feature_list`) and the nested one the Python SDK validates (`key`, `limits`, `features` as booleans, `add_ons`/`addons`).',
  })
  @ApiOkResponse({ type: AccountResponse })
  async get(@CurrentAccount() account: Account) {
    const { maxKeys } = await this.keys.listForAccount(account.accountId);
    return envelope(this.accounts.describe(account, maxKeys), this.updated());
  }

  @Get('usage')
  @RequiresKey()
  @ApiOperation({
    summary: "The account's requests today, this week and this month; the key's current minute and streams",
    description:
      "Requests are counted per account (all its keys), on every instance, by UTC day; the week starts on Monday (UTC), `period` is the current calendar month. Every authenticated request the service answered past the rate limit counts, this one included. `limit` is the calling key's per-minute budget; `streams` its open streams on the instance answering.",
  })
  @ApiOkResponse({ type: UsageResponse })
  async usage(@CurrentAccount() account: Account) {
    return envelope(await this.accounts.usageOf(account), this.updated());
  }

  @Get('keys')
  @RequiresKey()
  @ApiOperation({
    summary: "The account's keys that work (the key values are never shown again)",
    description:
      'Keys in a rotation grace period are listed with their `expires_at`. `meta.max_keys`: how many keys the account may hold (free, hobby, pro 1; sharp 2; enterprise configurable).',
  })
  @ApiPagedResponse(KeyItem, { meta: KeyListMeta, description: "The account's working keys" })
  async list(@CurrentAccount() account: Account) {
    const { keys, maxKeys } = await this.keys.listForAccount(account.accountId);
    const data = keys.map(publicKey);
    return paginate(data, Math.max(1, data.length), 0, { max_keys: maxKeys }, this.updated());
  }

  @Post('keys')
  @RequiresKey()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a key for the account; the key value is shown once, in this response',
    description: "Within the account's key limit (403 `tier_restricted` with `max_keys` past it). `name`: at most 100 characters.",
  })
  @ApiBody({ type: CreateKeyRequest, required: false })
  @ApiCreatedResponse({ type: CreatedKeyResponse })
  async create(@CurrentAccount() account: Account, @Body() body: unknown) {
    const { name } = parseCreateKeyBody(body);
    const { key, view } = await this.keys.createForAccount(account.accountId, name, 'api');
    return envelope({ ...publicKey(view), key }, this.updated());
  }

  @Delete('keys/:id')
  @RequiresKey()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Revoke a key of the account',
    description:
      'Refused on every instance within 5 s. The key making the request cannot be deleted (400); a key of another account, or one that does not exist, is 404.',
  })
  @ApiOkResponse({ type: DeletedKeyResponse })
  async remove(@CurrentAccount() account: Account, @Param('id') id: string) {
    const v = await this.keys.revokeOwn(account, id);
    const message = 'API key revoked successfully';
    return {
      success: true,
      deleted: true,
      key_id: v.id,
      message,
      data: { id: v.id, key_id: v.id, revoked: true, deleted: true, message },
      ...this.updated(),
    };
  }

  @Post('keys/:id/rotate')
  @RequiresKey()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Replace a key: a new key value (shown once); the old key is revoked now or after a grace period',
    description:
      "`gracePeriodHours` 0-72 (default 0: the old key stops at once). During the grace period both keys work; after it the old key is refused on every instance within 5 s. The new key keeps the old one's name unless `name` is given.",
  })
  @ApiBody({ type: RotateKeyRequest, required: false })
  @ApiOkResponse({ type: RotatedKeyResponse })
  async rotate(@CurrentAccount() account: Account, @Param('id') id: string, @Body() body: unknown) {
    const { graceHours, name } = parseRotateBody(body);
    const r = await this.keys.rotateOwn(account, id, graceHours, name);
    const created = { ...publicKey(r.created.view), key: r.created.key };
    return envelope(
      {
        new_key: created,
        old_key: { id: r.old.id, revoked: r.oldRevoked, expires_at: r.oldExpiresAt },
        new_key_id: created.id,
        key: created.key,
        old_key_id: r.old.id,
        old_key_expires_at: r.oldExpiresAt,
      },
      this.updated(),
    );
  }
}

/** A key as its account sees it (no operator fields). */
function publicKey(v: {
  id: string;
  id_masked: string;
  name: string | null;
  tier: string;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}) {
  return {
    id: v.id,
    id_masked: v.id_masked,
    name: v.name,
    tier: v.tier,
    is_active: v.is_active,
    created_at: v.created_at,
    updated_at: v.updated_at,
    last_used_at: v.last_used_at,
    expires_at: v.expires_at,
  };
}

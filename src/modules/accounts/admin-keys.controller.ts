import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/decorators.js';
import { badRequest, notFound } from '../../common/http/api-error.js';
import { ApiDataResponse } from '../../common/http/api-responses.js';
import { envelope } from '../../common/http/envelope.js';
import { ADDONS, TIERS } from '../../config/tiers.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKeyDto, CreatedApiKeyDto } from './dto/api-key.response.js';

export class CreateKeyBody {
  @ApiPropertyOptional({ enum: TIERS, example: 'pro', description: 'A new account of this tier gets the key (give this or account_id)' })
  @IsOptional()
  @IsIn(TIERS as unknown as string[])
  tier?: string;
  @ApiPropertyOptional({ example: 'acct_0123456789abcdef', description: 'An existing account gets another key (within its key limit)' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  account_id?: string;
  @ApiPropertyOptional({ example: 'trading-desk', maxLength: 100 }) @IsOptional() @IsString() @MaxLength(100) name?: string;
}

export class MaxKeysBody {
  @ApiProperty({ example: 5, nullable: true, description: "Keys the account may hold at once; null = its tier's number" })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  max_keys: number | null;
}

export class AddonBody {
  @ApiProperty({ enum: ADDONS, example: 'game_state', description: 'The add-on (a name not listed is 400)' })
  @IsString()
  @MaxLength(100)
  addon: string;
  @ApiProperty({ example: true, description: 'true: the account holds it from now on; false: it is taken away' })
  @IsBoolean()
  enabled: boolean;
}

export class ArbitrageFlagBody {
  @ApiProperty({ example: false }) @IsBoolean() enabled: boolean;
}

/** Operator endpoints behind X-Admin-Token; the CLI uses them when the server holds the embedded store. */
@ApiTags('Admin')
@Controller('admin/keys')
export class AdminKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @AdminOnly()
  @ApiDataResponse({ type: 'array', items: { $ref: getSchemaPath(ApiKeyDto) } }, { description: 'Every key' })
  @ApiExtraModels(ApiKeyDto)
  @ApiOperation({ summary: 'List API keys (hashes are never returned)' })
  async list() {
    return envelope(await this.keys.list());
  }

  @Post()
  @AdminOnly()
  @HttpCode(201)
  @ApiDataResponse(CreatedApiKeyDto, { description: 'The new key', status: 201 })
  @ApiOperation({ summary: 'Create an API key; the key is returned once' })
  async create(@Body() body: CreateKeyBody) {
    if ((body.tier === undefined) === (body.account_id === undefined))
      throw badRequest('Give tier (a new account) or account_id (an existing account), not both', { parameter: 'tier' });
    const { key, view } =
      body.account_id !== undefined
        ? await this.keys.createForAccount(body.account_id, body.name ?? null, 'admin')
        : await this.keys.create(body.tier!, body.name ?? null, 'admin');
    return envelope({ ...view, key });
  }

  @Post(':id/revoke')
  @AdminOnly()
  @HttpCode(200)
  @ApiDataResponse(ApiKeyDto, { description: 'The key, revoked' })
  @ApiOperation({ summary: 'Revoke an API key (effective on every instance within a few seconds)' })
  async revoke(@Param('id') id: string) {
    const v = await this.keys.revoke(id);
    if (!v) throw notFound(`No API key with id ${id}`);
    return envelope(v);
  }

  @Post(':id/arbitrage')
  @AdminOnly()
  @HttpCode(200)
  @ApiDataResponse(ApiKeyDto, { description: 'The key, with its new flag' })
  @ApiOperation({ summary: "Switch the account's arbitrage feature on or off" })
  async arbitrage(@Param('id') id: string, @Body() body: ArbitrageFlagBody) {
    const v = await this.keys.setArbitrage(id, body.enabled);
    if (!v) throw notFound(`No API key with id ${id}`);
    return envelope(v);
  }
}

/** Operator endpoints for accounts behind X-Admin-Token. */
@ApiTags('Admin')
/** An account's key limit after POST /admin/accounts/{id}/max-keys. */
export class AccountMaxKeysDto {
  @ApiProperty({ example: 'acct_1a2b3c4d5e6f7a8b' }) account_id: string;
  @ApiProperty({ example: 'enterprise' }) tier: string;
  @ApiProperty({ example: 10, description: "Keys the account may hold at once (its own number, or its tier's)" }) max_keys: number;
}

/** An account's add-ons after POST /admin/accounts/{id}/addons. */
export class AccountAddonsDto {
  @ApiProperty({ example: 'acct_1a2b3c4d5e6f7a8b' }) account_id: string;
  @ApiProperty({ example: 'pro' }) tier: string;
  @ApiProperty({ type: [String], enum: ADDONS, example: ['game_state'], description: 'The add-ons the account now holds' })
  addons: string[];
}

@Controller('admin/accounts')
export class AdminAccountsController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post(':id/max-keys')
  @AdminOnly()
  @HttpCode(200)
  @ApiOperation({ summary: "Set how many keys an account may hold (null: its tier's number)" })
  @ApiDataResponse(AccountMaxKeysDto, { description: 'The account and the number of keys it may now hold' })
  async maxKeys(@Param('id') id: string, @Body() body: MaxKeysBody) {
    const v = await this.keys.setMaxKeys(id, body.max_keys ?? null);
    if (!v) throw notFound(`No account with id ${id}`);
    return envelope(v);
  }

  @Post(':id/addons')
  @AdminOnly()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Give an account an add-on or take it away (game_state: game state below the enterprise tier)',
    description: "Takes effect for the account's keys on every instance at once, as a key change does.",
  })
  @ApiDataResponse(AccountAddonsDto, { description: 'The account and the add-ons it now holds' })
  async addon(@Param('id') id: string, @Body() body: AddonBody) {
    const v = await this.keys.setAddon(id, body.addon, body.enabled);
    if (!v) throw notFound(`No account with id ${id}`);
    return envelope(v);
  }
}

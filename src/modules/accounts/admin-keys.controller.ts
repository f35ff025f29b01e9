import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/decorators.js';
import { notFound } from '../../common/http/api-error.js';
import { ApiDataResponse } from '../../common/http/api-responses.js';
import { envelope } from '../../common/http/envelope.js';
import { TIERS } from '../../config/tiers.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKeyDto, CreatedApiKeyDto } from './dto/api-key.response.js';

export class CreateKeyBody {
  @ApiProperty({ enum: TIERS, example: 'pro' }) @IsIn(TIERS as unknown as string[]) tier: string;
  @ApiPropertyOptional({ example: 'trading-desk', maxLength: 100 }) @IsOptional() @IsString() @MaxLength(100) name?: string;
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
    const { key, view } = await this.keys.create(body.tier, body.name ?? null);
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

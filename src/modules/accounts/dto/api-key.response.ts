import { ApiProperty } from '@nestjs/swagger';

/** An API key as operators see it (api-keys.service.ts `keyView`): never its hash. */
export class ApiKeyDto {
  @ApiProperty({ example: 'key_0123456789abcdef' }) id: string;
  @ApiProperty({ example: 'key_0123…cdef' }) id_masked: string;
  @ApiProperty({ description: 'The first characters of the key, to recognise it', example: 'sk_live_ab12' }) key_prefix: string;
  @ApiProperty({ type: String, nullable: true, example: 'trading-desk' }) name: string | null;
  @ApiProperty({ example: 'pro' }) tier: string;
  @ApiProperty({ description: 'false once revoked' }) is_active: boolean;
  @ApiProperty({ description: "The account's arbitrage flag" }) arbitrage_enabled: boolean;
  @ApiProperty({ description: 'Where the key came from (cli, admin, env, demo)', example: 'admin' }) source: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) last_used_at: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) revoked_at: string | null;
  @ApiProperty({ example: 'acct_0123456789abcdef', description: 'The account (user) that owns the key' }) account_id: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'End of a rotation grace period; null = no expiry' })
  expires_at: string | null;
}

/** A key just created: the only time the key itself is shown. */
export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The API key; store it now, it is not shown again', example: 'sk_live_...' }) key: string;
}

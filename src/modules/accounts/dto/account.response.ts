import { PaginationDto } from '../../../common/http/api-responses.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ADDONS } from '../../../config/tiers.js';

const UPDATED = { example: '2026-11-22T14:44:32.123Z', description: 'When the response was made' };

class AccountKey {
  @ApiProperty({ example: 'key_1a2b3c4d5e6f7a8b', description: 'The calling key' }) id: string;
  @ApiProperty({ example: 'key_1a2b…7a8b' }) id_masked: string;
  @ApiProperty({ example: 'trading-desk', nullable: true, type: String }) name: string | null;
  @ApiProperty({ example: 'pro' }) tier: string;
  @ApiProperty({ example: 'acct_1a2b3c4d5e6f7a8b', description: 'The account (user) that owns the key' }) user_id: string;
}

class AccountLimits {
  @ApiProperty({ example: 300 }) requests_per_minute: number;
  @ApiProperty({ example: 0, description: 'Seconds the tier sees prices late (free: 60)' }) odds_delay_seconds: number;
  @ApiProperty({ example: 0 }) data_delay_seconds: number;
  @ApiProperty({ example: 15, description: 'Distinct books one request may cover; 999 = all' }) max_books: number;
  @ApiProperty({ example: 50, description: 'Events per POST /odds/batch' }) batch_size: number;
  @ApiProperty({ example: 2, description: 'Concurrent streams per key' }) max_streams: number;
  @ApiProperty({ example: 1, description: 'Keys the account may hold at once' }) max_keys: number;
}

class AccountRateLimit {
  @ApiProperty({ example: 300 }) requests_per_minute: number;
  @ApiProperty({ example: 15, description: '999 = every book' }) max_books: number;
}

class AccountStreaming {
  @ApiProperty({ example: true }) enabled: boolean;
  @ApiProperty({ example: 2, description: 'Concurrent streams per key (0 without streaming)' }) max_connections: number;
}

export class AccountData {
  @ApiProperty({ example: 'key_1a2b3c4d5e6f7a8b', description: 'The calling key (flat shape)' }) key_id: string;
  @ApiProperty({ example: 'acct_1a2b3c4d5e6f7a8b' }) account_id: string;
  @ApiProperty({ example: 'pro' }) tier: string;
  @ApiProperty({ type: AccountRateLimit }) rate_limit: AccountRateLimit;
  @ApiProperty({
    type: [String],
    example: ['odds', 'schedule', 'splits', 'streaming', 'ev', 'arbitrage', 'middles', 'low_hold'],
    description: "The enabled features as tokens (the flat shape's `features` array)",
  })
  feature_list: string[];
  @ApiProperty({ type: AccountStreaming }) streaming: AccountStreaming;
  @ApiProperty({ type: AccountKey }) key: AccountKey;
  @ApiProperty({ type: AccountLimits }) limits: AccountLimits;
  @ApiProperty({
    type: 'object',
    properties: { odds: { type: 'boolean' }, splits: { type: 'boolean' }, game_state: { type: 'boolean' }, streaming: { type: 'boolean' } },
    additionalProperties: { type: 'boolean' },
    description:
      'Features of the key: odds, splits, game_state, streaming, and one per opportunity type the service runs (ev, arbitrage, middles, low_hold, and any type added later), in registration order',
    example: { odds: true, splits: true, ev: true, arbitrage: true, middles: true, low_hold: true, game_state: false, streaming: true },
  })
  features: Record<string, boolean>;
  @ApiProperty({ type: [String], enum: ADDONS, example: [], description: 'Add-ons the account holds on top of its tier' }) addons: string[];
  @ApiProperty({ type: [String], enum: ADDONS, example: [], description: 'Same as addons (the Python SDK spelling)' }) add_ons: string[];
}

export class AccountResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ type: AccountData }) data: AccountData;
  @ApiProperty(UPDATED) updated_at: string;
}

class UsageLimit {
  @ApiProperty({ example: 300 }) per_minute: number;
  @ApiProperty({ example: 287 }) remaining: number;
  @ApiProperty({ example: '2026-11-22T14:45:00.000Z', description: 'When the current minute window ends' }) resets_at: string;
}

class UsageRequests {
  @ApiProperty({ example: 342, description: 'Requests of the account today (UTC)' }) today: number;
  @ApiProperty({ example: 2105, description: 'Since Monday 00:00 UTC' }) this_week: number;
  @ApiProperty({ example: 14523, description: 'Since the 1st of the month, 00:00 UTC' }) this_month: number;
  @ApiProperty({ type: UsageLimit }) limit: UsageLimit;
}

class UsageStreams {
  @ApiProperty({ example: 1 }) active: number;
  @ApiProperty({ example: 2, description: '0 without streaming' }) max: number;
}

class UsagePeriod {
  @ApiProperty({ example: '2026-11-01T00:00:00.000Z' }) start: string;
  @ApiProperty({ example: '2026-11-30T23:59:59.000Z' }) end: string;
}

class UsageData {
  @ApiProperty({ type: UsageRequests }) requests: UsageRequests;
  @ApiProperty({ type: UsageStreams }) streams: UsageStreams;
  @ApiProperty({ type: UsagePeriod }) period: UsagePeriod;
}

export class UsageResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ type: UsageData }) data: UsageData;
  @ApiProperty(UPDATED) updated_at: string;
}

export class KeyItem {
  @ApiProperty({ example: 'key_1a2b3c4d5e6f7a8b', description: 'Use it in DELETE /account/keys/{id} and rotate' }) id: string;
  @ApiProperty({ example: 'key_1a2b…7a8b' }) id_masked: string;
  @ApiProperty({ example: 'Production', nullable: true, type: String }) name: string | null;
  @ApiProperty({ example: 'pro' }) tier: string;
  @ApiProperty({ example: true }) is_active: boolean;
  @ApiProperty({ example: '2026-11-01T08:30:00.000Z' }) created_at: string;
  @ApiProperty({ example: '2026-11-01T08:30:00.000Z' }) updated_at: string;
  @ApiProperty({ example: '2026-11-22T14:44:02.000Z', nullable: true, type: String, description: 'Kept current within a minute' })
  last_used_at: string | null;
  @ApiProperty({ example: null, nullable: true, type: String, description: 'End of a rotation grace period; null = no expiry' })
  expires_at: string | null;
}

export class KeyListMeta {
  @ApiProperty({ example: 1 }) count: number;
  @ApiProperty({ example: 1 }) total: number;
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
  @ApiProperty({ example: 1, description: 'Keys the account may hold at once' }) max_keys: number;
}

export class KeyListResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ type: [KeyItem] }) data: KeyItem[];
  @ApiProperty({ type: KeyListMeta }) meta: KeyListMeta;
  @ApiProperty(UPDATED) updated_at: string;
}

export class CreateKeyRequest {
  @ApiPropertyOptional({ example: 'Mobile App', maxLength: 100, nullable: true, type: String }) name?: string | null;
}

export class RotateKeyRequest {
  @ApiPropertyOptional({
    example: 24,
    minimum: 0,
    maximum: 72,
    description: 'Hours the old key keeps working (default 0; `grace_period_hours` too)',
  })
  gracePeriodHours?: number;
  @ApiPropertyOptional({ example: 'Production', maxLength: 100, description: "The new key's name (default: the old one's)" }) name?: string;
}

class CreatedKey extends KeyItem {
  @ApiProperty({ example: 'sk_live_0123456789ABCDEFGHIJKLMNOPQRSTUV', description: 'The key value: shown once, stored hashed' })
  key: string;
}

export class CreatedKeyResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ type: CreatedKey }) data: CreatedKey;
  @ApiProperty(UPDATED) updated_at: string;
}

class DeletedKey {
  @ApiProperty({ example: 'key_1a2b3c4d5e6f7a8b' }) id: string;
  @ApiProperty({ example: 'key_1a2b3c4d5e6f7a8b' }) key_id: string;
  @ApiProperty({ example: true }) revoked: boolean;
  @ApiProperty({ example: true }) deleted: boolean;
  @ApiProperty({ example: 'API key revoked successfully' }) message: string;
}

export class DeletedKeyResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ example: true }) deleted: boolean;
  @ApiProperty({ example: 'key_1a2b3c4d5e6f7a8b' }) key_id: string;
  @ApiProperty({ example: 'API key revoked successfully' }) message: string;
  @ApiProperty({ type: DeletedKey }) data: DeletedKey;
  @ApiProperty(UPDATED) updated_at: string;
}

class OldKey {
  @ApiProperty({ example: 'key_1a2b3c4d5e6f7a8b' }) id: string;
  @ApiProperty({ example: false, description: 'true when it stopped at once (no grace period)' }) revoked: boolean;
  @ApiProperty({ example: '2026-11-23T14:44:32.123Z', description: 'When it stops (or stopped) working' }) expires_at: string;
}

class Rotated {
  @ApiProperty({ type: CreatedKey }) new_key: CreatedKey;
  @ApiProperty({ type: OldKey }) old_key: OldKey;
  @ApiProperty({ example: 'key_9f8e7d6c5b4a3f2e' }) new_key_id: string;
  @ApiProperty({ example: 'sk_live_0123456789ABCDEFGHIJKLMNOPQRSTUV', description: 'The new key value (also in new_key.key)' }) key: string;
  @ApiProperty({ example: 'key_1a2b3c4d5e6f7a8b' }) old_key_id: string;
  @ApiProperty({ example: '2026-11-23T14:44:32.123Z' }) old_key_expires_at: string;
}

export class RotatedKeyResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ type: Rotated }) data: Rotated;
  @ApiProperty(UPDATED) updated_at: string;
}

import { ApiProperty } from '@nestjs/swagger';

class AccountKey {
  @ApiProperty({ example: 'key_1a2b3c4d…9f0e', description: 'Key id, masked' }) id: string;
  @ApiProperty({ type: String, example: 'trading-desk', nullable: true }) name: string | null;
  @ApiProperty({ example: 'pro' }) tier: string;
  @ApiProperty({ example: 'key_1a2b3c4d…9f0e', description: 'Owner id; one account per key in this service' }) user_id: string;
}

class AccountLimits {
  @ApiProperty({ example: 300 }) requests_per_minute: number;
  @ApiProperty({ example: 0, description: 'Seconds the tier sees prices late (free: 60)' }) odds_delay_seconds: number;
  @ApiProperty({ example: 0 }) data_delay_seconds: number;
  @ApiProperty({ example: 15, description: 'Distinct books one request may cover; 999 = all' }) max_books: number;
  @ApiProperty({ example: 50, description: 'Events per POST /odds/batch' }) batch_size: number;
  @ApiProperty({ example: 2, description: 'Concurrent streams per key' }) max_streams: number;
}

export class AccountData {
  @ApiProperty({ type: AccountKey }) key: AccountKey;
  @ApiProperty({ example: 'pro' }) tier: string;
  @ApiProperty({ type: AccountLimits }) limits: AccountLimits;
  @ApiProperty({
    type: 'object',
    properties: { odds: { type: 'boolean' }, splits: { type: 'boolean' }, game_state: { type: 'boolean' }, streaming: { type: 'boolean' } },
    additionalProperties: { type: 'boolean' },
    description: 'Features of the key: odds, splits, game_state, streaming, and one per opportunity type the service runs (ev, arbitrage, middles, low_hold, and any type added later), in registration order',
    example: { odds: true, splits: true, ev: true, arbitrage: true, middles: true, low_hold: true, game_state: false, streaming: true },
  })
  features: Record<string, boolean>;
  @ApiProperty({ type: [String], example: [] }) addons: string[];
}

export class AccountResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ type: AccountData }) data: AccountData;
}

import { Module, type OnModuleInit } from '@nestjs/common';
import { StreamCounts } from '../accounts/stream-counts.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { DetectionModule } from '../detection/detection.module.js';
import { StreamKeyWatch } from './key-watch.js';
import { SseController } from './sse.controller.js';
import { StreamAccess } from './stream-access.js';
import { StreamHub } from './stream-hub.js';
import { WsGateway } from './ws.gateway.js';
import { RedisService } from '../../common/redis/redis.service.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { MemoryStreamCaps, RedisStreamCaps, StreamCaps } from './stream-caps.js';
import { RedisStreamLog, SharedStreamLog } from './stream-log.js';
import { BoardModule } from '../board/board.module.js';
import { EventsModule } from '../events/events.module.js';
import { OddsModule } from '../odds/odds.module.js';

/** SSE and WebSocket streams, fed by the hub from the bus (prices) and the detection engine (opportunities). */
@Module({
  imports: [AccountsModule, BoardModule, EventsModule, OddsModule, DetectionModule],
  controllers: [SseController],
  providers: [
    StreamHub,
    StreamAccess,
    WsGateway,
    StreamKeyWatch,
    // Services mode: the per-key caps and the replay log live in Redis, shared by every instance.
    {
      provide: StreamCaps,
      inject: [RedisService, APP_CONFIG],
      useFactory: (redis: RedisService, config: AppConfig) =>
        redis.enabled ? new RedisStreamCaps(redis.client, config.redisPrefix) : new MemoryStreamCaps(),
    },
    {
      provide: SharedStreamLog,
      inject: [RedisService, APP_CONFIG],
      useFactory: (redis: RedisService, config: AppConfig) =>
        new SharedStreamLog(redis.enabled ? new RedisStreamLog(redis.client, config.redisPrefix) : null),
    },
  ],
  exports: [StreamHub],
})
export class StreamModule implements OnModuleInit {
  constructor(
    private readonly hub: StreamHub,
    private readonly counts: StreamCounts,
  ) {}

  /** The account's usage reports the streams a key holds on every instance (GET /account/usage). */
  onModuleInit(): void {
    this.counts.register((keyId) => this.hub.activeStreamsOfKey(keyId));
  }
}

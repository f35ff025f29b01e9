import { Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.js';
import { AccessPolicy } from './auth/access-policy.js';
import { EventBus } from './bus/event-bus.js';
import { InProcessBus } from './bus/in-process-bus.js';
import { RedisBus } from './bus/redis-bus.js';
import { Sequencer } from './bus/sequencer.js';
import { RedisService } from './redis/redis.service.js';
import { MemoryWindowStore, RedisWindowStore } from './rate-limit/rate-limit.storage.js';
import { Clock } from './time/clock.js';
import { MetricsService } from './metrics/metrics.service.js';
import { Serving } from './serving.js';

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** Cross-cutting infrastructure: Redis (optional), the event bus, the access policy, rate-limit counters, the metrics registry. */
@Global()
@Module({
  providers: [
    RedisService,
    MetricsService,
    Serving,
    AccessPolicy,
    { provide: Sequencer, useValue: new Sequencer() },
    {
      provide: EventBus,
      inject: [RedisService, APP_CONFIG],
      useFactory: async (redis: RedisService, config: AppConfig) => {
        if (!redis.enabled) return new InProcessBus();
        await redis.waitReady(3000);
        return new RedisBus(redis, config.redisPrefix);
      },
    },
    {
      provide: RATE_LIMIT_STORE,
      inject: [RedisService, Clock, APP_CONFIG],
      useFactory: (redis: RedisService, clock: Clock, config: AppConfig) => {
        const memory = new MemoryWindowStore(clock);
        return config.redisUrl ? new RedisWindowStore(redis, memory, config.redisPrefix) : memory;
      },
    },
  ],
  exports: [RedisService, MetricsService, Serving, AccessPolicy, EventBus, RATE_LIMIT_STORE, Sequencer],
})
export class CommonModule {}

import { Global, Module, type DynamicModule } from '@nestjs/common';
import { AdminToken } from '../common/admin/admin-token.js';
import { Clock, SystemClock } from '../common/time/clock.js';
import type { AppConfig } from './env.js';
import { loadTiers, type TierTable } from './tiers.js';

export const APP_CONFIG = Symbol('APP_CONFIG');
export const TIER_TABLE = Symbol('TIER_TABLE');

/** Typed configuration, the tier table and the clock, available everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, clock: Clock = new SystemClock()): DynamicModule {
    const tiers: TierTable = loadTiers(config.enterpriseRequestsPerMinute, config.enterpriseMaxKeys);
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: TIER_TABLE, useValue: tiers },
        { provide: Clock, useValue: clock },
        { provide: AdminToken, useValue: new AdminToken(config.adminToken) },
      ],
      exports: [APP_CONFIG, TIER_TABLE, Clock, AdminToken],
    };
  }
}

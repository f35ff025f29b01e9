import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { UpdatedAtInterceptor } from './common/http/updated-at.interceptor.js';
import { ClientProfileInterceptor } from './common/client-profiles/client-profile.interceptor.js';
import { ScheduleModule } from '@nestjs/schedule';
import { ThrottlerModule } from '@nestjs/throttler';
import { AccessPolicy } from './common/auth/access-policy.js';
import { ApiKeyGuard, FeatureGuard } from './common/auth/api-key.guard.js';
import { AuthModule } from './common/auth/auth.module.js';
import { CommonModule, RATE_LIMIT_STORE } from './common/common.module.js';
import { RateLimitHeadersInterceptor } from './common/rate-limit/rate-limit-headers.js';
import { throttlerOptions } from './common/rate-limit/throttler-options.js';
import { TierThrottlerGuard } from './common/rate-limit/tier-throttler.guard.js';
import { Clock } from './common/time/clock.js';
import { ConfigModule } from './config/config.module.js';
import type { AppConfig } from './config/env.js';
import { DatabaseModule } from './database/database.module.js';
import { AccountsModule } from './modules/accounts/accounts.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { CatalogModule } from './config/catalog.module.js';
import { BoardModule } from './modules/board/board.module.js';
import { EventsModule } from './modules/events/events.module.js';
import { ListingStampsModule } from './modules/events/listing-stamps.module.js';
import { IngestionModule } from './modules/ingestion/ingestion.module.js';
import { ReferenceModule } from './modules/reference/reference.module.js';
import { OddsModule } from './modules/odds/odds.module.js';
import { DetectionModule } from './modules/detection/detection.module.js';
import { OPPORTUNITY_TYPES } from './modules/opportunity-types.js';
import { StreamModule } from './modules/stream/stream.module.js';
import { ClusterModule } from './modules/cluster/cluster.module.js';
import { MetricsGaugesModule } from './modules/metrics/metrics-gauges.module.js';
import { MetricsModule } from './modules/metrics/metrics.module.js';
import { SplitsModule } from './modules/splits/splits.module.js';
import { McpModule } from './modules/mcp/mcp.module.js';
import { DeepLinksModule } from './modules/deep-links/deep-links.module.js';
import { FuturesModule } from './modules/futures/futures.module.js';
import { ClosingLinesModule } from './modules/closing-lines/closing-lines.module.js';
import { BacktestModule } from './modules/backtest/backtest.module.js';
import { ClvModule } from './modules/clv/clv.module.js';
import { GameStateModule } from './modules/game-state/game-state.module.js';
import { SettlementsModule } from './modules/settlements/settlements.module.js';
import { PlayersModule } from './modules/players/players.module.js';
import { PredictionMarketsModule } from './modules/prediction-markets/prediction-markets.module.js';
import { ParlayModule } from './modules/parlay/parlay.module.js';
import { LineHistoryModule } from './modules/stores/line-history/line-history.module.js';
import { OddsHistoryModule } from './modules/odds-history/odds-history.module.js';

/** The global guards, in order: key -> rate limit -> tier feature; and the rate-limit headers interceptor. */
@Module({
  imports: [AuthModule.forRoot(AccountsModule)],
  providers: [
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: TierThrottlerGuard },
    { provide: APP_GUARD, useClass: FeatureGuard },
    { provide: APP_INTERCEPTOR, useClass: RateLimitHeadersInterceptor },
  ],
})
class GuardsModule {}

export interface AppModuleOptions {
  clock?: Clock;
  /** The opportunity type modules (default OPPORTUNITY_TYPES; a test adds one of its own). */
  opportunityTypes?: readonly Type[];
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppModuleOptions = {}): DynamicModule {
    const imports: Array<Type | DynamicModule> = [
      ConfigModule.forRoot(config, options.clock),
      CatalogModule,
      DatabaseModule,
      CommonModule,
      MetricsModule,
      ClusterModule,
      ThrottlerModule.forRootAsync({ inject: [RATE_LIMIT_STORE, AccessPolicy], useFactory: throttlerOptions }),
      ScheduleModule.forRoot(),
      HealthModule,
      AccountsModule,
      GuardsModule,
      BoardModule,
      ReferenceModule,
      EventsModule,
      ListingStampsModule,
      IngestionModule,
      OddsModule,
      DetectionModule,
      ...(options.opportunityTypes ?? OPPORTUNITY_TYPES),
      StreamModule,
      SplitsModule,
      McpModule,
      DeepLinksModule,
      FuturesModule,
      ClosingLinesModule,
      ClvModule,
      GameStateModule,
      SettlementsModule,
      PlayersModule,
      PredictionMarketsModule,
      ParlayModule,
      LineHistoryModule,
      OddsHistoryModule,
      BacktestModule,
      MetricsGaugesModule,
    ];
    return {
      module: AppModule,
      imports,
      providers: [
        { provide: APP_INTERCEPTOR, useClass: UpdatedAtInterceptor },
        { provide: APP_INTERCEPTOR, useClass: ClientProfileInterceptor },
      ],
    };
  }
}

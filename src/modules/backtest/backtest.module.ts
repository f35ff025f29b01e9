import { Module, type OnModuleInit } from '@nestjs/common';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { BacktestController } from './backtest.controller.js';
import { BacktestService } from './backtest.service.js';

/** Feature `backtest`: enterprise (config/tiers.json may grant it to other tiers). */
export const BACKTEST_FEATURE = { name: 'backtest', label: 'Backtests', fromTier: 'enterprise' } as const;

/** POST /historical/backtest and its job: a +EV rule replayed on simulated days (docs/backtest.md). */
@Module({
  controllers: [BacktestController],
  providers: [BacktestService],
})
export class BacktestModule implements OnModuleInit {
  constructor(private readonly policy: AccessPolicy) {}

  onModuleInit(): void {
    this.policy.registerFeature({ ...BACKTEST_FEATURE }, { listed: false });
  }
}

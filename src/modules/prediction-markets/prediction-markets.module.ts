import { Module, type OnModuleInit } from '@nestjs/common';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { BoardModule } from '../board/board.module.js';
import { FuturesStoreModule } from '../stores/futures/futures-store.module.js';
import { PredictionMarketsController } from './prediction-markets.controller.js';
import { PredictionMarketsService } from './prediction-markets.service.js';

/** Feature `prediction_markets`: hobby and up (the venues' contracts with their order-book quotes). */
export const PREDICTION_MARKETS_FEATURE = { name: 'prediction_markets', label: 'Prediction markets', fromTier: 'hobby' } as const;

/** GET /prediction-markets and /prediction-markets/categories: the venues' contracts, read from the board and the futures store. */
@Module({
  imports: [BoardModule, FuturesStoreModule],
  controllers: [PredictionMarketsController],
  providers: [PredictionMarketsService],
})
export class PredictionMarketsModule implements OnModuleInit {
  constructor(private readonly policy: AccessPolicy) {}

  onModuleInit(): void {
    this.policy.registerFeature({ ...PREDICTION_MARKETS_FEATURE }, { listed: false });
  }
}

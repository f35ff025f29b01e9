import { Module, type OnModuleInit } from '@nestjs/common';
import { DetectionEngine } from '../detection/detection.engine.js';
import { DetectionModule } from '../detection/detection.module.js';
import { OpportunityListsModule } from '../opportunity-lists/opportunity-lists.module.js';
import { ArbitrageController } from './arbitrage.controller.js';
import { ArbitrageDetector } from './arbitrage.detector.js';
import { ArbitragePresenter } from './arbitrage.presenter.js';
import { ArbitrageService } from './arbitrage.service.js';
import { BoardModule } from '../board/board.module.js';
import { ReferenceModule } from '../reference/reference.module.js';

/** Arbitrage: its detector (registered with the engine), presenter, list and route. */
@Module({
  imports: [BoardModule, ReferenceModule, DetectionModule, OpportunityListsModule],
  controllers: [ArbitrageController],
  providers: [ArbitrageDetector, ArbitragePresenter, ArbitrageService],
})
export class ArbitrageModule implements OnModuleInit {
  constructor(
    private readonly engine: DetectionEngine,
    private readonly detector: ArbitrageDetector,
  ) {}

  onModuleInit(): void {
    this.engine.register(this.detector);
  }
}

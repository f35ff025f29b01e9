import { Module, type OnModuleInit } from '@nestjs/common';
import { DetectionEngine } from '../detection/detection.engine.js';
import { DetectionModule } from '../detection/detection.module.js';
import { OpportunityListsModule } from '../opportunity-lists/opportunity-lists.module.js';
import { LowHoldController } from './low-hold.controller.js';
import { LowHoldDetector } from './low-hold.detector.js';
import { LowHoldPresenter } from './low-hold.presenter.js';
import { LowHoldService } from './low-hold.service.js';
import { BoardModule } from '../board/board.module.js';
import { ReferenceModule } from '../reference/reference.module.js';

/** Low-hold: its detector (registered with the engine), presenter, list and route. */
@Module({
  imports: [BoardModule, ReferenceModule, DetectionModule, OpportunityListsModule],
  controllers: [LowHoldController],
  providers: [LowHoldDetector, LowHoldPresenter, LowHoldService],
})
export class LowHoldModule implements OnModuleInit {
  constructor(
    private readonly engine: DetectionEngine,
    private readonly detector: LowHoldDetector,
  ) {}

  onModuleInit(): void {
    this.engine.register(this.detector);
  }
}

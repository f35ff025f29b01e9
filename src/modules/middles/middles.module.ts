import { Module, type OnModuleInit } from '@nestjs/common';
import { DetectionEngine } from '../detection/detection.engine.js';
import { DetectionModule } from '../detection/detection.module.js';
import { OpportunityListsModule } from '../opportunity-lists/opportunity-lists.module.js';
import { MiddlesController } from './middles.controller.js';
import { MiddlesDetector } from './middles.detector.js';
import { MiddlesPresenter } from './middles.presenter.js';
import { MiddlesService } from './middles.service.js';
import { BoardModule } from '../board/board.module.js';
import { ReferenceModule } from '../reference/reference.module.js';

/** Middles: its detector (registered with the engine), presenter, list and route. */
@Module({
  imports: [BoardModule, ReferenceModule, DetectionModule, OpportunityListsModule],
  controllers: [MiddlesController],
  providers: [MiddlesDetector, MiddlesPresenter, MiddlesService],
})
export class MiddlesModule implements OnModuleInit {
  constructor(
    private readonly engine: DetectionEngine,
    private readonly detector: MiddlesDetector,
  ) {}

  onModuleInit(): void {
    this.engine.register(this.detector);
  }
}

import { Module, type OnModuleInit } from '@nestjs/common';
import { DetectionEngine } from '../detection/detection.engine.js';
import { DetectionModule } from '../detection/detection.module.js';
import { OpportunityListsModule } from '../opportunity-lists/opportunity-lists.module.js';
import { EvController } from './ev.controller.js';
import { EvDetector } from './ev.detector.js';
import { EvPresenter } from './ev.presenter.js';
import { EvService } from './ev.service.js';
import { BoardModule } from '../board/board.module.js';
import { ReferenceModule } from '../reference/reference.module.js';

/** +EV: its detector (registered with the engine), presenter, list and route. */
@Module({
  imports: [BoardModule, ReferenceModule, DetectionModule, OpportunityListsModule],
  controllers: [EvController],
  providers: [EvDetector, EvPresenter, EvService],
})
export class EvModule implements OnModuleInit {
  constructor(
    private readonly engine: DetectionEngine,
    private readonly detector: EvDetector,
  ) {}

  onModuleInit(): void {
    this.engine.register(this.detector);
  }
}

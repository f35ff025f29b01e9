import { Module } from '@nestjs/common';
import { DetectionModule } from '../detection/detection.module.js';
import { OddsController } from './odds.controller.js';
import { OddsItemBuilder } from './odds-item.js';
import { OddsService } from './odds.service.js';
import { OddsFastPath } from './odds-fast-path.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { BoardModule } from '../board/board.module.js';
import { ReferenceModule } from '../reference/reference.module.js';
import { EventsModule } from '../events/events.module.js';

/** Odds lists, batch and one event's odds; the odds item builder (the stream uses it too). */
@Module({
  imports: [BoardModule, ReferenceModule, EventsModule, DetectionModule, AccountsModule],
  controllers: [OddsController],
  providers: [OddsService, OddsItemBuilder, OddsFastPath],
  exports: [OddsService, OddsItemBuilder, OddsFastPath],
})
export class OddsModule {}

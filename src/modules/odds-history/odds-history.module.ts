import { Module } from '@nestjs/common';
import { BoardModule } from '../board/board.module.js';
import { EventsModule } from '../events/events.module.js';
import { LineHistoryModule } from '../stores/line-history/line-history.module.js';
import { OddsHistoryController } from './odds-history.controller.js';
import { OddsHistoryService } from './odds-history.service.js';

/** GET /odds/history and /odds/movement: reads of the line history store under the odds routes' tier policy. */
@Module({
  imports: [LineHistoryModule, BoardModule, EventsModule],
  controllers: [OddsHistoryController],
  providers: [OddsHistoryService],
})
export class OddsHistoryModule {}

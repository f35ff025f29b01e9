import { Module } from '@nestjs/common';
import { EventsController } from './events.controller.js';
import { EventsService } from './events.service.js';
import { BoardModule } from '../board/board.module.js';
import { ReferenceModule } from '../reference/reference.module.js';

/** Events on the board: list, one event, and the filters (sport, league, market) the other lists share. */
@Module({
  imports: [BoardModule, ReferenceModule],
  controllers: [EventsController],
  providers: [EventsService],
  exports: [EventsService],
})
export class EventsModule {}

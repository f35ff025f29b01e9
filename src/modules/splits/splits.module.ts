import { Module } from '@nestjs/common';
import { SplitsController } from './splits.controller.js';
import { SplitsRepository } from './splits.repository.js';
import { SplitsService } from './splits.service.js';
import { BoardModule } from '../board/board.module.js';
import { EventsModule } from '../events/events.module.js';

/** Public betting splits: current (from ingestion, over the bus), 5-minute snapshots, 48-hour history. */
@Module({
  imports: [BoardModule, EventsModule],
  controllers: [SplitsController],
  providers: [SplitsRepository, SplitsService],
  exports: [SplitsService],
})
export class SplitsModule {}

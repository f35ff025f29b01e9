import { Module } from '@nestjs/common';
import { SplitsController } from './splits.controller.js';
import { SplitsService } from './splits.service.js';
import { EventsModule } from '../events/events.module.js';
import { SplitsStoreModule } from '../stores/splits/splits-store.module.js';

/** Public betting splits as read: GET /splits (current) and GET /splits/history, over the splits store. */
@Module({
  imports: [SplitsStoreModule, EventsModule],
  controllers: [SplitsController],
  providers: [SplitsService],
})
export class SplitsModule {}

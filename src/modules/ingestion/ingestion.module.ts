import { Module } from '@nestjs/common';
import { AdminIngestController } from './admin-ingest.controller.js';
import { IngestionService } from './ingestion.service.js';
import { BoardModule } from '../board/board.module.js';
import { FuturesStoreModule } from '../stores/futures/futures-store.module.js';
import { SplitsStoreModule } from '../stores/splits/splits-store.module.js';
import { PlayersStoreModule } from '../stores/players/players-store.module.js';
import { LineHistoryModule } from '../stores/line-history/line-history.module.js';

/** The intake: providers on their schedules and imports, mapped and validated, each part handed to its store. */
@Module({
  imports: [BoardModule, FuturesStoreModule, SplitsStoreModule, PlayersStoreModule, LineHistoryModule],
  controllers: [AdminIngestController],
  providers: [IngestionService],
  exports: [IngestionService],
})
export class IngestionModule {}

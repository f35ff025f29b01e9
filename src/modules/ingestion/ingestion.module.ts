import { Module } from '@nestjs/common';
import { AdminIngestController } from './admin-ingest.controller.js';
import { IngestionService } from './ingestion.service.js';
import { BoardModule } from '../board/board.module.js';

/** The providers on their schedules and imports, through the pipeline into the board; splits go out on the bus. */
@Module({ imports: [BoardModule], controllers: [AdminIngestController], providers: [IngestionService], exports: [IngestionService] })
export class IngestionModule {}

import { Global, Module } from '@nestjs/common';
import { AdminIngestController } from './admin-ingest.controller.js';
import { IngestionService } from './ingestion.service.js';

@Global()
@Module({ controllers: [AdminIngestController], providers: [IngestionService], exports: [IngestionService] })
export class IngestionModule {}

import { Module } from '@nestjs/common';
import { SplitsController } from './splits.controller.js';
import { SplitsRepository } from './splits.repository.js';
import { SplitsService } from './splits.service.js';

/** Public betting splits: current (from the ingestion pipeline's splits sink), 5-minute snapshots, 48-hour history. */
@Module({ controllers: [SplitsController], providers: [SplitsRepository, SplitsService], exports: [SplitsService] })
export class SplitsModule {}

import { Module } from '@nestjs/common';
import { BoardModule } from '../../board/board.module.js';
import { SplitsRepository } from './splits.repository.js';
import { SplitsStoreService } from './splits-store.service.js';

/** The splits store: current splits in memory (and their delayed views), 5-minute snapshots, the 48-hour history. */
@Module({ imports: [BoardModule], providers: [SplitsRepository, SplitsStoreService], exports: [SplitsStoreService] })
export class SplitsStoreModule {}

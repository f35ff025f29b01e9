import { Module } from '@nestjs/common';
import { LineHistoryRepository } from './line-history.repository.js';
import { LineHistoryStore } from './line-history.store.js';

/** The line history store: every price change of the board, written in batches, kept LINE_HISTORY_RETENTION_DAYS. */
@Module({ providers: [LineHistoryRepository, LineHistoryStore], exports: [LineHistoryStore] })
export class LineHistoryModule {}

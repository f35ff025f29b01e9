import { Module } from '@nestjs/common';
import { FuturesRepository } from './futures.repository.js';
import { FuturesStoreService } from './futures-store.service.js';

/** The futures store: the futures markets in memory, their table, their changes on the bus. */
@Module({ providers: [FuturesRepository, FuturesStoreService], exports: [FuturesStoreService] })
export class FuturesStoreModule {}

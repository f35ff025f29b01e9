import { Module } from '@nestjs/common';
import { PlayersStoreService } from './players-store.service.js';

/** The players store: the players the sources quoted, in memory, fed by ingestion. */
@Module({ providers: [PlayersStoreService], exports: [PlayersStoreService] })
export class PlayersStoreModule {}

import { Module } from '@nestjs/common';
import { BoardRepository } from './board.repository.js';
import { BoardService } from './board.service.js';

/** The board: the live prices and events in memory, their delayed views per tier, and their store. */
@Module({ providers: [BoardRepository, BoardService], exports: [BoardService, BoardRepository] })
export class BoardModule {}

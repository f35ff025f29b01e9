import { Global, Module } from '@nestjs/common';
import { BoardRepository } from './board.repository.js';
import { BoardService } from './board.service.js';

@Global()
@Module({ providers: [BoardRepository, BoardService], exports: [BoardService, BoardRepository] })
export class BoardModule {}

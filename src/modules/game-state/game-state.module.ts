import { BoardModule } from '../board/board.module.js';
import { Module } from '@nestjs/common';
import { GameStateController } from './game-state.controller.js';
import { GameStateService } from './game-state.service.js';

/** Live game state (enterprise or the game_state add-on): GET /gamestate[/{sport}]. Merging sources' reports is in game-state.ts (the pipeline keeps them). */
@Module({ imports: [BoardModule], controllers: [GameStateController], providers: [GameStateService] })
export class GameStateModule {}

import { BoardModule } from '../board/board.module.js';
import { Module } from '@nestjs/common';
import { GameStateController } from './game-state.controller.js';
import { GameStateService } from './game-state.service.js';

/**
 * Live game state (enterprise or the game_state add-on): GET /gamestate[/{sport}], read from the board's events.
 * Merging the sources' reports is the game-state store's (src/modules/stores/game-state), written by ingestion.
 */
@Module({ imports: [BoardModule], controllers: [GameStateController], providers: [GameStateService] })
export class GameStateModule {}

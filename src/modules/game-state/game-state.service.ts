import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { Clock } from '../../common/time/clock.js';
import { Catalog } from '../../config/catalog.js';
import { BoardService } from '../board/board.service.js';
import { gameStateObject } from './game-state-object.js';
import { dict } from '../../domain/dict.js';

/** GET /gamestate: the live games' state, by sport then event id. */
@Injectable()
export class GameStateService {
  constructor(
    private readonly boards: BoardService,
    private readonly catalog: Catalog,
    private readonly clock: Clock,
  ) {}

  /** Every live game with a state, or one sport's (case-insensitive; a sport the catalog lacks is `{}`). */
  list(account: Account, sport?: string) {
    const board = this.boards.viewFor(account);
    const now = this.clock.now();
    let only: string | null = null;
    if (sport !== undefined) {
      only = this.catalog.sportId(sport.trim().toLowerCase()) ?? null;
      if (!only) return { success: true as const, data: {}, updated_at: new Date(now).toISOString(), meta: { count: 0, sport: sport } };
    }
    const data: Record<string, Record<string, Record<string, unknown>>> = dict();
    let count = 0;
    const events = [...board.events.values()]
      .filter((e) => e.status === 'live' && (!only || e.sport === only))
      .sort((a, b) => a.startTime - b.startTime || (a.id < b.id ? -1 : 1));
    for (const e of events) {
      const obj = gameStateObject(e, board.booksOf(e.id).length, now);
      if (!obj) continue;
      (data[e.sport] ??= {})[e.id] = obj;
      count++;
    }
    return { success: true as const, data, updated_at: new Date(now).toISOString(), meta: { count, sport: only } };
  }
}

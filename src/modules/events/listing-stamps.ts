import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import type { AnswerStamp, AnswerStamps, StampKind } from '../../common/http/revalidation.js';
import { Catalog } from '../../config/catalog.js';
import type { OddsBoard } from '../board/odds-board.js';
import { BoardService } from '../board/board.service.js';
import { partitionPoint } from '../../domain/sorted.js';
import { gameStateTurns } from '../game-state/game-state-object.js';

/**
 * The stamp of what the event and reference lists read (`listing`): the caller's board view (which board, its
 * listing version) and the catalog's revision. Those lists show events, their books and market types, their game
 * state, and counts of them, never a price; the only part that changes with the time alone is the game state's
 * `stale` and `aggregator_stale`, so a stamp holds until the next time one of those turns.
 */
@Injectable()
export class ListingStamps implements AnswerStamps {
  /** Per board: the times its events' game-state flags turn, sorted, for one listing version. */
  private readonly turns = new WeakMap<OddsBoard, { version: number; times: number[] }>();

  constructor(
    private readonly boards: BoardService,
    private readonly catalog: Catalog,
  ) {}

  stamp(kind: StampKind, account: Account | undefined, now: number): AnswerStamp {
    switch (kind) {
      case 'listing': {
        const board = this.boards.viewFor(account);
        return { stamp: `${board.serial}.${board.listingVersion}.${this.catalog.revision}`, validUntil: this.nextTurn(board, now) };
      }
    }
  }

  /** The first time at or after `now` at which a game-state flag of the board's events turns (Infinity: none). */
  private nextTurn(board: OddsBoard, now: number): number {
    let t = this.turns.get(board);
    if (!t || t.version !== board.listingVersion) {
      const times: number[] = [];
      for (const e of board.events.values()) for (const at of gameStateTurns(e)) times.push(at);
      times.sort((a, b) => a - b);
      this.turns.set(board, (t = { version: board.listingVersion, times }));
    }
    const times = t.times;
    const lo = partitionPoint(times, (at) => at < now);
    return lo < times.length ? times[lo]! : Infinity;
  }
}

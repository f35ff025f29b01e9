import type { ChangeSet } from '../../domain/odds-row.js';
import { OddsBoard } from './odds-board.js';

/**
 * The board as it stood `delayMs` ago: a second OddsBoard fed the primary's change sets once they are old
 * enough. Reads call advance(now) first, so the view is exact at any instant (the free tier's 60 s delay is
 * a delayed view of the board, not a hidden field).
 */
export class DelayedBoard {
  readonly board = new OddsBoard();
  private queue: ChangeSet[] = [];
  private head = 0;

  constructor(readonly delayMs: number) {}

  push(cs: ChangeSet): void {
    this.queue.push(cs);
  }

  /** Applies every queued change set whose time is at or before now - delay. */
  advance(now: number): OddsBoard {
    const cutoff = now - this.delayMs;
    while (this.head < this.queue.length && this.queue[this.head]!.at <= cutoff) {
      this.board.applyChangeSet(this.queue[this.head]!);
      this.queue[this.head] = undefined as unknown as ChangeSet;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return this.board;
  }

  get pending(): number {
    return this.queue.length - this.head;
  }
}

import type { BoardEvent, ChangeSet, OddsRow } from '../../domain/odds-row.js';
import { OddsBoard } from './odds-board.js';

/**
 * The board as it stood `delayMs` ago: a second OddsBoard fed the primary's change sets once they are old
 * enough. Reads call advance(now) first, so the view is exact at any instant (the free tier's 60 s delay is
 * a delayed view of the board, not a hidden field).
 */
export class DelayedBoard {
  private readonly view = new OddsBoard();
  /** What the start-up rebuild gave the view, not indexed yet (see load), and change sets due at once since. */
  private initial: { events: BoardEvent[]; rows: OddsRow[]; at: number; due: ChangeSet[] } | null = null;
  private queue: ChangeSet[] = [];
  private head = 0;

  constructor(readonly delayMs: number) {}

  /**
   * The stored board at start. It is indexed on the view's first use (or `fill`), not here: indexing every row
   * a second time is a tenth of a restart, and no delayed read needs it before the server answers.
   */
  load(events: BoardEvent[], rows: OddsRow[], at: number): void {
    this.initial = { events, rows, at, due: [] };
  }

  /** Indexes what load gave, if not done yet. */
  fill(): void {
    const initial = this.initial;
    if (!initial) return;
    this.initial = null;
    this.view.load(initial.events, initial.rows, initial.at);
    for (const cs of initial.due) this.view.applyChangeSet(cs);
  }

  /** The view as far as it has been advanced (what load gave included). */
  get board(): OddsBoard {
    this.fill();
    return this.view;
  }

  /**
   * A change set the view shows at once, not after the delay (a provider's first snapshot of a market that was
   * there before it was watched); kept for `fill` while the view is not indexed yet. Only before any delayed one.
   */
  applyNow(cs: ChangeSet): void {
    if (this.initial) this.initial.due.push(cs);
    else this.view.applyChangeSet(cs);
  }

  push(cs: ChangeSet): void {
    this.queue.push(cs);
  }

  /** Applies every queued change set whose time is at or before now - delay. */
  advance(now: number): OddsBoard {
    const board = this.board;
    const cutoff = now - this.delayMs;
    while (this.head < this.queue.length && this.queue[this.head]!.at <= cutoff) {
      board.applyChangeSet(this.queue[this.head]!);
      this.queue[this.head] = undefined as unknown as ChangeSet;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return board;
  }

  get pending(): number {
    return this.queue.length - this.head;
  }
}

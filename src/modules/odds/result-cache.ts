import type { OddsBoard } from '../board/odds-board.js';

/**
 * Sorted result lists cached per (board, board version, query): repeated and paged reads of an unchanged
 * board cost a slice; any change set moves the version and the next read recomputes.
 */
export class ResultCache<T> {
  private readonly byBoard = new WeakMap<OddsBoard, Map<string, { version: number; value: T }>>();
  constructor(private readonly max = 256) {}

  get(board: OddsBoard, key: string, compute: () => T): T {
    let m = this.byBoard.get(board);
    if (!m) this.byBoard.set(board, (m = new Map()));
    const hit = m.get(key);
    if (hit && hit.version === board.version) {
      m.delete(key);
      m.set(key, hit);
      return hit.value;
    }
    const value = compute();
    m.delete(key);
    m.set(key, { version: board.version, value });
    if (m.size > this.max) m.delete(m.keys().next().value!);
    return value;
  }
}

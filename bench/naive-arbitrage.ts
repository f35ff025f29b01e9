import type { OddsBoard } from '../src/modules/board/odds-board.js';

/**
 * The baseline of the detection benchmark: a naive arbitrage-only pass over every market group of the board,
 * a plain loop (best active price per outcome, then the sum of 1/decimal below 1). No scopes, no guards, no
 * records: the floor a full re-scan of the same rows is compared with. Returns the number of crossed groups.
 */
export function naiveArbitragePass(board: OddsBoard): number {
  let crossed = 0;
  const best = new Map<string, number>();
  for (const key of board.keys('group')) {
    const ids = board.ids('group', key);
    if (!ids) continue;
    best.clear();
    for (const id of ids) {
      const r = board.rows.get(id);
      if (!r || !r.isActive) continue;
      const cur = best.get(r.selectionType);
      if (cur === undefined || r.decimal > cur) best.set(r.selectionType, r.decimal);
    }
    if (best.size < 2) continue;
    let implied = 0;
    for (const d of best.values()) implied += 1 / d;
    if (implied < 1) crossed++;
  }
  return crossed;
}

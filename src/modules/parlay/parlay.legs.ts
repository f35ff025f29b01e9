import type { OddsRow } from '../../domain/odds-row.js';
import type { ModelLeg } from '../../math/parlay.js';

/** Market types the joint score model settles (full game only). */
export const MONEYLINES = new Set(['moneyline']);
export const SPREADS = new Set(['point_spread', 'asian_handicap', 'puck_line', 'run_line']);
export const TOTALS = new Set(['total_points', 'total_goals', 'total_runs']);

const FULL_GAME = new Set(['', 'game', 'full_game', 'fg', 'ft', 'match']);

export function isFullGame(r: Pick<OddsRow, 'period'>): boolean {
  return FULL_GAME.has(r.period);
}

/**
 * A row as a leg of the joint model, or null when the final margin and total cannot settle it (props, periods, team
 * totals, quarter lines, other markets). `threeWay`: the moneyline has a draw outcome.
 */
export function modelLegOf(r: OddsRow, threeWay: boolean): ModelLeg | null {
  if (!isFullGame(r) || r.playerName) return null;
  const side = r.selectionType;
  if (MONEYLINES.has(r.marketType)) {
    if (side === 'home' || side === 'away' || side === 'draw') return { kind: 'moneyline', side, drawLoses: threeWay };
    return null;
  }
  if (r.line === null || !Number.isFinite(r.line) || Math.abs((r.line * 4) % 2) === 1) return null;
  if (SPREADS.has(r.marketType) && (side === 'home' || side === 'away')) return { kind: 'spread', side, line: r.line };
  if (TOTALS.has(r.marketType) && (side === 'over' || side === 'under')) return { kind: 'total', side, line: r.line };
  return null;
}

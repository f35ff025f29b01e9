import type { OddsRow } from '../../domain/odds-row.js';
import { withinEvent, type OddsBoard } from '../board/odds-board.js';
import { naturalKey } from './ordered-page.js';

/** Sort orders of /odds and /odds/delta: the fields `sort` accepts, and the comparators and keyset keys of each. */

export const SORT_FIELDS = [
  'odds_american',
  'odds_decimal',
  'probability',
  'odds_probability',
  'timestamp',
  'event_start_time',
  'sportsbook',
  'sport',
  'league',
  'id',
] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export interface SortSpec {
  /** A `sort` value; `default` the natural order; `changed` the order of change (/odds/delta's own order, not a `sort` value). */
  field: SortField | 'default' | 'changed';
  desc: boolean;
}

type Getter = (r: OddsRow, board: OddsBoard) => number | string;
type Field = Exclude<SortSpec['field'], 'default'>;
const start = (r: OddsRow, b: OddsBoard) => b.events.get(r.eventId)?.startTime ?? 0;
const GETTERS: Record<Field, Getter> = {
  // When the service saw the price, line, live or active state change (what /odds/delta's `since` is compared with).
  changed: (r) => r.changedAt,
  odds_american: (r) => r.american,
  odds_decimal: (r) => r.decimal,
  probability: (r) => r.probability,
  odds_probability: (r) => r.probability,
  // The row's `timestamp`: its last delivery (a sighting of the row or a whole-feed confirmation of its book).
  timestamp: (r, b) => b.seenAt(r),
  event_start_time: start,
  sportsbook: (r) => r.sportsbook,
  sport: (r) => r.sport,
  league: (r) => r.league,
  id: (r) => r.id,
};

/** Ascending order of two sort values (numbers, or strings by code unit). */
export function cmp(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Natural order: event start, event, then the board's order within an event. Total, so cursors are exact. */
function defaultCompare(board: OddsBoard) {
  return (a: OddsRow, b: OddsRow) => cmp(start(a, board), start(b, board)) || cmp(a.eventId, b.eventId) || withinEvent(a, b);
}

export function comparator(board: OddsBoard, sort: SortSpec): (a: OddsRow, b: OddsRow) => number {
  const base = defaultCompare(board);
  if (sort.field === 'default') return sort.desc ? (a, b) => base(b, a) : base;
  const g = GETTERS[sort.field];
  const dir = sort.desc ? -1 : 1;
  return (a, b) => dir * cmp(g(a, board), g(b, board)) || cmp(a.id, b.id);
}

/** The sort key of a row, for keyset cursors. */
export function sortKey(board: OddsBoard, sort: SortSpec, r: OddsRow): Array<number | string> {
  return sort.field === 'default' ? naturalKey(board, r) : [GETTERS[sort.field](r, board), r.id];
}

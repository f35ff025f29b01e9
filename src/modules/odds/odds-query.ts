import type { BookScope } from '../../common/auth/access-policy.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import { naturalKey } from './ordered-page.js';
import { withinEvent, type IndexKind, type OddsBoard } from '../board/odds-board.js';

/** Filters over board rows; every field optional except the book scope (the tier's books always apply). */
export interface OddsFilter {
  books: BookScope;
  sports?: ReadonlySet<string>;
  leagues?: ReadonlySet<string>;
  markets?: ReadonlySet<string>;
  events?: ReadonlySet<string>;
  live?: boolean;
  /** Event-level predicate (team, q, date): evaluated once per event. */
  eventMatch?: (e: BoardEvent) => boolean;
  minOdds?: number;
  maxOdds?: number;
  mainOnly?: boolean;
  activeOnly?: boolean;
  changedSince?: number;
}

export const SORT_FIELDS = ['odds_american', 'odds_decimal', 'probability', 'odds_probability', 'timestamp', 'event_start_time', 'sportsbook', 'sport', 'league', 'id'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export interface SortSpec {
  field: SortField | 'default';
  desc: boolean;
}

type Getter = (r: OddsRow, board: OddsBoard) => number | string;
const start = (r: OddsRow, b: OddsBoard) => b.events.get(r.eventId)?.startTime ?? 0;
const GETTERS: Record<SortField, Getter> = {
  odds_american: (r) => r.american,
  odds_decimal: (r) => r.decimal,
  probability: (r) => r.probability,
  odds_probability: (r) => r.probability,
  timestamp: (r) => r.changedAt,
  event_start_time: start,
  sportsbook: (r) => r.sportsbook,
  sport: (r) => r.sport,
  league: (r) => r.league,
  id: (r) => r.id,
};

function cmp(a: number | string, b: number | string): number {
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

/** The smallest index slice that must contain every match, or null to scan the board. */
function candidates(board: OddsBoard, f: OddsFilter): Iterable<string> | null {
  const options: Array<{ kind: IndexKind; keys: Iterable<string> }> = [];
  if (f.events) options.push({ kind: 'event', keys: f.events });
  if (!f.books.all) options.push({ kind: 'book', keys: f.books.books });
  if (f.leagues) options.push({ kind: 'league', keys: f.leagues });
  if (f.sports) options.push({ kind: 'sport', keys: f.sports });
  if (f.markets) options.push({ kind: 'market', keys: f.markets });
  let best: { size: number; sets: ReadonlySet<string>[] } | null = null;
  for (const o of options) {
    const sets: ReadonlySet<string>[] = [];
    let size = 0;
    for (const k of o.keys) {
      const s = board.ids(o.kind, k);
      if (s) {
        sets.push(s);
        size += s.size;
      }
    }
    if (!best || size < best.size) best = { size, sets };
  }
  if (!best) return null;
  const sets = best.sets;
  return (function* () {
    for (const s of sets) yield* s;
  })();
}

/** Every row matching the filter, unsorted. Uses the narrowest index; evaluates event predicates once per event. */
export function selectRows(board: OddsBoard, f: OddsFilter): OddsRow[] {
  const out: OddsRow[] = [];
  const eventOk = new Map<string, boolean>();
  const ids = candidates(board, f);
  const test = (r: OddsRow) => {
    if (!f.books.has(r.sportsbook)) return;
    if (f.events && !f.events.has(r.eventId)) return;
    if (f.leagues && !f.leagues.has(r.league)) return;
    if (f.sports && !f.sports.has(r.sport)) return;
    if (f.markets && !f.markets.has(r.marketType)) return;
    if (f.live !== undefined && r.isLive !== f.live) return;
    if (f.minOdds !== undefined && r.american < f.minOdds) return;
    if (f.maxOdds !== undefined && r.american > f.maxOdds) return;
    if (f.activeOnly && !r.isActive) return;
    if (f.changedSince !== undefined && r.changedAt <= f.changedSince) return;
    if (f.mainOnly && r.groupLine !== null && board.mainLine(r.ladderKey) !== r.groupLine) return;
    if (f.eventMatch) {
      let ok = eventOk.get(r.eventId);
      if (ok === undefined) {
        const e = board.events.get(r.eventId);
        ok = e ? f.eventMatch(e) : false;
        eventOk.set(r.eventId, ok);
      }
      if (!ok) return;
    }
    out.push(r);
  };
  if (ids) {
    for (const id of ids) {
      const r = board.rows.get(id);
      if (r) test(r);
    }
  } else {
    for (const r of board.rows.values()) test(r);
  }
  return out;
}

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

/** Opaque keyset cursor: base64url JSON of the last row's sort key. */
export function encodeCursor(key: Array<number | string>): string {
  return Buffer.from(JSON.stringify({ k: key })).toString('base64url');
}

export function decodeCursor(cursor: string): Array<number | string> | null {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown };
    if (!Array.isArray(v.k) || v.k.some((x) => typeof x !== 'number' && typeof x !== 'string')) return null;
    return v.k as Array<number | string>;
  } catch {
    return null;
  }
}

/** Index of the first row whose sort key is after the cursor's (sorted rows, same sort). */
export function afterCursor(rows: OddsRow[], keyOf: (r: OddsRow) => Array<number | string>, cursor: Array<number | string>, desc: boolean): number {
  const compareKeys = (a: Array<number | string>, b: Array<number | string>) => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const c = cmp(a[i] ?? '', b[i] ?? '');
      // Only a field sort's value (position 0 of a two-part key) runs in the requested direction.
      if (c) return desc && i === 0 && a.length === 2 ? -c : c;
    }
    return 0;
  };
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keyOf(rows[mid]!), cursor) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

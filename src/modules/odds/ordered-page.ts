import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import type { OddsBoard } from '../board/odds-board.js';
import { withinEvent } from '../board/odds-board.js';
import type { OddsFilter } from './odds-filter.js';

/** Cursor key of the natural order: [start, event, market, ladder, line, side, book, id]. */
export type NaturalKey = [number, string, string, string, number, string, string, string];

export function naturalKey(board: OddsBoard, r: OddsRow): NaturalKey {
  return [
    board.events.get(r.eventId)?.startTime ?? 0,
    r.eventId,
    r.marketType,
    r.ladderKey,
    r.groupLine ?? 0,
    r.selectionType,
    r.sportsbook,
    r.id,
  ];
}

function eventLevelOk(e: BoardEvent, f: OddsFilter): boolean {
  if (f.events && !f.events.has(e.id)) return false;
  if (f.sports && !f.sports.has(e.sport)) return false;
  if (f.leagues && !f.leagues.has(e.league)) return false;
  if (f.eventMatch && !f.eventMatch(e)) return false;
  return true;
}

/** True when only books and markets filter rows, so counts come from the board's per-event counters. */
function countable(f: OddsFilter): boolean {
  return (
    f.live === undefined &&
    f.minOdds === undefined &&
    f.maxOdds === undefined &&
    !f.activeOnly &&
    !f.mainOnly &&
    f.changedSince === undefined
  );
}

export function rowMatches(board: OddsBoard, r: OddsRow, f: OddsFilter): boolean {
  if (!f.books.has(r.sportsbook)) return false;
  if (f.markets && !f.markets.has(r.marketType)) return false;
  if (f.live !== undefined && r.isLive !== f.live) return false;
  if (f.minOdds !== undefined && r.american < f.minOdds) return false;
  if (f.maxOdds !== undefined && r.american > f.maxOdds) return false;
  if (f.activeOnly && !r.isActive) return false;
  if (f.changedSince !== undefined && r.changedAt <= f.changedSince) return false;
  if (f.mainOnly && r.groupLine !== null && board.mainLine(r.ladderKey) !== r.groupLine) return false;
  return true;
}

/** Matching rows per event, memoised per (board, event version, filter key): only changed events are recounted. */
export class EventCounts {
  private readonly memo = new WeakMap<OddsBoard, Map<string, Map<string, { version: number; n: number }>>>();

  /** The per-event memo of one filter (look it up once per request, then per event by id). */
  forFilter(board: OddsBoard, filterKey: string): Map<string, { version: number; n: number }> {
    let byFilter = this.memo.get(board);
    if (!byFilter) this.memo.set(board, (byFilter = new Map()));
    let m = byFilter.get(filterKey);
    if (!m) {
      if (byFilter.size > 500) byFilter.clear();
      byFilter.set(filterKey, (m = new Map()));
    }
    return m;
  }

  static count(m: Map<string, { version: number; n: number }>, board: OddsBoard, e: BoardEvent, f: OddsFilter): number {
    const version = board.eventVersion(e.id);
    const hit = m.get(e.id);
    if (hit && hit.version === version) return hit.n;
    const n = eventCount(board, e, f);
    m.set(e.id, { version, n });
    return n;
  }
}

function eventCount(board: OddsBoard, e: BoardEvent, f: OddsFilter): number {
  if (countable(f)) {
    let n = 0;
    for (const [key, c] of board.countOf(e.id) ?? []) {
      const bar = key.indexOf('|');
      if (f.markets && !f.markets.has(key.slice(0, bar))) continue;
      if (!f.books.all && !f.books.has(key.slice(bar + 1))) continue;
      n += c;
    }
    return n;
  }
  let n = 0;
  for (const r of board.sortedRowsOf(e.id)) if (rowMatches(board, r, f)) n++;
  return n;
}

function compareKeyToRow(k: NaturalKey, r: OddsRow): number {
  const probe = { marketType: k[2], ladderKey: k[3], groupLine: k[4], selectionType: k[5], sportsbook: k[6], id: k[7] } as OddsRow;
  return withinEvent(probe, r);
}

/**
 * One page of rows in the natural order (event start, event, market, ladder, line, side, book) without
 * sorting the board: events come from the board's ordered list, rows from its per-event sorted lists
 * (cached per event version), and the total from per-event counters where the filter allows. The work is
 * proportional to the events and to the rows skipped or returned, not to the board.
 */
export function orderedPage(
  board: OddsBoard,
  f: OddsFilter,
  opts: { offset: number; limit: number; cursor?: NaturalKey; counter?: EventCounts; rowFilterKey?: string },
): { rows: OddsRow[]; total: number; start: number } {
  const events = board.eventOrder().filter((e) => eventLevelOk(e, f));
  const memo = opts.counter && opts.rowFilterKey !== undefined ? opts.counter.forFilter(board, opts.rowFilterKey) : undefined;
  const counts = events.map((e) => (memo ? EventCounts.count(memo, board, e, f) : eventCount(board, e, f)));
  const total = counts.reduce((a, b) => a + b, 0);
  const rows: OddsRow[] = [];
  let index = 0;
  let i = 0;
  let skip = opts.offset;
  if (opts.cursor) {
    const [start, eventId] = opts.cursor;
    skip = 0;
    while (i < events.length && (events[i]!.startTime < start || (events[i]!.startTime === start && events[i]!.id < eventId)))
      index += counts[i++]!;
    if (i < events.length && events[i]!.id === eventId) {
      const list = board.sortedRowsOf(eventId);
      let j = 0;
      for (; j < list.length && compareKeyToRow(opts.cursor, list[j]!) >= 0; j++) if (rowMatches(board, list[j]!, f)) index++;
      for (; j < list.length && rows.length < opts.limit; j++) if (rowMatches(board, list[j]!, f)) rows.push(list[j]!);
      i++;
    }
  } else {
    while (i < events.length && skip >= counts[i]!) {
      skip -= counts[i]!;
      index += counts[i++]!;
    }
    index += skip;
  }
  for (; i < events.length && rows.length < opts.limit; i++) {
    if (!counts[i]) continue;
    for (const r of board.sortedRowsOf(events[i]!.id)) {
      if (!rowMatches(board, r, f)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      rows.push(r);
      if (rows.length >= opts.limit) break;
    }
  }
  return { rows, total, start: index };
}

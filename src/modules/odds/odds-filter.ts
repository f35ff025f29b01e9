import type { BookScope } from '../../common/auth/access-policy.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import type { IndexKind, OddsBoard } from '../board/odds-board.js';

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

/** The smallest index slice that must contain every match, or null to scan the board. */
function candidates(board: OddsBoard, f: OddsFilter): Iterable<OddsRow> | null {
  const options: Array<{ kind: IndexKind; keys: Iterable<string> }> = [];
  if (f.events) options.push({ kind: 'event', keys: f.events });
  if (!f.books.all) options.push({ kind: 'book', keys: f.books.books });
  if (f.leagues) options.push({ kind: 'league', keys: f.leagues });
  if (f.sports) options.push({ kind: 'sport', keys: f.sports });
  if (f.markets) options.push({ kind: 'market', keys: f.markets });
  let best: { size: number; parts: Iterable<OddsRow>[] } | null = null;
  for (const o of options) {
    const parts: Iterable<OddsRow>[] = [];
    let size = 0;
    for (const k of o.keys) {
      const s = board.slice(o.kind, k);
      if (s) {
        parts.push(s.rows);
        size += s.count;
      }
    }
    if (!best || size < best.size) best = { size, parts };
  }
  if (!best) return null;
  const parts = best.parts;
  return (function* () {
    for (const p of parts) yield* p;
  })();
}

/** Every row matching the filter, unsorted. Uses the narrowest index; evaluates event predicates once per event. */
export function selectRows(board: OddsBoard, f: OddsFilter): OddsRow[] {
  const out: OddsRow[] = [];
  const eventOk = new Map<string, boolean>();
  const rows = candidates(board, f);
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
  if (rows) {
    for (const r of rows) test(r);
  } else {
    for (const r of board.rows.values()) test(r);
  }
  return out;
}

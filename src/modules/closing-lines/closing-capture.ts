import type { BoardEvent, ChangeSet, OddsRow } from '../../domain/odds-row.js';
import type { StoredClosingLine } from './closing-lines.entity.js';

/** One book's closing line, found in a change set before the board applies it. */
export interface PendingCapture {
  event: BoardEvent;
  sportsbook: string;
  rows: OddsRow[];
}

/** What the capture reads from the board as it stands before the change set is applied. */
export interface BoardBefore {
  rows: ReadonlyMap<string, OddsRow>;
  events: ReadonlyMap<string, BoardEvent>;
  ids(kind: 'event', key: string): ReadonlySet<string> | undefined;
}

/**
 * The closing lines a change set fixes, read from the board before it is applied: a book's last pre-game
 * prices of an event are its closing line, captured when the book first quotes the event live (one of its
 * rows arrives with is_live) or when the event itself goes live (every book not captured yet). `captured`
 * holds `event|book` pairs already done; the pairs returned are added to it. A book with no pre-game price
 * left on the event has no closing line (the pair is still marked, so it is not looked at again).
 */
export function closingCaptures(board: BoardBefore, cs: ChangeSet, captured: Set<string>): PendingCapture[] {
  const wanted = new Map<string, { eventId: string; book: string | null }>();
  for (const r of cs.upserted) {
    if (!r.isLive) continue;
    const key = `${r.eventId}|${r.sportsbook}`;
    if (!captured.has(key)) wanted.set(key, { eventId: r.eventId, book: r.sportsbook });
  }
  for (const e of cs.events) {
    const before = board.events.get(e.id);
    if (e.status === 'live' && before && before.status === 'upcoming') wanted.set(`${e.id}|*`, { eventId: e.id, book: null });
  }
  if (!wanted.size) return [];
  // The pre-game rows of each wanted event, by book (read once per event).
  const byEvent = new Map<string, Map<string, OddsRow[]>>();
  const pregame = (eventId: string) => {
    let m = byEvent.get(eventId);
    if (m) return m;
    m = new Map();
    for (const id of board.ids('event', eventId) ?? []) {
      const r = board.rows.get(id);
      if (!r || r.isLive) continue;
      const list = m.get(r.sportsbook);
      if (list) list.push(r);
      else m.set(r.sportsbook, [r]);
    }
    byEvent.set(eventId, m);
    return m;
  };
  const out: PendingCapture[] = [];
  const take = (eventId: string, book: string) => {
    const key = `${eventId}|${book}`;
    if (captured.has(key)) return;
    captured.add(key);
    const rows = pregame(eventId).get(book);
    const event = board.events.get(eventId) ?? cs.events.find((e) => e.id === eventId);
    if (rows?.length && event) out.push({ event, sportsbook: book, rows });
  };
  for (const { eventId, book } of wanted.values()) {
    if (book !== null) take(eventId, book);
    else for (const b of pregame(eventId).keys()) take(eventId, b);
  }
  return out;
}

/**
 * Closing lines of games whose start time has passed without any book quoting them live (a feed without
 * in-play prices, a replayed import): each book's pre-game prices at the start are its closing line. Games
 * that started more than `maxAgeMs` ago are left alone.
 */
export function startedCaptures(board: BoardBefore, now: number, captured: Set<string>, maxAgeMs = 6 * 3600_000): PendingCapture[] {
  const out: PendingCapture[] = [];
  for (const e of board.events.values()) {
    if (e.status !== 'upcoming' || e.startTime > now || now - e.startTime > maxAgeMs) continue;
    const byBook = new Map<string, OddsRow[]>();
    for (const id of board.ids('event', e.id) ?? []) {
      const r = board.rows.get(id);
      if (!r || r.isLive || captured.has(`${e.id}|${r.sportsbook}`)) continue;
      const list = byBook.get(r.sportsbook);
      if (list) list.push(r);
      else byBook.set(r.sportsbook, [r]);
    }
    for (const [book, rows] of byBook) {
      captured.add(`${e.id}|${book}`);
      out.push({ event: e, sportsbook: book, rows });
    }
  }
  return out;
}

/** A captured row as stored (the `/odds/closing` line fields, plus period and market group). */
export function toStoredLine(r: OddsRow): StoredClosingLine {
  return {
    market_type: r.marketType,
    period: r.period,
    selection: r.selection,
    selection_type: r.selectionType,
    line: r.line,
    odds_american: Math.round(r.american),
    odds_decimal: r.decimal,
    player_name: r.playerName,
    stat_category: r.statCategory,
    group_key: r.groupKey,
    is_active: r.isActive,
  };
}

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
  events: ReadonlyMap<string, BoardEvent>;
  /** The rows of an event. */
  eventRows(eventId: string): Iterable<OddsRow>;
  /** When a price was last confirmed by its source (its own sighting or its book's whole-feed confirmation). */
  seenAt(r: OddsRow): number;
}

/** A pre-game price last confirmed longer than this before the close is not a closing price (30 minutes). */
export const CLOSING_MAX_AGE_MS = 30 * 60_000;

/**
 * Whether a pre-game row is a closing price: open (not suspended), confirmed by its source no longer than `maxAgeMs`
 * before the close (the earlier of the capture and the event's start), and, unless its book itself tells live prices
 * apart (`bookFlagsLive`: the book quoted the event live), not changed after the start (a feed without a live flag
 * keeps sending in-play prices as pre-game rows).
 */
export function isClosingPrice(
  r: OddsRow,
  seenAt: number,
  e: Pick<BoardEvent, 'startTime'>,
  at: number,
  maxAgeMs: number,
  bookFlagsLive: boolean,
): boolean {
  if (r.isLive || !r.isActive) return false;
  if (seenAt < Math.min(at, e.startTime) - maxAgeMs) return false;
  return bookFlagsLive || r.changedAt <= e.startTime;
}

/**
 * The closing lines a change set fixes, read from the board before it is applied: a book's last pre-game
 * prices of an event are its closing line, captured when the book first quotes the event live (one of its
 * rows arrives with is_live), when the event itself goes live (every book not captured yet), or when a book
 * changes a pre-game price of the event at or after its start time (a feed without a live flag: the board still
 * holds its prices from before the start). The event's start is the one the change set brings, if it moves it.
 * Only closing prices count ({@link isClosingPrice}). `captured` holds `event|book` pairs already done; the pairs
 * returned are added to it. A book with no closing price left on the event has no closing line (the pair is still
 * marked, so it is not looked at again).
 */
export function closingCaptures(
  board: BoardBefore,
  cs: ChangeSet,
  captured: Set<string>,
  maxAgeMs: number = CLOSING_MAX_AGE_MS,
): PendingCapture[] {
  const changed = new Map(cs.events.map((e) => [e.id, e]));
  /** The event as it stands after the change set (its start may move), or null when it is not upcoming before it. */
  const eventOf = (id: string): BoardEvent | undefined => {
    const before = board.events.get(id);
    const after = changed.get(id);
    return after && before ? { ...before, startTime: after.startTime } : (before ?? after);
  };
  const wanted = new Map<string, { eventId: string; book: string | null; flagsLive: boolean }>();
  for (const r of cs.upserted) {
    const key = `${r.eventId}|${r.sportsbook}`;
    if (captured.has(key)) continue;
    if (r.isLive) wanted.set(key, { eventId: r.eventId, book: r.sportsbook, flagsLive: true });
    else if (!wanted.has(key)) {
      const e = eventOf(r.eventId);
      if (e && board.events.get(r.eventId)?.status === 'upcoming' && cs.at >= e.startTime)
        wanted.set(key, { eventId: r.eventId, book: r.sportsbook, flagsLive: false });
    }
  }
  for (const e of cs.events) {
    const before = board.events.get(e.id);
    if (e.status === 'live' && before && before.status === 'upcoming')
      wanted.set(`${e.id}|*`, { eventId: e.id, book: null, flagsLive: false });
  }
  if (!wanted.size) return [];
  // The pre-game rows of each wanted event, by book (read once per event).
  const byEvent = new Map<string, Map<string, OddsRow[]>>();
  const pregame = (eventId: string) => {
    let m = byEvent.get(eventId);
    if (m) return m;
    m = new Map();
    for (const r of board.eventRows(eventId)) {
      if (r.isLive) continue;
      const list = m.get(r.sportsbook);
      if (list) list.push(r);
      else m.set(r.sportsbook, [r]);
    }
    byEvent.set(eventId, m);
    return m;
  };
  const out: PendingCapture[] = [];
  const take = (eventId: string, book: string, flagsLive: boolean) => {
    const key = `${eventId}|${book}`;
    if (captured.has(key)) return;
    captured.add(key);
    const event = eventOf(eventId);
    if (!event) return;
    const rows = pregame(eventId)
      .get(book)
      ?.filter((r) => isClosingPrice(r, board.seenAt(r), event, cs.at, maxAgeMs, flagsLive));
    if (rows?.length) out.push({ event, sportsbook: book, rows });
  };
  for (const { eventId, book, flagsLive } of wanted.values()) {
    if (book !== null) take(eventId, book, flagsLive);
    else for (const b of pregame(eventId).keys()) take(eventId, b, false);
  }
  return out;
}

/**
 * Closing lines of games whose start time has passed without any book quoting them live (a feed without
 * in-play prices, a replayed import): each book's closing prices at the start ({@link isClosingPrice}: open,
 * confirmed within `maxAgeMs` of the start, not changed after it) are its closing line. Games that started more
 * than `lookbackMs` ago are left alone.
 */
export function startedCaptures(
  board: BoardBefore,
  now: number,
  captured: Set<string>,
  maxAgeMs: number = CLOSING_MAX_AGE_MS,
  lookbackMs = 6 * 3600_000,
): PendingCapture[] {
  const out: PendingCapture[] = [];
  for (const e of board.events.values()) {
    if (e.status !== 'upcoming' || e.startTime > now || now - e.startTime > lookbackMs) continue;
    const byBook = new Map<string, OddsRow[]>();
    for (const r of board.eventRows(e.id)) {
      if (r.isLive || captured.has(`${e.id}|${r.sportsbook}`)) continue;
      const list = byBook.get(r.sportsbook);
      if (list) list.push(r);
      else byBook.set(r.sportsbook, [r]);
    }
    for (const [book, rows] of byBook) {
      captured.add(`${e.id}|${book}`);
      const closing = rows.filter((r) => isClosingPrice(r, board.seenAt(r), e, now, maxAgeMs, false));
      if (closing.length) out.push({ event: e, sportsbook: book, rows: closing });
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

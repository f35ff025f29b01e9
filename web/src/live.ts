/**
 * The dashboard's live state: the prices and the four opportunity lists, kept current from the SSE frames of
 * /api/v1/stream (README "Streaming"). Plain data and functions, no rendering.
 */

export type Json = Record<string, any>;
export type Kind = 'ev' | 'arbitrage' | 'middles' | 'low_hold';
export const KINDS: readonly Kind[] = ['ev', 'arbitrage', 'middles', 'low_hold'];

/** The stream's event names for each kind (the detectors' `stream` names). */
const DETECTED: Record<string, Kind> = {
  'ev:detected': 'ev',
  'arb:detected': 'arbitrage',
  'middles:detected': 'middles',
  'low_hold:detected': 'low_hold',
};
const EXPIRED: Record<string, Kind> = {
  'ev:expired': 'ev',
  'arb:expired': 'arbitrage',
  'middles:expired': 'middles',
  'low_hold:expired': 'low_hold',
};

export interface LiveState {
  odds: Map<string, Json>;
  opps: Record<Kind, Map<string, Json>>;
  /** 'connecting' until snapshot:complete, then 'live'. */
  phase: 'connecting' | 'live';
  /** The last stream error (code and message), if any. */
  error: { code: string; message: string } | null;
  /** Ids of opportunities detected after the snapshot (shown as new). */
  fresh: Set<string>;
}

export function emptyState(): LiveState {
  return {
    odds: new Map(),
    opps: { ev: new Map(), arbitrage: new Map(), middles: new Map(), low_hold: new Map() },
    phase: 'connecting',
    error: null,
    fresh: new Set(),
  };
}

/** Applies one SSE frame; answers whether anything visible changed. */
export function applyFrame(s: LiveState, event: string, data: any): boolean {
  switch (event) {
    case 'connected':
      // A fresh snapshot follows unless the server resumed from Last-Event-ID.
      if (!data?.resumed) {
        s.odds.clear();
        for (const k of KINDS) s.opps[k].clear();
        s.fresh.clear();
        s.phase = 'connecting';
      }
      s.error = null;
      return true;
    case 'snapshot':
      if (Array.isArray(data?.odds)) for (const r of data.odds) s.odds.set(r.id, r);
      else if (data?.kind && data.kind in s.opps && Array.isArray(data.opportunities))
        for (const o of data.opportunities) s.opps[data.kind as Kind].set(o.id, o);
      return true;
    case 'snapshot:complete':
      s.phase = 'live';
      return true;
    case 'odds:update':
    case 'odds:locked':
      for (const r of data?.odds ?? []) s.odds.set(r.id, r);
      return true;
    case 'odds:removed':
      for (const id of data?.ids ?? []) s.odds.delete(id);
      return true;
    case 'error':
      s.error = { code: String(data?.code ?? 'error'), message: String(data?.message ?? '') };
      return true;
    default: {
      const d = DETECTED[event];
      if (d && Array.isArray(data)) {
        for (const o of data) {
          if (!s.opps[d].has(o.id) && s.phase === 'live') s.fresh.add(o.id);
          s.opps[d].set(o.id, o);
        }
        return true;
      }
      const x = EXPIRED[event];
      if (x) {
        for (const id of data?.expired ?? []) {
          s.opps[x].delete(id);
          s.fresh.delete(id);
        }
        return true;
      }
      return false;
    }
  }
}

export interface BoardRow {
  key: string;
  selection: string;
  line: number | null;
  /** Price per book (the row of that book for this selection and line). */
  prices: Map<string, Json>;
  /** The books with the best decimal price among active prices (none when every book has the same price). */
  best: Set<string>;
}

export interface BoardEvent {
  eventId: string;
  name: string;
  league: string;
  start: string;
  live: boolean;
  rows: BoardRow[];
}

/**
 * The board: one block per event (by start time), one row per selection of the main line (line markets) or the
 * market itself (moneyline), one column per book; the best active price of each row is marked.
 */
export function buildBoard(odds: Iterable<Json>, eventFilter: string | null): { events: BoardEvent[]; books: string[] } {
  const events = new Map<string, BoardEvent>();
  const books = new Set<string>();
  const rowsByKey = new Map<string, BoardRow>();
  for (const r of odds) {
    if (eventFilter && r.event_id !== eventFilter) continue;
    if (r.line !== null && r.is_main_line === false) continue;
    books.add(r.sportsbook);
    let ev = events.get(r.event_id);
    if (!ev)
      events.set(
        r.event_id,
        (ev = { eventId: r.event_id, name: r.event_name, league: r.league, start: r.event_start_time, live: Boolean(r.is_live), rows: [] }),
      );
    const key = `${r.event_id}|${r.market_type}|${r.period}|${r.selection_type}|${r.player_name ?? ''}|${r.selection}`;
    let row = rowsByKey.get(key);
    if (!row) {
      rowsByKey.set(key, (row = { key, selection: r.selection, line: r.line, prices: new Map(), best: new Set() }));
      ev.rows.push(row);
    }
    row.prices.set(r.sportsbook, r);
  }
  for (const row of rowsByKey.values()) {
    let top = 0;
    for (const p of row.prices.values()) if (p.is_active !== false && p.odds_decimal > top) top = p.odds_decimal;
    for (const [book, p] of row.prices) if (p.is_active !== false && p.odds_decimal === top) row.best.add(book);
    // Every book at the same price: nothing stands out, nothing is marked.
    if (row.best.size > 1 && row.best.size === row.prices.size) row.best.clear();
  }
  const order = (a: BoardRow, b: BoardRow) => a.selection.localeCompare(b.selection);
  for (const ev of events.values()) ev.rows.sort(order);
  return {
    events: [...events.values()].sort((a, b) => a.start.localeCompare(b.start) || a.name.localeCompare(b.name)),
    books: [...books].sort(),
  };
}

/** An opportunity's ranking figure, highest first. */
export function oppScore(kind: Kind, o: Json): number {
  switch (kind) {
    case 'ev':
      return o.ev_percentage ?? 0;
    case 'arbitrage':
      return o.profit_percent ?? 0;
    case 'middles':
      return o.quality_score ?? o.expected_value ?? 0;
    case 'low_hold':
      return -(o.hold_percentage ?? 0);
  }
}

export function fmtAmerican(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '';
  return n > 0 ? `+${n}` : String(n);
}

export function fmtLine(line: number | null | undefined): string {
  if (line === null || line === undefined) return '';
  return line > 0 ? `+${line}` : String(line);
}

/** A leg's stake for a bankroll, in currency units (2 decimals). */
export function stake(bankroll: number, stakePercent: number): number {
  return Math.round(bankroll * stakePercent) / 100;
}

/**
 * The game-state store: each source's latest report about each live game, merged into one game state (which the
 * pipeline puts on the board's event). Plain functions and a plain class, no framework; time is an argument.
 */

import type { GameState } from '../../../domain/types.js';

/** One source's latest report about a game (a book's feed, the scores feed, the simulator). */
export interface StateReport {
  source: string;
  state: GameState;
  at: number;
}

/** Reports older than this behind the newest one no longer count. */
export const REPORT_HORIZON_MS = 120_000;

const FINAL = new Set(['F', 'FT', 'FINAL', 'AET', 'PEN', 'ENDED']);

/**
 * Orders period labels as a game goes: Q1 < Q2 < HT < 2H < OT < OT2 < F. Quarters, periods, sets, rounds and
 * halves are numbered (`Q3`, `P2`, `S2`, `R1`, `2H`); innings are `T5` (top) and `B5` (bottom); breaks between
 * halves `HT`; final `F`/`FT`. Unknown labels rank lowest.
 */
export function periodRank(label: string | undefined): number {
  if (!label) return -1;
  const s = label.trim().toUpperCase();
  if (FINAL.has(s)) return 10_000;
  if (s === 'HT') return 15;
  let m = /^(?:Q|P|S|R|H|I)(\d+)$/.exec(s) ?? /^(\d+)(?:H|Q|P|ST|ND|RD|TH)$/.exec(s);
  if (m) return Number(m[1]) * 10;
  m = /^OT(\d*)$/.exec(s);
  if (m) return 1000 + Number(m[1] || 1);
  if (s === 'SO') return 2000;
  m = /^T(\d+)$/.exec(s);
  if (m) return Number(m[1]) * 10;
  m = /^B(\d+)$/.exec(s);
  if (m) return Number(m[1]) * 10 + 5;
  return -1;
}

/** Seconds on a clock string (`49:06`, `5:42`, `0:07`); null when it is not one. */
export function clockSeconds(clock: unknown): number | null {
  if (typeof clock !== 'string') return null;
  const m = /^(\d{1,3}):(\d{2})$/.exec(clock.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** Whether a sport's game clock counts up (soccer, rugby league minutes) rather than down. */
export function clockCountsUp(sport: string): boolean {
  return sport === 'soccer';
}

/**
 * One game state from several sources' reports: the period is the furthest any recent source
 * has reached; the score is the one at least two sources agree on at that period (the most agreed, then the
 * highest total), else the primary's; the clock follows its direction (the furthest along: the highest for a
 * clock that counts up, the lowest for one that counts down); situational fields (possession, server, count,
 * runners, cards...) come from the primary, the most recent report at the furthest period. Adds
 * `primary_book` (the primary's source), `source_count`, `updated_at` (the primary's report) and `reported_at`
 * (the newest report). Null without a report.
 */
export function mergeReports(sport: string, reports: readonly StateReport[]): GameState | null {
  if (!reports.length) return null;
  const newest = Math.max(...reports.map((r) => r.at));
  const recent = reports.filter((r) => newest - r.at <= REPORT_HORIZON_MS);
  const top = Math.max(...recent.map((r) => periodRank(r.state.game_period)));
  const atTop = recent.filter((r) => periodRank(r.state.game_period) === top);
  const primary = atTop.reduce((a, b) => (b.at > a.at || (b.at === a.at && b.source < a.source) ? b : a));
  let home = primary.state.home_score;
  let away = primary.state.away_score;
  if (atTop.length >= 2) {
    const votes = new Map<string, { h: number; a: number; n: number }>();
    for (const r of atTop) {
      const k = `${r.state.home_score}-${r.state.away_score}`;
      const v = votes.get(k) ?? { h: r.state.home_score, a: r.state.away_score, n: 0 };
      v.n++;
      votes.set(k, v);
    }
    const best = [...votes.values()].sort((x, y) => y.n - x.n || y.h + y.a - (x.h + x.a))[0]!;
    if (best.n >= 2) {
      home = best.h;
      away = best.a;
    }
  }
  const out: GameState = { ...primary.state, home_score: home, away_score: away };
  const clocks = atTop.map((r) => clockSeconds(r.state.game_clock)).filter((c): c is number => c !== null);
  if (clocks.length) {
    const secs = clockCountsUp(sport) ? Math.max(...clocks) : Math.min(...clocks);
    out.game_clock = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
  }
  out.primary_book = primary.source;
  out.source_count = new Set(recent.map((r) => r.source)).size;
  out.updated_at = new Date(primary.at).toISOString();
  out.reported_at = new Date(newest).toISOString();
  return out;
}

/**
 * The latest report of each source per game, merged on every report. Written by the ingestion pipeline (the one
 * place event updates are applied); a game's reports are dropped when it is forgotten.
 */
export class GameStateStore {
  private readonly byEvent = new Map<string, Map<string, StateReport>>();

  /** Records a report and returns the merged state of the game. */
  report(eventId: string, sport: string, source: string, state: GameState, at: number): GameState | null {
    let m = this.byEvent.get(eventId);
    if (!m) this.byEvent.set(eventId, (m = new Map()));
    const clean: GameState = { ...state };
    for (const k of ['primary_book', 'source_count', 'updated_at', 'reported_at']) delete clean[k];
    m.set(source, { source, state: clean, at });
    return mergeReports(sport, [...m.values()]);
  }

  forget(eventId: string): void {
    this.byEvent.delete(eventId);
  }

  get size(): number {
    return this.byEvent.size;
  }
}

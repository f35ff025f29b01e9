/**
 * The game-state object the API serves (/gamestate, `game_state` on /events, the stream's gamestate channel) from
 * the merged state the game-state store put on the board's event. Plain functions; time is an argument.
 */

import type { GameState } from '../../domain/types.js';
import { dict } from '../../domain/dict.js';

/** `stale`: the primary source has been quiet this long. */
export const STALE_MS = 10_000;
/** `aggregator_stale`: no source has reported for this long. */
export const AGGREGATOR_STALE_MS = 30_000;

/** What the served object needs besides the stored state. */
export interface GameStateContext {
  id: string;
  sport: string;
  league: string;
  homeTeam: string;
  awayTeam: string;
  status: string;
  gameState: GameState | null;
}

/**
 * The game-state object served by /gamestate, on events and on the stream, or null when the
 * game is not live or has no state. `book_count`: books quoting the game live now. `stale` (the primary source
 * quiet more than 10 s) and `aggregator_stale` (no source for more than 30 s) appear only when true.
 */
export function gameStateObject(e: GameStateContext, bookCount: number, now: number): Record<string, unknown> | null {
  if (e.status !== 'live' || !e.gameState || typeof e.gameState.home_score !== 'number') return null;
  const { home_score, away_score, primary_book, ...rest } = e.gameState;
  const out: Record<string, unknown> = dict({
    home_team: e.homeTeam,
    away_team: e.awayTeam,
    sport: e.sport,
    league: e.league,
    home_score,
    away_score,
    is_live: true,
    primary_book: typeof primary_book === 'string' ? primary_book : null,
    book_count: bookCount,
    ...rest,
  });
  delete out.source_count;
  out.source_count = e.gameState.source_count ?? 1;
  const { updated, reported } = reportTimes(e.gameState);
  if (Number.isFinite(updated) && now - updated > STALE_MS) out.stale = true;
  if (Number.isFinite(reported) && now - reported > AGGREGATOR_STALE_MS) out.aggregator_stale = true;
  return out;
}

/**
 * The times at which the object gameStateObject serves for an event turns `stale` and `aggregator_stale` with no
 * new report: at every time up to each (inclusive) the flag is as it was before it. Nothing else in the object
 * depends on the time, so between a change of the event and the next of these times the object stays the same.
 */
export function gameStateTurns(e: GameStateContext): number[] {
  if (e.status !== 'live' || !e.gameState || typeof e.gameState.home_score !== 'number') return [];
  const { updated, reported } = reportTimes(e.gameState);
  const out: number[] = [];
  if (Number.isFinite(updated)) out.push(updated + STALE_MS);
  if (Number.isFinite(reported)) out.push(reported + AGGREGATOR_STALE_MS);
  return out;
}

/**
 * When the primary source last updated the state (`updated_at`) and when any source last reported it
 * (`reported_at`, the update time when absent), in ms; NaN when unknown. The `stale` flags are measured from these.
 */
function reportTimes(g: GameState): { updated: number; reported: number } {
  const updated = typeof g.updated_at === 'string' ? Date.parse(g.updated_at) : NaN;
  const reported = typeof g.reported_at === 'string' ? Date.parse(g.reported_at) : updated;
  return { updated, reported };
}

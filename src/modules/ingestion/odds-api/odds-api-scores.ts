import { parseTime } from '../../../common/time/time-param.js';
import type { EventUpdate, GameState } from '../../../domain/types.js';

/**
 * The Odds API v4 scores (`GET /v4/sports/{sport}/scores`): one entry per game with `completed`, the teams,
 * `commence_time` and `scores` (null before the game; `[{name, score}]` with scores as strings) and
 * `last_update`. Scores are matched to the teams by name, never by position.
 */
export interface V4Score {
  id?: unknown;
  sport_key?: unknown;
  commence_time?: unknown;
  completed?: unknown;
  home_team?: unknown;
  away_team?: unknown;
  scores?: unknown;
  last_update?: unknown;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Event updates from a scores response: live games with their score, completed ones ended with the final. */
export function parseOddsApiScores(input: unknown): EventUpdate[] {
  if (!Array.isArray(input)) return [];
  const out: EventUpdate[] = [];
  for (const raw of input as V4Score[]) {
    if (!raw || typeof raw !== 'object') continue;
    const league = str(raw.sport_key);
    const home = str(raw.home_team);
    const away = str(raw.away_team);
    const start = str(raw.commence_time) ? (parseTime(str(raw.commence_time)!, { unixSeconds: false, dateAlone: false }).ms ?? NaN) : NaN;
    if (!league || !home || !away || !Number.isFinite(start)) continue;
    const u: EventUpdate = { league, homeTeam: home, awayTeam: away, startTime: start, externalEventId: str(raw.id) };
    let state: GameState | null = null;
    if (Array.isArray(raw.scores)) {
      const by = new Map<string, number>();
      for (const s of raw.scores as Array<{ name?: unknown; score?: unknown }>) {
        const name = str(s?.name);
        const v = typeof s?.score === 'number' ? s.score : Number(str(s?.score) ?? NaN);
        if (name && Number.isFinite(v)) by.set(name, v);
      }
      const h = by.get(home);
      const a = by.get(away);
      if (h !== undefined && a !== undefined) state = { home_score: h, away_score: a };
    }
    if (raw.completed === true) {
      u.status = 'ended';
      if (state) u.gameState = { ...state, game_period: 'F' };
    } else if (state) {
      u.status = 'live';
      u.gameState = state;
    } else continue; // not started: nothing to say
    out.push(u);
  }
  return out;
}

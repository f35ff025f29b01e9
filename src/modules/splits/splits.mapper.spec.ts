import { describe, expect, it } from '@jest/globals';
import { toHistoryEntry, toSplitsGame } from './splits.mapper.js';
import type { CurrentSplits } from '../stores/splits/splits-store.js';

const s: CurrentSplits = {
  eventId: 'nba_celtics_lakers_2026-11-22_b3',
  sportsbook: 'circa',
  sport: 'basketball',
  league: 'nba',
  homeTeam: 'Boston Celtics',
  awayTeam: 'Los Angeles Lakers',
  startTime: Date.UTC(2026, 10, 22, 20),
  fetchedAt: Date.UTC(2026, 10, 22, 17, 55),
  spread: { away_line: 3.5, home_line: -3.5, handle_pct: { away: 0.42, home: 0.58 }, bets_pct: { away: 0.48, home: 0.52 } },
  moneyline: { away_odds: 135, home_odds: -155, handle_pct: { away: 0.35, home: 0.65 }, bets_pct: { away: 0.4, home: 0.6 } },
};

describe('splits mapper', () => {
  it('SplitsGame: spread lines in *_odds, missing markets null, fetched_at RFC 3339', () => {
    expect(toSplitsGame(s)).toEqual({
      event_id: 'nba_celtics_lakers_2026-11-22_b3',
      sport: 'basketball',
      league: 'nba',
      sportsbook: 'circa',
      away_team: 'Los Angeles Lakers',
      home_team: 'Boston Celtics',
      spread: {
        away_line: 3.5,
        home_line: -3.5,
        away_odds: 3.5,
        home_odds: -3.5,
        handle_pct: { away: 0.42, home: 0.58 },
        bets_pct: { away: 0.48, home: 0.52 },
      },
      total: null,
      moneyline: { away_odds: 135, home_odds: -155, handle_pct: { away: 0.35, home: 0.65 }, bets_pct: { away: 0.4, home: 0.6 } },
      fetched_at: '2026-11-22T17:55:00.000Z',
    });
  });

  it('SplitsHistoryEntry: book, ts, fractional Unix seconds', () => {
    const e = toHistoryEntry({ ...s, capturedAt: Date.UTC(2026, 10, 22, 18, 0, 0, 500) });
    expect(e).toMatchObject({ book: 'circa', ts: '2026-11-22T18:00:00.500Z', timestamp: 1795370400.5, total: null });
    expect(e.spread).toEqual({
      away_line: 3.5,
      home_line: -3.5,
      handle_pct: { away: 0.42, home: 0.58 },
      bets_pct: { away: 0.48, home: 0.52 },
    });
  });
});

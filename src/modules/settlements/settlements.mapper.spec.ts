import { describe, expect, it } from '@jest/globals';
import { outcomeOf, toSettlement } from './settlements.mapper.js';
import type { SettledRow } from './settlements.repository.js';

describe('settlement outcome', () => {
  it('maps grading results and voids', () => {
    expect(outcomeOf('win', null)).toBe('won');
    expect(outcomeOf('loss', null)).toBe('lost');
    expect(outcomeOf('push', null)).toBe('push');
    // A void game is void whatever else is stored; an ungraded signal is not settled.
    expect(outcomeOf(null, 'postponed')).toBe('void');
    expect(outcomeOf('win', 'cancelled')).toBe('void');
    expect(outcomeOf(null, null)).toBeNull();
  });

  it('builds the public item with explicit nulls and the player id', () => {
    const row: SettledRow = {
      opportunityId: 'abc',
      eventId: 'mlb_x_y',
      sport: 'baseball',
      league: 'mlb',
      homeTeam: 'Arizona Diamondbacks',
      awayTeam: 'San Diego Padres',
      eventStartTime: Date.parse('2026-07-19T01:40:00Z'),
      sportsbook: 'draftkings',
      marketType: 'player_hits',
      period: 'game',
      selection: 'Over 0.5',
      selectionType: 'over',
      line: 0.5,
      playerName: 'Corbin Carroll',
      entryAmerican: -120,
      entryDecimal: 1.8333333,
      fairProbability: 0.56,
      evPercent: 2.67,
      detectedAt: Date.parse('2026-07-18T20:00:00Z'),
      closingProbability: null,
      clvPercent: null,
      result: 'push',
      voidReason: null,
      gradedAt: Date.parse('2026-07-19T05:00:00Z'),
    };
    expect(toSettlement(row)).toMatchObject({
      hash_id: 'abc',
      game: 'San Diego Padres @ Arizona Diamondbacks',
      player_id: 'baseball_mlb_corbin_carroll',
      odds_decimal: 1.833,
      outcome: 'push',
      clv_percent: null,
      market_segment: 'full_game',
      settled_at: '2026-07-19T05:00:00.000Z',
    });
  });
});

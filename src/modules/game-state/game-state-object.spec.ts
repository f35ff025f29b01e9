import { describe, expect, it } from '@jest/globals';
import { gameStateObject } from './game-state-object.js';

const T = Date.parse('2026-11-22T20:00:00Z');

describe('gameStateObject', () => {
  const ev = { id: 'e', sport: 'basketball', league: 'nba', homeTeam: 'Boston Celtics', awayTeam: 'Los Angeles Lakers', status: 'live' };
  const state = {
    home_score: 55,
    away_score: 50,
    game_period: 'Q3',
    game_clock: '10:58',
    primary_book: 'simulator',
    source_count: 1,
    updated_at: new Date(T).toISOString(),
    reported_at: new Date(T).toISOString(),
  };
  it('serves the public game-state fields', () => {
    expect(gameStateObject({ ...ev, gameState: state }, 12, T + 5000)).toEqual({
      home_team: 'Boston Celtics',
      away_team: 'Los Angeles Lakers',
      sport: 'basketball',
      league: 'nba',
      home_score: 55,
      away_score: 50,
      is_live: true,
      primary_book: 'simulator',
      book_count: 12,
      game_period: 'Q3',
      game_clock: '10:58',
      source_count: 1,
      updated_at: state.updated_at,
      reported_at: state.reported_at,
    });
  });
  it('flags stale only when true', () => {
    expect(gameStateObject({ ...ev, gameState: state }, 12, T + 10_000)!.stale).toBeUndefined();
    expect(gameStateObject({ ...ev, gameState: state }, 12, T + 10_001)).toMatchObject({ stale: true });
    expect(gameStateObject({ ...ev, gameState: state }, 12, T + 10_001)!.aggregator_stale).toBeUndefined();
    expect(gameStateObject({ ...ev, gameState: state }, 12, T + 30_001)).toMatchObject({ stale: true, aggregator_stale: true });
  });
  it('is null when the game is not live', () => {
    expect(gameStateObject({ ...ev, status: 'upcoming', gameState: null }, 3, T)).toBeNull();
    expect(gameStateObject({ ...ev, status: 'ended', gameState: state }, 3, T)).toBeNull();
  });
});

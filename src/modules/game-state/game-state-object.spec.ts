import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { gameStateObject, gameStateTurns } from './game-state-object.js';

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

describe('gameStateTurns', () => {
  const ev = { id: 'e', sport: 'hockey', league: 'nhl', homeTeam: 'Boston Bruins', awayTeam: 'New York Rangers', status: 'live' };
  const withTimes = (updated: number, reported: number | null) => ({
    ...ev,
    gameState: {
      home_score: 2,
      away_score: 1,
      updated_at: new Date(updated).toISOString(),
      ...(reported === null ? {} : { reported_at: new Date(reported).toISOString() }),
    },
  });

  it('the served object is the same at any two times with no turn between them, and changes just after each turn', () => {
    const span = 60_000;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: span }),
        fc.option(fc.integer({ min: 0, max: span }), { nil: null }),
        fc.integer({ min: 0, max: 2 * span }),
        fc.integer({ min: 0, max: 2 * span }),
        (u, rep, x, y) => {
          const e = withTimes(T + u, rep === null ? null : T + rep);
          const turns = gameStateTurns(e);
          const [a, b] = [T + Math.min(x, y), T + Math.max(x, y)];
          if (!turns.some((t) => a <= t && t < b)) expect(gameStateObject(e, 3, b)).toEqual(gameStateObject(e, 3, a));
          for (const t of turns) expect(gameStateObject(e, 3, t + 1)).not.toEqual(gameStateObject(e, 3, t));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('has none when nothing served depends on the time', () => {
    expect(gameStateTurns({ ...withTimes(T, T), status: 'upcoming' })).toEqual([]);
    expect(gameStateTurns({ ...ev, gameState: null })).toEqual([]);
    expect(
      gameStateTurns({ ...ev, gameState: { home_score: null as unknown as number, away_score: 0, updated_at: new Date(T).toISOString() } }),
    ).toEqual([]);
    expect(gameStateTurns({ ...ev, gameState: { home_score: 1, away_score: 0, updated_at: 'not a time' } })).toEqual([]);
  });
});

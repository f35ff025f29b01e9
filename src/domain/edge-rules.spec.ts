import { describe, expect, it } from '@jest/globals';
import { eventUpdateProblem, quoteProblem, splitsProblem } from './edge-rules.js';
import { MAX_TIME_MS } from './time-range.js';
import type { EventUpdate, Quote, SplitsInput } from './types.js';

const START = Date.UTC(2026, 10, 22, 18); // 2026-11-22T18:00:00Z
const quote: Quote = {
  book: 'draftkings',
  league: 'nba',
  homeTeam: 'Boston Celtics',
  awayTeam: 'Los Angeles Lakers',
  startTime: START,
  marketType: 'moneyline',
  selection: 'Boston Celtics',
  selectionType: 'home',
  price: { american: -120 },
};

describe('quoteProblem: one rule for board and futures prices', () => {
  it('takes a clean quote, and the range ends (1970-01-01 is "missing" only as 0; 9999-12-31T23:59:59.999Z is in)', () => {
    expect(quoteProblem(quote)).toBeNull();
    expect(quoteProblem({ ...quote, startTime: MAX_TIME_MS })).toBeNull();
    expect(quoteProblem({ ...quote, sourceTime: 1 })).toBeNull();
  });

  it.each<[Partial<Quote> & Record<string, unknown>, string, RegExp]>([
    [{ externalEventId: 'a\u0000b' }, 'invalid_text', /^externalEventId contains a NUL/],
    [{ homePitcher: 'x\u0001' }, 'invalid_text', /^homePitcher contains the control character U\+0001/],
    [{ future: { market: 'm', name: 'n', type: 'TEAM', kind: 'k', externalId: 'x\u0000' } }, 'invalid_text', /^future\.externalId/],
    [{ startTime: 0 }, 'invalid_time', /^startTime is missing/],
    [{ startTime: MAX_TIME_MS + 1 }, 'invalid_time', /^startTime is outside/],
    [{ startTime: 8640000000000001 }, 'invalid_time', /^startTime is outside/],
    [{ startTime: -62167219200000 }, 'invalid_time', /^startTime is outside/], // 0000-01-01
    [{ startTime: Number.POSITIVE_INFINITY }, 'invalid_time', /^startTime is not a finite time/],
    [{ startTime: '2026-11-22' as unknown as number }, 'invalid_time', /^startTime is not a time/],
    [{ sourceTime: 1e300 }, 'invalid_time', /^sourceTime is outside/],
    [{ line: Number.NaN }, 'invalid_market_data', /^line must be a finite number/],
    [{ gameNumber: 0 }, 'malformed_quote', /^gameNumber/],
    [{ isLive: 1 as unknown as boolean }, 'malformed_quote', /^isLive must be true or false/],
    [{ future: { market: 'm', name: 'n', type: 'X' as 'TEAM', kind: 'k' } }, 'malformed_quote', /^future\.type must be one of/],
  ])('%p: %s', (change, reason, message) => {
    const p = quoteProblem({ ...quote, ...change } as Quote);
    expect(p?.reason).toBe(reason);
    expect(p?.message).toMatch(message);
  });
});

describe('splitsProblem', () => {
  const splits: SplitsInput = {
    book: 'draftkings',
    league: 'nba',
    homeTeam: 'Boston Celtics',
    awayTeam: 'Los Angeles Lakers',
    startTime: START,
    fetchedAt: START - 3600_000,
    total: { line: 221.5, handle_pct: { over: 0.7, under: 0.3 }, bets_pct: { over: 0.65, under: 0.35 } },
  };
  it('takes clean splits; refuses text, times, non-finite numbers and shares outside 0-1', () => {
    expect(splitsProblem(splits)).toBeNull();
    expect(splitsProblem({ ...splits, homeTeam: 'a\u0000' })?.reason).toBe('invalid_text');
    expect(splitsProblem({ ...splits, fetchedAt: 1e300 })?.reason).toBe('invalid_time');
    expect(splitsProblem({ ...splits, total: { ...splits.total!, line: Number.POSITIVE_INFINITY } })?.message).toBe(
      'splits.total.line must be a finite number',
    );
    expect(splitsProblem({ ...splits, total: { ...splits.total!, handle_pct: { over: 1.2, under: -0.2 } } })?.message).toBe(
      'total.handle_pct.over must be a share from 0 to 1',
    );
  });
});

describe('eventUpdateProblem', () => {
  const u: EventUpdate = {
    league: 'nba',
    homeTeam: 'Boston Celtics',
    awayTeam: 'Los Angeles Lakers',
    startTime: START,
    status: 'live',
    gameState: { home_score: 10, away_score: 8, game_period: 'Q1' },
  };
  it('takes a clean update and a null game state; refuses bad statuses, scores, text and times', () => {
    expect(eventUpdateProblem(u)).toBeNull();
    expect(eventUpdateProblem({ ...u, gameState: null })).toBeNull();
    expect(eventUpdateProblem({ ...u, status: 'over' as 'live' })?.reason).toBe('invalid_status');
    expect(eventUpdateProblem({ ...u, gameState: { home_score: -1, away_score: 0 } })?.message).toMatch(
      /^gameState\.home_score must be a whole number/,
    );
    expect(eventUpdateProblem({ ...u, gameState: { home_score: 1, away_score: 0, game_period: 'Q\u0000' } })?.reason).toBe('invalid_text');
    expect(eventUpdateProblem({ ...u, startTime: 8640000000000001 })?.reason).toBe('invalid_time');
  });
});

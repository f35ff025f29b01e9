import { describe, expect, it } from '@jest/globals';
import { GameStateStore, mergeReports, periodRank } from './game-state-store.js';

const T = Date.parse('2026-11-22T20:00:00Z');

describe('periodRank', () => {
  it('orders periods as games go', () => {
    expect(periodRank('1H')).toBeLessThan(periodRank('HT'));
    expect(periodRank('HT')).toBeLessThan(periodRank('2H'));
    expect(periodRank('T5')).toBeLessThan(periodRank('B5'));
    expect(periodRank('B5')).toBeLessThan(periodRank('T6'));
    expect(periodRank('P3')).toBeLessThan(periodRank('OT'));
    expect(periodRank('OT')).toBeLessThan(periodRank('OT2'));
    expect(periodRank('S2')).toBeGreaterThan(periodRank('S1'));
    expect(periodRank('FT')).toBe(periodRank('F'));
    expect(periodRank('Q4')).toBeGreaterThan(periodRank('Q1'));
    expect(periodRank(undefined)).toBe(-1);
  });
});

describe('mergeReports', () => {
  it('takes the furthest period, the agreed score and the clock by direction', () => {
    const s = mergeReports('basketball', [
      { source: 'draftkings', at: T, state: { home_score: 50, away_score: 48, game_period: 'Q2', game_clock: '3:10' } },
      {
        source: 'fanduel',
        at: T + 1000,
        state: { home_score: 55, away_score: 50, game_period: 'Q3', game_clock: '11:20', possession: 'home' },
      },
      {
        source: 'pinnacle',
        at: T + 500,
        state: { home_score: 55, away_score: 50, game_period: 'Q3', game_clock: '10:58', possession: 'away' },
      },
      { source: 'betmgm', at: T + 800, state: { home_score: 57, away_score: 50, game_period: 'Q3', game_clock: '11:40' } },
    ]);
    // Q3 is the furthest; 55-50 has two votes; the countdown clock furthest along is 10:58; possession from the
    // primary (the newest report at Q3: fanduel).
    expect(s).toMatchObject({
      home_score: 55,
      away_score: 50,
      game_period: 'Q3',
      game_clock: '10:58',
      possession: 'home',
      primary_book: 'fanduel',
      source_count: 4,
    });
    expect(s!.updated_at).toBe(new Date(T + 1000).toISOString());
  });
  it('soccer clocks count up; one source alone gives its own score', () => {
    const s = mergeReports('soccer', [
      { source: 'a', at: T, state: { home_score: 1, away_score: 0, game_period: '2H', game_clock: '61:02' } },
      { source: 'b', at: T + 2000, state: { home_score: 2, away_score: 0, game_period: '2H', game_clock: '62:30', corners_home: 5 } },
    ]);
    // No score has two votes: the primary's (b, the newest) stands.
    expect(s).toMatchObject({ home_score: 2, away_score: 0, game_clock: '62:30', corners_home: 5, primary_book: 'b' });
  });
  it('ignores reports far behind the newest', () => {
    const s = mergeReports('hockey', [
      { source: 'old', at: T, state: { home_score: 3, away_score: 3, game_period: 'OT' } },
      { source: 'new', at: T + 200_000, state: { home_score: 1, away_score: 0, game_period: 'P2' } },
    ]);
    expect(s).toMatchObject({ home_score: 1, game_period: 'P2', source_count: 1 });
    expect(mergeReports('hockey', [])).toBeNull();
  });
  it('keeps the latest report per source', () => {
    const r = new GameStateStore();
    r.report('e', 'basketball', 'sim', { home_score: 2, away_score: 0, game_period: 'Q1' }, T);
    const s = r.report('e', 'basketball', 'sim', { home_score: 4, away_score: 0, game_period: 'Q1' }, T + 1000);
    expect(s).toMatchObject({ home_score: 4, source_count: 1 });
    r.forget('e');
    expect(r.size).toBe(0);
  });
});

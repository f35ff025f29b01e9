import { describe, expect, it } from '@jest/globals';
import {
  closingFairProbability,
  closingProbabilityFor,
  clvPercent,
  finalScoreOf,
  gradeBet,
  summarise,
  type GradableBet,
} from './clv.math.js';

const bet = (marketType: string, selectionType: string, line: number | null = null, period = 'game'): GradableBet => ({
  marketType,
  selectionType,
  line,
  period,
});
const score = (sport: string, homeScore: number, awayScore: number) => ({ sport, homeScore, awayScore });

describe('clvPercent', () => {
  it('values the entry price at the closing fair probability', () => {
    // Closing fair 0.5 (a -110/-110 close), taken at +105 (2.05): 0.5 x 2.05 - 1 = 2.5%.
    expect(clvPercent(0.5, 2.05)).toBe(2.5);
    // Taken at -120 (1.8333...) against a fair 0.5 close: 0.5 x 1.83333 - 1 = -8.3333%.
    expect(clvPercent(0.5, 1 + 100 / 120)).toBeCloseTo(-8.3333, 4);
    expect(clvPercent(0.25, 4)).toBe(0);
  });
  it('refuses unusable inputs', () => {
    expect(clvPercent(0, 2)).toBeNull();
    expect(clvPercent(1, 2)).toBeNull();
    expect(clvPercent(0.5, 1)).toBeNull();
    expect(clvPercent(Number.NaN, 2)).toBeNull();
  });
});

describe('closingFairProbability', () => {
  it('devigs the closing market by the recorded method', () => {
    // -110/-110: implied 0.52381 each; every method gives 0.5.
    const d = 1 + 100 / 110;
    expect(closingFairProbability([d, d], 0, 'multiplicative')).toBeCloseTo(0.5, 10);
    expect(closingFairProbability([d, d], 1, 'power')).toBeCloseTo(0.5, 10);
    // 1.80 / 2.10: implied 0.555556 + 0.476190 = 1.031746.
    // multiplicative: 0.555556 / 1.031746 = 0.538462; taken at 1.95: 0.538462 x 1.95 - 1 = +5.0%.
    const mult = closingFairProbability([1.8, 2.1], 0, 'multiplicative')!;
    expect(mult).toBeCloseTo(0.538462, 6);
    expect(clvPercent(mult, 1.95)).toBeCloseTo(5.0, 3);
    // additive: 0.555556 - 0.031746 / 2 = 0.539683; at 1.95: +5.2381%.
    const add = closingFairProbability([1.8, 2.1], 0, 'additive')!;
    expect(add).toBeCloseTo(0.539683, 6);
    expect(clvPercent(add, 1.95)).toBeCloseTo(5.2381, 3);
  });
  it('gives null for an incomplete or crossed closing market', () => {
    expect(closingFairProbability([1.9], 0, 'power')).toBeNull();
    expect(closingFairProbability([2.2, 2.2], 0, 'power')).toBeNull(); // sums to 0.909: an arbitrage
    expect(closingFairProbability([1.9, 1.9], 2, 'power')).toBeNull();
  });
});

describe('gradeBet', () => {
  it('moneylines: two-way, three-way, ties', () => {
    expect(gradeBet(bet('moneyline', 'home'), score('basketball', 110, 104))).toBe('win');
    expect(gradeBet(bet('moneyline', 'away'), score('basketball', 110, 104))).toBe('loss');
    expect(gradeBet(bet('moneyline', 'draw'), score('soccer', 1, 1))).toBe('win');
    expect(gradeBet(bet('moneyline', 'home'), score('soccer', 1, 1))).toBe('loss'); // 1X2: the draw beats both sides
    expect(gradeBet(bet('moneyline', 'home'), score('football', 20, 20))).toBe('push'); // an NFL tie refunds the moneyline
    expect(gradeBet(bet('moneyline', 'away'), { sport: 'mma', homeScore: 0, awayScore: 0, winner: 'away' })).toBe('win');
  });
  it("spreads use the selection's own handicap", () => {
    // Home 110-104 (margin +6): home -5.5 wins, home -6 pushes, home -6.5 loses; away +6.5 wins.
    expect(gradeBet(bet('point_spread', 'home', -5.5), score('basketball', 110, 104))).toBe('win');
    expect(gradeBet(bet('point_spread', 'home', -6), score('basketball', 110, 104))).toBe('push');
    expect(gradeBet(bet('point_spread', 'home', -6.5), score('basketball', 110, 104))).toBe('loss');
    expect(gradeBet(bet('point_spread', 'away', 6.5), score('basketball', 110, 104))).toBe('win');
    expect(gradeBet(bet('point_spread', 'away', 5.5), score('basketball', 110, 104))).toBe('loss');
    expect(gradeBet(bet('asian_handicap', 'away', 0.5), score('soccer', 2, 2))).toBe('win');
    expect(gradeBet(bet('asian_handicap', 'home', -0.25), score('soccer', 2, 2))).toBeNull(); // quarter line
    expect(gradeBet(bet('asian_handicap', 'home', -1), score('soccer', 2, 1))).toBe('push');
  });
  it('totals', () => {
    // 110 + 104 = 214.
    expect(gradeBet(bet('total_points', 'over', 213.5), score('basketball', 110, 104))).toBe('win');
    expect(gradeBet(bet('total_points', 'under', 213.5), score('basketball', 110, 104))).toBe('loss');
    expect(gradeBet(bet('total_points', 'under', 214), score('basketball', 110, 104))).toBe('push');
    expect(gradeBet(bet('total_points', 'under', 214.5), score('basketball', 110, 104))).toBe('win');
  });
  it('tennis spreads and totals are in games', () => {
    // 6-4 3-6 7-5: home 16 games, away 15; sets 2-1.
    const t = { sport: 'tennis', homeScore: 2, awayScore: 1, setsHome: [6, 3, 7], setsAway: [4, 6, 5] };
    expect(gradeBet(bet('total_points', 'over', 30.5), t)).toBe('win');
    expect(gradeBet(bet('point_spread', 'home', -1.5), t)).toBe('loss');
    expect(gradeBet(bet('point_spread', 'away', 1.5), t)).toBe('win');
    expect(gradeBet(bet('moneyline', 'home'), t)).toBe('win');
  });
  it('leaves what the score cannot settle ungraded', () => {
    expect(gradeBet({ ...bet('player_points', 'over', 24.5), playerName: 'Nikola Jokic' }, score('basketball', 110, 104))).toBeNull();
    expect(gradeBet(bet('total_points', 'over', 100.5, '1h'), score('basketball', 110, 104))).toBeNull();
    expect(gradeBet(bet('team_total', 'over', 100.5), score('basketball', 110, 104))).toBeNull();
  });
});

describe('finalScoreOf', () => {
  it('reads scores, tennis sets and a winner from a game_state', () => {
    expect(finalScoreOf('tennis', { home_score: 2, away_score: 1, sets_home: [6, 3, 7], sets_away: [4, 6, 5] })).toEqual({
      sport: 'tennis',
      homeScore: 2,
      awayScore: 1,
      setsHome: [6, 3, 7],
      setsAway: [4, 6, 5],
    });
    expect(finalScoreOf('mma', { home_score: 0, away_score: 0, winner: 'home' })).toEqual({
      sport: 'mma',
      homeScore: 0,
      awayScore: 0,
      winner: 'home',
    });
    expect(finalScoreOf('nba', { game_period: 'Q1' })).toBeNull();
    expect(finalScoreOf('nba', null)).toBeNull();
  });
});

describe('summarise', () => {
  it('counts, rates and flat-stake profit', () => {
    const s = summarise([
      { entryDecimal: 2.1, evPercent: 3, clvPercent: 2, result: 'win' }, // +1.1 units
      { entryDecimal: 1.9, evPercent: 1, clvPercent: -1, result: 'loss' }, // -1
      { entryDecimal: 2.0, evPercent: 2, clvPercent: 4, result: 'push' }, // 0
      { entryDecimal: 3.0, evPercent: 6, clvPercent: null, result: null }, // not closed, not graded
    ]);
    expect(s).toEqual({
      total_predictions: 4,
      total_graded: 3,
      wins: 1,
      losses: 1,
      pushes: 1,
      win_rate: 0.5,
      avg_clv_percent: 1.6667, // (2 - 1 + 4) / 3
      clv_count: 3,
      beat_close: 2,
      avg_ev_percent: 3, // (3 + 1 + 2 + 6) / 4
      units: 0.1,
      roi_percent: 3.3333, // 0.1 / 3
    });
  });
  it('empty group', () => {
    expect(summarise([])).toMatchObject({
      total_predictions: 0,
      win_rate: null,
      avg_clv_percent: null,
      roi_percent: null,
      avg_ev_percent: null,
    });
  });
});

describe('closingProbabilityFor', () => {
  const g = 'nba_a_b|point_spread|game||-3.5';
  it("devigs the reference book's closing prices of the bet's group", () => {
    const closing = [
      { group_key: g, selection_type: 'home', odds_decimal: 1.8 },
      { group_key: g, selection_type: 'away', odds_decimal: 2.1 },
      { group_key: 'other', selection_type: 'home', odds_decimal: 1.5 },
    ];
    // As above: multiplicative 0.538462 for home, 0.461538 for away.
    expect(closingProbabilityFor({ groupKey: g, selectionType: 'home', outcomeCount: 2 }, closing, 'multiplicative')).toBeCloseTo(
      0.538462,
      6,
    );
    expect(closingProbabilityFor({ groupKey: g, selectionType: 'away', outcomeCount: 2 }, closing, 'multiplicative')).toBeCloseTo(
      0.461538,
      6,
    );
  });
  it('needs the whole market at the close', () => {
    const closing = [{ group_key: g, selection_type: 'home', odds_decimal: 1.8 }];
    expect(closingProbabilityFor({ groupKey: g, selectionType: 'home', outcomeCount: 2 }, closing, 'power')).toBeNull();
    const two = [...closing, { group_key: g, selection_type: 'away', odds_decimal: 2.1 }];
    expect(closingProbabilityFor({ groupKey: g, selectionType: 'draw', outcomeCount: 3 }, two, 'power')).toBeNull();
  });
});

import { describe, expect, it } from '@jest/globals';
import {
  closingFairProbability,
  closingProbabilityFor,
  closingValueFor,
  clvPercent,
  finalScoreOf,
  gradeBet,
  likeForLike,
  netClvPercent,
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

describe('netClvPercent', () => {
  it('values the entry at its net decimal: the venue fee and commission come off', () => {
    // Kalshi contract at 0.45 (decimal 1/0.45 = 2.2222), closing fair 0.47. Gross: 0.47 / 0.45 - 1 = +4.4444%.
    // Taker fee 0.07 x 0.45 x 0.55 = 0.017325 per contract, so the outlay is 0.467325: 0.47 / 0.467325 - 1 = +0.5724%.
    expect(clvPercent(0.47, 1 / 0.45)).toBeCloseTo(4.4444, 4);
    expect(netClvPercent(0.47, 1 / 0.45, { commission: 0, feeRate: 0.07 })).toBe(0.5724);
    // Betfair at 2.10, 5% of net winnings: net decimal 1 + 1.10 x 0.95 = 2.045; closing fair 0.5: gross +5%, net
    // 0.5 x 2.045 - 1 = +2.25%.
    expect(netClvPercent(0.5, 2.1, { commission: 0.05, feeRate: 0 })).toBe(2.25);
    // A sportsbook charges nothing: net = gross.
    expect(netClvPercent(0.5, 2.05, { commission: 0, feeRate: 0 })).toBe(clvPercent(0.5, 2.05));
  });
  it('is null when the venue cost is unknown or an input is unusable', () => {
    expect(netClvPercent(0.5, 2.1, null)).toBeNull();
    expect(netClvPercent(1, 2.1, { commission: 0, feeRate: 0 })).toBeNull();
    expect(netClvPercent(0.5, 1, { commission: 0.05, feeRate: 0 })).toBeNull();
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
      void_count: 0,
      total_graded: 3,
      wins: 1,
      losses: 1,
      pushes: 1,
      win_rate: 0.5,
      avg_clv_percent: 1.6667, // (2 - 1 + 4) / 3
      avg_net_clv_percent: null, // no net figure given
      net_clv_count: 0,
      clv_count: 3,
      clv_same_line: 3,
      clv_fitted: 0,
      beat_close: 2,
      avg_ev_percent: 3, // (3 + 1 + 2 + 6) / 4
      units: 0.1,
      roi_percent: 3.3333, // 0.1 / 3
    });
  });
  it('leaves void predictions (postponed, cancelled) out of every figure but void_count', () => {
    const s = summarise([
      { entryDecimal: 2.1, evPercent: 3, clvPercent: 2, clvMethod: 'same_line', result: 'win' }, // +1.1 units
      { entryDecimal: 1.9, evPercent: 1, clvPercent: -1, clvMethod: 'fitted_distribution', result: 'loss' }, // -1
      // Closed at the original start, then the game was postponed: its +30% CLV and its EV count nowhere.
      { entryDecimal: 5.0, evPercent: 20, clvPercent: 30, clvMethod: 'same_line', result: null, voidReason: 'postponed' },
      { entryDecimal: 2.0, evPercent: 5, clvPercent: null, result: null, voidReason: 'cancelled' },
    ]);
    expect(s).toMatchObject({
      total_predictions: 2,
      void_count: 2,
      total_graded: 2,
      avg_clv_percent: 0.5, // (2 - 1) / 2
      clv_count: 2,
      clv_same_line: 1,
      clv_fitted: 1,
      beat_close: 1,
      avg_ev_percent: 2, // (3 + 1) / 2
      units: 0.1,
      roi_percent: 5, // 0.1 / 2
    });
  });
  it('averages the net CLV over the bets whose venue cost is known, beside the gross average over all', () => {
    const s = summarise([
      { entryDecimal: 1 / 0.45, evPercent: 4, clvPercent: 4.4444, netClvPercent: 0.5724, result: null }, // Kalshi
      { entryDecimal: 2.1, evPercent: 3, clvPercent: 5, netClvPercent: 2.25, result: null }, // Betfair 5%
      { entryDecimal: 2.05, evPercent: 2, clvPercent: 2.5, netClvPercent: 2.5, result: null }, // a sportsbook
      { entryDecimal: 2.3, evPercent: 6, clvPercent: 3, netClvPercent: null, result: null }, // cost unknown
    ]);
    // Gross over 4: (4.4444 + 5 + 2.5 + 3) / 4 = 3.7361; net over the 3 known: (0.5724 + 2.25 + 2.5) / 3 = 1.7741.
    expect(s).toMatchObject({ clv_count: 4, avg_clv_percent: 3.7361, net_clv_count: 3, avg_net_clv_percent: 1.7741 });
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

describe('closingValueFor', () => {
  const ev = 'tennis_a_b_2026-11-22_b3';
  const spread = (line: number) => `${ev}|point_spread|game||${line}`;
  const bet = (selectionType: string, line: number, over: Partial<Parameters<typeof closingValueFor>[0]> = {}) => ({
    groupKey: spread(selectionType === 'away' ? -line : line),
    selectionType,
    outcomeCount: 2,
    sport: 'tennis',
    marketType: 'point_spread',
    period: 'game',
    line,
    ...over,
  });
  // The reference book closed the home -4.5 at 1.952 / 1.952 (no-vig 0.5 by every method) and not the bet's -3.5.
  const closedAt45 = [
    { group_key: spread(-4.5), selection_type: 'home', odds_decimal: 1.952, line: -4.5 },
    { group_key: spread(-4.5), selection_type: 'away', odds_decimal: 1.952, line: 4.5 },
  ];

  it('takes the close of the same line when it was quoted', () => {
    const v = closingValueFor(bet('home', -4.5), closedAt45, 'power');
    expect(v).toEqual({ probability: expect.closeTo(0.5, 10), method: 'same_line', referenceLine: -4.5 });
  });

  it('a bet at -3.5 whose market closed at -4.5: the score model fitted to the close prices -3.5', () => {
    // Tennis games margin ~ Normal(mu, 5) discretised. Home -4.5 covers on margin >= 5: Phi((mu - 4.5) / 5) = 0.5, mu = 4.5.
    // Home -3.5 covers on margin >= 4: Phi((4.5 - 3.5) / 5) = Phi(0.2) = 0.5792597.
    // Home -3.5 taken at 2.10: CLV = 0.5792597 x 2.10 - 1 = +21.6445%.
    const home = closingValueFor(bet('home', -3.5), closedAt45, 'power')!;
    expect(home).toMatchObject({ method: 'fitted_distribution', referenceLine: -4.5 });
    expect(home.probability).toBeCloseTo(0.5792597, 6);
    expect(clvPercent(home.probability, 2.1)).toBeCloseTo(21.6445, 3);
    // Away +3.5 (home-side line -3.5) taken at 1.80: 1 - 0.5792597 = 0.4207403; 0.4207403 x 1.80 - 1 = -24.2667%.
    const away = closingValueFor(bet('away', 3.5), closedAt45, 'power')!;
    expect(away.probability).toBeCloseTo(0.4207403, 6);
    expect(clvPercent(away.probability, 1.8)).toBeCloseTo(-24.2667, 3);
  });

  it('a soccer total: over 3.5 from a close of over/under 2.5 at 50%', () => {
    // Total goals ~ Poisson(l): 1 - e^-l (1 + l + l^2/2) = 0.5 at l = 2.674060; P(over 3.5) = 0.5 - e^-l l^3 / 6
    // = 0.5 - 0.0689716 x 3.1868553 = 0.2801975. Over 3.5 at 3.80: 0.2801975 x 3.80 - 1 = +6.4750%;
    // under 3.5 at 1.40: 0.7198025 x 1.40 - 1 = +0.7724%.
    const tg = (line: number) => `soccer_a_b_2026-11-22_b3|total_goals|game||${line}`;
    const closing = [
      { group_key: tg(2.5), selection_type: 'over', odds_decimal: 1.95 },
      { group_key: tg(2.5), selection_type: 'under', odds_decimal: 1.95 },
    ];
    const b = (selectionType: string) => ({ ...bet(selectionType, 3.5), groupKey: tg(3.5), sport: 'soccer', marketType: 'total_goals' });
    const over = closingValueFor(b('over'), closing, 'multiplicative')!;
    expect(over.method).toBe('fitted_distribution');
    expect(clvPercent(over.probability, 3.8)).toBeCloseTo(6.475, 3);
    expect(clvPercent(closingValueFor(b('under'), closing, 'multiplicative')!.probability, 1.4)).toBeCloseTo(0.7724, 3);
  });

  it('fits on the closing line nearest the bet (an alternate before the main line)', () => {
    // Closed -4.5 at 50% and the alternate -3 at 1.70 / 2.30: the bet at -3.5 is nearer -3.
    const closing = [
      ...closedAt45,
      { group_key: spread(-3), selection_type: 'home', odds_decimal: 1.7 },
      { group_key: spread(-3), selection_type: 'away', odds_decimal: 2.3 },
    ];
    expect(closingValueFor(bet('home', -3.5), closing, 'power')!.referenceLine).toBe(-3);
  });

  it('hockey and baseball spreads take the expected total from the closing total; nothing to fit is null', () => {
    const hk = (m: string, line: number) => `nhl_a_b_2026-11-22_b3|${m}|game||${line}`;
    const closing = [
      { group_key: hk('puck_line', 1.5), selection_type: 'home', odds_decimal: 1.45 },
      { group_key: hk('puck_line', 1.5), selection_type: 'away', odds_decimal: 2.8 },
    ];
    const b = { ...bet('home', -1.5), groupKey: hk('puck_line', -1.5), sport: 'hockey', marketType: 'puck_line' };
    expect(closingValueFor(b, closing, 'power')).toBeNull(); // no total closed
    const withTotal = [
      ...closing,
      { group_key: hk('total_goals', 6.5), selection_type: 'over', odds_decimal: 2.1 },
      { group_key: hk('total_goals', 6.5), selection_type: 'under', odds_decimal: 1.75 },
      { group_key: hk('total_goals', 5.5), selection_type: 'over', odds_decimal: 1.6 },
      { group_key: hk('total_goals', 5.5), selection_type: 'under', odds_decimal: 2.35 },
    ];
    const v = closingValueFor(b, withTotal, 'power')!;
    expect(v.method).toBe('fitted_distribution');
    // Home +1.5 at about 65% no-vig: the home side is the underdog, its -1.5 well under 35%.
    expect(v.probability).toBeGreaterThan(0.1);
    expect(v.probability).toBeLessThan(0.35);
    // Props, periods, moneylines, quarter lines: no fit.
    expect(closingValueFor({ ...b, period: 'p1' }, withTotal, 'power')).toBeNull();
    expect(closingValueFor({ ...bet('home', -3.25), marketType: 'asian_handicap' }, closedAt45, 'power')).toBeNull();
    expect(closingValueFor({ ...bet('home', -3.5), playerName: 'X' }, closedAt45, 'power')).toBeNull();
  });
});

describe('likeForLike', () => {
  it('compares EV and CLV on the same bets, with 95% intervals', () => {
    // Bets with both figures: EV 2, 4, 6 and CLV 1, 5, 3 (the 4th has no CLV, the 5th is void: neither counts).
    // EV: mean 4, sd sqrt(((-2)^2 + 0 + 2^2) / 2) = 2, half-width 1.96 x 2 / sqrt(3) = 2.263213: [1.736787, 6.263213].
    // CLV: mean 3, sd 2 as well: [0.736787, 5.263213].
    // CLV - EV: -1, 1, -3; mean -1, sd sqrt((0 + 4 + 4) / 2) = 2: [-3.263213, 1.263213] (holds 0: no difference shown).
    const r = likeForLike([
      { evPercent: 2, clvPercent: 1 },
      { evPercent: 4, clvPercent: 5 },
      { evPercent: 6, clvPercent: 3 },
      { evPercent: 9, clvPercent: null },
      { evPercent: 8, clvPercent: 20, voidReason: 'postponed' },
    ]);
    expect(r.n).toBe(3);
    expect(r.ev!.mean).toBeCloseTo(4, 12);
    expect(r.ev!.low).toBeCloseTo(1.736787, 5);
    expect(r.ev!.high).toBeCloseTo(6.263213, 5);
    expect(r.clv!.low).toBeCloseTo(0.736787, 5);
    expect(r.clvMinusEv).toEqual({ mean: -1, low: expect.closeTo(-3.263213, 5), high: expect.closeTo(1.263213, 5) });
  });
  it('has no interval for one bet and nothing for none', () => {
    expect(likeForLike([{ evPercent: 2, clvPercent: 1 }]).clv).toEqual({ mean: 1, low: NaN, high: NaN });
    expect(likeForLike([])).toEqual({ n: 0, ev: null, clv: null, clvMinusEv: null });
  });
});

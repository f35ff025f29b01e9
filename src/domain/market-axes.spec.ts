import { describe, expect, it } from '@jest/globals';
import { marketSegmentOf, teamSideOf } from './market-axes.js';

const LADDER = 'nba_celtics_lakers_2026-11-22_b3|moneyline|game|';

describe('teamSideOf', () => {
  it.each([
    ['home', 'home'],
    ['away', 'away'],
    ['draw', 'draw'],
    ['home_over', 'home'],
    ['away_under', 'away'],
    ['draw_yes', 'draw'],
    ['away_no', 'away'],
    ['home_r1', 'home'],
    ['away_decision', 'away'],
  ])('%s -> %s', (sel, side) => {
    expect(teamSideOf(sel, 'match_result_total_goals', LADDER)).toBe(side);
  });

  it.each(['over', 'under', 'yes', 'no', 'even', 'odd', 'other', '2_1', '0_2', 'home_draw', 'away_draw', 'home_away', 'home_', ''])(
    '%j has no team side',
    (sel) => {
      expect(teamSideOf(sel, 'total_points', LADDER)).toBeNull();
    },
  );

  it("a team total's over/under is on the team its ladder is about", () => {
    expect(teamSideOf('over', 'team_total', 'nba_x|team_total|game|home')).toBe('home');
    expect(teamSideOf('under', 'team_total', 'nba_x|team_total|game|away')).toBe('away');
    // A team the event does not name (the subject is the folded name): no side.
    expect(teamSideOf('over', 'team_total', 'nba_x|team_total|game|denvernuggets')).toBeNull();
    // The same subject on another market means nothing.
    expect(teamSideOf('over', 'player_points', 'nba_x|player_points|game|home')).toBeNull();
  });
});

describe('marketSegmentOf', () => {
  it.each([
    ['moneyline', 'game', 'full_game'],
    ['point_spread', 'full_game', 'full_game'],
    ['moneyline', '1h', '1st_half'],
    ['total_points', 'h2', '2nd_half'],
    ['point_spread', '1q', '1st_quarter'],
    ['point_spread', 'q4', '4th_quarter'],
    ['moneyline', 'p1', '1st_period'],
    ['total_points', '3p', '3rd_period'],
    ['moneyline', 'f5', '1st_5_innings'],
    ['total_runs', 'i1', '1st_inning'],
    ['moneyline', 's2', '2nd_set'],
    ['moneyline', '2nd_half', '2nd_half'],
    // The period markets of the public catalog name their slice themselves.
    ['1st_half', 'game', '1st_half'],
    ['1st_quarter', 'game', '1st_quarter'],
  ])('%s / %s -> %s', (market, period, segment) => {
    expect(marketSegmentOf(market, period)).toBe(segment);
  });

  it.each(['3h', '5q', 'ot', 'live', 'x1', 'f0', '10q'])('an unknown period %j has no segment', (period) => {
    expect(marketSegmentOf('moneyline', period)).toBeNull();
  });
});

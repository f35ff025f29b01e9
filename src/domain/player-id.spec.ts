import { describe, expect, it } from '@jest/globals';
import { playerId } from './player-id.js';

describe('player ids', () => {
  it('sport, league and the name as a slug', () => {
    expect(playerId('baseball', 'mlb', 'Corbin Carroll')).toBe('baseball_mlb_corbin_carroll');
    expect(playerId('basketball', 'nba', 'Nikola Jokić')).toBe('basketball_nba_nikola_jokic');
    expect(playerId('basketball', 'nba', "De'Aaron Fox")).toBe('basketball_nba_de_aaron_fox');
    expect(playerId('football', 'nfl', 'Patrick Mahomes II')).toBe('football_nfl_patrick_mahomes_ii');
  });
  it('null without a player (or a name of punctuation only)', () => {
    expect(playerId('basketball', 'nba', null)).toBeNull();
    expect(playerId('basketball', 'nba', '')).toBeNull();
    expect(playerId('basketball', 'nba', '---')).toBeNull();
  });
});

import { describe, expect, it } from '@jest/globals';
import type { OddsRow } from '../../domain/odds-row.js';
import { altPrices, teamTotalTeam } from './middle-fields.js';

const row = (book: string, selectionType: string, line: number, american: number, over: Partial<OddsRow> = {}): OddsRow =>
  ({
    sportsbook: book,
    selectionType,
    line,
    american,
    decimal: american > 0 ? 1 + american / 100 : 1 + 100 / -american,
    isActive: true,
    marketType: 'total_points',
    ladderKey: 'e|total_points|game|',
    playerName: null,
    ...over,
  }) as OddsRow;

describe('middle fields', () => {
  it('team_name: the team of a team-total ladder, null elsewhere', () => {
    const e = { homeTeam: 'Denver Nuggets', awayTeam: 'Los Angeles Lakers' };
    expect(teamTotalTeam({ marketType: 'team_total', ladderKey: 'e|team_total|game|home', playerName: null }, e)).toBe('Denver Nuggets');
    expect(teamTotalTeam({ marketType: 'team_total', ladderKey: 'e|team_total|game|away', playerName: null }, e)).toBe(
      'Los Angeles Lakers',
    );
    expect(teamTotalTeam({ marketType: 'total_points', ladderKey: 'e|total_points|game|', playerName: null }, e)).toBeNull();
  });

  it('alt sides: other books at the same side and line, best price first; null when none', () => {
    const side = row('draftkings', 'over', 210.5, -110);
    const group = [
      side,
      row('fanduel', 'over', 210.5, -105),
      row('betmgm', 'over', 210.5, -115),
      row('caesars', 'over', 210.5, -108, { isActive: false }),
      row('bovada', 'under', 210.5, -110),
      row('pinnacle', 'over', 211.5, -102),
    ];
    expect(altPrices(side, group)).toEqual([
      { book: 'fanduel', odds: -105 },
      { book: 'betmgm', odds: -115 },
    ]);
    expect(altPrices(side, group, (b) => b !== 'fanduel')).toEqual([{ book: 'betmgm', odds: -115 }]);
    expect(altPrices(side, [side])).toBeNull();
  });
});

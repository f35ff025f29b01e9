import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../../config/catalog.js';
import { OddsBoard } from '../../board/odds-board.js';
import { marketTypeId } from '../../../domain/normalise.js';
import { IngestionPipeline } from '../pipeline.js';
import { parseSampleCsv } from './sample-csv.js';

/** Rows of a soccer snapshot in the sample CSV format that are prices and must be kept. */

const HEADER =
  'id,sportsbook,event_id,sport,league,home_team,away_team,market_type,selection,selection_type,odds_american,odds_decimal,odds_probability,line,event_start_time,is_live,timestamp';
const NOW = Date.parse('2026-11-22T12:00:00Z');
const game = 'epl_arsenal_chelsea_2026-11-23_b2,soccer,epl,Arsenal,Chelsea';
const at = '2026-11-23T15:00:00Z,False,2026-11-22T11:59:00Z';

function importRows(lines: string[]) {
  const catalog = new Catalog();
  const parsed = parseSampleCsv([HEADER, ...lines].join('\n'), catalog);
  const board = new OddsBoard();
  const r = new IngestionPipeline(catalog, board).process({ source: 'test', quotes: parsed.quotes.map((p) => p.quote) }, NOW);
  board.applyChangeSet(r.changeSet);
  return { parsed, report: r.report, rows: [...board.rows.values()] };
}

describe('soccer player props in the sample CSV format', () => {
  it('a market type spelled with a plus is kept (display-only), not refused', () => {
    const { parsed, report, rows } = importRows([
      `1,bet365,${game},player_goals_+_assists,Bukayo Saka,over,150,2.5,,0.5,${at}`,
      `2,bet365,${game},player_goals_+_assists,Bukayo Saka,under,-200,1.5,,0.5,${at}`,
      `3,skybet,${game},Player Goals & Assists,Bukayo Saka,over,140,2.4,,0.5,${at}`,
    ]);
    expect(parsed.errors).toEqual([]);
    expect(report.rejected).toEqual({});
    expect(report.accepted).toBe(3);
    expect(rows.map((r) => [r.sportsbook, r.marketType, r.selectionType, r.playerName, r.line])).toEqual([
      ['bet365', 'player_goals_plus_assists', 'over', 'Bukayo Saka', 0.5],
      ['bet365', 'player_goals_plus_assists', 'under', 'Bukayo Saka', 0.5],
      ['skybet', 'player_goals_and_assists', 'over', 'Bukayo Saka', 0.5],
    ]);
  });

  it('"To Score" selections in a player-prop market are the anytime-goal market, not refused', () => {
    const { parsed, report, rows } = importRows([
      `1,bet365,${game},player_goals,Bukayo Saka To Score,yes,150,2.5,,,${at}`,
      `2,bet365,${game},player_goals,Bukayo Saka Not To Score,no,-200,1.5,,,${at}`,
      `3,williamhill,${game},player_goals,Kai Havertz - To Score,other,200,3.0,,,${at}`,
      // An ordinary over/under player prop is unchanged.
      `4,bet365,${game},player_goals,Bukayo Saka,over,150,2.5,,0.5,${at}`,
    ]);
    expect(parsed.errors).toEqual([]);
    expect(report.rejected).toEqual({});
    expect(rows.map((r) => [r.marketType, r.selectionType, r.ladderKey.split('|')[3]])).toEqual([
      ['anytime_goal', 'yes', 'bukayosaka'],
      ['anytime_goal', 'no', 'bukayosaka'],
      ['anytime_goal', 'yes', 'kaihavertz'],
      ['player_goals', 'over', 'bukayosaka'],
    ]);
  });
});

describe('marketTypeId', () => {
  it.each([
    ['player_goals_+_assists', 'player_goals_plus_assists'],
    ['Player Goals + Assists', 'player_goals_plus_assists'],
    ['Goals & Assists', 'goals_and_assists'],
    ['moneyline', 'moneyline'],
    ['1st_5_innings_total_runs', '1st_5_innings_total_runs'],
    ['Point_Spread', 'point_spread'],
  ])('%j -> %j', (raw, id) => expect(marketTypeId(raw)).toBe(id));
});

import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../../config/catalog.js';
import { parseSampleCsv } from './sample-csv.js';

const HEADER =
  'id,sportsbook,event_id,sport,league,home_team,away_team,market_type,selection,selection_type,odds_american,odds_decimal,odds_probability,line,event_start_time,is_live,timestamp';

describe('sample CSV: the optional market-data and pitcher columns', () => {
  const catalog = new Catalog();
  it('reads volume, volume_24h, open_interest and the starting pitchers when a file has them', () => {
    const text = [
      `${HEADER},volume,volume_24h,open_interest,home_pitcher,away_pitcher`,
      'r1,kalshi,e1,baseball,mlb,New York Yankees,Boston Red Sox,moneyline,New York Yankees,home,,,0.55,,2026-07-13T23:05:00Z,false,2026-07-13T12:00:00Z,52000,9000,31000,Gerrit Cole,Garrett Crochet',
      'r2,draftkings,e1,baseball,mlb,New York Yankees,Boston Red Sox,moneyline,Boston Red Sox,away,120,,,,2026-07-13T23:05:00Z,false,2026-07-13T12:00:00Z,,,,Gerrit Cole,Garrett Crochet',
    ].join('\n');
    const p = parseSampleCsv(text, catalog);
    expect(p.errors).toEqual([]);
    expect((p.notes ?? []).join(' ')).not.toMatch(/ignored unknown columns/);
    expect(
      p.quotes.map((q) => [q.quote.volume, q.quote.volume24h, q.quote.openInterest, q.quote.homePitcher, q.quote.awayPitcher]),
    ).toEqual([
      [52000, 9000, 31000, 'Gerrit Cole', 'Garrett Crochet'],
      [undefined, undefined, undefined, 'Gerrit Cole', 'Garrett Crochet'],
    ]);
  });
  it('refuses a row whose volume is not a number from 0 up, naming the column', () => {
    const text = [
      `${HEADER},volume_24h`,
      'r1,kalshi,e1,baseball,mlb,New York Yankees,Boston Red Sox,moneyline,New York Yankees,home,,,0.55,,2026-07-13T23:05:00Z,false,2026-07-13T12:00:00Z,-3',
    ].join('\n');
    const p = parseSampleCsv(text, catalog);
    expect(p.quotes).toEqual([]);
    expect(p.errors).toEqual([{ line: 2, reason: 'volume_24h must be a number from 0 up' }]);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { Catalog } from '../../../config/catalog.js';
import { isFutureQuote } from '../../../domain/future-quote.js';
import { parseImport, readImportFile } from './import-file.js';
import { parseOddsApiEvents } from '../odds-api/odds-api-format.js';

const catalog = new Catalog();
const SAMPLE = new URL('../../../../test/fixtures/mlb_odds_snapshot.csv', import.meta.url).pathname;
const HEADER =
  'id,sportsbook,event_id,sport,league,home_team,away_team,market_type,selection,selection_type,odds_american,odds_decimal,odds_probability,line,event_start_time,is_live,timestamp';

describe('sample CSV', () => {
  it('reads every row of the MLB sample: one quote per row, no unreadable rows', () => {
    const text = readFileSync(SAMPLE, 'utf8');
    const rows = parse(text, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
    const parsed = readImportFile(SAMPLE, catalog, { now: Date.now() });
    expect(parsed.records).toBe(rows.length);
    expect(parsed.errors).toEqual([]);
    expect(parsed.quotes).toHaveLength(rows.length);
    const perBook = (list: string[]) => list.reduce<Record<string, number>>((m, b) => ((m[b] = (m[b] ?? 0) + 1), m), {});
    expect(perBook(parsed.quotes.map((q) => q.quote.book))).toEqual(perBook(rows.map((r) => r.sportsbook!)));
    // line numbers point at the file's lines (header is line 1)
    const lines = text.split('\n');
    for (const { line, quote } of parsed.quotes.slice(0, 50)) expect(lines[line - 1]).toContain(quote.selection.split(',')[0]!);
    expect(parsed.capturedAt).toBe(Math.max(...rows.map((r) => Date.parse(r.timestamp!.replace(/(\.\d{3})\d+/, '$1')))));
  });

  it('reports each malformed row with its line number and reason and keeps the good ones', () => {
    const csv = [
      HEADER,
      '1,draftkings,e1,basketball,nba,Boston Celtics,Los Angeles Lakers,moneyline,Boston Celtics,home,-150,1.6667,0.6,,2026-11-22T23:00:00Z,False,2026-11-22T12:00:00Z',
      '2,nobook,e1,basketball,nba,Boston Celtics,Los Angeles Lakers,moneyline,Boston Celtics,home,-150,1.6667,0.6,,2026-11-22T23:00:00Z,False,2026-11-22T12:00:00Z',
      '3,fanduel,e1,basketball,nba,Boston Celtics,Los Angeles Lakers,moneyline,Boston Celtics,home,-150,2.5,0.6,,2026-11-22T23:00:00Z,False,2026-11-22T12:00:00Z',
      '4,fanduel,e1,basketball,nba,Boston Celtics,Los Angeles Lakers,moneyline,Boston Celtics,home,abc,,,,2026-11-22T23:00:00Z,False,2026-11-22T12:00:00Z',
      '5,fanduel,e1,basketball,nba,Boston Celtics,Los Angeles Lakers,moneyline,Boston Celtics,home,-150,1.6667,0.6,,tomorrow,False,2026-11-22T12:00:00Z',
      '6,fanduel,e1,basketball,zzz,Boston Celtics,Los Angeles Lakers,moneyline,Boston Celtics,home,-150,1.6667,0.6,,2026-11-22T23:00:00Z,False,2026-11-22T12:00:00Z',
      '7,fanduel,e1,basketball,nba,Boston Celtics,Los Angeles Lakers,moneyline,Boston Celtics,home,,,,,2026-11-22T23:00:00Z,False,2026-11-22T12:00:00Z',
      '8,fanduel,e1,basketball,nba,Boston Celtics,Los Angeles Lakers,total_points,Over,over,-110,1.9091,0.52,two,2026-11-22T23:00:00Z,False,2026-11-22T12:00:00Z',
      '9,fanduel,e1,basketball,nba,Boston Celtics,Los Angeles Lakers,moneyline,Boston Celtics,home,-150,0.9,0.6,,2026-11-22T23:00:00Z,False,2026-11-22T12:00:00Z',
      '10,fanduel,e1,basketball,nba,Boston Celtics,Los Angeles Lakers,moneyline,Boston Celtics,home,-150,1.6667,0.6,,2026-11-22T23:00:00Z,maybe,2026-11-22T12:00:00Z',
      '11,betmgm,e1,basketball,nba,Boston Celtics,Los Angeles Lakers,total_points,Over,over,-110,1.9091,0.52,221.5,2026-11-22T23:00:00Z,True,2026-11-22T12:00:00Z',
    ].join('\n');
    const p = parseImport(csv, catalog, { now: Date.now(), format: 'csv' });
    expect(p.records).toBe(11);
    // Unknown books and leagues are the pipeline's to register (or refuse): the parser passes them on.
    expect(p.quotes.map((q) => q.line)).toEqual([2, 3, 7, 12]);
    expect(p.quotes[1]!.quote).toMatchObject({ book: 'nobook', league: 'nba', sport: 'basketball' });
    expect(p.quotes[2]!.quote).toMatchObject({ book: 'fanduel', league: 'zzz', sport: 'basketball' });
    expect(p.errors.map((e) => e.line)).toEqual([4, 5, 6, 8, 9, 10, 11]);
    expect(p.errors[0]!.reason).toMatch(/disagree/);
    expect(p.errors[1]!.reason).toMatch(/not a number/);
    expect(p.errors[2]!.reason).toMatch(/event_start_time/);
    expect(p.errors[3]!.reason).toMatch(/no price/);
    expect(p.errors[4]!.reason).toMatch(/line "two"/);
    expect(p.errors[5]!.reason).toMatch(/above 1/);
    expect(p.errors[6]!.reason).toMatch(/is_live/);
    expect(p.quotes[3]!.quote).toMatchObject({ book: 'betmgm', line: 221.5, isLive: true, price: { decimal: 1.9091 } });
  });

  it('names missing columns', () => {
    const p = parseImport('sportsbook,league\ndraftkings,nba\n', catalog, { now: Date.now(), format: 'csv' });
    expect(p.errors[0]!.reason).toMatch(/missing columns: event_id, home_team/);
    expect(p.quotes).toEqual([]);
  });

  it('--replay shifts the games so the capture time becomes now and starts keep their distance; futures keep their dates', () => {
    const now = Date.parse('2026-11-21T20:00:00Z');
    const plain = readImportFile(SAMPLE, catalog, { now });
    const replayed = readImportFile(SAMPLE, catalog, { now, replay: true });
    const shift = now - plain.capturedAt!;
    expect(replayed.shiftMs).toBe(shift);
    let games = 0;
    replayed.quotes.forEach((q, i) => {
      if (isFutureQuote(q.quote)) {
        // A futures market's season and settlement are the capture's: the 2026 World Series stays the 2026 one.
        expect(q.quote.startTime).toBe(plain.quotes[i]!.quote.startTime);
        return;
      }
      games++;
      expect(q.quote.startTime - now).toBe(plain.quotes[i]!.quote.startTime - plain.capturedAt!);
    });
    // The sample's 207 game rows (3,466 futures rows).
    expect(games).toBe(207);
  });
});

describe('The Odds API v4 format', () => {
  const json = JSON.parse(readFileSync(new URL('../../../../test/fixtures/odds-api-nba.json', import.meta.url), 'utf8')) as unknown;

  it('maps bookmakers, markets and outcomes by name and reports what it cannot use', () => {
    const p = parseOddsApiEvents(json, catalog, { now: Date.parse('2026-11-22T18:05:00Z') });
    const q = p.quotes.map((x) => x.quote);
    const dk = q.filter((x) => x.book === 'draftkings');
    expect(dk).toHaveLength(6);
    expect(dk.find((x) => x.marketType === 'moneyline' && x.selection === 'Phoenix Suns')).toMatchObject({
      selectionType: 'away',
      price: { decimal: 2.35 },
      line: null,
      league: 'nba',
      isLive: false,
      externalEventId: 'e912304de2b2ce35b473ce2ecd3d1502',
    });
    expect(dk.find((x) => x.marketType === 'point_spread' && x.selectionType === 'home')).toMatchObject({ line: -4.5 });
    expect(dk.find((x) => x.marketType === 'total_points' && x.selectionType === 'under')).toMatchObject({ line: 229.5 });
    expect(q.filter((x) => x.book === 'caesars')).toHaveLength(2);
    expect(q.find((x) => x.marketType === 'player_points' && x.selectionType === 'over')).toMatchObject({
      book: 'pinnacle',
      playerName: 'Nikola Jokic',
      line: 27.5,
      statCategory: 'points',
    });
    const soccer = q.filter((x) => x.league === 'epl');
    expect(soccer.map((x) => x.selectionType).sort()).toEqual(['away', 'draw', 'home']);
    expect(soccer.every((x) => x.isLive)).toBe(true);
    const reasons = p.errors.map((e) => e.reason);
    expect(reasons.filter((r) => r.includes('lay prices'))).toHaveLength(2);
    // A bookmaker key the catalog lacks is passed on for the pipeline to register; a sport key of a known sport too.
    expect(q.filter((x) => x.book === 'mystery_book')).toHaveLength(2);
    expect(reasons.some((r) => r.includes('"Tottenham" is neither team'))).toBe(true);
    expect(reasons.some((r) => r.includes('curling_world'))).toBe(false);
    expect(p.unknownBooks).toEqual(['mystery_book']);
    expect(p.capturedAt).toBe(Date.parse('2026-11-22T18:02:30Z'));
  });

  it('refuses a document that is not events', () => {
    expect(parseOddsApiEvents('nope', catalog).errors[0]!.reason).toMatch(/expected an array/);
    expect(parseImport('{not json', catalog, { now: 0, format: 'json' }).errors[0]!.reason).toMatch(/not valid JSON/);
  });
});

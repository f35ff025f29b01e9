import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { baseEventId, groupLine, isQuarterLine, localDateHour, oddsRowId, shortHash, unknownTeamKey, withGameNumber } from './normalise.js';

describe('event ids', () => {
  it('reproduce the published examples (teams sorted, US Eastern buckets)', () => {
    // 2026-07-12T20:05Z is 16:05 in New York: bucket 2 (12-18).
    expect(baseEventId('mlb', 'giants', 'rockies', Date.parse('2026-07-12T20:05:00Z'), 'America/New_York')).toBe(
      'mlb_giants_rockies_2026-07-12_b2',
    );
    // 23:44Z is 19:44 Eastern: bucket 3; order of the teams does not matter.
    expect(baseEventId('mlb', 'redsox', 'rays', Date.parse('2026-07-12T23:44:29Z'), 'America/New_York')).toBe(
      'mlb_rays_redsox_2026-07-12_b3',
    );
    // 00:40Z on the 23rd is 19:40 on the 22nd in New York (EST, UTC-5).
    expect(baseEventId('nba', 'suns', 'nuggets', Date.parse('2026-11-23T00:40:00Z'), 'America/New_York')).toBe(
      'nba_nuggets_suns_2026-11-22_b3',
    );
  });
  it('use UTC dates and buckets outside the US leagues', () => {
    expect(baseEventId('epl', 'arsenal', 'chelsea', Date.parse('2026-11-22T05:59:00Z'), 'UTC')).toBe('epl_arsenal_chelsea_2026-11-22_b0');
    expect(baseEventId('epl', 'arsenal', 'chelsea', Date.parse('2026-11-22T06:00:00Z'), 'UTC')).toBe('epl_arsenal_chelsea_2026-11-22_b1');
  });
  it('mark the second game of a doubleheader', () => {
    expect(withGameNumber('mlb_a_b_2026-07-01_b2', 1)).toBe('mlb_a_b_2026-07-01_b2');
    expect(withGameNumber('mlb_a_b_2026-07-01_b2', 2)).toBe('mlb_a_b_2026-07-01_b2_g2');
  });
  it('localDateHour follows daylight saving', () => {
    expect(localDateHour(Date.parse('2026-07-01T16:00:00Z'), 'America/New_York')).toEqual({ date: '2026-07-01', hour: 12 });
    expect(localDateHour(Date.parse('2026-12-01T16:00:00Z'), 'America/New_York')).toEqual({ date: '2026-12-01', hour: 11 });
  });
  it('localDateHour answers a copy: a caller changing it does not change the next answer or an event id', () => {
    const at = Date.parse('2026-07-12T20:05:00Z');
    const first = localDateHour(at, 'America/New_York');
    first.date = '1999-01-01';
    first.hour = 23;
    expect(localDateHour(at, 'America/New_York')).toEqual({ date: '2026-07-12', hour: 16 });
    expect(baseEventId('mlb', 'giants', 'rockies', at, 'America/New_York')).toBe('mlb_giants_rockies_2026-07-12_b2');
  });
  it('put the two team keys in code-unit order, whichever comes first (digits, upper case, equal keys)', () => {
    const at = Date.parse('2026-11-22T12:00:00Z');
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        // The reference: Array.prototype.sort's default order, which compares strings by UTF-16 code units.
        const [x, y] = [a, b].sort();
        const want = `epl_${x}_${y}_2026-11-22_b2`;
        expect(baseEventId('epl', a, b, at, 'UTC')).toBe(want);
        expect(baseEventId('epl', b, a, at, 'UTC')).toBe(want);
      }),
      { numRuns: 500 },
    );
    expect(baseEventId('mlb', 'sixers', '76ers', at, 'UTC')).toBe('mlb_76ers_sixers_2026-11-22_b2');
    expect(baseEventId('mlb', 'b', 'B', at, 'UTC')).toBe('mlb_B_b_2026-11-22_b2');
    expect(baseEventId('mlb', 'rays', 'rays', at, 'UTC')).toBe('mlb_rays_rays_2026-11-22_b2');
  });
  it('answer the same for each instant while more than the kept 10,000 instants are asked for', () => {
    const start = Date.parse('2026-03-01T00:00:00Z');
    const ids = (n: number) => Array.from({ length: n }, (_, i) => baseEventId('nba', 'a', 'b', start + i * 3_600_000, 'America/New_York'));
    const first = ids(12_000);
    expect(ids(12_000)).toEqual(first);
    // 2026-03-08 07:00Z is 03:00 EDT (the clocks went forward at 02:00 EST): bucket 0 of the 8th.
    expect(first[7 * 24 + 7]).toBe('nba_a_b_2026-03-08_b0');
    expect(first[7 * 24 + 5]).toBe('nba_a_b_2026-03-08_b0');
    expect(first[7 * 24 + 4]).toBe('nba_a_b_2026-03-07_b3');
  });
});

describe('unknown team keys', () => {
  it.each([
    ['The Rays', 'rays'],
    ['National League', 'nationalleague'],
    ['Boca Juniors FC', 'bocajuniors'],
    ['Atlético Mineiro', 'atleticomineiro'],
    ['Los Angeles', 'angeles'],
    ['', ''],
  ])('%s -> %s', (name, key) => expect(unknownTeamKey(name)).toBe(key));
});

describe('odds row ids', () => {
  const base = {
    book: 'draftkings',
    eventId: 'nba_celtics_lakers_2026-02-08_b3',
    marketType: 'point_spread',
    period: 'game',
    selectionType: 'home',
    selection: 'Boston Celtics',
    line: -3.5,
    playerName: null,
  };
  it('are deterministic and ignore how the team is spelled', () => {
    expect(oddsRowId(base)).toBe(oddsRowId({ ...base, selection: 'BOS Celtics' }));
    expect(oddsRowId(base)).toMatch(/^[0-9a-f]{16}$/);
  });
  it('change with the book, the line, the side or the player', () => {
    const id = oddsRowId(base);
    expect(oddsRowId({ ...base, book: 'fanduel' })).not.toBe(id);
    expect(oddsRowId({ ...base, line: -4.5 })).not.toBe(id);
    expect(oddsRowId({ ...base, selectionType: 'away' })).not.toBe(id);
    expect(oddsRowId({ ...base, playerName: 'Jayson Tatum' })).not.toBe(id);
  });
  it('are the stored ids: the first 16 hex digits of the SHA-1 of the parts joined by U+0001', () => {
    // Stored prices, their line history and every opportunity id are keyed by these: the same input must give
    // the same id in every version (computed here with the two-step Hash API, not the function under test).
    const parts = ['draftkings', base.eventId, 'point_spread', 'game', 'home', '-3.5', ''];
    expect(oddsRowId(base)).toBe(createHash('sha1').update(parts.join('\u0001')).digest('hex').slice(0, 16));
    expect(shortHash(['mid', 7, null, undefined, 'x'], 12)).toBe(
      createHash('sha1').update('mid\u00017\u0001\u0001\u0001x').digest('hex').slice(0, 12),
    );
    expect(shortHash(['a'], 7)).toBe(createHash('sha1').update('a').digest('hex').slice(0, 7));
  });
});

describe('market groups', () => {
  it('pair a spread by the home-side line', () => {
    expect(groupLine('point_spread', 'home', -3.5)).toBe(-3.5);
    expect(groupLine('point_spread', 'away', 3.5)).toBe(-3.5);
    expect(groupLine('total_points', 'over', 221.5)).toBe(221.5);
    expect(groupLine('moneyline', 'home', null)).toBeNull();
  });
  it('spot quarter lines', () => {
    expect(isQuarterLine(-0.25)).toBe(true);
    expect(isQuarterLine(1.75)).toBe(true);
    expect(isQuarterLine(-0.5)).toBe(false);
    expect(isQuarterLine(3)).toBe(false);
  });
});

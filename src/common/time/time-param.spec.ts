import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../http/api-error.js';
import { parseDate, parseTime, timeParam } from './time-param.js';

describe('parseTime (the one reader of every date and time parameter)', () => {
  // 2026-11-22T18:00:00Z by hand: 1970-01-01 to 2026-01-01 is 56 years with 14 leap days (1972..2024), 56 * 365 + 14
  // = 20,454 days; Jan..Oct 2026 is 31+28+31+30+31+30+31+31+30+31 = 304 days, + 21 = 325 days to Nov 22; 20,779 days
  // * 86,400 = 1,795,305,600 s, + 18 h (64,800 s) = 1,795,370,400 s.
  const at = Date.UTC(2026, 10, 22, 18, 0, 0);
  it('Date.UTC agrees with the Unix seconds used below', () => expect(at).toBe(1795370400_000));

  it.each([
    ['2026-11-22T18:00:00Z', at],
    ['2026-11-22T18:00:00.250Z', at + 250],
    ['2026-11-22T18:00:00.999999999Z', at + 999],
    ['2026-11-22t18:00:00z', at],
    ['2026-11-22T13:00:00-05:00', at],
    ['2026-11-22T19:30:00+0130', at],
    ['2026-11-22T18:00:00', at],
    ['2026-11-22 18:00', at],
    ['2026-11-22', Date.UTC(2026, 10, 22)],
    ['2028-02-29', Date.UTC(2028, 1, 29)], // 2028 is a leap year (divisible by 4, not by 100)
    ['2000-02-29', Date.UTC(2000, 1, 29)], // 2000 is (divisible by 400)
    ['1970-01-01T00:00:00Z', 0],
    ['9999-12-31T23:59:59.999Z', Date.UTC(9999, 11, 31, 23, 59, 59, 999)],
    ['1795370400', at],
    ['1795370400.5', at + 500],
    [' 1795370400 ', at],
    ['0', 0],
  ])('%s', (raw, expected) => {
    expect(parseTime(raw)).toEqual({ ms: expected });
  });

  it('a date alone is the last millisecond of the day for a window end', () => {
    // 2026-11-22T00:00Z + 86,400,000 - 1 ms = 2026-11-22T23:59:59.999Z
    expect(parseTime('2026-11-22', { dateAlone: 'end' })).toEqual({ ms: Date.UTC(2026, 10, 22, 23, 59, 59, 999) });
  });

  it.each([
    ['yesterday', /is not an RFC 3339 time/],
    ['', /is not/],
    ['2026-02-30T00:00:00Z', /not a calendar date \(2026-02 has 28 days\)/],
    ['2026-02-30', /not a calendar date/],
    ['2027-02-29', /2027-02 has 28 days/], // 2027 is not a leap year
    ['2100-02-29', /2100-02 has 28 days/], // 2100 is not (divisible by 100, not by 400)
    ['2026-04-31', /2026-04 has 30 days/],
    ['2026-13-01', /no month 13/],
    ['2026-00-10', /no month 0/],
    ['2026-11-00', /not a calendar date/],
    ['2026-11-22T24:00:00Z', /no time of day 24:00:00/],
    ['2026-11-22T18:60:00Z', /no time of day/],
    ['2026-11-22T18:00:00+25:00', /no UTC offset/],
    ['0000-01-01', /outside the times the service holds/],
    ['0050-01-01', /outside/], // the year 50, not 1950
    ['1969-12-31T23:59:59Z', /outside/],
    ['+275760-09-13T00:00:00Z', /is not/],
    ['9999-12-31T23:59:59-01:00', /outside/], // 10000-01-01T00:59:59Z
    ['9999999999999', /is not/], // 13 digits: not Unix seconds
    ['-5', /is not/],
    ['1e9', /is not/],
    ['17953704OO', /is not/],
    ['2026/11/22', /is not/],
  ])('refuses %p', (raw, why) => {
    const r = parseTime(raw);
    expect(r.ms).toBeUndefined();
    expect(r.problem).toMatch(why);
  });

  it('forms can be turned off per parameter', () => {
    expect(parseTime('1795370400', { unixSeconds: false }).problem).toMatch(/is not an RFC 3339 time .*a date YYYY-MM-DD$/);
    expect(parseTime('2026-11-22', { dateAlone: false }).problem).toMatch(/is not/);
  });

  it('timeParam: 400 invalid_request naming the parameter', () => {
    expect(timeParam('from', undefined)).toBeUndefined();
    expect(timeParam('from', '2026-11-22')).toBe(Date.UTC(2026, 10, 22));
    let err: unknown;
    try {
      timeParam('from', '0000-01-01');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('invalid_request');
    expect((err as ApiError).message).toMatch(/^Invalid parameter "from": "0000-01-01" is outside/);
    expect((err as ApiError).extras).toEqual({ parameter: 'from' });
  });

  it('parseDate: a calendar day only', () => {
    expect(parseDate('2026-11-22')).toEqual({ date: '2026-11-22' });
    expect(parseDate('2026-02-30').problem).toMatch(/not a calendar date/);
    expect(parseDate('0000-01-01').problem).toMatch(/outside/);
    expect(parseDate('2026-11-22T00:00:00Z').problem).toMatch(/is not a date YYYY-MM-DD/);
  });
});

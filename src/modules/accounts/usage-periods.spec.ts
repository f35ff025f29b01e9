import { describe, expect, it } from '@jest/globals';
import { dayOf, mergeDay, usagePeriods, usageTotals } from './usage-periods.js';

describe('usage periods (UTC days, ISO weeks, calendar months)', () => {
  it('a Wednesday mid-month: the week starts on Monday, the month on the 1st', () => {
    const p = usagePeriods(Date.UTC(2026, 10, 18, 15, 30)); // Wed 18 Nov 2026
    expect(p.today).toBe('2026-11-18');
    expect(p.weekStart).toBe('2026-11-16');
    expect(p.monthStart).toBe('2026-11-01');
    expect(p.from).toBe('2026-11-01');
    expect(p.period).toEqual({ start: '2026-11-01T00:00:00.000Z', end: '2026-11-30T23:59:59.000Z' });
    expect(p.days.length).toBe(18);
  });

  it('a week that began in the previous month reaches back into it', () => {
    const p = usagePeriods(Date.UTC(2026, 11, 2, 0, 0, 1)); // Wed 2 Dec 2026
    expect(p.weekStart).toBe('2026-11-30');
    expect(p.monthStart).toBe('2026-12-01');
    expect(p.days).toEqual(['2026-11-30', '2026-12-01', '2026-12-02']);
  });

  it('Sunday belongs to the week that began six days before; Monday starts a new one', () => {
    expect(usagePeriods(Date.UTC(2026, 10, 22, 23, 59)).weekStart).toBe('2026-11-16');
    expect(usagePeriods(Date.UTC(2026, 10, 23, 0, 0)).weekStart).toBe('2026-11-23');
  });

  it('February of a leap year ends on the 29th', () => {
    expect(usagePeriods(Date.UTC(2028, 1, 10)).period.end).toBe('2028-02-29T23:59:59.000Z');
  });

  it('totals: today, the week and the month each sum their own days', () => {
    const p = usagePeriods(Date.UTC(2026, 11, 2, 12)); // week from 30 Nov, month from 1 Dec
    const perDay = new Map([
      ['2026-11-29', 1000],
      ['2026-11-30', 5],
      ['2026-12-01', 7],
      ['2026-12-02', 11],
    ]);
    expect(usageTotals(p, perDay)).toEqual({ today: 11, this_week: 5 + 7 + 11, this_month: 7 + 11 });
    expect(usageTotals(p, new Map())).toEqual({ today: 0, this_week: 0, this_month: 0 });
  });

  it('a day is the larger of the shared and the stored count, each with what this instance has not written yet', () => {
    expect(mergeDay(40, 2, 35, 7)).toBe(42);
    expect(mergeDay(0, 3, 120, 3)).toBe(123); // Redis was emptied by a restart: the database still knows
    expect(mergeDay(10, 0, 0, 10)).toBe(10);
  });

  it('dayOf is the UTC date', () => {
    expect(dayOf(Date.UTC(2026, 0, 1, 23, 59, 59))).toBe('2026-01-01');
  });
});

import { describe, expect, it } from '@jest/globals';
import { IsoTimes } from './iso-times.js';

describe('IsoTimes', () => {
  it('times as ISO strings, the same for a repeated time; what is not a time becomes text the database refuses', () => {
    const times = new IsoTimes();
    const t = Date.parse('2026-11-22T12:00:00.123Z');
    const all = [t, t + 1, t, t + 2, t + 3, t + 4, t, t + 1];
    expect(all.map((ms) => times.format(ms))).toEqual(all.map((ms) => new Date(ms).toISOString()));
    expect(times.format(Number.NaN)).toBe('invalid time NaN');
    expect(times.format(9e15)).toBe('invalid time 9000000000000000');
  });
});

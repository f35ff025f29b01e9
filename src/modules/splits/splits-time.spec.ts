import { describe, expect, it } from '@jest/globals';
import { parseTimeParam } from './splits-time.js';

describe('parseTimeParam', () => {
  const at = Date.UTC(2026, 10, 22, 18, 0, 0);
  it.each([
    ['2026-11-22T18:00:00Z', at],
    ['2026-11-22T18:00:00.250Z', at + 250],
    ['2026-11-22t18:00:00z', at],
    ['2026-11-22T13:00:00-05:00', at],
    ['2026-11-22T19:30:00+0130', at],
    ['2026-11-22T18:00:00', at],
    ['2026-11-22 18:00', at],
    ['2026-11-22', Date.UTC(2026, 10, 22)],
    [String(at / 1000), at],
    [`${at / 1000}.5`, at + 500],
    [' 1795370400 ', at],
  ])('%s', (raw, expected) => {
    expect(parseTimeParam(raw)).toBe(expected);
  });

  it.each([
    'yesterday',
    '',
    '2026-02-30T00:00:00Z',
    '2026-13-01',
    '2026-11-22T24:00:00Z',
    '2026-11-22T18:00:00+25:00',
    '-5',
    '1e9',
    '17953704OO',
    '2026/11/22',
  ])('refuses %p', (raw) => {
    expect(parseTimeParam(raw)).toBeNull();
  });
});

import { describe, expect, it } from '@jest/globals';
import type { ParsedQuote } from '../modules/ingestion/importers/parsed.js';
import { isPast } from './import.js';

const H = 3600_000;
const NOW = Date.parse('2026-11-22T20:00:00Z');
const row = (startTime: number, extra: Partial<ParsedQuote['quote']> = {}): ParsedQuote => ({
  line: 2,
  quote: {
    book: 'fanduel',
    league: 'mlb',
    homeTeam: 'Giants',
    awayTeam: 'Rockies',
    startTime,
    marketType: 'moneyline',
    selection: 'Giants',
    selectionType: 'home',
    price: { american: -120 },
    ...extra,
  },
});

describe('isPast', () => {
  it('a stale capture (July, imported in November): every event that started is of the past, futures included', () => {
    const july = Date.parse('2026-07-13T01:45:00Z');
    expect(isPast(row(Date.parse('2026-07-13T02:05:00Z')), NOW, july)).toBe(true);
    expect(isPast(row(Date.parse('2026-07-12T23:05:00Z'), { isLive: true }), NOW, july)).toBe(true);
    expect(isPast(row(Date.parse('2026-10-31T23:00:00Z'), { approximateStart: true }), NOW, july)).toBe(true);
    // A game scheduled after now is not.
    expect(isPast(row(NOW + 2 * H), NOW, july)).toBe(false);
  });

  it('a fresh (or replayed) capture: games that started within 6 hours may be in progress; contracts stay open', () => {
    expect(isPast(row(NOW - 2 * H), NOW, NOW - 10 * 60_000)).toBe(false);
    expect(isPast(row(NOW - 7 * H), NOW, NOW - 10 * 60_000)).toBe(true);
    expect(isPast(row(NOW - 30 * 24 * H, { approximateStart: true }), NOW, NOW)).toBe(false);
  });

  it('a file without capture times is judged as a stale one', () => {
    expect(isPast(row(NOW - 60_000), NOW, null)).toBe(true);
    expect(isPast(row(NOW + 60_000), NOW, null)).toBe(false);
  });
});

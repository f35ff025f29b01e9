import { describe, expect, it } from '@jest/globals';
import { cleanMarkets, DelayedSplits, hasAnyMarket, SplitsStore, type CurrentSplits } from './splits-store.js';

const T0 = Date.UTC(2026, 10, 22, 18, 0, 0);

function split(eventId: string, book: string, fetchedAt: number, homeBets = 0.6): CurrentSplits {
  return {
    eventId,
    sportsbook: book,
    sport: 'basketball',
    league: 'nba',
    homeTeam: 'Boston Celtics',
    awayTeam: 'Los Angeles Lakers',
    startTime: T0 + 3600_000,
    fetchedAt,
    moneyline: { away_odds: 130, home_odds: -150, handle_pct: { away: 0.3, home: 0.7 }, bets_pct: { away: 1 - homeBets, home: homeBets } },
  };
}

describe('SplitsStore', () => {
  it('keeps the latest split per (event, book) and ignores an older late delivery', () => {
    const s = new SplitsStore();
    expect(s.put(split('e1', 'draftkings', T0))).toBe(true);
    expect(s.put(split('e1', 'circa', T0))).toBe(true);
    expect(s.put(split('e1', 'draftkings', T0 + 60_000, 0.7))).toBe(true);
    expect(s.put(split('e1', 'draftkings', T0 + 30_000, 0.5))).toBe(false);
    expect(s.size).toBe(2);
    expect(s.get('e1', 'draftkings')?.moneyline?.bets_pct.home).toBe(0.7);
  });

  it('drops every book of the removed events only', () => {
    const s = new SplitsStore();
    s.put(split('e1', 'draftkings', T0));
    s.put(split('e1', 'circa', T0));
    s.put(split('e2', 'circa', T0));
    expect(s.dropEvents(['e1', 'nope'])).toBe(2);
    expect([...s.values()].map((x) => x.eventId)).toEqual(['e2']);
    expect(s.dropEvents([])).toBe(0);
  });
});

describe('DelayedSplits', () => {
  it('shows the splits as they stood delayMs ago, puts and drops in order', () => {
    const d = new DelayedSplits(60_000);
    d.push({ at: T0, put: [split('e1', 'draftkings', T0, 0.55)] });
    d.push({ at: T0 + 30_000, put: [split('e1', 'draftkings', T0 + 30_000, 0.65)] });
    d.push({ at: T0 + 90_000, drop: ['e1'] });
    expect(d.advance(T0 + 59_999).size).toBe(0);
    expect(d.advance(T0 + 60_000).get('e1', 'draftkings')?.moneyline?.bets_pct.home).toBe(0.55);
    expect(d.advance(T0 + 90_000).get('e1', 'draftkings')?.moneyline?.bets_pct.home).toBe(0.65);
    expect(d.pending).toBe(1);
    expect(d.advance(T0 + 150_000).size).toBe(0);
    expect(d.pending).toBe(0);
  });

  it('compacts its queue without losing order', () => {
    const d = new DelayedSplits(1000);
    for (let i = 0; i < 3000; i++) d.push({ at: T0 + i, put: [split('e1', 'circa', T0 + i, (i % 90) / 100 + 0.05)] });
    d.advance(T0 + 2000);
    expect(d.store.get('e1', 'circa')?.fetchedAt).toBe(T0 + 1000);
    d.advance(T0 + 10_000);
    expect(d.store.get('e1', 'circa')?.fetchedAt).toBe(T0 + 2999);
    expect(d.pending).toBe(0);
  });
});

describe('cleanMarkets', () => {
  it('keeps complete markets and drops malformed ones', () => {
    const m = cleanMarkets({
      spread: { away_line: 3.5, home_line: -3.5, handle_pct: { away: 0.4, home: 0.6 }, bets_pct: { away: 0.45, home: Number.NaN } },
      total: { line: 220.5, handle_pct: { over: 0.7, under: 0.3 }, bets_pct: { over: 0.66, under: 0.34 } },
      moneyline: { away_odds: 130, home_odds: -150 } as never,
    });
    expect(m).toEqual({ total: { line: 220.5, handle_pct: { over: 0.7, under: 0.3 }, bets_pct: { over: 0.66, under: 0.34 } } });
    expect(hasAnyMarket(m)).toBe(true);
    expect(hasAnyMarket(m, ['spread', 'moneyline'])).toBe(false);
    expect(hasAnyMarket({})).toBe(false);
  });
});

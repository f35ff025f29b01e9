import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '../time/clock.js';
import { MemoryWindowStore } from './rate-limit.storage.js';

describe('MemoryWindowStore (fixed one-minute windows)', () => {
  it('counts hits in a window opened by the first request and refuses past the limit', () => {
    const clock = new ManualClock(1_000_000);
    const s = new MemoryWindowStore(clock);
    const results = Array.from({ length: 4 }, () => s.incrementSync('k', 60_000, 3));
    expect(results.map((r) => r.totalHits)).toEqual([1, 2, 3, 4]);
    expect(results.map((r) => r.isBlocked)).toEqual([false, false, false, true]);
    expect(results[0]!.timeToExpire).toBe(60);
    clock.advance(59_500);
    const late = s.incrementSync('k', 60_000, 3);
    expect(late.isBlocked).toBe(true);
    expect(late.timeToExpire).toBe(1);
    expect(late.timeToBlockExpire).toBe(1);
    clock.advance(500);
    const fresh = s.incrementSync('k', 60_000, 3);
    expect(fresh).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('keeps keys apart', () => {
    const s = new MemoryWindowStore(new ManualClock());
    s.incrementSync('a', 60_000, 1);
    expect(s.incrementSync('a', 60_000, 1).isBlocked).toBe(true);
    expect(s.incrementSync('b', 60_000, 1).isBlocked).toBe(false);
  });

  it('peeks at a window without counting a hit', () => {
    const clock = new ManualClock(0);
    const s = new MemoryWindowStore(clock);
    expect(s.peekSync('k')).toBeNull();
    s.incrementSync('k', 60_000, 5);
    s.incrementSync('k', 60_000, 5);
    clock.advance(20_000);
    expect(s.peekSync('k')).toEqual({ totalHits: 2, timeToExpire: 40 });
    expect(s.peekSync('k')).toEqual({ totalHits: 2, timeToExpire: 40 });
    clock.advance(40_000);
    expect(s.peekSync('k')).toBeNull();
  });
});

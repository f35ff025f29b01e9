import { describe, expect, it } from '@jest/globals';
import { simulatorAnchor } from './providers.js';

describe('simulatorAnchor', () => {
  it('starts the world at the beginning of the current 10-minute window (UTC)', () => {
    // 20:55:30.250 -> 20:50:00; 20:50:00 exactly is its own window's start; 20:49:59.999 belongs to 20:40.
    expect(simulatorAnchor(Date.UTC(2026, 10, 28, 20, 55, 30, 250))).toBe(Date.UTC(2026, 10, 28, 20, 50));
    expect(simulatorAnchor(Date.UTC(2026, 10, 28, 20, 50))).toBe(Date.UTC(2026, 10, 28, 20, 50));
    expect(simulatorAnchor(Date.UTC(2026, 10, 28, 20, 49, 59, 999))).toBe(Date.UTC(2026, 10, 28, 20, 40));
    // Across midnight and the hour: 00:03 -> 00:00 of the same day.
    expect(simulatorAnchor(Date.UTC(2026, 10, 29, 0, 3))).toBe(Date.UTC(2026, 10, 29, 0, 0));
  });

  it('gives two starts in the same window the same anchor, and never an anchor more than 10 minutes back', () => {
    const a = Date.UTC(2026, 10, 28, 20, 51, 2);
    const b = Date.UTC(2026, 10, 28, 20, 59, 58);
    expect(simulatorAnchor(a)).toBe(simulatorAnchor(b));
    for (let t = a; t < a + 3 * 3_600_000; t += 37_001) {
      const replay = t - simulatorAnchor(t);
      expect(replay).toBeGreaterThanOrEqual(0);
      expect(replay).toBeLessThan(600_000);
    }
  });
});

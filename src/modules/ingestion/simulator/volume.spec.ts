import { describe, expect, it } from '@jest/globals';
import { simulatedMarketData } from './volume.js';

describe('simulated exchange and prediction-market data', () => {
  it('is deterministic, grows with every price move, and keeps its parts in range', () => {
    const a = simulatedMarketData('kalshi-ml-home', 0, 'prediction');
    expect(simulatedMarketData('kalshi-ml-home', 0, 'prediction')).toEqual(a);
    expect(a.volume).toBeGreaterThanOrEqual(1000);
    expect(a.volume).toBeLessThanOrEqual(50_000);
    let last = a.volume;
    for (let m = 1; m <= 20; m++) {
      const d = simulatedMarketData('kalshi-ml-home', m, 'prediction');
      expect(d.volume - last).toBeGreaterThanOrEqual(50);
      expect(d.volume - last).toBeLessThanOrEqual(1000);
      expect(d.volume24h).toBeGreaterThanOrEqual(Math.round(d.volume * 0.25));
      expect(d.volume24h).toBeLessThanOrEqual(Math.round(d.volume * 0.75));
      expect(d.openInterest).toBe(Math.round(d.volume * 0.6));
      last = d.volume;
    }
  });
  it('an exchange has no open interest', () => {
    expect(simulatedMarketData('betfair-ml-home', 3, 'exchange').openInterest).toBeNull();
  });
});

import { hashString } from './rng.js';

export interface MarketData {
  volume: number;
  volume24h: number;
  openInterest: number | null;
}

/**
 * What an exchange or a prediction market reports traded on one selection, deterministic like the rest of the
 * simulator: a starting amount from the selection's id (1,000-50,000), growing with every price move (each adds
 * 50-1,000, the market trading through the move); the last 24 hours hold 25-75% of it; a prediction market's
 * open interest (contracts outstanding) is 60% of its volume, an exchange has none.
 */
export function simulatedMarketData(selectionId: string, moves: number, kind: 'exchange' | 'prediction'): MarketData {
  let volume = 1000 + (hashString(selectionId) % 49_001);
  for (let i = 1; i <= moves; i++) volume += 50 + (hashString(selectionId, i) % 951);
  const share = 0.25 + (hashString(selectionId, 7919) % 51) / 100;
  return { volume, volume24h: Math.round(volume * share), openInterest: kind === 'prediction' ? Math.round(volume * 0.6) : null };
}

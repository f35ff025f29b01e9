import { describe, expect, it } from '@jest/globals';
import type { FuturesPrice } from '../../../domain/futures.js';
import { futuresMarket, futuresPrice, SEMI_FINAL, semiFinal } from '../../../../test/factories/futures.js';
import { FuturesStore, isLive, staleAfterMs } from './futures-store.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const MIN = 60_000;
const market = (id: string, over = {}) => futuresMarket(id, NOW + 30 * 86400_000, over);
const price = (
  marketId: string,
  book: string,
  selection: string,
  decimal: number,
  seen: number,
  source = 'simulator-futures',
): FuturesPrice => futuresPrice(marketId, book, selection, decimal, { changedAt: seen, lastSeenAt: seen, source });

describe('futures prices expire', () => {
  it('an eliminated runner left unconfirmed leaves the live prices (semiFinal: D last seen 45 minutes ago)', () => {
    const s = semiFinal(NOW);
    expect(s.pricesOf(SEMI_FINAL)).toHaveLength(6);
    const live = s.livePricesOf(SEMI_FINAL, NOW);
    expect(live.map((p) => `${p.sportsbook} ${p.selection}`).sort()).toEqual([
      'draftkings Team A',
      'pinnacle Team A',
      'pinnacle Team B',
      'pinnacle Team C',
    ]);
  });

  it('prune deletes the stale prices (a runner no book quotes leaves the market) and markets left with none', () => {
    const s = semiFinal(NOW);
    s.applyChange({
      markets: [market('mlb_mvp_2026', { kind: 'mvp' })],
      prices: [price('mlb_mvp_2026', 'fanduel', 'Someone', 9, NOW - 3 * 3600_000, 'odds_api')],
      seen: [],
      at: NOW,
    });
    const c = s.prune(NOW - 3 * 86400_000, NOW);
    expect(c.removedPrices!.sort()).toEqual([
      'draftkings|mlb_championship_winner_2026|Team D',
      'pinnacle|mlb_championship_winner_2026|Team D',
    ]);
    expect(c.removedMarkets).toEqual(['mlb_mvp_2026']);
    expect(s.pricesOf(SEMI_FINAL)).toHaveLength(4);
    expect(s.markets.has('mlb_mvp_2026')).toBe(false);
  });

  it('a configured window overrides the default: odds_api at 15 minutes', () => {
    const s = new FuturesStore({ odds_api: 15 * MIN });
    s.applyChange({ markets: [market('m')], prices: [price('m', 'fanduel', 'X', 3, NOW - 16 * MIN, 'odds_api')], seen: [], at: NOW });
    expect(s.livePricesOf('m', NOW)).toEqual([]);
    expect(s.livePricesOf('m', NOW - MIN)).toHaveLength(1);
  });

  it('history markets never go stale and are not pruned when closed; remove() withdraws only its source and empty markets', () => {
    const s = new FuturesStore();
    s.applyChange({
      markets: [market('h', { history: true, closesAt: NOW - 60 * 86400_000 }), market('live')],
      prices: [
        price('h', 'fanduel', 'X', 3, NOW - 100 * 86400_000, 'import:a.csv'),
        price('live', 'fanduel', 'X', 3, NOW - MIN, 'import:a.csv'),
        price('live', 'pinnacle', 'X', 2.9, NOW - MIN, 'simulator-futures'),
      ],
      seen: [],
      at: NOW,
    });
    expect(s.livePricesOf('h', NOW)).toHaveLength(1);
    expect(s.prune(NOW - 3 * 86400_000, NOW).removedMarkets).toEqual([]);
    const ids = ['fanduel|h|X', 'fanduel|live|X', 'pinnacle|live|X'];
    // Another source's ids are not withdrawn: only the import's own.
    expect(s.remove(ids, 'import:b.csv', NOW).removedPrices).toEqual([]);
    const c = s.remove(ids, 'import:a.csv', NOW);
    expect(c.removedPrices).toEqual(['fanduel|h|X', 'fanduel|live|X']);
    expect(c.removedMarkets).toEqual(['h']);
    expect([...s.markets.keys()]).toEqual(['live']);
    expect(s.pricesOf('live').map((p) => p.sportsbook)).toEqual(['pinnacle']);
  });
});

describe('futures staleness windows', () => {
  it('per source: the simulator 30 min, an import 6 h, a configured feed its own, any other 2 h', () => {
    expect(staleAfterMs('simulator-futures')).toBe(30 * 60_000);
    expect(staleAfterMs('import:mlb.csv')).toBe(6 * 3600_000);
    expect(staleAfterMs('odds_api')).toBe(2 * 3600_000);
    expect(staleAfterMs('odds_api', { odds_api: 900_000 })).toBe(900_000);
    expect(staleAfterMs(undefined)).toBe(2 * 3600_000);
    const seen = { lastSeenAt: 1_000_000, source: 'simulator-futures' };
    expect(isLive(seen, 1_000_000 + 30 * 60_000)).toBe(true);
    expect(isLive(seen, 1_000_000 + 30 * 60_000 + 1)).toBe(false);
  });
});

import type { FuturesMarket, FuturesPrice } from '../../src/domain/futures.js';
import { FuturesStore } from '../../src/modules/stores/futures/futures-store.js';

/** A futures market: a championship of MLB closing at `closesAt`, with whatever else a test names. */
export function futuresMarket(id: string, closesAt: number, over: Partial<FuturesMarket> = {}): FuturesMarket {
  return { id, name: id, sport: 'baseball', league: 'mlb', futureType: 'TEAM', kind: 'championship_winner', closesAt, ...over };
}

/**
 * One book's price of one runner: its id `book|market|selection`, its probability 1 / decimal, never seen (0)
 * unless `over` says when; every other field neutral.
 */
export function futuresPrice(
  marketId: string,
  book: string,
  selection: string,
  decimal: number,
  over: Partial<FuturesPrice> = {},
): FuturesPrice {
  return {
    id: `${book}|${marketId}|${selection}`,
    marketId,
    sportsbook: book,
    selection,
    selectionType: 'other',
    line: null,
    american: 0,
    decimal,
    probability: 1 / decimal,
    externalId: null,
    changedAt: 0,
    lastSeenAt: 0,
    ...over,
  };
}

export const SEMI_FINAL = 'mlb_championship_winner_2026';

/**
 * Four semi-finalists; Team D is eliminated and its prices are no longer confirmed (last seen 45 minutes before
 * `now`, past the simulator's 30-minute window). Pinnacle confirms A 2.00 (.5), B 2.50 (.4), C 8.00 (.125) a
 * minute before: implied 1.025. DraftKings offers A at 2.30 (fresh) and still shows D at 7.00 (stale), Pinnacle
 * D 5.00 (stale).
 */
export function semiFinal(now: number): FuturesStore {
  const s = new FuturesStore();
  const fresh = { changedAt: now - 60_000, lastSeenAt: now - 60_000, source: 'simulator-futures' };
  const stale = { changedAt: now - 45 * 60_000, lastSeenAt: now - 45 * 60_000, source: 'simulator-futures' };
  s.applyChange({
    markets: [futuresMarket(SEMI_FINAL, now + 30 * 86400_000)],
    prices: [
      futuresPrice(SEMI_FINAL, 'pinnacle', 'Team A', 2, fresh),
      futuresPrice(SEMI_FINAL, 'pinnacle', 'Team B', 2.5, fresh),
      futuresPrice(SEMI_FINAL, 'pinnacle', 'Team C', 8, fresh),
      futuresPrice(SEMI_FINAL, 'pinnacle', 'Team D', 5, stale),
      futuresPrice(SEMI_FINAL, 'draftkings', 'Team A', 2.3, fresh),
      futuresPrice(SEMI_FINAL, 'draftkings', 'Team D', 7, stale),
    ],
    seen: [],
    at: now,
  });
  return s;
}

import { describe, expect, it } from '@jest/globals';
import type { FuturesMarket, FuturesPrice } from '../../domain/futures.js';
import { futuresEv, groupsOf } from './futures-math.js';
import { FuturesStore } from './futures-store.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const MIN = 60_000;
const market = (id: string, over: Partial<FuturesMarket> = {}): FuturesMarket => ({
  id,
  name: id,
  sport: 'baseball',
  league: 'mlb',
  futureType: 'TEAM',
  kind: 'championship_winner',
  closesAt: NOW + 30 * 86400_000,
  ...over,
});
const price = (
  marketId: string,
  book: string,
  selection: string,
  decimal: number,
  seen: number,
  source = 'simulator-futures',
): FuturesPrice => ({
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
  changedAt: seen,
  lastSeenAt: seen,
  source,
});

/**
 * Four semi-finalists; Team D is eliminated and its prices are no longer confirmed (last seen 45 minutes ago,
 * past the simulator's 30-minute window). Pinnacle confirms A 2.00 (.5), B 2.50 (.4), C 8.00 (.125) a minute ago:
 * implied 1.025. DraftKings offers A at 2.30 (fresh) and still shows D at 7.00 (stale), Pinnacle D 5.00 (stale).
 *   Live field A, B, C: fair A = .5 / 1.025 = .487805; A 2.30: .487805 x 2.3 - 1 = +12.1951%.
 *   With D's stale price in it: implied 1.225, fair A = .5 / 1.225 = .408163, A 2.30 shows .408163 x 2.3 - 1 = -6.1224%,
 *   and D 7.00 shows .2 / 1.225 x 7 - 1 = +14.2857% on a team that can no longer win.
 */
function semiFinal(): FuturesStore {
  const s = new FuturesStore();
  const id = 'mlb_championship_winner_2026';
  const fresh = NOW - MIN;
  const stale = NOW - 45 * MIN;
  s.applyChange({
    markets: [market(id)],
    prices: [
      price(id, 'pinnacle', 'Team A', 2, fresh),
      price(id, 'pinnacle', 'Team B', 2.5, fresh),
      price(id, 'pinnacle', 'Team C', 8, fresh),
      price(id, 'pinnacle', 'Team D', 5, stale),
      price(id, 'draftkings', 'Team A', 2.3, fresh),
      price(id, 'draftkings', 'Team D', 7, stale),
    ],
    seen: [],
    at: NOW,
  });
  return s;
}
const ev = (prices: FuturesPrice[]) =>
  futuresEv(groupsOf({ id: 'mlb_championship_winner_2026' }, prices)[0]!, {
    sharpBooks: ['pinnacle'],
    method: 'multiplicative',
    inScope: () => true,
    minEv: -100,
  }).map((e) => [e.price.sportsbook, e.outcome, Number(e.evPercent.toFixed(4))]);

describe('futures prices expire', () => {
  it('an eliminated runner left unconfirmed leaves the field: A 2.30 is +12.1951%, no EV on D 7.00', () => {
    const s = semiFinal();
    // Every stored price, as before: the stale D distorts the field.
    expect(ev(s.pricesOf('mlb_championship_winner_2026'))).toEqual([
      ['draftkings', 'team d', 14.2857],
      ['draftkings', 'team a', -6.1224],
    ]);
    const live = s.livePricesOf('mlb_championship_winner_2026', NOW);
    expect(live.map((p) => `${p.sportsbook} ${p.selection}`).sort()).toEqual([
      'draftkings Team A',
      'pinnacle Team A',
      'pinnacle Team B',
      'pinnacle Team C',
    ]);
    expect(groupsOf({ id: 'x' }, live)[0]!.field).toEqual(new Set(['team a', 'team b', 'team c']));
    expect(ev(live)).toEqual([['draftkings', 'team a', 12.1951]]);
  });

  it('prune deletes the stale prices (a runner no book quotes leaves the market) and markets left with none', () => {
    const s = semiFinal();
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
    expect(s.pricesOf('mlb_championship_winner_2026')).toHaveLength(4);
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

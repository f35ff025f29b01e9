import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { ProviderBatch, Quote } from '../../src/domain/types.js';
import { DetectionEngine } from '../../src/modules/detection/detection.engine.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { americanToDecimal } from '../../src/math/odds.js';
import { buildMarket, H } from '../factories/market.js';
import { NOW } from '../factories/quotes.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Incremental detection re-evaluates only what a change touched (and what is priced on it). Whatever moved, what
 * it then holds must be what a full re-scan of the same board finds: the same opportunities, with the same
 * price-derived figures (each type's signature), in every scope. Random moves of every kind (a price, a line, a
 * suspension) on games of several sports, checked after each batch.
 */
describe('incremental detection holds what a full re-scan finds, whatever moved', () => {
  const BOOKS = ['draftkings', 'fanduel', 'pinnacle', 'betmgm', 'caesars'];
  const games = [
    { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 6 * H },
    { league: 'nhl', home: 'Boston Bruins', away: 'New York Rangers', start: NOW + 7 * H },
    { league: 'mlb', home: 'New York Yankees', away: 'Boston Red Sox', start: NOW + 8 * H },
    { league: 'epl', home: 'Arsenal', away: 'Chelsea', start: NOW + 9 * H },
  ];
  /**
   * The market, with the hockey and baseball totals under their own market types (goals, runs) and their spreads
   * as puck and run lines that leave middles: every other book at -1.5, the rest at -2.5 (their prices as in
   * the middles detector's tests: a middle on a margin of exactly 2).
   */
  const market = (): Quote[] =>
    buildMarket(games, BOOKS, NOW).flatMap((q) => {
      const fixed = q.league === 'nhl' || q.league === 'mlb';
      if (fixed && q.marketType === 'total_points')
        return [
          {
            ...q,
            marketType: q.league === 'nhl' ? 'total_goals' : 'total_runs',
            line: (q.league === 'nhl' ? 5.5 : 8.5) + (q.book.length % 2),
          },
        ];
      if (fixed && q.marketType === 'point_spread') {
        if (Math.abs(q.line!) !== 3.5 + (games.findIndex((g) => g.league === q.league) % 3)) return []; // the alternate rung
        const wide = BOOKS.indexOf(q.book) % 2 === 1;
        const home = q.selectionType === 'home';
        return [{ ...q, line: (home ? -1 : 1) * (wide ? 2.5 : 1.5), price: { american: home ? (wide ? 500 : 360) : wide ? -700 : -480 } }];
      }
      return [q];
    });

  let t: TestApp;
  let at = NOW;
  /** Prices the withdrawals took off the board. */
  let removed = 0;
  let seed = 20261128;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const ingest = (quotes: Quote[], rest: Omit<ProviderBatch, 'source' | 'quotes'> = {}) => {
    at += 1000;
    const r = t.app.get(IngestionService).ingest({ source: 'test', quotes, ...rest }, at);
    expect(r.rejected).toEqual({});
    removed += r.removed;
  };
  /** Every live opportunity of every type and scope by id, with its signature. */
  const held = (): Record<string, string> => {
    const engine = t.app.get(DetectionEngine);
    const out: Record<string, string> = {};
    for (const d of engine.types())
      for (const s of engine.scopes(d.kind))
        for (const r of engine.live(d.kind, s.key)!.values()) out[`${d.kind}/${s.key}/${r.id}`] = JSON.stringify(d.signature(r));
    return out;
  };
  /**
   * One random change to a quote of the market: its price, its line (a new price beside the old), a suspension.
   * The test also withdraws prices and takes a book off a game.
   */
  const move = (q: Quote): Quote => {
    const r = rnd();
    const decimal = q.price.decimal ?? americanToDecimal(q.price.american!);
    if (r < 0.65) return { ...q, isActive: true, price: { decimal: +Math.max(1.02, decimal * (0.85 + rnd() * 0.3)).toFixed(3) } };
    if (r < 0.9 && q.line !== null && q.line !== undefined) return { ...q, line: q.line + (rnd() < 0.5 ? -1 : 1) };
    return { ...q, isActive: rnd() < 0.5 };
  };

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('after each batch of random moves, a re-scan changes nothing', () => {
    const quotes = market();
    ingest(quotes);
    const engine = t.app.get(DetectionEngine);
    const middlesOnFixedSpreads = [...engine.live('middles', 'all')!.values()].filter((m) => /^(nhl|mlb)_/.test(m.eventId)).length;
    let seen = 0;
    for (let batch = 0; batch < 60; batch++) {
      const moves: Quote[] = [];
      const removals: Quote[] = [];
      const eventRemovals: NonNullable<ProviderBatch['eventRemovals']> = [];
      for (let i = 1 + Math.floor(rnd() * 3); i > 0; i--) {
        const k = Math.floor(rnd() * quotes.length);
        const q = quotes[k]!;
        const r = rnd();
        // A price withdrawn (quoted again when a later move picks it), or a book leaving a game.
        if (r < 0.1) removals.push(q);
        else if (r < 0.13)
          eventRemovals.push({ book: q.book, league: q.league!, homeTeam: q.homeTeam, awayTeam: q.awayTeam, startTime: q.startTime });
        else moves.push((quotes[k] = move(q)));
      }
      ingest(moves, { removals, eventRemovals });
      const incremental = held();
      seen += Object.keys(incremental).length;
      expect(engine.rescan(at)).toBe(0);
      expect([batch, held()]).toEqual([batch, incremental]);
    }
    // The market holds opportunities throughout, middles on the puck and run lines among them (the check compares something).
    expect(seen).toBeGreaterThan(60 * 5);
    expect(middlesOnFixedSpreads).toBeGreaterThan(0);
    expect(removed).toBeGreaterThan(5);
  });
});

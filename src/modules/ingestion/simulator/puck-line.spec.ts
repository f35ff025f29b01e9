import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../../config/catalog.js';
import { OddsBoard } from '../../board/odds-board.js';
import { IngestionPipeline } from '../pipeline.js';
import { MarketSimulator } from './simulator.js';

/** Saturday 15 November 2025, 19:00 UTC. */
const START = Date.UTC(2025, 10, 15, 19, 0);

describe('the simulated puck line', () => {
  it("has the moneyline favourite's -1.5 as the consensus main line in every hockey game, home underdogs included", () => {
    const catalog = new Catalog();
    const board = new OddsBoard();
    const pipe = new IngestionPipeline(catalog, board);
    const sim = new MarketSimulator(catalog, { seed: 7, events: 180, days: 7, tickMs: 1000, start: START });
    board.applyChangeSet(pipe.process(sim.start(START), START).changeSet);
    let games = 0;
    let homeDogs = 0;
    for (const e of board.events.values()) {
      if (e.sport !== 'hockey') continue;
      // The favourite by the books' median no-vig moneyline.
      const ps: number[] = [];
      const byBook = new Map<string, { h?: number; a?: number }>();
      for (const r of board.group(`${e.id}|moneyline|game||`)) {
        const b = byBook.get(r.sportsbook) ?? {};
        if (r.selectionType === 'home') b.h = 1 / r.decimal;
        if (r.selectionType === 'away') b.a = 1 / r.decimal;
        byBook.set(r.sportsbook, b);
      }
      for (const b of byBook.values()) if (b.h && b.a) ps.push(b.h / (b.h + b.a));
      const main = board.mainLine(`${e.id}|point_spread|game|`);
      if (!ps.length || main === null) continue;
      ps.sort((x, y) => x - y);
      const pHome = ps[ps.length >> 1]!;
      if (Math.abs(pHome - 0.5) < 0.03) continue; // a pick'em: either side may be the books' favourite
      games++;
      if (pHome < 0.5) homeDogs++;
      // The home-side main line: -1.5 for a home favourite, +1.5 for a home underdog.
      expect([e.id, main]).toEqual([e.id, pHome > 0.5 ? -1.5 : 1.5]);
    }
    expect(games).toBeGreaterThan(5);
    expect(homeDogs).toBeGreaterThan(0);
  });
});

/**
 * An hour of simulated market, observed the way the detectors will see it: opportunities must
 * appear and disappear on their own, at a realistic rate and size.
 */
import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../../config/catalog.js';
import type { PriceInput, ProviderBatch, Quote, QuoteKey } from '../../../domain/types.js';
import { americanToDecimal, analyzeArbitrage, devig, evPercent } from '../../../math/index.js';
import { MarketSimulator } from './simulator.js';

const catalog = new Catalog();
/** Saturday 15 November 2025, 19:00 UTC: soccer, college football, tennis and basketball. */
const START = Date.UTC(2025, 10, 15, 19, 0);
const HOUR = 3_600_000;

function decimal(p: PriceInput): number {
  if (p.american !== undefined) return americanToDecimal(p.american);
  if (p.decimal !== undefined) return p.decimal;
  if (p.contract_price !== undefined) return 1 / p.contract_price;
  throw new Error('no price');
}

const eventKey = (q: { league: string; homeTeam: string; awayTeam: string; startTime: number }): string =>
  `${q.league}|${q.homeTeam}|${q.awayTeam}|${q.startTime}`;
/** Market group: event, market, line seen from the home side (spreads), player. */
const groupKey = (q: QuoteKey): string => {
  const line = q.line ?? null;
  const h =
    line !== null && (q.marketType === 'point_spread' || q.marketType === 'asian_handicap') && q.selectionType === 'away'
      ? -line + 0
      : line;
  return `${eventKey(q)}|${q.marketType}|${h ?? ''}|${q.playerName ?? ''}`;
};

/** The current quotes, grouped by market group, kept up to date from the batches. */
class LocalBoard {
  readonly groups = new Map<string, Map<string, Quote>>();
  readonly touched = new Set<string>();

  apply(b: ProviderBatch): void {
    for (const q of b.quotes) {
      const g = groupKey(q);
      let m = this.groups.get(g);
      if (!m) this.groups.set(g, (m = new Map()));
      m.set(`${q.book}|${q.selectionType}`, q);
      this.touched.add(g);
    }
    for (const r of b.removals ?? []) {
      const g = groupKey(r);
      this.groups.get(g)?.delete(`${r.book}|${r.selectionType}`);
      this.touched.add(g);
    }
    for (const e of b.eventRemovals ?? []) {
      const prefix = `${eventKey(e)}|`;
      for (const [g, m] of this.groups) {
        if (!g.startsWith(prefix)) continue;
        for (const [k, q] of m) if (!e.book || q.book === e.book) m.delete(k);
        this.touched.add(g);
      }
    }
  }

  size(): number {
    let n = 0;
    for (const m of this.groups.values()) n += m.size;
    return n;
  }
}

interface Episode {
  max: number;
  open: boolean;
}

describe('MarketSimulator over an hour', () => {
  it('produces arbitrages, +EV and middles that come and go, live games, suspensions and endings', () => {
    const sim = new MarketSimulator(catalog, { seed: 2024, events: 180, days: 7, tickMs: 1000, start: START });
    const board = new LocalBoard();
    const first = sim.start(START);
    board.apply(first);
    const initialSize = board.size();

    const open = new Map<string, Episode>();
    const episodes: Episode[] = [];
    const concurrent: number[] = [];
    const evSpots = new Set<string>();
    const middles = new Set<string>();
    let suspended = 0;
    let changes = 0;
    let polls = 0;
    let pollMs = 0;
    const ended = new Set<string>();
    const removedEvents = new Set<string>();
    const wentLive = new Set<string>();
    for (const e of first.events ?? []) if (e.status === 'live') wentLive.add(eventKey(e));

    const evaluate = (g: string): void => {
      const m = board.groups.get(g);
      const best = new Map<string, { d: number; book: string }>();
      let three = false;
      if (m) {
        for (const q of m.values()) {
          if (q.isActive === false) continue;
          if (q.selectionType === 'draw') three = true;
          const d = decimal(q.price);
          const cur = best.get(q.selectionType);
          if (!cur || cur.d < d) best.set(q.selectionType, { d, book: q.book });
        }
      }
      let profit: number | null = null;
      if (best.size === (three ? 3 : 2) && new Set([...best.values()].map((x) => x.book)).size > 1) {
        const a = analyzeArbitrage([...best.values()].map((x) => x.d));
        if (a.isArbitrage) profit = a.profitPercent;
      }
      const ep = open.get(g);
      if (profit !== null) {
        if (ep) ep.max = Math.max(ep.max, profit);
        else open.set(g, { max: profit, open: true });
      } else if (ep) {
        ep.open = false;
        episodes.push(ep);
        open.delete(g);
      }
      if (!m) return;
      // +EV against Pinnacle's devigged price, and middles between two books' main lines
      const pin = [...m.values()].filter((q) => q.book === 'pinnacle' && q.isActive !== false);
      if (pin.length === (three ? 3 : 2)) {
        const fair = devig(
          pin.map((q) => 1 / decimal(q.price)),
          'multiplicative',
        );
        for (const q of m.values()) {
          const def = catalog.book(q.book);
          if (def?.margin_profile !== 'soft' || q.isActive === false) continue;
          const i = pin.findIndex((p) => p.selectionType === q.selectionType);
          const p = fair[i];
          if (p !== undefined && evPercent(p, decimal(q.price)) > 0) evSpots.add(`${g}|${q.book}|${q.selectionType}`);
        }
      }
    };

    const findMiddles = (): void => {
      const sides = new Map<string, Array<{ book: string; kind: 'above' | 'below'; t: number; d: number }>>();
      for (const [g, m] of board.groups) {
        const parts = g.split('|');
        const market = parts[4];
        if (market !== 'point_spread' && market !== 'total_points') continue;
        const ev = `${parts.slice(0, 4).join('|')}|${market}`;
        for (const q of m.values()) {
          if (q.isActive === false || q.line === null || q.line === undefined) continue;
          const d = decimal(q.price);
          if (d < 1.8) continue;
          const kind = q.selectionType === 'home' || q.selectionType === 'over' ? 'above' : 'below';
          const t = q.selectionType === 'home' ? -q.line : q.line;
          const list = sides.get(ev) ?? [];
          list.push({ book: q.book, kind, t, d });
          sides.set(ev, list);
        }
      }
      for (const [ev, list] of sides) {
        for (const a of list) {
          if (a.kind !== 'above') continue;
          for (const b of list) {
            if (b.kind === 'below' && b.book !== a.book && b.t > a.t) middles.add(`${ev}|${a.book}|${a.t}|${b.book}|${b.t}`);
          }
        }
      }
    };

    for (let t = START + 2_000; t <= START + HOUR; t += 2_000) {
      const t0 = performance.now();
      const b = sim.poll(t);
      pollMs += performance.now() - t0;
      polls++;
      changes += b.quotes.length;
      for (const q of b.quotes) if (q.isActive === false) suspended++;
      for (const e of b.events ?? []) {
        if (e.status === 'live') wentLive.add(eventKey(e));
        if (e.status === 'ended') ended.add(eventKey(e));
      }
      for (const e of b.eventRemovals ?? []) removedEvents.add(eventKey(e));
      board.apply(b);
      for (const g of board.touched) evaluate(g);
      board.touched.clear();
      if ((t - START) % 300_000 === 0) {
        concurrent.push(open.size);
        findMiddles();
      }
    }
    // let the books of games that just finished withdraw
    for (let t = START + HOUR + 10_000; t <= START + HOUR + 60_000; t += 10_000) {
      const b = sim.poll(t);
      for (const e of b.events ?? []) if (e.status === 'ended') ended.add(eventKey(e));
      for (const e of b.eventRemovals ?? []) removedEvents.add(eventKey(e));
      board.apply(b);
    }
    const all = [...episodes, ...open.values()];
    const inBand = all.filter((e) => e.max >= 0.5 && e.max <= 3).length;
    const above5 = all.filter((e) => e.max > 5).length;
    // a sanity log of the rates (timings are not asserted)
    console.log(
      `simulator hour: board ${initialSize} -> ${board.size()} quotes, ${(changes / polls).toFixed(0)} changes/poll (2 s), ` +
        `${(pollMs / polls).toFixed(2)} ms/poll; arbitrages: ${all.length} episodes, ${episodes.length} closed, ` +
        `${inBand} in 0.5-3%, ${above5} above 5%, concurrent ${concurrent.join('/')}; +EV spots ${evSpots.size}; ` +
        `middles ${middles.size}; suspended quotes ${suspended}; live ${wentLive.size}, ended ${ended.size}`,
    );

    expect(initialSize).toBeGreaterThan(50_000);
    expect(all.length).toBeGreaterThan(20);
    expect(episodes.length).toBeGreaterThan(10);
    expect(inBand / all.length).toBeGreaterThan(0.5);
    expect(above5 / all.length).toBeLessThan(0.1);
    expect(Math.max(...concurrent)).toBeLessThan(80);
    expect(evSpots.size).toBeGreaterThan(0);
    expect(middles.size).toBeGreaterThan(0);
    expect(suspended).toBeGreaterThan(0);
    expect(wentLive.size).toBeGreaterThan(6);
    expect(ended.size).toBeGreaterThan(0);
    for (const e of ended) {
      expect(removedEvents.has(e)).toBe(true);
      for (const [g, m] of board.groups) if (g.startsWith(`${e}|`)) expect(m.size).toBe(0);
    }
  }, 300_000);
});

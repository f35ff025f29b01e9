import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../../config/catalog.js';
import type { PriceInput, ProviderBatch, Quote, QuoteKey } from '../../../domain/types.js';
import { americanToDecimal } from '../../../math/index.js';
import { MarketSimulator } from './simulator.js';

const catalog = new Catalog();
/** Saturday 15 November 2025, 19:00 UTC. */
const START = Date.UTC(2025, 10, 15, 19, 0);
const DAY = 86_400_000;

function decimal(p: PriceInput): number {
  if (p.american !== undefined) return americanToDecimal(p.american);
  if (p.decimal !== undefined) return p.decimal;
  if (p.contract_price !== undefined) return 1 / p.contract_price;
  throw new Error('no price');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

const sim = new MarketSimulator(catalog, { seed: 7, events: 180, days: 7, tickMs: 1000, start: START });
const board = sim.start(START);

describe('MarketSimulator determinism', () => {
  const run = (seed: number): ProviderBatch[] => {
    const s = new MarketSimulator(catalog, { seed, events: 60, days: 3, tickMs: 1000, start: START });
    const out: ProviderBatch[] = [s.start(START)];
    for (const dt of [1_000, 2_000, 5_000, 20_000, 60_000, 61_000, 180_000]) out.push(s.poll(START + dt));
    return out;
  };

  it('gives identical batches for the same seed, start and poll times', () => {
    expect(run(11)).toEqual(run(11));
  });

  it('catching up in turns (prepare) reaches the same market as catching up at once', async () => {
    const later = START + 40 * 60_000; // a worker taking over 40 minutes into the hour
    const direct = new MarketSimulator(catalog, { seed: 5, events: 60, days: 3, tickMs: 1000, start: START });
    const stepped = new MarketSimulator(catalog, { seed: 5, events: 60, days: 3, tickMs: 1000, start: START });
    await stepped.prepare(later);
    const a = direct.start(later);
    const b = stepped.start(later);
    expect(b.quotes.length).toBeGreaterThan(1000);
    expect(b).toEqual(a);
    expect(stepped.poll(later + 5000)).toEqual(direct.poll(later + 5000));
  });

  it('a read between two turns of prepare() finishes the warm-up once, at that moment: the market is the same', async () => {
    const later = START + 10 * 60_000;
    const direct = new MarketSimulator(catalog, { seed: 5, events: 60, days: 3, tickMs: 1000, start: START });
    const stepped = new MarketSimulator(catalog, { seed: 5, events: 60, days: 3, tickMs: 1000, start: START });
    const preparing = stepped.prepare(later, 0); // a turn of the event loop after every step
    await new Promise((r) => setImmediate(r));
    expect(stepped.eventCount()).toBe(direct.eventCount());
    await preparing;
    const b = stepped.start(later);
    expect(b.quotes.length).toBeGreaterThan(1000);
    expect(b).toEqual(direct.start(later));
    expect(stepped.poll(later + 5000)).toEqual(direct.poll(later + 5000));
  });

  it('gives a different market for another seed', () => {
    const a = run(11);
    const b = run(12);
    expect(a[0]?.quotes).not.toEqual(b[0]?.quotes);
  });

  it('evolves the same world whatever the poll cadence', () => {
    const mk = (): MarketSimulator => new MarketSimulator(catalog, { seed: 5, events: 40, days: 2, tickMs: 1000, start: START });
    const fine = mk();
    const coarse = mk();
    const current = (s: MarketSimulator, polls: number[]): Map<string, number> => {
      const m = new Map<string, number>();
      const key = (q: {
        book: string;
        homeTeam: string;
        marketType: string;
        line?: number | null;
        selectionType: string;
        playerName?: string | null;
      }): string => `${q.book}|${q.homeTeam}|${q.marketType}|${q.line ?? ''}|${q.selectionType}|${q.playerName ?? ''}`;
      const apply = (b: ProviderBatch): void => {
        for (const q of b.quotes) m.set(key(q), decimal(q.price));
        for (const r of b.removals ?? []) m.delete(key(r));
        for (const e of b.eventRemovals ?? []) for (const k of [...m.keys()]) if (k.startsWith(`${e.book}|${e.homeTeam}|`)) m.delete(k);
      };
      apply(s.start(START));
      for (const t of polls) apply(s.poll(t));
      return m;
    };
    const a = current(
      fine,
      Array.from({ length: 120 }, (_, i) => START + (i + 1) * 1000),
    );
    const b = current(coarse, [START + 30_000, START + 120_000]);
    expect(a).toEqual(b);
  });
});

describe('MarketSimulator fixtures', () => {
  const events = board.events ?? [];

  it('lists about the requested number of events within the horizon, across sports and leagues', () => {
    expect(events.length).toBeGreaterThanOrEqual(150);
    for (const e of events) expect(e.startTime).toBeLessThan(START + 7 * DAY);
    const leagues = new Set(events.map((e) => e.league));
    const sports = new Set(events.map((e) => catalog.league(e.league)?.sport));
    expect(sports.size).toBeGreaterThanOrEqual(6);
    expect(leagues.size).toBeGreaterThanOrEqual(12);
    expect(leagues.has('mlb')).toBe(false);
    expect(leagues.has('wnba')).toBe(false);
  });

  it('uses catalog teams, and has several games already in progress across sports', () => {
    for (const e of events) {
      expect(catalog.team(e.league, e.homeTeam)?.name).toBe(e.homeTeam);
      expect(catalog.team(e.league, e.awayTeam)?.name).toBe(e.awayTeam);
    }
    const live = events.filter((e) => e.status === 'live');
    expect(live.filter((e) => e.startTime < START).length).toBeGreaterThanOrEqual(6);
    expect(new Set(live.map((e) => catalog.league(e.league)?.sport)).size).toBeGreaterThanOrEqual(2);
    for (const e of live) {
      expect(e.startTime).toBeLessThanOrEqual(START);
      expect(e.gameState).toBeDefined();
      expect(typeof e.gameState?.game_period).toBe('string');
    }
    expect(live.some((e) => (e.gameState?.home_score ?? 0) + (e.gameState?.away_score ?? 0) > 0)).toBe(true);
  });

  it('never has a team play twice on one day', () => {
    const seen = new Set<string>();
    for (const e of events) {
      const day = new Date(e.startTime).toISOString().slice(0, 10);
      const sport = catalog.league(e.league)?.sport ?? '';
      for (const team of [e.homeTeam, e.awayTeam]) {
        // (college programmes share a name across sports: Tennessee basketball and football are two teams)
        const k = `${sport}|${team}|${day}`;
        expect(seen.has(k)).toBe(false);
        seen.add(k);
      }
    }
  });

  it('schedules leagues on their usual days (NFL Sun/Mon/Thu, NCAAF Fri/Sat, UFC Saturday)', () => {
    const dow = (t: number, tz: string): string => new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short' }).format(new Date(t));
    for (const e of events) {
      if (e.league === 'nfl') expect(['Sun', 'Mon', 'Thu']).toContain(dow(e.startTime, 'America/New_York'));
      if (e.league === 'ncaaf') expect(['Fri', 'Sat']).toContain(dow(e.startTime, 'America/New_York'));
      if (e.league === 'ufc') expect(dow(e.startTime, 'America/New_York')).toBe('Sat');
    }
  });
});

describe('MarketSimulator books and markets', () => {
  const quotes = board.quotes;

  it('has a full board of realistic size from every listed book', () => {
    expect(quotes.length).toBeGreaterThan(40_000);
    expect(quotes.length).toBeLessThan(150_000);
    const books = new Set(quotes.map((q) => q.book));
    for (const b of catalog.listedBooks()) expect(books.has(b.id)).toBe(true);
    for (const q of quotes) expect(catalog.book(q.book)?.unlisted).toBe(false);
  });

  it('uses the documented market and selection types', () => {
    const allowed: Record<string, string[]> = {
      moneyline: ['home', 'away', 'draw'],
      point_spread: ['home', 'away'],
      asian_handicap: ['home', 'away'],
      total_points: ['over', 'under'],
    };
    for (const q of quotes) {
      expect(q.period).toBe('game');
      expect(typeof q.externalEventId).toBe('string');
      if (q.marketType.startsWith('player_')) {
        expect(['over', 'under']).toContain(q.selectionType);
        expect(q.playerName).toBeTruthy();
        expect(q.statCategory).toBeTruthy();
        expect(Math.abs(((q.line ?? 0) % 1) - 0.5)).toBeLessThan(1e-9);
        expect(catalog.book(q.book)?.has_player_props).toBe(true);
      } else {
        expect(allowed[q.marketType]).toContain(q.selectionType);
      }
      if (q.marketType === 'moneyline') expect(q.line).toBeNull();
      if (q.selectionType === 'draw') expect(q.selection).toBe('Draw');
      if (q.selectionType === 'over') expect(q.selection).toBe('Over');
      if (q.selectionType === 'home') expect(q.selection).toBe(q.homeTeam);
      if (q.selectionType === 'away') expect(q.selection).toBe(q.awayTeam);
    }
  });

  it('gives soccer moneylines a draw, and quarter lines only as asian_handicap', () => {
    const soccerMl = quotes.filter((q) => catalog.league(q.league)?.sport === 'soccer' && q.marketType === 'moneyline');
    const byBookEvent = new Map<string, Set<string>>();
    for (const q of soccerMl) {
      const k = `${q.book}|${q.homeTeam}`;
      const s = byBookEvent.get(k) ?? new Set<string>();
      s.add(q.selectionType);
      byBookEvent.set(k, s);
    }
    expect(byBookEvent.size).toBeGreaterThan(100);
    for (const s of byBookEvent.values()) expect([...s].sort()).toEqual(['away', 'draw', 'home']);
    let asian = 0;
    for (const q of quotes) {
      const quarter = q.line !== null && q.line !== undefined && Math.abs((q.line * 4) % 2) === 1;
      if (q.marketType === 'asian_handicap') {
        asian++;
        expect(quarter).toBe(true);
        expect(['pinnacle', 'saba', 'bet365']).toContain(q.book);
      } else {
        expect(quarter).toBe(false);
      }
    }
    expect(asian).toBeGreaterThan(0);
  });

  it('prices in each book class format (American to the cent / to 5 cents, decimals, contracts)', () => {
    for (const q of quotes) {
      const book = catalog.book(q.book);
      if (!book) throw new Error(q.book);
      if (book.margin_profile === 'prediction') {
        expect(q.marketType).toBe('moneyline');
        const c = q.price.contract_price ?? 0;
        expect(c).toBeGreaterThanOrEqual(0.01);
        expect(c).toBeLessThanOrEqual(0.99);
        expect(Math.abs(c * 100 - Math.round(c * 100))).toBeLessThan(1e-9);
      } else if (book.margin_profile === 'exchange') {
        expect(q.price.decimal).toBeGreaterThan(1);
      } else if (book.class === 'us' && book.margin_profile === 'soft') {
        const a = q.price.american ?? 0;
        expect(Math.abs(a)).toBeGreaterThanOrEqual(100);
        expect(Math.abs(a) % 5).toBe(0);
      }
    }
  });

  it('keeps two-way overrounds of sharp books near 2-3% and of soft books near 4-8%', () => {
    const markets = new Map<string, Quote[]>();
    for (const q of quotes) {
      if (q.isLive || q.marketType.startsWith('player_') || q.marketType === 'asian_handicap') continue;
      if (catalog.league(q.league)?.sport === 'soccer' && q.marketType === 'moneyline') continue;
      const line = q.marketType === 'point_spread' && q.selectionType === 'away' ? -(q.line ?? 0) : q.line;
      const k = `${q.book}|${q.homeTeam}|${q.startTime}|${q.marketType}|${line ?? ''}`;
      const list = markets.get(k) ?? [];
      list.push(q);
      markets.set(k, list);
    }
    const byBook = new Map<string, number[]>();
    for (const [k, list] of markets) {
      if (list.length !== 2) continue;
      const [a, b] = list as [Quote, Quote];
      const o = 1 / decimal(a.price) + 1 / decimal(b.price) - 1;
      const book = k.split('|')[0] ?? '';
      const arr = byBook.get(book) ?? [];
      arr.push(o);
      byBook.set(book, arr);
    }
    for (const [book, os] of byBook) {
      const def = catalog.book(book);
      const m = median(os);
      if (def?.margin_profile === 'sharp') {
        expect(m).toBeGreaterThanOrEqual(0.015);
        expect(m).toBeLessThanOrEqual(0.035);
      } else if (def?.margin_profile === 'soft') {
        expect(m).toBeGreaterThanOrEqual(0.035);
        expect(m).toBeLessThanOrEqual(0.09);
      } else {
        expect(m).toBeGreaterThanOrEqual(0);
        expect(m).toBeLessThanOrEqual(0.035);
      }
    }
    expect(byBook.get('pinnacle')?.length).toBeGreaterThan(500);
  });

  it('offers player props on NBA, NFL and NHL near the catalog averages, books differing a little', () => {
    const props = quotes.filter((q) => q.marketType.startsWith('player_') && q.selectionType === 'over');
    const leagues = new Set(props.map((q) => q.league));
    for (const l of ['nba', 'nfl', 'nhl']) expect(leagues.has(l)).toBe(true);
    const players = new Map(catalog.players.map((p) => [p.name, p]));
    const lines = new Map<string, number[]>();
    for (const q of props) {
      const base = players.get(q.playerName ?? '')?.props[q.statCategory ?? ''];
      expect(base).toBeDefined();
      expect(Math.abs((q.line ?? 0) - (base ?? 0))).toBeLessThan(Math.max(2.5, 0.25 * (base ?? 0)));
      const k = `${q.homeTeam}|${q.playerName}|${q.marketType}`;
      lines.set(k, [...(lines.get(k) ?? []), q.line ?? 0]);
    }
    const spreads = [...lines.values()].map((ls) => Math.max(...ls) - Math.min(...ls));
    expect(spreads.some((s) => s >= 0.5 && s <= 2)).toBe(true);
  });
});

describe('MarketSimulator splits', () => {
  it('reports DraftKings and Circa splits every minute with coherent shares', () => {
    const s = new MarketSimulator(catalog, { seed: 3, events: 80, days: 4, tickMs: 1000, start: START });
    s.start(START);
    const splits = [];
    for (let t = START + 5_000; t <= START + 180_000; t += 5_000) splits.push(...(s.poll(t).splits ?? []));
    expect(splits.length).toBeGreaterThan(50);
    expect(new Set(splits.map((x) => x.book))).toEqual(new Set(['draftkings', 'circa']));
    const dkFav: number[] = [];
    const circaFav: number[] = [];
    for (const x of splits) {
      expect(x.fetchedAt).toBeGreaterThan(START);
      const pairs: Array<[number, number]> = [];
      if (x.moneyline) {
        pairs.push([x.moneyline.bets_pct.home, x.moneyline.bets_pct.away], [x.moneyline.handle_pct.home, x.moneyline.handle_pct.away]);
        const homeFav = americanToDecimal(x.moneyline.home_odds) < americanToDecimal(x.moneyline.away_odds);
        (x.book === 'draftkings' ? dkFav : circaFav).push(homeFav ? x.moneyline.bets_pct.home : x.moneyline.bets_pct.away);
      }
      if (x.spread) {
        pairs.push([x.spread.bets_pct.home, x.spread.bets_pct.away], [x.spread.handle_pct.home, x.spread.handle_pct.away]);
        expect(x.spread.home_line).toBeCloseTo(-x.spread.away_line, 9);
      }
      if (x.total) pairs.push([x.total.bets_pct.over, x.total.bets_pct.under], [x.total.handle_pct.over, x.total.handle_pct.under]);
      for (const [a, b] of pairs) {
        expect(a).toBeGreaterThanOrEqual(0);
        expect(a).toBeLessThanOrEqual(1);
        expect(b).toBeGreaterThanOrEqual(0);
        expect(a + b).toBeCloseTo(1, 9);
      }
    }
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(dkFav)).toBeGreaterThan(0.55);
    expect(Math.abs(mean(circaFav) - 0.5)).toBeLessThan(Math.abs(mean(dkFav) - 0.5));
  });
});

describe('MarketSimulator end-of-game lock', () => {
  it('suspends the retail books near the end of a football or basketball game while sharp books and exchanges trade on', () => {
    const s = new MarketSimulator(catalog, { seed: 3, events: 120, days: 1, tickMs: 1000, start: START });
    // The last state of every price, per (event, book).
    const state = new Map<string, Map<string, boolean>>();
    const evKey = (q: { league: string; homeTeam: string; awayTeam: string }) => `${q.league}|${q.homeTeam}|${q.awayTeam}`;
    const rowKey = (q: QuoteKey) => `${q.book}|${q.marketType}|${q.period ?? ''}|${q.selection}|${q.line ?? ''}|${q.playerName ?? ''}`;
    const take = (b: ProviderBatch) => {
      for (const q of b.quotes) {
        if (!state.has(evKey(q))) state.set(evKey(q), new Map());
        state.get(evKey(q))!.set(rowKey(q), q.isActive !== false);
      }
      for (const q of b.removals ?? []) state.get(evKey(q))?.delete(rowKey(q));
      for (const e of b.eventRemovals ?? []) {
        const m = state.get(evKey(e));
        for (const k of [...(m?.keys() ?? [])]) if (!e.book || k.startsWith(`${e.book}|`)) m!.delete(k);
      }
    };
    take(s.start(START));
    const events = (
      s as unknown as {
        w: { events: Map<number, { locked: boolean; status: string; league: { id: string }; home: string; away: string }> };
      }
    ).w.events;
    let locked: { locked: boolean; league: { id: string }; home: string; away: string } | undefined;
    let lockSeenAt = 0;
    for (let t = START + 5_000; t < START + 8 * 3600_000 && !locked; t += 5_000) {
      take(s.poll(t));
      locked = [...events.values()].find((e) => e.locked && e.status === 'live');
      lockSeenAt = t;
    }
    expect(locked).toBeDefined();
    const key = [...state.keys()].find(
      (k) => k.startsWith(`${locked!.league.id}|`) && k.includes(locked!.home) && k.includes(locked!.away),
    )!;
    const tradesOn = (book: string) => ['sharp', 'exchange'].includes(catalog.book(book)?.margin_profile ?? '');
    // While the lock lasts (polled every 2 s for up to a minute): no retail price is ever open, and the sharp
    // books reopen after their own short suspensions.
    let retailOpen = 0;
    let sharpOpen = 0;
    for (let t = lockSeenAt + 2_000; t <= lockSeenAt + 60_000 && locked!.locked; t += 2_000) {
      take(s.poll(t));
      for (const [k, active] of state.get(key)!) {
        if (!active) continue;
        if (tradesOn(k.split('|')[0]!)) sharpOpen++;
        else retailOpen++;
      }
    }
    expect(retailOpen).toBe(0);
    expect(sharpOpen).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Catalog } from '../../../config/catalog.js';
import type { Quote } from '../../../domain/types.js';
import { OddsBoard } from '../../board/odds-board.js';
import { IngestionPipeline } from '../../ingestion/pipeline.js';
import { ARB_PROFIT_CAP, detectArbitrage, detectEv, detectLowHold, detectMiddles, type DetectContext } from './detectors.js';

const catalog = new Catalog();
const NOW = Date.parse('2026-11-22T12:00:00Z');
const KICK = Date.parse('2026-11-23T18:00:00Z');
const all = () => true;

function boardWith(quotes: Quote[]): { ctx: DetectContext; board: OddsBoard } {
  const board = new OddsBoard();
  const pipe = new IngestionPipeline(catalog, board);
  const r = pipe.process({ source: 'test', quotes }, NOW);
  expect(r.report.rejected).toEqual({});
  board.applyChangeSet(r.changeSet);
  return { ctx: { board, catalog, now: NOW }, board };
}

const nfl = (book: string, over: Partial<Quote>): Quote => ({
  book,
  league: 'nfl',
  homeTeam: 'Kansas City Chiefs',
  awayTeam: 'Buffalo Bills',
  startTime: KICK,
  marketType: 'moneyline',
  selection: 'Kansas City Chiefs',
  selectionType: 'home',
  line: null,
  price: { american: -110 },
  ...over,
});
const home = (book: string, price: Quote['price'], over: Partial<Quote> = {}) => nfl(book, { price, ...over });
const away = (book: string, price: Quote['price'], over: Partial<Quote> = {}) => nfl(book, { selection: 'Buffalo Bills', selectionType: 'away', price, ...over });

const groupOf = (board: OddsBoard, market = 'moneyline', line: number | null = null) =>
  [...board.rows.values()].find((r) => r.marketType === market && r.groupLine === line)!.groupKey;

describe('arbitrage detection', () => {
  it('finds a two-way arbitrage across books with the stake split and profit computed by hand', () => {
    // DK home +110 (2.10), FD away +105 (2.05): 1/2.10 + 1/2.05 = 0.476190 + 0.487805 = 0.963995
    // implied_total 96.3995 %, profit = 100/0.963995 - 100 = 3.7350 %, stakes 49.3974 / 50.6026
    const { ctx, board } = boardWith([home('draftkings', { american: 110 }), away('draftkings', { american: -130 }), home('fanduel', { american: -125 }), away('fanduel', { american: 105 })]);
    const a = detectArbitrage(ctx, groupOf(board), all)!;
    expect(a.legs.map((l) => [l.row.sportsbook, l.row.selectionType])).toEqual([['draftkings', 'home'], ['fanduel', 'away']]);
    expect(a.impliedTotal).toBeCloseTo(96.3995, 3);
    expect(a.profitPercent).toBeCloseTo(3.735, 3);
    expect(a.legs.map((l) => l.stakePercent)).toEqual([expect.closeTo(49.3974, 3), expect.closeTo(50.6026, 3)]);
    // Both legs pay the same: 49.3974 x 2.10 = 103.735 = 50.6026 x 2.05
    expect(a.legs[0]!.stakePercent * 2.1).toBeCloseTo(a.legs[1]!.stakePercent * 2.05, 6);
    expect(a.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('finds none when the best prices sum to 100% or more', () => {
    const { ctx, board } = boardWith([home('draftkings', { american: -110 }), away('draftkings', { american: -110 }), home('fanduel', { american: 100 }), away('fanduel', { american: -120 })]);
    // best: home 2.00, away 1.9091: 0.5 + 0.5238 = 1.0238
    expect(detectArbitrage(ctx, groupOf(board), all)).toBeNull();
  });

  it('never uses a suspended price', () => {
    const { ctx, board } = boardWith([home('draftkings', { american: 110 }, { isActive: false }), away('draftkings', { american: -130 }), home('fanduel', { american: -125 }), away('fanduel', { american: 105 })]);
    expect(detectArbitrage(ctx, groupOf(board), all)).toBeNull();
  });

  it('leaves out anything above the 10% cap as a data error', () => {
    const { ctx, board } = boardWith([home('draftkings', { decimal: 2.5 }), away('fanduel', { decimal: 2.5 })]);
    // 0.4 + 0.4 = 0.8: 25% "profit"
    expect(detectArbitrage(ctx, groupOf(board), all)).toBeNull();
    expect(ARB_PROFIT_CAP).toBe(10);
  });

  it('respects the book scope', () => {
    const { ctx, board } = boardWith([home('draftkings', { american: 110 }), away('draftkings', { american: -130 }), home('fanduel', { american: -125 }), away('fanduel', { american: 105 })]);
    expect(detectArbitrage(ctx, groupOf(board), (b) => b !== 'fanduel')).toBeNull();
  });

  it('handles a three-way soccer market and needs all three outcomes', () => {
    const soccer = (book: string, sel: string, type: string, decimal: number): Quote => ({ book, league: 'epl', homeTeam: 'Arsenal', awayTeam: 'Chelsea', startTime: KICK, marketType: 'moneyline', selection: sel, selectionType: type, line: null, price: { decimal } });
    // 1/2.9 + 1/3.7 + 1/3.9 = 0.344828 + 0.270270 + 0.256410 = 0.871508 -> profit 14.74%: too high, use 2.6/3.5/3.6:
    // 1/2.6 + 1/3.5 + 1/3.6 = 0.384615 + 0.285714 + 0.277778 = 0.948107 -> profit 5.4733%
    const { ctx, board } = boardWith([soccer('bet365', 'Arsenal', 'home', 2.6), soccer('betway', 'Draw', 'draw', 3.5), soccer('skybet', 'Chelsea', 'away', 3.6), soccer('bet365', 'Chelsea', 'away', 3.0)]);
    const a = detectArbitrage(ctx, groupOf(board), all)!;
    expect(a.legs.map((l) => l.row.sportsbook)).toEqual(['bet365', 'betway', 'skybet']);
    expect(a.impliedTotal).toBeCloseTo(94.8107, 3);
    expect(a.profitPercent).toBeCloseTo(5.4733, 3);
    expect(a.legs.reduce((s, l) => s + l.stakePercent, 0)).toBeCloseTo(100, 9);
    const incomplete = boardWith([soccer('bet365', 'Arsenal', 'home', 2.6), soccer('skybet', 'Chelsea', 'away', 3.6)]);
    expect(detectArbitrage(incomplete.ctx, groupOf(incomplete.board), all)).toBeNull();
  });

  it('pairs a spread only with its complement at the same line', () => {
    const { ctx, board } = boardWith([
      home('draftkings', { american: 120 }, { marketType: 'point_spread', line: -3.5 }),
      away('fanduel', { american: 120 }, { marketType: 'point_spread', line: 2.5 }),
    ]);
    for (const g of new Set([...board.rows.values()].map((r) => r.groupKey))) expect(detectArbitrage(ctx, g, all)).toBeNull();
  });

  it('property: every arbitrage returned checks out, and one is returned exactly when the best prices of the sound books sum below 1', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: 1.2, max: 4, noNaN: true }), fc.double({ min: 1.2, max: 4, noNaN: true })), { minLength: 1, maxLength: 5 }), (prices) => {
        const books = ['draftkings', 'fanduel', 'betmgm', 'caesars', 'bet365'];
        const quotes = prices.flatMap(([h, a], i) => [home(books[i]!, { decimal: Math.round(h * 1000) / 1000 }), away(books[i]!, { decimal: Math.round(a * 1000) / 1000 })]);
        const { ctx, board } = boardWith(quotes);
        // These are retail sportsbooks: a book whose own two prices sum below 99.9% (it crosses itself) or above
        // 117% (7% usual hold + 10 points) is a data problem and is left out.
        const own = (book: string) => quotes.filter((q) => q.book === book).reduce((s, q) => s + 1 / q.price.decimal!, 0);
        const sound = quotes.filter((q) => own(q.book) >= 0.999 && own(q.book) <= 1.17);
        if (!sound.some((q) => q.selectionType === 'home') || !sound.some((q) => q.selectionType === 'away')) {
          expect(detectArbitrage(ctx, groupOf(board), all)).toBeNull();
          return;
        }
        const best = [Math.max(...sound.filter((q) => q.selectionType === 'home').map((q) => q.price.decimal!)), Math.max(...sound.filter((q) => q.selectionType === 'away').map((q) => q.price.decimal!))];
        const sum = 1 / best[0]! + 1 / best[1]!;
        const a = detectArbitrage(ctx, groupOf(board), all);
        const profit = (1 / sum - 1) * 100;
        expect(Boolean(a)).toBe(sum < 1 && profit > 0 && profit <= ARB_PROFIT_CAP);
        if (!a) return;
        expect(a.impliedTotal).toBeLessThan(100);
        expect(a.impliedTotal).toBeCloseTo(sum * 100, 9);
        expect(a.profitPercent).toBeCloseTo(10_000 / a.impliedTotal - 100, 9);
        expect(a.profitPercent).toBeLessThanOrEqual(10);
        expect(a.legs.reduce((s, l) => s + l.stakePercent, 0)).toBeCloseTo(100, 9);
        for (const l of a.legs) expect(l.stakePercent).toBeCloseTo(((1 / l.row.decimal) / sum) * 100, 9);
      }),
      { numRuns: 200 },
    );
  });
});

describe('+EV detection', () => {
  // Pinnacle -115 / +105, stored as decimal 1.8696 / 2.05: implied 0.534874 + 0.487805 = 1.022679.
  const market = () => [
    home('pinnacle', { american: -115 }),
    away('pinnacle', { american: 105 }),
    home('draftkings', { american: -105 }),
    away('draftkings', { american: -115 }),
    home('fanduel', { american: -120 }),
    away('fanduel', { american: 100 }),
  ];

  it('devigs the sharp line with every method and prices other books against it', () => {
    const { ctx, board } = boardWith(market());
    const evs = detectEv(ctx, groupOf(board));
    const dk = evs.find((e) => e.row.sportsbook === 'draftkings' && e.row.selectionType === 'home')!;
    expect(dk.sharpBook).toBe('pinnacle');
    // multiplicative: 0.534874 / 1.022679 = 0.523013; DK -105 is 1.9524: EV = 0.523013 x 1.9524 - 1 = +2.1130 %
    expect(dk.fair.multiplicative).toBeCloseTo(0.523013, 5);
    expect((dk.fair.multiplicative * dk.row.decimal - 1) * 100).toBeCloseTo(2.113, 2);
    // additive: 0.534874 - 0.022679 / 2 = 0.523534
    expect(dk.fair.additive).toBeCloseTo(0.523534, 5);
    // power: k with 0.534884^k + 0.487805^k = 1 gives 0.52379 (math library, independently checked)
    expect(dk.fair.power).toBeCloseTo(0.52379, 4);
    expect(dk.fair.worst_case).toBeLessThanOrEqual(Math.min(dk.fair.multiplicative, dk.fair.additive, dk.fair.power, dk.fair.shin) + 1e-12);
    for (const m of ['multiplicative', 'additive', 'power', 'shin'] as const) expect(dk.fair[m]).toBeGreaterThan(0.5);
    expect(dk.marketWidth).toBe(10);
    expect(dk.bookCount).toBe(3);
  });

  it('reports nothing for prices at or below fair value, nor for the sharp book itself', () => {
    const { ctx, board } = boardWith(market());
    const evs = detectEv(ctx, groupOf(board));
    expect(evs.some((e) => e.row.sportsbook === 'pinnacle')).toBe(false);
    // FanDuel home -120 (1.8333): 0.523 x 1.8333 < 1
    expect(evs.some((e) => e.row.sportsbook === 'fanduel' && e.row.selectionType === 'home')).toBe(false);
  });

  it('needs a complete sharp market', () => {
    const { ctx, board } = boardWith([home('pinnacle', { american: -115 }), home('draftkings', { american: 150 }), away('draftkings', { american: -170 })]);
    expect(detectEv(ctx, groupOf(board))).toEqual([]);
  });
});

describe('middles detection', () => {
  // DK Chiefs -2.5 -110 / Bills +2.5 -110 (main -2.5); FD Chiefs -7.5 -112 / Bills +7.5 -108 (main -7.5).
  const quotes = () => [
    home('draftkings', { american: -110 }, { marketType: 'point_spread', line: -2.5 }),
    away('draftkings', { american: -110 }, { marketType: 'point_spread', line: 2.5 }),
    home('fanduel', { american: -112 }, { marketType: 'point_spread', line: -7.5 }),
    away('fanduel', { american: -108 }, { marketType: 'point_spread', line: 7.5 }),
  ];

  it('finds the Chiefs -2.5 / Bills +7.5 middle: numbers 3..7, key numbers 3 and 7, stakes for equal payouts', () => {
    const { ctx, board } = boardWith(quotes());
    const ladder = [...board.rows.values()][0]!.ladderKey;
    const ms = detectMiddles(ctx, ladder, all);
    expect(ms).toHaveLength(1);
    const m = ms[0]!;
    expect(m.id).toMatch(/^[0-9a-f]{16}$/);
    expect([m.side1.row.sportsbook, m.side1.row.line, m.side2.row.sportsbook, m.side2.row.line]).toEqual(['draftkings', -2.5, 'fanduel', 7.5]);
    const a = m.analysis;
    expect(a.middleSize).toBe(5);
    expect(a.middleNumbers).toEqual([3, 4, 5, 6, 7]);
    expect(a.keyNumbers).toEqual([3, 7]);
    // stakes proportional to 1/decimal: 1/1.9091 = 0.523807, 1/1.9259 = 0.519238 -> 50.2190 / 49.7810 (of 100)
    expect(a.stakePercent[0]).toBeCloseTo(50.219, 3);
    // one side wins: 100 / (0.523807 + 0.519238) - 100 = -4.1268; both win: 2 x 95.8732 - 100 = +91.7465
    expect(a.worstCaseLoss).toBeCloseTo(-4.1268, 3);
    expect(a.bestCaseProfit).toBeCloseTo(91.7465, 3);
    expect(a.middleProbability).toBeGreaterThan(0.2);
    expect(m.qualityScore).toBeGreaterThan(0);
  });

  it('finds none when the lines leave no gap, or between alternate rungs of the same books', () => {
    const none = boardWith([
      home('draftkings', { american: -110 }, { marketType: 'point_spread', line: -3.5 }),
      away('draftkings', { american: -110 }, { marketType: 'point_spread', line: 3.5 }),
      home('fanduel', { american: -110 }, { marketType: 'point_spread', line: -3.5 }),
      away('fanduel', { american: -110 }, { marketType: 'point_spread', line: 3.5 }),
      home('fanduel', { american: 160 }, { marketType: 'point_spread', line: -7.5 }),
      away('draftkings', { american: 160 }, { marketType: 'point_spread', line: 0.5 }),
    ]);
    const ladder = [...none.board.rows.values()][0]!.ladderKey;
    expect(detectMiddles(none.ctx, ladder, all)).toEqual([]);
  });

  it('property: middle numbers lie strictly inside the gap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 10 }), (a, gap) => {
        const h = -(a + 0.5);
        const b = a + 0.5 + gap;
        const { ctx, board } = boardWith([
          home('draftkings', { american: -110 }, { marketType: 'point_spread', line: h }),
          away('draftkings', { american: -110 }, { marketType: 'point_spread', line: -h }),
          home('fanduel', { american: -110 }, { marketType: 'point_spread', line: -b }),
          away('fanduel', { american: -110 }, { marketType: 'point_spread', line: b }),
        ]);
        for (const m of detectMiddles(ctx, [...board.rows.values()][0]!.ladderKey, all)) {
          for (const n of m.analysis.middleNumbers) {
            expect(n).toBeGreaterThan(m.side1.threshold);
            expect(n).toBeLessThan(m.side2.threshold);
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('low-hold detection', () => {
  it('measures the hold of the best prices', () => {
    // best home -105 (1.952381), best away +100 (2.0): 0.512195 + 0.5 = 1.012195 -> hold 1.2195 %
    const { ctx, board } = boardWith([home('draftkings', { american: -105 }), away('draftkings', { american: -115 }), home('fanduel', { american: -120 }), away('fanduel', { american: 100 })]);
    const h = detectLowHold(ctx, groupOf(board), all)!;
    expect(h.holdPercent).toBeCloseTo(1.2195, 3);
    expect(h.sides.map((s) => s.books)).toEqual([['draftkings'], ['fanduel']]);
    expect(h.sides.reduce((s, x) => s + x.fairProbability, 0)).toBeCloseTo(1, 12);
  });

  it('ignores markets holding more than 5%', () => {
    const { ctx, board } = boardWith([home('draftkings', { american: -120 }), away('draftkings', { american: -120 })]);
    expect(detectLowHold(ctx, groupOf(board), all)).toBeNull();
  });
});

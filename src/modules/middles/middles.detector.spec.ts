import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { all, away, boardWith, catalog, home, NOW } from '../../../test/factories/detection.js';
import { bruinsRangers } from '../../../test/factories/quotes.js';
import type { OddsRow } from '../../domain/odds-row.js';
import type { Quote } from '../../domain/types.js';
import { OddsBoard } from '../board/odds-board.js';
import { scopeFilter } from '../detection/market-groups.js';
import { IngestionPipeline } from '../ingestion/pipeline.js';
import type { MiddleRecord } from './middles.record.js';
import { bookMainLines, detectMiddles } from './middles.detector.js';

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
    expect([m.side1.row.sportsbook, m.side1.row.line, m.side2.row.sportsbook, m.side2.row.line]).toEqual([
      'draftkings',
      -2.5,
      'fanduel',
      7.5,
    ]);
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

  it('takes the best prices among the books in scope, whichever book filter read the ladder first', () => {
    // Pinnacle also deals -7.5, Bills +7.5 at -115 (1.8696): worse than FanDuel's -108 (1.9259) for the middle.
    const q = [
      ...quotes(),
      home('pinnacle', { american: -105 }, { marketType: 'point_spread', line: -7.5 }),
      away('pinnacle', { american: -115 }, { marketType: 'point_spread', line: 7.5 }),
    ];
    // A detection scope's filter (its sides are kept per filter) and a caller's own (read afresh each time).
    const noFanDuel = scopeFilter((b: string) => b !== 'fanduel');
    const callersNoFanDuel = (b: string) => b !== 'fanduel';
    const below = (ms: MiddleRecord[]) => ms.map((m) => [m.side2.row.sportsbook, m.side2.row.decimal]);
    for (const order of [
      [all, noFanDuel, callersNoFanDuel, all],
      [noFanDuel, all, callersNoFanDuel, noFanDuel],
      [callersNoFanDuel, all, noFanDuel, callersNoFanDuel],
    ]) {
      const { ctx, board } = boardWith(q);
      const ladder = [...board.rows.values()][0]!.ladderKey;
      for (const f of order)
        expect(below(detectMiddles(ctx, ladder, f))).toEqual(
          f === all ? [['fanduel', expect.closeTo(1.9259, 4)]] : [['pinnacle', expect.closeTo(1.8696, 4)]],
        );
    }
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

describe("each book's main line in a ladder", () => {
  /** The same rule on maps (book -> line -> both sides' last probabilities), written independently. */
  function reference(rows: readonly OddsRow[]): Map<string, number> {
    const byBook = new Map<string, Map<number, { a?: number; b?: number }>>();
    for (const r of rows) {
      if (r.groupLine === null) continue;
      const lines = byBook.get(r.sportsbook) ?? new Map<number, { a?: number; b?: number }>();
      byBook.set(r.sportsbook, lines);
      const pair = lines.get(r.groupLine) ?? {};
      if (r.selectionType === 'home' || r.selectionType === 'over') pair.a = r.probability;
      else if (r.selectionType === 'away' || r.selectionType === 'under') pair.b = r.probability;
      lines.set(r.groupLine, pair);
    }
    const out = new Map<string, number>();
    for (const [book, lines] of byBook) {
      let best: number | null = null;
      let gap = Infinity;
      for (const [line, p] of lines) {
        if (p.a === undefined || p.b === undefined) continue;
        const g = Math.abs(p.a - p.b);
        const better =
          g < gap ||
          (g === gap && best !== null && (Math.abs(line) < Math.abs(best) || (Math.abs(line) === Math.abs(best) && line < best)));
        if (better) [best, gap] = [line, g];
      }
      if (best !== null) out.set(book, best);
    }
    return out;
  }

  it('is the most balanced line each book quotes both sides of (ties: nearer zero, then lower), as on maps, whatever the order of lines', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            book: fc.constantFrom('draftkings', 'fanduel', 'pinnacle'),
            line: fc.constantFrom(-3.5, -2.5, 2.5, 3.5, 7, null),
            sel: fc.constantFrom('home', 'away', 'over', 'under'),
            probability: fc.constantFrom(0.45, 0.5, 0.52, 0.55),
          }),
          { maxLength: 30 },
        ),
        (specs) => {
          const rows = specs.map(
            (s, i) => ({ id: `r${i}`, sportsbook: s.book, groupLine: s.line, selectionType: s.sel, probability: s.probability }) as OddsRow,
          );
          // The ladder's groups: one per line, rows in board order, lines in the order first seen and reversed.
          const lines = [...new Set(rows.map((r) => r.groupLine).filter((l): l is number => l !== null))];
          const groups = lines.map((line) => ({ line, rows: rows.filter((r) => r.groupLine === line) }));
          const sorted = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));
          expect(sorted(bookMainLines(groups))).toEqual(sorted(reference(rows)));
          expect(sorted(bookMainLines(groups.reverse()))).toEqual(sorted(reference(rows)));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('middles on the puck line: centred on the moneyline', () => {
  const nhl = bruinsRangers;
  const spread = (book: string, side: 'home' | 'away', line: number, price: number) =>
    nhl(book, side, price, { marketType: 'point_spread', line });
  /**
   * Moneyline at three books; the puck lines of two books (each a normal hold, no self-arbitrage) leave a middle on a
   * margin of exactly 2 (or -2, mirrored).
   */
  const game = (mlHome: number, mlAway: number, legs: Quote[]) =>
    boardWith([...['draftkings', 'fanduel', 'pinnacle'].flatMap((b) => [nhl(b, 'home', mlHome), nhl(b, 'away', mlAway)]), ...legs]);
  const middleOf = (b: ReturnType<typeof boardWith>) => {
    const ladder = [...b.board.rows.values()].find((r) => r.groupLine !== null)!.ladderKey;
    return detectMiddles(b.ctx, ladder, () => true);
  };
  // The home side is the underdog: +150 / -170, implied 0.4 + 0.629630 = 1.029630, fair home 0.4 / 1.029630 = 0.388489
  // (the model is located on it rounded to 0.388). Located there, the hockey margin model gives P(margin = 2) = 0.10242
  // (a model centred on the main line instead, a 2.5-goal home favourite here, gives 0.181; an even game 0.131).
  const dog = () =>
    game(150, -170, [
      spread('draftkings', 'home', -1.5, 360),
      spread('draftkings', 'away', 1.5, -480),
      spread('fanduel', 'home', -2.5, 500),
      spread('fanduel', 'away', 2.5, -700),
    ]);

  it('prices a home underdog by its moneyline, not by the +-1.5 line', () => {
    const ms = middleOf(dog());
    expect(ms).toHaveLength(1);
    const a = ms[0]!.analysis;
    expect(a.middleNumbers).toEqual([2]);
    expect(a.middleProbability).toBeCloseTo(0.10242, 4);
    // Home -1.5 at +360 (4.60) and away +2.5 at -700 (the board keeps 1.1429): 1/4.6 = 0.217391, 1/1.1429 = 0.874967,
    // sum 1.092358; either alone pays 100 / 1.092358 = 91.5450 (-8.4550), both 2 x 91.5450 - 100 = +83.0901.
    // EV = 0.10242 x 83.0901 - 0.89758 x 8.4550 = 8.5101 - 7.5890 = +0.921 per 100.
    expect(a.worstCaseLoss).toBeCloseTo(-8.455, 3);
    expect(a.bestCaseProfit).toBeCloseTo(83.0901, 3);
    expect(a.expectedValue).toBeCloseTo(0.921, 2);
  });

  it('mirrors: a home favourite -170 / +150 has the same 0.10242 on a margin of -2', () => {
    const fav = game(-170, 150, [
      spread('draftkings', 'away', -1.5, 360),
      spread('draftkings', 'home', 1.5, -480),
      spread('fanduel', 'away', -2.5, 500),
      spread('fanduel', 'home', 2.5, -700),
    ]);
    const ms = middleOf(fav);
    expect(ms).toHaveLength(1);
    expect(ms[0]!.analysis.middleNumbers).toEqual([-2]);
    expect(ms[0]!.analysis.middleProbability).toBeCloseTo(0.10242, 4);
  });

  it("without a moneyline, locates the model on the main puck line's own no-vig price", () => {
    const b = boardWith([
      spread('draftkings', 'home', -1.5, 360),
      spread('draftkings', 'away', 1.5, -480),
      spread('fanduel', 'home', -2.5, 500),
      spread('fanduel', 'away', 2.5, -700),
    ]);
    const ms = middleOf(b);
    expect(ms).toHaveLength(1);
    // The consensus main line is -2.5 (one book each; the tie goes to the first line): FanDuel home -2.5 at 1/6 = 0.166667
    // against 1/1.1429 = 0.874967, no-vig P(margin >= 3) = 0.166667 / 1.041634 = 0.160 (rounded to 3 places). Located
    // there the model gives P(margin = 2) = 0.1417: not the margin model centred on a 2.5-goal home favourite.
    expect(ms[0]!.analysis.middleProbability).toBeCloseTo(0.1417, 3);
  });
});

describe('middles of a ladder whose prices move', () => {
  const BOOKS = ['draftkings', 'fanduel', 'pinnacle', 'betmgm', 'caesars'] as const;
  const LINES = [-2.5, -3.5, -6.5, -7.5] as const;
  const PRICES = [-130, -120, -115, -110, -105, 100, 105, 110, 120, 150] as const;
  const quote = fc.record({
    book: fc.constantFrom(...BOOKS),
    line: fc.constantFrom(...LINES),
    home: fc.boolean(),
    american: fc.constantFrom(...PRICES),
    isActive: fc.integer({ min: 0, max: 4 }).map((n) => n > 0), // one in five suspended
  });
  type Spec = { book: string; line: number; home: boolean; american: number; isActive: boolean };
  const toQuote = (q: Spec): Quote =>
    (q.home ? home : away)(
      q.book,
      { american: q.american },
      { marketType: 'point_spread', line: q.home ? q.line : -q.line, isActive: q.isActive },
    );
  /** What a bettor reads of a middle: its sides (book, threshold, price) and its value, gross and net. */
  const seen = (ms: MiddleRecord[]) =>
    ms
      .map((m) => [
        m.id,
        m.side1.row.sportsbook,
        m.side1.threshold,
        m.side1.row.decimal,
        m.side2.row.sportsbook,
        m.side2.threshold,
        m.side2.row.decimal,
        m.analysis.expectedValue,
        m.netAnalysis?.expectedValue ?? null,
      ])
      .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));

  it('a board read before its prices moved finds what a board built from the moved prices finds', () => {
    let found = 0;
    fc.assert(
      fc.property(
        fc.array(quote, { minLength: 2, maxLength: 24 }),
        fc.array(fc.array(quote, { maxLength: 6 }), { maxLength: 4 }),
        (start, moves) => {
          const board = new OddsBoard();
          const pipe = new IngestionPipeline(catalog, board);
          const put = (qs: Quote[], at: number) => board.applyChangeSet(pipe.process({ source: 'test', quotes: qs }, at).changeSet);
          put(start.map(toQuote), NOW);
          const ladder = [...board.rows.values()][0]!.ladderKey;
          const everything = [...start];
          detectMiddles({ board, catalog, now: NOW }, ladder, all);
          moves.forEach((batch, i) => {
            put(batch.map(toQuote), NOW + i + 1);
            everything.push(...batch);
            const now = NOW + i + 1;
            const moved = detectMiddles({ board, catalog, now }, ladder, all);
            // The same prices on a board that never held the earlier ones (the last quote of a price wins).
            const fresh = boardWith(everything.map(toQuote));
            expect(seen(moved)).toEqual(seen(detectMiddles({ ...fresh.ctx, now }, ladder, all)));
            found += moved.length;
          });
        },
      ),
      { numRuns: 150 },
    );
    // Not vacuous: the moved boards hold middles.
    expect(found).toBeGreaterThan(0);
  });

  it('a book whose main line moves to a line whose prices did not move is read there', () => {
    // DraftKings: -2.5 at -110 / -110 (its main line), -3.5 at +110 / -130. Pinnacle: -3.5 only, -105 / -115 (main -3.5).
    // FanDuel: -7.5 only, -112 / -108. Then DraftKings' -2.5 moves to -200 / +170: its most balanced line is now -3.5
    // (implied 0.4762 / 0.5652, a gap of 0.089 against 0.6667 / 0.3704, 0.296), whose rows did not change.
    const spread = (book: string, line: number, h: number, a: number) => [
      home(book, { american: h }, { marketType: 'point_spread', line }),
      away(book, { american: a }, { marketType: 'point_spread', line: -line }),
    ];
    const start = [...spread('draftkings', -2.5, -110, -110), ...spread('draftkings', -3.5, 110, -130)];
    start.push(...spread('pinnacle', -3.5, -105, -115), ...spread('fanduel', -7.5, -112, -108));
    const moved = spread('draftkings', -2.5, -200, 170);
    const board = new OddsBoard();
    const pipe = new IngestionPipeline(catalog, board);
    const put = (qs: Quote[], at: number) => board.applyChangeSet(pipe.process({ source: 'test', quotes: qs }, at).changeSet);
    put(start, NOW);
    const ladder = [...board.rows.values()][0]!.ladderKey;
    const at3_5 = (ms: MiddleRecord[]) => ms.find((m) => m.side1.threshold === 3.5 && m.side2.threshold === 7.5);
    // Before: the 3.5 / 7.5 middle takes Pinnacle's -3.5 (DraftKings' -3.5 is an alternate rung then).
    expect(at3_5(detectMiddles({ board, catalog, now: NOW }, ladder, all))?.side1.row.sportsbook).toBe('pinnacle');
    put(moved, NOW + 1);
    const after = detectMiddles({ board, catalog, now: NOW + 1 }, ladder, all);
    // After: DraftKings' -3.5 at +110 (2.10) beats Pinnacle's -105 (1.952) on that line.
    expect(at3_5(after)?.side1.row.sportsbook).toBe('draftkings');
    expect(at3_5(after)?.side1.row.decimal).toBeCloseTo(2.1, 12);
    const fresh = boardWith([...start, ...moved]);
    expect(seen(after)).toEqual(seen(detectMiddles({ ...fresh.ctx, now: NOW + 1 }, ladder, all)));
  });

  it("takes each pair of lines at the lowest overround two different books' main lines offer", () => {
    // One line per book (its main line), both sides: every pair of an above and a below side at two books is a candidate.
    // Each book's own pair holds 4-5% (a self-arbitrage or an excessive hold would keep its venue out of detection).
    const PAIRS = [
      [-110, -110],
      [-120, 100],
      [-130, 110],
      [-105, -115],
      [120, -140],
      [150, -175],
      [-150, 130],
      [100, -120],
    ] as const;
    const book = fc
      .record({ line: fc.constantFrom(...LINES), pair: fc.constantFrom(...PAIRS) })
      .map(({ line, pair }) => ({ line, home: pair[0], away: pair[1] }));
    let found = 0;
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.constantFrom(...BOOKS), book), { selector: ([b]) => b, minLength: 2 }), (books) => {
        const { ctx, board } = boardWith(
          books.flatMap(([b, q]) => [
            home(b, { american: q.home }, { marketType: 'point_spread', line: q.line }),
            away(b, { american: q.away }, { marketType: 'point_spread', line: -q.line }),
          ]),
        );
        const rows = [...board.rows.values()];
        const ms = detectMiddles(ctx, rows[0]!.ladderKey, all);
        found += ms.length;
        for (const m of ms) {
          // Every home row at this threshold (home -2.5 wins above 2.5) with every away row at the other, at another book.
          let lowest = Infinity;
          for (const a of rows)
            for (const b of rows)
              if (a.selectionType === 'home' && b.selectionType === 'away' && a.sportsbook !== b.sportsbook)
                if (-a.line! === m.side1.threshold && b.line === m.side2.threshold)
                  lowest = Math.min(lowest, 1 / a.decimal + 1 / b.decimal);
          expect(m.analysis.marketOverround).toBeCloseTo(lowest, 12);
          expect(1 / m.side1.row.decimal + 1 / m.side2.row.decimal).toBeCloseTo(lowest, 12);
        }
        // Each pair of thresholds once.
        expect(new Set(ms.map((m) => `${m.side1.threshold}|${m.side2.threshold}`)).size).toBe(ms.length);
      }),
      { numRuns: 300 },
    );
    expect(found).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { bestPrice, bookMovement, direction, selectionMovement, steamMoves, type BookPrices, type Move } from './line-movement.js';

const s = (seconds: number) => seconds * 1000;
const pt = (seconds: number, decimal: number | null) => ({ at: s(seconds), decimal });

/**
 * The worked example, window [0 s, 1000 s]:
 *   A: 2.00 at -100 (in force at the start), 1.95 at 100, 1.90 at 400, 1.95 at 900
 *   B: 2.02 at -50 (in force), 1.97 at 130, suspended at 700, 1.97 again at 800 (a reopening at the same price)
 *   C: first quote 2.05 at 10, 2.00 at 160, 2.10 at 950
 */
const A: BookPrices = { book: 'a', points: [pt(-100, 2.0), pt(100, 1.95), pt(400, 1.9), pt(900, 1.95)] };
const B: BookPrices = { book: 'b', points: [pt(-50, 2.02), pt(130, 1.97), pt(700, null), pt(800, 1.97)] };
const C: BookPrices = { book: 'c', points: [pt(10, 2.05), pt(160, 2.0), pt(950, 2.1)] };
const W = { from: s(0), to: s(1000) };

describe('bookMovement', () => {
  it('A: open is the price in force at the start; 3 moves; high, low and current by hand', () => {
    // Moves: 2.00 -> 1.95 at 100, 1.95 -> 1.90 at 400, 1.90 -> 1.95 at 900. High 2.00 (set at -100), low 1.90 (at 400).
    expect(bookMovement(A, W)).toEqual({
      book: 'a',
      open: { decimal: 2.0, at: s(-100), book: 'a' },
      current: { decimal: 1.95, at: s(900), book: 'a' },
      quoting: true,
      high: { decimal: 2.0, at: s(-100), book: 'a' },
      low: { decimal: 1.9, at: s(400), book: 'a' },
      moves: [
        { book: 'a', at: s(100), from: 2.0, to: 1.95 },
        { book: 'a', at: s(400), from: 1.95, to: 1.9 },
        { book: 'a', at: s(900), from: 1.9, to: 1.95 },
      ],
    });
  });

  it('B: a suspension is not a move, nor a reopening at the price it had before', () => {
    // 2.02 -> 1.97 at 130 is the only move; the suspension at 700 and the reopening at 1.97 at 800 are not moves.
    const m = bookMovement(B, W);
    expect(m.moves).toEqual([{ book: 'b', at: s(130), from: 2.02, to: 1.97 }]);
    expect([m.open, m.current, m.high, m.low, m.quoting]).toEqual([
      { decimal: 2.02, at: s(-50), book: 'b' },
      { decimal: 1.97, at: s(800), book: 'b' },
      { decimal: 2.02, at: s(-50), book: 'b' },
      { decimal: 1.97, at: s(130), book: 'b' },
      true,
    ]);
    // Ending the window while suspended (at 750): not quoting, current is the last price (1.97 since 130).
    const mid = bookMovement(B, { from: s(0), to: s(750) });
    expect([mid.quoting, mid.current]).toEqual([false, { decimal: 1.97, at: s(130), book: 'b' }]);
  });

  it('C: no price before the start, so the first quote is the open and not a move', () => {
    // Moves: 2.05 -> 2.00 at 160, 2.00 -> 2.10 at 950. High 2.10, low 2.00.
    const m = bookMovement(C, W);
    expect(m.open).toEqual({ decimal: 2.05, at: s(10), book: 'c' });
    expect(m.moves.map((x) => [x.at / 1000, x.from, x.to])).toEqual([
      [160, 2.05, 2.0],
      [950, 2.0, 2.1],
    ]);
    expect([m.high!.decimal, m.low!.decimal, m.current!.decimal]).toEqual([2.1, 2.0, 2.1]);
  });

  it('a reopening at another price than before the suspension is a move; the window end cuts later points', () => {
    const p: BookPrices = { book: 'x', points: [pt(0, 1.8), pt(10, null), pt(20, 1.85), pt(30, 1.7)] };
    // 1.80 -> (suspended) -> 1.85 at 20 is a move from 1.80; the point at 30 is after the end (25).
    expect(bookMovement(p, { from: s(0), to: s(25) }).moves).toEqual([{ book: 'x', at: s(20), from: 1.8, to: 1.85 }]);
  });

  it('a book suspended through the whole window has no open, current, high or low', () => {
    const p: BookPrices = { book: 'x', points: [pt(-20, 1.8), pt(-10, null)] };
    expect(bookMovement(p, W)).toEqual({ book: 'x', open: null, current: null, quoting: false, high: null, low: null, moves: [] });
  });
});

describe('bestPrice', () => {
  it('the best price across A, B and C over the window, by hand', () => {
    // At 0: A 2.00, B 2.02 -> best 2.02 (b). 10: C 2.05 -> 2.05 (c). 100: A 1.95; 130: B 1.97 -> still 2.05 (c).
    // 160: C 2.00 -> max(1.95, 1.97, 2.00) = 2.00 (c). 400 A 1.90, 700 B suspended, 800 B 1.97, 900 A 1.95 -> 2.00 (c).
    // 950: C 2.10 -> 2.10 (c). Open 2.02, high 2.10, low 2.00 (first at 160), current 2.10.
    expect(bestPrice([A, B, C], W)).toEqual({
      open: { decimal: 2.02, at: s(0), book: 'b' },
      current: { decimal: 2.1, at: s(950), book: 'c' },
      high: { decimal: 2.1, at: s(950), book: 'c' },
      low: { decimal: 2.0, at: s(160), book: 'c' },
    });
  });

  it('ties go to the book first by name; nothing quoted: all null', () => {
    const x: BookPrices = { book: 'x', points: [pt(0, 1.9)] };
    const y: BookPrices = { book: 'y', points: [pt(0, 1.9)] };
    expect(bestPrice([y, x], W).open).toEqual({ decimal: 1.9, at: s(0), book: 'x' });
    expect(bestPrice([], W)).toEqual({ open: null, current: null, high: null, low: null });
    // Withdrawn at 5: no current.
    expect(bestPrice([{ book: 'x', points: [pt(0, 1.9), pt(5, null)] }], W).current).toBeNull();
  });
});

describe('steamMoves', () => {
  const moves = selectionMovement([A, B, C], W, { windowMs: s(60), minFollowers: 2 }).moves;

  it('A leads at 100 and B (30 s) and C (60 s, the window edge) follow; the later moves make no steam with 2 followers', () => {
    // Shortening moves: A 100, B 130, C 160, A 400. Drifting: A 900, C 950.
    // A@100: B's first shortening move in [100, 160] is at 130 (lag 30 s), C's at 160 (lag 60 s): 2 followers -> steam.
    // A@400: nobody shortens in [400, 460]. A@900 drifting: only C@950 follows (lag 50 s): 1 < 2.
    expect(steamMoves(moves, { windowMs: s(60), minFollowers: 2 })).toEqual([
      {
        at: s(100),
        direction: 'shortening',
        leader: { book: 'a', at: s(100), from: 2.0, to: 1.95 },
        followers: [
          { book: 'b', at: s(130), lagMs: s(30), from: 2.02, to: 1.97 },
          { book: 'c', at: s(160), lagMs: s(60), from: 2.05, to: 2.0 },
        ],
      },
    ]);
  });

  it('with one follower enough, the drift at 900 is steam too; a narrower window drops C from the first', () => {
    const one = steamMoves(moves, { windowMs: s(60), minFollowers: 1 });
    expect(one.map((x) => [x.leader.book, x.at / 1000, x.direction, x.followers.map((f) => [f.book, f.lagMs / 1000])])).toEqual([
      [
        'a',
        100,
        'shortening',
        [
          ['b', 30],
          ['c', 60],
        ],
      ],
      ['a', 900, 'drifting', [['c', 50]]],
    ]);
    // Window 59 s: C's move at 160 is 60 s after A's; only B follows A, then C@160 cannot lead (nobody after it).
    const narrow = steamMoves(moves, { windowMs: s(59), minFollowers: 1 });
    expect(narrow.map((x) => [x.leader.book, x.at / 1000, x.followers.map((f) => f.book)])).toEqual([
      ['a', 100, ['b']],
      ['a', 900, ['c']],
    ]);
  });

  it('moves the other way do not follow; each book follows once per steam move, with its first move', () => {
    const m: Move[] = [
      { book: 'a', at: 0, from: 2, to: 1.9 },
      { book: 'b', at: 1000, from: 2, to: 2.1 }, // drifting: not a follower of a shortening move
      { book: 'b', at: 2000, from: 2.1, to: 1.95 },
      { book: 'b', at: 3000, from: 1.95, to: 1.9 },
    ];
    const st = steamMoves(m, { windowMs: 10_000, minFollowers: 1 });
    expect(st[0]!.followers).toEqual([{ book: 'b', at: 2000, lagMs: 2000, from: 2.1, to: 1.95 }]);
    // b's move at 1000 (drifting) finds no drifting follower; its 3000 move is left, nobody follows it.
    expect(st.length).toBe(1);
  });
});

describe('selectionMovement', () => {
  it('totals: 6 moves, A first; direction by the price', () => {
    const m = selectionMovement([A, B, C], W, { windowMs: s(60), minFollowers: 2 });
    expect(m.moves.length).toBe(6);
    expect(m.firstMover).toEqual({ book: 'a', at: s(100), from: 2.0, to: 1.95 });
    expect([direction({ from: 2, to: 1.9 }), direction({ from: 1.9, to: 2 })]).toEqual(['shortening', 'drifting']);
  });

  it('property: moves alternate prices, high >= every quote >= low, a steam move never reuses a move', () => {
    const book = (name: string) =>
      fc
        .array(fc.record({ dt: fc.integer({ min: 1, max: 120 }), p: fc.option(fc.integer({ min: 101, max: 400 }), { nil: null }) }), {
          maxLength: 30,
        })
        .map((steps) => {
          let at = -300;
          return { book: name, points: steps.map((x) => ({ at: s((at += x.dt)), decimal: x.p === null ? null : x.p / 100 })) };
        });
    fc.assert(
      fc.property(fc.tuple(book('a'), book('b'), book('c')), fc.integer({ min: 1, max: 3 }), (books, minFollowers) => {
        const m = selectionMovement(books, W, { windowMs: s(60), minFollowers });
        for (const b of m.books) {
          if (b.open) expect([b.low!.decimal <= b.open.decimal, b.open.decimal <= b.high!.decimal]).toEqual([true, true]);
          for (const mv of b.moves) {
            expect(mv.from).not.toBe(mv.to);
            // Every quote in the window (a move's new price) lies between the low and the high.
            expect(b.high!.decimal).toBeGreaterThanOrEqual(mv.to);
            expect(b.low!.decimal).toBeLessThanOrEqual(mv.to);
          }
        }
        const all = m.steam.flatMap((x) => [x.leader, ...x.followers.map((f) => `${f.book}@${f.at}`)]);
        const keys = all.map((x) => (typeof x === 'string' ? x : `${x.book}@${x.at}`));
        expect(new Set(keys).size).toBe(keys.length);
        for (const st of m.steam) {
          expect(st.followers.length).toBeGreaterThanOrEqual(minFollowers);
          for (const f of st.followers) expect(f.lagMs).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});

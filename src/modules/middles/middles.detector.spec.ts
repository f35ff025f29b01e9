import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { all, away, boardWith, home } from '../../../test/factories/detection.js';
import { detectMiddles } from './middles.detector.js';

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

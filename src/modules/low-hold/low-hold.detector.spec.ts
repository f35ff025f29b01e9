import { describe, expect, it } from '@jest/globals';
import { all, away, boardWith, groupOf, home } from '../../../test/factories/detection.js';
import { detectLowHold } from './low-hold.detector.js';

describe('low-hold detection', () => {
  it('measures the hold of the best prices', () => {
    // best home -105 (1.952381), best away +100 (2.0): 0.512195 + 0.5 = 1.012195 -> hold 1.2195 %
    const { ctx, board } = boardWith([
      home('draftkings', { american: -105 }),
      away('draftkings', { american: -115 }),
      home('fanduel', { american: -120 }),
      away('fanduel', { american: 100 }),
    ]);
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

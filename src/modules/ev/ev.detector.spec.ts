import { describe, expect, it } from '@jest/globals';
import { away, boardWith, groupOf, home } from '../../../test/factories/detection.js';
import { detectEv } from './ev.detector.js';

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
    const { ctx, board } = boardWith([
      home('pinnacle', { american: -115 }),
      home('draftkings', { american: 150 }),
      away('draftkings', { american: -170 }),
    ]);
    expect(detectEv(ctx, groupOf(board))).toEqual([]);
  });
});

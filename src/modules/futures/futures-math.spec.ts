import { describe, expect, it } from '@jest/globals';
import type { FuturesPrice } from '../../domain/futures.js';
import { bookMarket, futuresEv, futuresHold, groupsOf, isComplete, sharpReference } from './futures-math.js';

const M = { id: 'nba_championship_2026' };
let n = 0;
const p = (book: string, selection: string, decimal: number, over: Partial<FuturesPrice> = {}): FuturesPrice => ({
  id: `p${n++}`,
  marketId: M.id,
  sportsbook: book,
  selection,
  selectionType: 'other',
  line: null,
  american: 0,
  decimal,
  probability: 1 / decimal,
  externalId: null,
  changedAt: 0,
  lastSeenAt: 0,
  ...over,
});
const all = () => true;

/**
 * Hand-worked n-way market (three runners):
 *   Pinnacle A 2.20, B 3.00, C 4.00 -> implied .454545 + .333333 + .25 = 1.037879 (hold 3.7879 %),
 *   multiplicative fair A .437956, B .321168, C .240876.
 *   DraftKings A 2.10, B 2.80, C 4.50 (implied 1.055556): C at 4.50 is +EV: .240876 x 4.5 - 1 = +8.3942 %;
 *   A (.437956 x 2.1 - 1 = -8.03 %) and B (-10.07 %) are not.
 *   Best prices: A 2.20 (Pinnacle), B 3.00 (Pinnacle), C 4.50 (DraftKings): .454545 + .333333 + .222222 =
 *   1.010101, hold 1.0101 %; fair shares .45, .33, .22.
 */
const nway = () => [
  p('pinnacle', 'Team A', 2.2),
  p('pinnacle', 'Team B', 3),
  p('pinnacle', 'Team C', 4),
  p('draftkings', 'Team A', 2.1),
  p('draftkings', 'Team B', 2.8),
  p('draftkings', 'Team C', 4.5),
];

describe('futures groups and completeness', () => {
  it('runners form one n-way group; over/under per subject and line; yes/no per question', () => {
    const gs = groupsOf(M, [
      ...nway(),
      p('pinnacle', 'Boston Celtics Over', 1.952381, { selectionType: 'over', line: 55.5 }),
      p('pinnacle', 'Boston Celtics Under', 1.869565, { selectionType: 'under', line: 55.5 }),
      p('fanduel', 'Boston Celtics Over', 2.0, { selectionType: 'over', line: 56.5 }),
      p('kalshi', 'Will the Celtics make the playoffs?: Yes', 1.25, { selectionType: 'yes' }),
      p('kalshi', 'Will the Celtics make the playoffs?: No', 4.5, { selectionType: 'no' }),
    ]);
    expect(gs.map((g) => [g.kind, g.subject, g.line, g.prices.length])).toEqual([
      ['n_way', '', null, 6],
      ['over_under', 'boston celtics', 55.5, 2],
      ['over_under', 'boston celtics', 56.5, 1],
      ['yes_no', 'will the celtics make the playoffs', null, 2],
    ]);
  });

  it('an n-way book market is complete only when it prices the whole field (implied sum >= 1)', () => {
    const [g] = groupsOf(M, [...nway(), p('fanduel', 'Team A', 2.5), p('fanduel', 'Team B', 3.5)]);
    expect(isComplete(g!, bookMarket(g!, 'pinnacle'))).toBe(true);
    // FanDuel lists two favourites: .4 + .285714 = .685714 < 1, not the field.
    expect(isComplete(g!, bookMarket(g!, 'fanduel'))).toBe(false);
  });
});

describe('futures +EV (n-way devig of the sharp reference)', () => {
  it('multiplicative: fair A .437956 B .321168 C .240876; DraftKings C 4.50 is +8.3942 %', () => {
    const [g] = groupsOf(M, nway());
    const ref = sharpReference(g!, ['pinnacle', 'circa'], 'multiplicative')!;
    expect(ref.book).toBe('pinnacle');
    expect(ref.holdPercent).toBeCloseTo(3.787879, 5);
    expect(ref.fair.get('team a')).toBeCloseTo(0.437956, 6);
    expect(ref.fair.get('team b')).toBeCloseTo(0.321168, 6);
    expect(ref.fair.get('team c')).toBeCloseTo(0.240876, 6);
    const ev = futuresEv(g!, { sharpBooks: ['pinnacle', 'circa'], method: 'multiplicative', inScope: all, minEv: 0 });
    expect(ev.map((e) => [e.price.sportsbook, e.price.selection])).toEqual([['draftkings', 'Team C']]);
    expect(ev[0]!.evPercent).toBeCloseTo(8.394161, 5);
  });

  it('over/under: Pinnacle -105/-115 (implied .512195/.534884), fair over .489166; FanDuel over 2.05 is +0.2790 %', () => {
    const [, g] = groupsOf(M, [
      p('pinnacle', 'Team A', 2.2),
      p('pinnacle', 'Celtics Over', 1 + 100 / 105, { selectionType: 'over', line: 55.5 }),
      p('pinnacle', 'Celtics Under', 1 + 100 / 115, { selectionType: 'under', line: 55.5 }),
      p('fanduel', 'Celtics Over', 2.05, { selectionType: 'over', line: 55.5 }),
    ]);
    const ev = futuresEv(g!, { sharpBooks: ['pinnacle'], method: 'multiplicative', inScope: all, minEv: 0 });
    expect(ev).toHaveLength(1);
    expect(ev[0]!.fairProbability).toBeCloseTo(0.489166, 6);
    expect(ev[0]!.evPercent).toBeCloseTo(0.278982, 5);
  });

  it('no sharp book with a complete market: nothing (a sharp listing only favourites is not devigged)', () => {
    const [g] = groupsOf(M, [
      p('pinnacle', 'Team A', 2.5),
      p('pinnacle', 'Team B', 3.5),
      p('draftkings', 'Team A', 3),
      p('draftkings', 'Team B', 4),
      p('draftkings', 'Team C', 1.5),
    ]);
    expect(sharpReference(g!, ['pinnacle'], 'power')).toBeNull();
    expect(futuresEv(g!, { sharpBooks: ['pinnacle'], method: 'power', inScope: all, minEv: -100 })).toEqual([]);
  });

  it('books out of scope are not listed', () => {
    const [g] = groupsOf(M, nway());
    expect(futuresEv(g!, { sharpBooks: ['pinnacle'], method: 'multiplicative', inScope: (b) => b !== 'draftkings', minEv: 0 })).toEqual([]);
  });
});

describe('futures low-hold (best prices over the field)', () => {
  it('best A 2.20 B 3.00 (Pinnacle) C 4.50 (DraftKings): hold 1.0101 %, fair .45 .33 .22', () => {
    const [g] = groupsOf(M, nway());
    const h = futuresHold(g!, all)!;
    expect(h.holdPercent).toBeCloseTo(1.010101, 5);
    expect(h.sides.map((s) => [s.outcome, s.price.decimal, s.books])).toEqual([
      ['team a', 2.2, ['pinnacle']],
      ['team b', 3, ['pinnacle']],
      ['team c', 4.5, ['draftkings']],
    ]);
    expect(h.sides.map((s) => Number(s.fairProbability.toFixed(6)))).toEqual([0.45, 0.33, 0.22]);
    expect(h.books).toEqual(['draftkings', 'pinnacle']);
  });

  it('among DraftKings alone the hold is its own: 5.5556 %', () => {
    const [g] = groupsOf(M, nway());
    expect(futuresHold(g!, (b) => b === 'draftkings')!.holdPercent).toBeCloseTo(5.555556, 5);
  });

  it('no complete book market in scope: no hold (a few favourites never pass for a field)', () => {
    const [g] = groupsOf(M, [p('fanduel', 'Team A', 2.5), p('fanduel', 'Team B', 3.5)]);
    expect(futuresHold(g!, all)).toBeNull();
  });
});

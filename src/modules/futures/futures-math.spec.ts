import { describe, expect, it } from '@jest/globals';
import type { FuturesPrice } from '../../domain/futures.js';
import { futuresPrice, SEMI_FINAL, semiFinal } from '../../../test/factories/futures.js';
import { bookMarket, futuresEv, futuresHold, groupsOf, isComplete, sharpReference } from './futures-math.js';

const M = { id: 'nba_championship_2026' };
let n = 0;
const p = (book: string, selection: string, decimal: number, over: Partial<FuturesPrice> = {}): FuturesPrice =>
  futuresPrice(M.id, book, selection, decimal, { id: `p${n++}`, ...over });
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

/**
 * A 30-runner outright at 10% margin (multiplicative: implied = true x 1.1). The sharp book lists only the top
 * 20 runners:
 *   R01 4.00, R02 4.00, R03 10.00, R04 10.00, R05-R07 31.25, R08-R09 40.00, R10-R12 50.00, R13-R15 62.50,
 *   R16-R17 80.00, R18-R20 100.00
 *   implied .25 + .25 + .1 + .1 + 3 x .032 + 2 x .025 + 3 x .02 + 3 x .016 + 2 x .0125 + 3 x .01
 *         = .5 + .2 + .096 + .05 + .06 + .048 + .025 + .03 = 1.009 (>= 1: the old rule took it for the field).
 * The other ten runners (R21-R27 100.00, R28-R29 125.00, R30 200.00 at Circa, which prices all 30 at 10%):
 *   implied 7 x .01 + 2 x .008 + .005 = .091; true .091 / 1.1 = .082727: one of them wins 8.3% of the time.
 */
const TOP20 = [4, 4, 10, 10, 31.25, 31.25, 31.25, 40, 40, 50, 50, 50, 62.5, 62.5, 62.5, 80, 80, 100, 100, 100];
const REST10 = [100, 100, 100, 100, 100, 100, 100, 125, 125, 200];
const runner = (i: number) => `R${String(i + 1).padStart(2, '0')}`;
const quoteAll = (book: string, decimals: number[], from = 0) => decimals.map((d, i) => p(book, runner(from + i), d));

describe('futures fields: complete only with every known runner', () => {
  it('a sharp list of the top 20 of 30 (implied sum 1.009) is not complete; Circa (all 30, 10%) is the reference', () => {
    // DraftKings quotes all 30: R03 at 10.67, the others at Circa's prices.
    const dk = [...TOP20.map((d, i) => (i === 2 ? 10.67 : d)), ...REST10];
    const [g] = groupsOf(M, [...quoteAll('pinnacle', TOP20), ...quoteAll('circa', [...TOP20, ...REST10]), ...quoteAll('draftkings', dk)]);
    expect(g!.field.size).toBe(30);
    expect(isComplete(g!, bookMarket(g!, 'pinnacle'))).toBe(false);
    expect(isComplete(g!, bookMarket(g!, 'circa'))).toBe(true);
    const ref = sharpReference(g!, ['pinnacle', 'circa'], 'multiplicative')!;
    // Circa: implied 1.009 + .091 = 1.1, hold 10%; fair R03 = .1 / 1.1 = .090909 (its true probability).
    expect(ref.book).toBe('circa');
    expect(ref.holdPercent).toBeCloseTo(10, 9);
    expect(ref.fair.get('r03')).toBeCloseTo(0.090909, 6);
    // DraftKings R03 at 10.67: true EV .090909 x 10.67 - 1 = .97 - 1 = -3.0%. The top-20 list devigged alone
    // would have given fair .1 / 1.009 = .099108 and .099108 x 10.67 - 1 = +5.7483%: it is not listed.
    expect(futuresEv(g!, { sharpBooks: ['pinnacle', 'circa'], method: 'multiplicative', inScope: all, minEv: 0 })).toEqual([]);
    const ev = futuresEv(g!, { sharpBooks: ['pinnacle', 'circa'], method: 'multiplicative', inScope: all, minEv: -5 });
    expect(ev.map((e) => [e.price.sportsbook, e.outcome])).toEqual([['draftkings', 'r03']]);
    expect(ev[0]!.evPercent).toBeCloseTo(-3.0, 9);
  });

  it('when no source knows more runners, the list is the known field (the stated limit): +5.7483% as devigged', () => {
    const [g] = groupsOf(M, [...quoteAll('pinnacle', TOP20), p('draftkings', 'R03', 10.67)]);
    expect(g!.field.size).toBe(20);
    const ev = futuresEv(g!, { sharpBooks: ['pinnacle'], method: 'multiplicative', inScope: all, minEv: 0 });
    // .1 / 1.009 x 10.67 - 1 = 1.057483 - 1
    expect(ev[0]!.evPercent).toBeCloseTo(5.748266, 5);
  });

  it('low-hold: best prices over the top 20 (sum .98, "-2%") are no field; with the 30-runner book the hold is +10.5%', () => {
    // FanDuel beats Pinnacle on three runners: R03 12.50 (.08 for .1), R05 40.00 (.025 for .032), R18 125.00
    // (.008 for .01): best-price sum 1.009 - .02 - .007 - .002 = .98, a "-2.0%" hold over the 20. That pays 1 only
    // when one of the 20 wins (true 1.009 / 1.1 = .917273): .917273 / .98 - 1 = -6.40% expected, and the whole
    // stake is lost 8.27% of the time.
    const fd = [p('fanduel', 'R03', 12.5), p('fanduel', 'R05', 40), p('fanduel', 'R18', 125)];
    // DraftKings quotes all 30: the top 20 at Pinnacle's prices (R03 10.67), the other ten at 80.00 (.0125 each).
    const dk = quoteAll('draftkings', [...TOP20.map((d, i) => (i === 2 ? 10.67 : d)), ...Array<number>(10).fill(80)]);
    const [g] = groupsOf(M, [...quoteAll('pinnacle', TOP20), ...fd, ...dk]);
    expect(futuresHold(g!, (b) => b !== 'draftkings')).toBeNull();
    // The field is DraftKings' 30: best over the top 20 .98 (R03 FanDuel 12.50 beats DraftKings 10.67) + 10 x .0125
    // = 1.105: hold +10.5%.
    const h = futuresHold(g!, all)!;
    expect(h.fieldBook).toBe('draftkings');
    expect(h.sides).toHaveLength(30);
    expect(h.holdPercent).toBeCloseTo(10.5, 9);
  });
});

describe('futures +EV over the live field (the store leaves unconfirmed prices out)', () => {
  const NOW = Date.parse('2026-11-25T12:00:00Z');
  /**
   * semiFinal (test/factories/futures.ts): Pinnacle A 2.00 (.5), B 2.50 (.4), C 8.00 (.125) fresh, D 5.00 (.2)
   * stale; DraftKings A 2.30 fresh, D 7.00 stale.
   *   Live field A, B, C: implied 1.025, fair A = .5 / 1.025 = .487805; A 2.30: .487805 x 2.3 - 1 = +12.1951%.
   *   With D's stale price in it: implied 1.225, fair A = .5 / 1.225 = .408163, A 2.30 shows .408163 x 2.3 - 1 = -6.1224%,
   *   and D 7.00 shows .2 / 1.225 x 7 - 1 = +14.2857% on a team that can no longer win.
   */
  const ev = (prices: FuturesPrice[]) =>
    futuresEv(groupsOf({ id: SEMI_FINAL }, prices)[0]!, {
      sharpBooks: ['pinnacle'],
      method: 'multiplicative',
      inScope: () => true,
      minEv: -100,
    }).map((e) => [e.price.sportsbook, e.outcome, Number(e.evPercent.toFixed(4))]);

  it('an eliminated runner left unconfirmed leaves the field: A 2.30 is +12.1951%, no EV on D 7.00', () => {
    const s = semiFinal(NOW);
    // Every stored price, as before: the stale D distorts the field.
    expect(ev(s.pricesOf(SEMI_FINAL))).toEqual([
      ['draftkings', 'team d', 14.2857],
      ['draftkings', 'team a', -6.1224],
    ]);
    const live = s.livePricesOf(SEMI_FINAL, NOW);
    expect(groupsOf({ id: 'x' }, live)[0]!.field).toEqual(new Set(['team a', 'team b', 'team c']));
    expect(ev(live)).toEqual([['draftkings', 'team a', 12.1951]]);
  });
});

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Catalog } from '../config/catalog.js';
import type { Quote } from '../domain/types.js';
import { detectArbitrage } from './arbitrage/arbitrage.detector.js';
import { OddsBoard } from './board/odds-board.js';
import type { DetectContext } from './detection/group-info.js';
import { detectEv } from './ev/ev.detector.js';
import { IngestionPipeline } from './ingestion/pipeline.js';
import { detectLowHold } from './low-hold/low-hold.detector.js';
import { detectMiddles } from './middles/middles.detector.js';
import { arsenalChelsea, NOW, nuggetsLakers } from '../../test/factories/quotes.js';

/**
 * Detection on real-shaped data: the traps of feeds no one cleaned, each with the opportunities a careful
 * human accepts written down (and computed by hand) before the detectors run.
 */

const catalog = new Catalog();
const all = () => true;

function boardWith(quotes: Quote[]): { ctx: DetectContext; flagged: DetectContext; board: OddsBoard } {
  const board = new OddsBoard();
  const r = new IngestionPipeline(catalog, board).process({ source: 'test', quotes }, NOW);
  expect(r.report.rejected).toEqual({});
  board.applyChangeSet(r.changeSet);
  return { ctx: { board, catalog, now: NOW }, flagged: { board, catalog, now: NOW, includeFlagged: true }, board };
}
const groupWhere = (board: OddsBoard, pred: (r: { marketType: string; groupLine: number | null }) => boolean) =>
  [...board.rows.values()].find(pred)!.groupKey;

/** Power devig written independently of src/math: k by bisection with sum(p_i^k) = 1. */
function powerDevig(implied: number[]): number[] {
  let lo = 0.01;
  let hi = 20;
  for (let i = 0; i < 200; i++) {
    const k = (lo + hi) / 2;
    if (implied.reduce((s, p) => s + p ** k, 0) > 1) lo = k;
    else hi = k;
  }
  return implied.map((p) => p ** ((lo + hi) / 2));
}

const epl = arsenalChelsea;
const nba = nuggetsLakers;

describe('a self-contradicting exchange (player goal props: a retail over 1.5 against an exchange under 1.5)', () => {
  const goals = (book: string, over: number, under: number): Quote[] =>
    (['over', 'under'] as const).map((side) =>
      epl(book, {
        marketType: 'player_goals',
        playerName: 'Bukayo Saka',
        statCategory: 'goals',
        selection: side === 'over' ? 'Over' : 'Under',
        selectionType: side,
        line: 1.5,
        price: { decimal: side === 'over' ? over : under },
      }),
    );
  // Betfair's own over 1.5 (10.75) and under 1.5 (1.14) sum to 0.093023 + 0.877193 = 97.02%: it contradicts itself.
  // With it, bet365 over 11.0 + Betfair under 1.14 = 0.090909 + 0.877193 = 96.8102%: a 3.2949% "arbitrage" (the
  // reported case). Without it, the best prices are bet365 over 11.0 and Ladbrokes under 1.06:
  // 0.090909 + 0.943396 = 1.034305, a 3.4305% hold and no arbitrage.
  const market = () => [
    ...goals('bet365', 11, 1.04),
    ...goals('skybet', 10, 1.05),
    ...goals('ladbrokes', 9, 1.06),
    ...goals('betway', 10, 1.04),
    ...goals('betfair', 10.75, 1.14),
  ];

  it('produces no arbitrage in the default lists, and a low-hold market among the sound books only', () => {
    const { ctx, board } = boardWith(market());
    const g = groupWhere(board, (r) => r.marketType === 'player_goals');
    expect(detectArbitrage(ctx, g, all)).toBeNull();
    const h = detectLowHold(ctx, g, all)!;
    expect(h.holdPercent).toBeCloseTo(3.4305, 3);
    expect(h.sides.map((s) => s.row.sportsbook)).toEqual(['bet365', 'ladbrokes']);
    expect(h.allBooks).not.toContain('betfair');
    expect(h.guards).toEqual({ flagged: [], offConsensus: [], unverified: [] });
    expect(detectMiddles(ctx, board.group(g)[0]!.ladderKey, all)).toEqual([]);
  });

  it('shows the 3.29% arbitrage only with flagged markets let in, flagged and off the consensus', () => {
    const { flagged, board } = boardWith(market());
    const a = detectArbitrage(
      flagged,
      groupWhere(board, (r) => r.marketType === 'player_goals'),
      all,
    )!;
    expect(a.legs.map((l) => [l.row.sportsbook, l.row.selectionType])).toEqual([
      ['bet365', 'over'],
      ['betfair', 'under'],
    ]);
    expect(a.impliedTotal).toBeCloseTo(96.8102, 3);
    expect(a.profitPercent).toBeCloseTo(3.2949, 3);
    expect(a.guards.flagged).toEqual([
      { book: 'betfair', flag: 'self_arbitrage', impliedTotal: expect.closeTo(0.970216, 6), limit: 0.999 },
    ]);
    // Betfair's under (0.877193) against the median of the four retail unders (0.952381, 0.961538: 0.956960)
    expect(a.guards.offConsensus).toEqual([
      {
        book: 'betfair',
        selectionType: 'under',
        probability: expect.closeTo(0.877193, 6),
        consensus: expect.closeTo(0.95696, 5),
        otherBooks: 4,
      },
    ]);
  });
});

describe('a flagged sharp reference is never devigged', () => {
  // Pinnacle -105 / +110 (1.9524 / 2.1) sums to 98.84%: flagged. Circa -115 / -105 (1.8696 / 1.9524, 104.71%) is the
  // reference instead; power devig gives Circa home 0.511602, away 0.488398. DraftKings home +104 (2.04):
  // EV = 0.511602 x 2.04 - 1 = +4.3668%. FanDuel -110 / -110 is below fair on both sides.
  const market = (pinnacle: [number, number]) => [
    nba('pinnacle', { price: { american: pinnacle[0] } }),
    nba('pinnacle', { selection: 'Los Angeles Lakers', selectionType: 'away', price: { american: pinnacle[1] } }),
    nba('circa', { price: { american: -115 } }),
    nba('circa', { selection: 'Los Angeles Lakers', selectionType: 'away', price: { american: -105 } }),
    nba('draftkings', { price: { american: 104 } }),
    nba('draftkings', { selection: 'Los Angeles Lakers', selectionType: 'away', price: { american: -125 } }),
    nba('fanduel', { price: { american: -110 } }),
    nba('fanduel', { selection: 'Los Angeles Lakers', selectionType: 'away', price: { american: -110 } }),
  ];

  it.each([
    ['crosses itself (-105 / +110)', [-105, 110] as [number, number]],
    ['holds 20% (-150 / -150)', [-150, -150] as [number, number]],
  ])('Pinnacle %s: +EV against Circa, one sharp reference left', (_, pin) => {
    const { ctx, board } = boardWith(market(pin));
    const evs = detectEv(
      ctx,
      groupWhere(board, () => true),
    );
    expect(evs.map((e) => [e.row.sportsbook, e.row.selectionType, e.sharpBook])).toEqual([['draftkings', 'home', 'circa']]);
    expect(evs[0]!.fair.power).toBeCloseTo(0.511602, 5);
    expect((evs[0]!.fair.power * evs[0]!.row.decimal - 1) * 100).toBeCloseTo(4.3668, 3);
    expect(evs[0]!.sharpRefCount).toBe(1);
  });

  it("with flagged markets let in, Pinnacle's +110 is +EV (flagged) and its arbitrage with DraftKings is listed (flagged)", () => {
    const { ctx, flagged, board } = boardWith(market([-105, 110]));
    const g = groupWhere(board, () => true);
    // default: best home 2.04 (DK), best sound away 1.9524 (Circa): 0.490196 + 0.512190 = 1.002386, no arbitrage
    expect(detectArbitrage(ctx, g, all)).toBeNull();
    const pin = detectEv(flagged, g).find((e) => e.row.sportsbook === 'pinnacle')!;
    // 0.488398 x 2.1 - 1 = +2.5636%
    expect((pin.fair.power * pin.row.decimal - 1) * 100).toBeCloseTo(2.5636, 3);
    expect(pin.sharpBook).toBe('circa');
    expect(pin.guards.flagged.map((f) => f.flag)).toEqual(['self_arbitrage']);
    // 1/2.04 + 1/2.1 = 0.490196 + 0.476190 = 96.6387%: 3.4783% profit
    const a = detectArbitrage(flagged, g, all)!;
    expect(a.profitPercent).toBeCloseTo(3.4783, 3);
    expect(a.guards.flagged.map((f) => f.book)).toEqual(['pinnacle']);
  });
});

describe('a mislabelled alternate line', () => {
  // NBA total: six books' main line is 224.5 at -110 / -110. On the 220.5 alternate, four books price the over
  // at -155..-165 and the under at +125..+130; Bovada posts its 224.5 prices (-110 / -110) under the 220.5 label.
  // Bovada over 220.5 at 1.9091 with the best under (+130 = 2.3, Caesars and DraftKings; Caesars sorts first):
  // 0.523807 + 0.434783 = 95.8590%, a 4.3199% arbitrage, stakes 54.6435 / 45.3565. Bovada's own market (104.76%)
  // is sound, so the arbitrage is listed, with a warning: its over (0.523807) is 0.3747 from the median of the
  // others (0.615385) in log-odds and 9.16 points in probability.
  const total = (book: string, line: number, over: number, under: number): Quote[] =>
    (['over', 'under'] as const).map((side) =>
      nba(book, {
        marketType: 'total_points',
        selection: side === 'over' ? 'Over' : 'Under',
        selectionType: side,
        line,
        price: { american: side === 'over' ? over : under },
      }),
    );
  const market = () => [
    ...['draftkings', 'fanduel', 'betmgm', 'caesars', 'bovada', 'betrivers'].flatMap((b) => total(b, 224.5, -110, -110)),
    ...total('draftkings', 220.5, -160, 130),
    ...total('fanduel', 220.5, -155, 125),
    ...total('betmgm', 220.5, -165, 125),
    ...total('caesars', 220.5, -160, 130),
    ...total('bovada', 220.5, -110, -110),
  ];

  it('is found, marked alternate and warned as off the consensus', () => {
    const { ctx, board } = boardWith(market());
    const a = detectArbitrage(
      ctx,
      groupWhere(board, (r) => r.groupLine === 220.5),
      all,
    )!;
    expect(a.legs.map((l) => [l.row.sportsbook, l.row.selectionType])).toEqual([
      ['bovada', 'over'],
      ['caesars', 'under'],
    ]);
    expect(a.profitPercent).toBeCloseTo(4.3199, 3);
    expect(a.legs.map((l) => l.stakePercent)).toEqual([expect.closeTo(54.6435, 3), expect.closeTo(45.3565, 3)]);
    expect(a.isAlternateLine).toBe(true);
    expect(a.guards.flagged).toEqual([]);
    expect(a.guards.offConsensus).toEqual([
      {
        book: 'bovada',
        selectionType: 'over',
        probability: expect.closeTo(0.523807, 6),
        consensus: expect.closeTo(0.615385, 6),
        otherBooks: 4,
      },
    ]);
    // the main line is clean: no opportunity, nothing flagged
    expect(
      detectArbitrage(
        ctx,
        groupWhere(board, (r) => r.groupLine === 224.5),
        all,
      ),
    ).toBeNull();
  });
});

describe('a three-way market whose draw is a prediction-market contract', () => {
  // Kalshi: Arsenal 0.44, "Reg Time: Tie" 0.277, Chelsea 0.278 (decimals 2.2727, 3.6101, 3.5971): together
  // 99.5008%, a 0.5017% arbitrage on one venue (stakes 44.2213 / 27.8390 / 27.9397) and, being a prediction
  // market's separate contracts, not a self-contradiction. Pinnacle's three-way line 2.25 / 3.45 / 3.40 (102.84%)
  // devigs by power (k = 1.026715) to 0.434920 / 0.280423 / 0.284658: Kalshi's tie is +1.2354%, its Chelsea
  // contract +2.3942%, its Arsenal contract -1.1558% (not listed).
  const line = (book: string, prices: [number, number, number], tie = 'Draw'): Quote[] => [
    epl(book, { price: { decimal: prices[0] } }),
    epl(book, { selection: tie, selectionType: 'draw', price: { decimal: prices[1] } }),
    epl(book, { selection: 'Chelsea', selectionType: 'away', price: { decimal: prices[2] } }),
  ];
  const market = (): Quote[] => [
    epl('kalshi', { price: { contract_price: 0.44 } }),
    epl('kalshi', { selection: 'Reg Time: Tie', selectionType: 'draw', price: { contract_price: 0.277 } }),
    epl('kalshi', { selection: 'Chelsea', selectionType: 'away', price: { contract_price: 0.278 } }),
    ...line('pinnacle', [2.25, 3.45, 3.4]),
    ...line('bet365', [2.2, 3.3, 3.25]),
    ...line('skybet', [2.15, 3.4, 3.3]),
    ...line('betway', [2.2, 3.25, 3.3]),
  ];

  it('finds the arbitrage across the three contracts on one venue, unflagged', () => {
    const { ctx, board } = boardWith(market());
    const a = detectArbitrage(
      ctx,
      groupWhere(board, () => true),
      all,
    )!;
    expect(a.legs.map((l) => [l.row.sportsbook, l.row.selectionType, l.row.decimal])).toEqual([
      ['kalshi', 'home', 2.2727],
      ['kalshi', 'draw', 3.6101],
      ['kalshi', 'away', 3.5971],
    ]);
    expect(a.impliedTotal).toBeCloseTo(99.5008, 3);
    expect(a.profitPercent).toBeCloseTo(0.5017, 3);
    expect(a.legs.map((l) => l.stakePercent)).toEqual([expect.closeTo(44.2213, 3), expect.closeTo(27.839, 3), expect.closeTo(27.9397, 3)]);
    expect(a.guards).toEqual({ flagged: [], offConsensus: [], unverified: [] });
  });

  it('finds the +EV contracts against the sharp three-way line, as an independent power devig says', () => {
    const { ctx, board } = boardWith(market());
    const evs = detectEv(
      ctx,
      groupWhere(board, () => true),
    ).filter((e) => e.row.sportsbook === 'kalshi');
    expect(evs.map((e) => e.row.selectionType).sort()).toEqual(['away', 'draw']);
    const fair = powerDevig([1 / 2.25, 1 / 3.45, 1 / 3.4]);
    expect(fair).toEqual([expect.closeTo(0.43492, 5), expect.closeTo(0.280423, 5), expect.closeTo(0.284658, 5)]);
    const byType = Object.fromEntries(evs.map((e) => [e.row.selectionType, (e.fair.power * e.row.decimal - 1) * 100]));
    expect(byType.draw).toBeCloseTo(1.2354, 3);
    expect(byType.away).toBeCloseTo(2.3942, 3);
    expect(Math.abs(byType.draw! - (fair[1]! * 3.6101 - 1) * 100)).toBeLessThan(0.05);
    expect(Math.abs(byType.away! - (fair[2]! * 3.5971 - 1) * 100)).toBeLessThan(0.05);
    expect(evs.every((e) => e.sharpBook === 'pinnacle' && e.guards.offConsensus.length === 0)).toBe(true);
  });
});

describe('accents in player names', () => {
  // DraftKings "Nikola Jokić" over 26.5 at +105 (2.05); FanDuel "Nikola Jokic" under 26.5 at +110 (2.10): one market,
  // 0.487805 + 0.476190 = 96.3995%, a 3.7349% arbitrage. Each book alone holds 6.2% and 5.1%.
  it('puts both spellings in one market and finds the arbitrage across them', () => {
    const prop = (book: string, player: string, side: 'over' | 'under', american: number) =>
      nba(book, {
        marketType: 'player_points',
        playerName: player,
        statCategory: 'points',
        selection: side === 'over' ? 'Over' : 'Under',
        selectionType: side,
        line: 26.5,
        price: { american },
      });
    const { ctx, board } = boardWith([
      prop('draftkings', 'Nikola Jokić', 'over', 105),
      prop('draftkings', 'Nikola Jokić', 'under', -135),
      prop('fanduel', 'Nikola Jokic', 'over', -135),
      prop('fanduel', 'NIKOLA JOKIC', 'under', 110),
    ]);
    expect(new Set([...board.rows.values()].map((r) => r.groupKey)).size).toBe(1);
    const a = detectArbitrage(
      ctx,
      groupWhere(board, () => true),
      all,
    )!;
    expect(a.legs.map((l) => [l.row.sportsbook, l.row.playerName, l.row.selectionType])).toEqual([
      ['draftkings', 'Nikola Jokić', 'over'],
      ['fanduel', 'NIKOLA JOKIC', 'under'],
    ]);
    expect(a.profitPercent).toBeCloseTo(3.7349, 3);
  });
});

describe('+EV agrees with an independent power devig (within 0.05 points) wherever both see the same price', () => {
  it('property: two- and three-way sharp lines, any sound book price', () => {
    // A fair line from random weights; the sharp book adds a 1-10% margin, the other book 2-8% and up to 10% noise
    // per outcome (both stay sound venues, so neither is flagged).
    const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.double({ min: 1, max: 6, noNaN: true }), { minLength: 3, maxLength: 3 }),
        fc.double({ min: 0.01, max: 0.1, noNaN: true }),
        fc.double({ min: 0.02, max: 0.08, noNaN: true }),
        fc.array(fc.double({ min: 0.9, max: 1.1, noNaN: true }), { minLength: 3, maxLength: 3 }),
        (threeWay, weights, sharpMargin, softMargin, noise) => {
          const n = threeWay ? 3 : 2;
          const w = weights.slice(0, n);
          const fairLine = w.map((x) => x / w.reduce((a, b) => a + b, 0));
          const sharp = fairLine.map((p) => r4(1 / (p * (1 + sharpMargin))));
          const soft = fairLine.map((p, i) => r4(1 / Math.min(0.97, p * (1 + softMargin) * noise[i]!)));
          const softTotal = soft.reduce((s, d) => s + 1 / d, 0);
          fc.pre(softTotal >= 1 && softTotal <= 1.15);
          const types = threeWay ? ['home', 'draw', 'away'] : ['home', 'away'];
          const names: Record<string, string> = threeWay
            ? { home: 'Arsenal', draw: 'Draw', away: 'Chelsea' }
            : { home: 'Denver Nuggets', away: 'Los Angeles Lakers' };
          const make = (book: string, prices: number[]) =>
            types.map((t, i) => (threeWay ? epl : nba)(book, { selection: names[t]!, selectionType: t, price: { decimal: prices[i]! } }));
          const { ctx, board } = boardWith([...make('pinnacle', sharp), ...make('draftkings', soft)]);
          const fair = powerDevig(sharp.map((d) => 1 / d));
          const evs = detectEv(
            ctx,
            groupWhere(board, () => true),
          );
          for (let i = 0; i < n; i++) {
            const independent = (fair[i]! * soft[i]! - 1) * 100;
            const found = evs.find((e) => e.row.selectionType === types[i]);
            if (independent > 0.05) expect(found).toBeDefined();
            if (found) expect(Math.abs((found.fair.power * found.row.decimal - 1) * 100 - independent)).toBeLessThan(0.05);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../config/catalog.js';
import fc from 'fast-check';
import type { OddsRow } from '../../domain/odds-row.js';
import { checkMarkets, consensusGap, consensusGapOf, holdCeiling, median, outcomeConsensus, pricesByBook } from './guards.js';

const catalog = new Catalog();
const book = (id: string) => catalog.book(id);

let n = 0;
function row(sportsbook: string, selectionType: string, decimal: number, over: Partial<OddsRow> = {}): OddsRow {
  n++;
  return {
    id: `r${n}`,
    sportsbook,
    eventId: 'e',
    sport: 'soccer',
    league: 'epl',
    marketType: 'player_goals',
    period: 'game',
    ladderKey: 'l',
    groupKey: 'g',
    groupLine: 1.5,
    selection: selectionType,
    selectionType,
    line: 1.5,
    playerName: null,
    statCategory: null,
    american: 0,
    decimal,
    probability: 1 / decimal,
    isLive: false,
    isActive: true,
    changedAt: 0,
    oddsChangedAt: 0,
    lastSeenAt: 0,
    externalEventId: null,
    marketId: null,
    selectionId: null,
    maxBet: null,
    ...over,
  };
}
const OU = ['over', 'under'] as const;
const HDA = ['home', 'draw', 'away'] as const;
const flagsOf = (rows: OddsRow[], outcomes: readonly string[] = OU) => checkMarkets(pricesByBook(rows, outcomes), outcomes, book);

describe('venue integrity (a venue whose own market contradicts itself or holds far too much)', () => {
  it('flags an exchange whose own over and under sum to 97% (the reported player-goals case)', () => {
    // Betfair over 1.5 at 10.75 and under 1.5 at 1.14: 0.093023 + 0.877193 = 0.970216
    const flags = flagsOf([
      row('betfair', 'over', 10.75),
      row('betfair', 'under', 1.14),
      row('bet365', 'over', 11),
      row('bet365', 'under', 1.04),
    ]);
    expect([...flags.keys()]).toEqual(['betfair']);
    expect(flags.get('betfair')).toMatchObject({ flag: 'self_arbitrage', limit: 0.999 });
    expect(flags.get('betfair')!.impliedTotal).toBeCloseTo(0.970216, 6);
  });

  it('flags a sportsbook crossing itself by more than price rounding, not a zero-vig -110/+110 stored at 4 decimals', () => {
    // -105 / +110 = 1.9524 / 2.1: 0.512190 + 0.476190 = 0.988380
    expect(flagsOf([row('pinnacle', 'over', 1.9524), row('pinnacle', 'under', 2.1)]).get('pinnacle')?.flag).toBe('self_arbitrage');
    // -110 / +110 = 1.9091 / 2.1: 0.523807 + 0.476190 = 0.999997 (rounding, not a data error)
    expect(flagsOf([row('draftkings', 'over', 1.9091), row('draftkings', 'under', 2.1)]).size).toBe(0);
  });

  it("a clean group's flags stay empty whatever another group was flagged for (no flags are carried between groups)", () => {
    const clean = () => flagsOf([row('draftkings', 'over', 1.9091), row('draftkings', 'under', 2.1)]);
    expect(clean().size).toBe(0);
    expect([...flagsOf([row('pinnacle', 'over', 1.9524), row('pinnacle', 'under', 2.1)]).keys()]).toEqual(['pinnacle']);
    expect([...clean().keys()]).toEqual([]);
  });

  it('lets a prediction market cross itself a little (separate order books per contract) but not by more than 2%', () => {
    // Kalshi three contracts at 0.44 / 0.277 / 0.278 = 0.995: a real cross-contract arbitrage, not flagged
    const real = [row('kalshi', 'home', 1 / 0.44), row('kalshi', 'draw', 1 / 0.277), row('kalshi', 'away', 1 / 0.278)];
    expect(flagsOf(real, HDA).size).toBe(0);
    // 0.43 / 0.27 / 0.27 = 0.97: below the 98% floor
    const broken = [row('kalshi', 'home', 1 / 0.43), row('kalshi', 'draw', 1 / 0.27), row('kalshi', 'away', 1 / 0.27)];
    expect(flagsOf(broken, HDA).get('kalshi')).toMatchObject({ flag: 'self_arbitrage', limit: 0.98 });
  });

  it("does not flag the sample CSV's real rows (Polymarket Red Sox -120 / Rays +120, BookMaker 2nd half -116 / -103)", () => {
    // 1/1.833 + 1/2.2 = 0.545554 + 0.454545 = 1.000099; 1/1.862 + 1/1.971 = 0.537057 + 0.507357 = 1.044414
    expect(flagsOf([row('polymarket', 'home', 1.833), row('polymarket', 'away', 2.2)], ['home', 'away']).size).toBe(0);
    expect(flagsOf([row('bookmaker', 'home', 1.862), row('bookmaker', 'away', 1.971)], ['home', 'away']).size).toBe(0);
  });

  it("flags a hold more than 10 points over the venue's usual hold: 17% for a retail two-way market, 14.5% for a sharp three-way one", () => {
    expect(holdCeiling(book('draftkings'), 2)).toBe(17);
    expect(holdCeiling(book('pinnacle'), 3)).toBeCloseTo(14.5, 12);
    expect(holdCeiling(book('betfair'), 2)).toBe(13);
    expect(holdCeiling(book('kalshi'), 3)).toBe(16);
    expect(holdCeiling(undefined, 2)).toBe(17);
    // 1/1.72 + 1/1.72 = 1.162791 (16.3%): kept; 1/1.70 x 2 = 1.176471 (17.6%): flagged
    expect(flagsOf([row('draftkings', 'over', 1.72), row('draftkings', 'under', 1.72)]).size).toBe(0);
    expect(flagsOf([row('draftkings', 'over', 1.7), row('draftkings', 'under', 1.7)]).get('draftkings')).toMatchObject({
      flag: 'excess_hold',
      limit: 1.17,
    });
    // Pinnacle -150 / -150: 1.6667 x 2 -> 1.199976, far over its 13% ceiling
    expect(flagsOf([row('pinnacle', 'over', 1.6667), row('pinnacle', 'under', 1.6667)]).get('pinnacle')?.flag).toBe('excess_hold');
  });

  it('judges only complete active markets, each venue on its own best price per outcome', () => {
    expect(flagsOf([row('betfair', 'over', 3)]).size).toBe(0);
    expect(flagsOf([row('betfair', 'over', 3), row('betfair', 'under', 3, { isActive: false })]).size).toBe(0);
    // two rows for one outcome: the better one counts (2.5 with 1.8: 0.4 + 0.5556 = 0.9556, flagged)
    expect(
      flagsOf([row('draftkings', 'over', 2.2), row('draftkings', 'over', 2.5), row('draftkings', 'under', 1.8)]).get('draftkings')!
        .impliedTotal,
    ).toBeCloseTo(0.955556, 6);
  });
});

describe('consensus (a price far from the other books on the same outcome)', () => {
  const others = (sel: string, ...decimals: number[]) => decimals.map((d, i) => row(`book${i}`, sel, d));

  it('needs at least three other books', () => {
    const leg = row('bovada', 'over', 3);
    expect(consensusGap(leg, pricesByBook([leg, ...others('over', 2, 2)], OU), () => false)).toBeNull();
    expect(consensusGap(leg, pricesByBook([leg, ...others('over', 2, 2, 2)], OU), () => false)).toMatchObject({
      book: 'bovada',
      consensus: 0.5,
      otherBooks: 3,
    });
  });

  it('warns beyond 0.35 in log-odds AND 5 points of probability from the median', () => {
    const gap = (p: number, ...otherPs: number[]) => {
      const leg = row('bovada', 'over', 1 / p);
      return consensusGap(leg, pricesByBook([leg, ...others('over', ...otherPs.map((q) => 1 / q))], OU), () => false);
    };
    // consensus 50%: the bounds are 41.34% and 58.66% (logit 0.35); 41% is out, 42% is in
    expect(gap(0.41, 0.5, 0.5, 0.5)).not.toBeNull();
    expect(gap(0.42, 0.5, 0.5, 0.5)).toBeNull();
    expect(gap(0.59, 0.5, 0.5, 0.5)).not.toBeNull();
    // consensus 90%: 86% is 0.36 away in log-odds but only 4 points: not warned; 84% is 6 points: warned
    expect(gap(0.86, 0.9, 0.9, 0.9)).toBeNull();
    expect(gap(0.84, 0.9, 0.9, 0.9)).not.toBeNull();
    // a mislabelled alternate: -110 (0.5238) where the others price the line at -155..-165 (median 0.6154)
    expect(gap(1 / 1.9091, 1 / 1.625, 1 / 1.6452, 1 / 1.6061, 1 / 1.625)).toMatchObject({ consensus: expect.closeTo(0.615385, 5) });
  });

  it("takes the median, leaves out the leg's own book and flagged venues", () => {
    expect(median([0.3, 0.9, 0.5])).toBe(0.5);
    expect(median([0.3, 0.9, 0.5, 0.7])).toBe(0.6);
    const leg = row('bovada', 'over', 1 / 0.4);
    const rows = [leg, row('bovada', 'over', 1 / 0.4), ...others('over', 2, 2, 2), row('betfair', 'over', 1 / 0.4)];
    // without Betfair the three other books all say 0.5 and 0.4 is out; with it (0.4) the median of 0.5, 0.5, 0.5, 0.4 is still 0.5
    expect(consensusGap(leg, pricesByBook(rows, OU), (b) => b === 'betfair')).toMatchObject({ otherBooks: 3, consensus: 0.5 });
    expect(consensusGap(leg, pricesByBook(rows, OU), () => false)).toMatchObject({ otherBooks: 4, consensus: 0.5 });
  });
});

describe('consensus from a prebuilt table (consensusGapOf: what detection uses on every price)', () => {
  it('takes the median of the other books, its own book and excluded venues left out', () => {
    // book0..book3 say 0.5, 0.6, 0.7, 0.8; bovada's own price (0.3) is in the table and must not count
    const others = [0.5, 0.6, 0.7, 0.8].map((p, i) => row(`book${i}`, 'over', 1 / p));
    const leg = row('bovada', 'over', 1 / 0.3);
    const table = outcomeConsensus(pricesByBook([leg, ...others], OU), 'over', () => false);
    expect(table.books).toEqual(['bovada', 'book0', 'book1', 'book2', 'book3']);
    // others 0.5, 0.6, 0.7, 0.8: median 0.65
    expect(consensusGapOf(leg, table)).toMatchObject({ book: 'bovada', otherBooks: 4, consensus: expect.closeTo(0.65, 12) });
    // book1's price: the others are 0.3, 0.5, 0.7, 0.8 (median 0.6), and 0.6 is not far from it
    expect(consensusGapOf(others[1]!, table)).toBeNull();
    // book3 excluded (flagged): the others of bovada are 0.5, 0.6, 0.7 (median 0.6)
    const without3 = outcomeConsensus(pricesByBook([leg, ...others], OU), 'over', (b) => b === 'book3');
    expect(consensusGapOf(leg, without3)).toMatchObject({ otherBooks: 3, consensus: expect.closeTo(0.6, 12) });
    // fewer than three others: no consensus
    const few = outcomeConsensus(pricesByBook([leg, ...others.slice(0, 3)], OU), 'over', (b) => b === 'book2');
    expect(consensusGapOf(leg, few)).toBeNull();
  });

  it('agrees with consensusGap on every price of a varied market', () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let trial = 0; trial < 50; trial++) {
      const rows = Array.from({ length: 3 + Math.floor(rnd() * 12) }, (_, i) =>
        row(`b${Math.floor(rnd() * 8)}`, i % 2 ? 'over' : 'under', +(1.2 + rnd() * 3).toFixed(2)),
      );
      const byBook = pricesByBook(rows, OU);
      const excluded = (b: string) => b === 'b3';
      for (const sel of OU) {
        const table = outcomeConsensus(byBook, sel, excluded);
        for (const r of rows.filter((x) => x.selectionType === sel))
          expect(consensusGapOf(r, table)).toEqual(consensusGap(r, byBook, excluded));
      }
    }
  });
});

/** The books' best prices as maps (book -> outcome -> row), independently of BookPrices: what it must agree with. */
function referencePrices(rows: readonly OddsRow[], outcomes: readonly string[]): Map<string, Map<string, OddsRow>> {
  const out = new Map<string, Map<string, OddsRow>>();
  for (const r of rows) {
    if (!r.isActive || !outcomes.includes(r.selectionType)) continue;
    const m = out.get(r.sportsbook) ?? new Map<string, OddsRow>();
    out.set(r.sportsbook, m);
    const cur = m.get(r.selectionType);
    if (!cur || r.decimal > cur.decimal) m.set(r.selectionType, r);
  }
  return out;
}

describe('BookPrices (each book best price per outcome, flat)', () => {
  it('agrees with per-book maps: books in order, best prices, complete markets, totals summed in the order priced', () => {
    const books = ['pinnacle', 'draftkings', 'betfair', 'kalshi', 'fanduel'];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            book: fc.constantFrom(...books),
            sel: fc.constantFrom('home', 'draw', 'away', 'other'),
            decimal: fc.double({ min: 1.01, max: 30, noNaN: true }),
            active: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        (specs) => {
          const rows = specs.map((s) => row(s.book, s.sel, s.decimal, { isActive: s.active }));
          const got = pricesByBook(rows, HDA);
          const want = referencePrices(rows, HDA);
          expect(got.books).toEqual([...want.keys()]);
          for (const b of books) {
            const m = want.get(b);
            HDA.forEach((o, i) => expect(got.price(b, i)).toBe(m?.get(o)));
            expect(got.complete(b)).toEqual(m && m.size === 3 ? HDA.map((o) => m.get(o)) : null);
          }
          // Flags from the maps, summing each complete market in its insertion order (bit for bit).
          const flags = checkMarkets(got, HDA, book);
          for (const [b, m] of want) {
            if (m.size !== 3) {
              expect(flags.has(b)).toBe(false);
              continue;
            }
            let total = 0;
            for (const r of m.values()) total += 1 / r.decimal;
            const f = flags.get(b);
            if (f) expect(f.impliedTotal).toBe(total);
          }
          expect([...flags.keys()]).toEqual([...want.keys()].filter((b) => flags.has(b)));
        },
      ),
      { numRuns: 300 },
    );
  });
});

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { NO_COST, netArbitrage, netDecimal, netEvPercent } from './costs.js';

const BETFAIR_LIKE = { commission: 0.05, feeRate: 0 };
const KALSHI_LIKE = { commission: 0, feeRate: 0.07 };

describe('net decimal: what one unit of outlay returns when the bet wins', () => {
  it('a sportsbook price is its own net decimal', () => {
    expect(netDecimal(2.1, NO_COST)).toBe(2.1);
  });

  it('a commission comes off the winnings only', () => {
    // 1 + (2.00 - 1) x (1 - 0.05) = 1.95
    expect(netDecimal(2, BETFAIR_LIKE)).toBeCloseTo(1.95, 12);
  });

  it('a trading fee adds to the outlay', () => {
    // Contract at 0.45: fee per contract 0.07 x 0.45 x 0.55 = 0.017325, outlay 0.467325, pays 1 -> 1 / 0.467325 = 2.139838
    expect(netDecimal(1 / 0.45, KALSHI_LIKE)).toBeCloseTo(1 / 0.467325, 10);
    expect(netDecimal(1 / 0.45, KALSHI_LIKE)).toBeCloseTo(2.139838, 6);
  });
});

describe('net EV', () => {
  it('a Kalshi contract at 0.45 with fair 0.47: +4.44% gross, +0.57% after the taker fee', () => {
    // Gross: 0.47 / 0.45 - 1 = +4.4444%. Net: 0.47 / (0.45 + 0.07 x 0.45 x 0.55) - 1 = 0.47 / 0.467325 - 1 = +0.5724%.
    expect(netEvPercent(0.47, 1 / 0.45, NO_COST)).toBeCloseTo(4.4444, 4);
    expect(netEvPercent(0.47, 1 / 0.45, KALSHI_LIKE)).toBeCloseTo(0.5724, 4);
  });

  it('an exchange commission: fair 0.55 at 2.00 with 5% is +10% gross, +7.25% net', () => {
    // 0.55 x 2.00 - 1 = 0.10; 0.55 x 1.95 - 1 = 0.0725
    expect(netEvPercent(0.55, 2, BETFAIR_LIKE)).toBeCloseTo(7.25, 10);
  });
});

describe('arbitrage after venue costs: stakes on net decimals', () => {
  it('without costs it is the gross arbitrage', () => {
    // 2.10 and 2.05: implied 0.476190 + 0.487805 = 0.963995 -> 100 / 0.963995 - 100 = 3.7350%; stakes 49.3976 / 50.6024
    const a = netArbitrage([2.1, 2.05].map((d) => ({ decimal: d, cost: NO_COST })));
    expect(a.profitPercent).toBeCloseTo(3.735, 3);
    expect(a.stakePercent[0]).toBeCloseTo(49.3976, 4);
  });

  it('book 2.10 against an exchange 2.00 at 5%: stakes 48.15 / 51.85 guarantee +1.11% (gross stakes lose 0.12%)', () => {
    // Exchange net decimal 1 + 1.00 x 0.95 = 1.95. 1/2.10 = 0.476190, 1/1.95 = 0.512821, sum 0.989011.
    // Stakes 0.476190 / 0.989011 = 48.1481%, 51.8519%; every outcome returns 100 / 0.989011 = 101.1111 -> +1.1111%.
    const a = netArbitrage([
      { decimal: 2.1, cost: NO_COST },
      { decimal: 2, cost: BETFAIR_LIKE },
    ]);
    expect(a.stakePercent[0]).toBeCloseTo(48.1481, 4);
    expect(a.stakePercent[1]).toBeCloseTo(51.8519, 4);
    expect(a.profitPercent).toBeCloseTo(1.1111, 4);
    // Both outcomes pay the same: 48.1481 x 2.10 = 101.1111 = 51.8519 x 1.95.
    expect(a.stakePercent[0]! * 2.1).toBeCloseTo(a.stakePercent[1]! * 1.95, 10);
    // The split on gross odds (48.7805 / 51.2195) returns 51.2195 x 1.95 = 99.8780 when the exchange wins: -0.1220%.
    const grossSplit = (1 / 2 / (1 / 2.1 + 1 / 2)) * 1.95 * 100 - 100;
    expect(grossSplit).toBeCloseTo(-0.122, 3);
    expect(a.profitPercent).toBeGreaterThan(grossSplit);
  });

  it("a prediction market's fee is in the percentage's base: Kalshi 0.44 against 1.95 keeps 3.09%, not 3.14%", () => {
    // Kalshi outlay per unit of stake 1 + 0.07 x (1 - 0.44) = 1.0392 -> 1 / net decimal = 0.44 x 1.0392 = 0.457248.
    // Sum with 1/1.95 = 0.512821: 0.970069 -> 100 / 0.970069 - 100 = +3.0855% of the outlay (stakes and fees).
    // Kalshi outlay share 0.457248 / 0.970069 = 47.1356%: stake 47.1356 / 1.0392 = 45.3576 buys 103.0855 contracts paying 103.0855;
    // the book leg 52.8644 x 1.95 = 103.0855. The same profit over the stakes alone, leaving the fee (47.1356 - 45.3576 = 1.7780) out of the
    // base, would read 3.0855 / (100 - 1.7780) = 3.0855 / 98.2220 = 3.1414%.
    const a = netArbitrage([
      { decimal: 1 / 0.44, cost: KALSHI_LIKE },
      { decimal: 1.95, cost: NO_COST },
    ]);
    expect(a.profitPercent).toBeCloseTo(3.0855, 4);
    expect(a.stakePercent[0]).toBeCloseTo(47.1356, 4);
    const kalshiPays = (a.stakePercent[0]! / 1.0392 / 0.44) * 1;
    expect(kalshiPays).toBeCloseTo(103.0855, 4);
    expect(a.stakePercent[1]! * 1.95).toBeCloseTo(103.0855, 4);
    const fee = a.stakePercent[0]! - a.stakePercent[0]! / 1.0392;
    expect(fee).toBeCloseTo(1.778, 4);
    expect((a.profitPercent / (100 - fee)) * 100).toBeCloseTo(3.1414, 4);
  });

  it('costs can turn an arbitrage into a loss', () => {
    // 2.02 twice, both at 5%: net decimal 1.969 -> 2 / 1.969 = 1.015744 -> 100 / 1.015744 - 100 = -1.5500%
    const a = netArbitrage([2.02, 2.02].map((d) => ({ decimal: d, cost: BETFAIR_LIKE })));
    expect(a.profitPercent).toBeCloseTo(-1.55, 3);
  });

  it('property: the net split returns the same on every leg, and never more than the gross arbitrage', () => {
    const cost = fc.record({
      commission: fc.double({ min: 0, max: 0.2, noNaN: true }),
      feeRate: fc.double({ min: 0, max: 0.1, noNaN: true }),
    });
    const leg = fc.record({ decimal: fc.double({ min: 1.01, max: 50, noNaN: true }), cost });
    fc.assert(
      fc.property(fc.array(leg, { minLength: 2, maxLength: 3 }), (legs) => {
        const a = netArbitrage(legs);
        const returns = legs.map((l, i) => (a.stakePercent[i]! * netDecimal(l.decimal, l.cost)) / 100);
        for (const r of returns) expect(r).toBeCloseTo(1 + a.profitPercent / 100, 9);
        const gross = netArbitrage(legs.map((l) => ({ decimal: l.decimal, cost: NO_COST })));
        expect(a.profitPercent).toBeLessThanOrEqual(gross.profitPercent + 1e-9);
      }),
    );
  });
});

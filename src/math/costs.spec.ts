import { describe, expect, it } from '@jest/globals';
import { NO_COST, netProfitPercent } from './costs.js';

describe('arbitrage profit after venue costs', () => {
  it('without costs it is the gross profit 100 / implied total - 100', () => {
    // 2.10 and 2.05: implied 0.476190 + 0.487805 = 0.963995; stakes proportional to implied probability.
    const total = 1 / 2.1 + 1 / 2.05;
    const legs = [2.1, 2.05].map((d) => ({ decimal: d, stake: 1 / d / total, cost: NO_COST }));
    expect(netProfitPercent(legs)).toBeCloseTo(100 / total - 100, 10); // 3.7350%
  });

  it('an exchange commission comes off the winnings of its leg; the worst leg sets the figure', () => {
    // Sportsbook 2.10, exchange 2.05 with 5% commission. Stakes 0.493976 / 0.506024 (each returns 1.037350).
    // Exchange wins: 1.037350 - 0.05 x 0.506024 x 1.05 = 1.010784 -> 1.0784%; the sportsbook leg keeps 3.7350%.
    const total = 1 / 2.1 + 1 / 2.05;
    const s1 = 1 / 2.1 / total;
    const s2 = 1 / 2.05 / total;
    const net = netProfitPercent([
      { decimal: 2.1, stake: s1, cost: NO_COST },
      { decimal: 2.05, stake: s2, cost: { commission: 0.05, feeRate: 0 } },
    ]);
    expect(net).toBeCloseTo((1 / total - 0.05 * s2 * 1.05 - 1) * 100, 10);
    expect(net).toBeCloseTo(1.0784, 3);
  });

  it("a prediction market's trading fee is paid on its leg whatever wins", () => {
    // Kalshi contract at 0.44 (decimal 2.272727) against a book's 1.95: implied 0.44 + 0.512821 = 0.952821.
    // Stakes 0.461785 / 0.538215; fee 0.07 x 0.461785 x (1 - 0.44) = 0.018102; gross return 1.049515.
    const total = 0.44 + 1 / 1.95;
    const sK = 0.44 / total;
    const net = netProfitPercent([
      { decimal: 1 / 0.44, stake: sK, cost: { commission: 0, feeRate: 0.07 } },
      { decimal: 1.95, stake: 1 / 1.95 / total, cost: NO_COST },
    ]);
    expect(net).toBeCloseTo((1 / total - 1 - 0.07 * sK * 0.56) * 100, 10);
    expect(net).toBeCloseTo(3.1413, 3);
  });

  it('costs can turn an arbitrage into a loss', () => {
    const total = 1 / 2.02 + 1 / 2.02;
    const legs = [2.02, 2.02].map((d) => ({ decimal: d, stake: 1 / d / total, cost: { commission: 0.05, feeRate: 0 } }));
    expect(netProfitPercent(legs)).toBeLessThan(0);
  });
});

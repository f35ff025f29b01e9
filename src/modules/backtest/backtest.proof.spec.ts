import { describe, expect, it } from '@jest/globals';
import { runBacktest } from './backtest.engine.js';
import { DEFAULT_RULE } from './backtest.rule.js';
import { SimulatedSource } from './simulated-source.js';

/**
 * Issue 28 item 4: the backtest proves the detector. In the simulator's own world every selection's true
 * probability is known, so the realised ROI of the "+EV >= x%" bets must agree with their true edge within the
 * confidence interval, and the detector's EV at detection must be positive on average. A detector whose bets lose
 * in the simulator's own world is a bug.
 */
// Pure (no store, no Redis) and the longest unit test: it runs once, in the embedded run, not again with services.
const once = process.env.TEST_DATABASE_URL ? describe.skip : describe;

once('backtest on simulated days (the detector in the simulator’s own world)', () => {
  it('realises the true edge of its +EV bets within the 95% interval', async () => {
    const source = new SimulatedSource({ days: 1, seed: 11, events: 8, stepMs: 120_000 });
    const report = await runBacktest(source, { ...DEFAULT_RULE, minEv: 0.5 });
    const s = report.summary;
    const t = report.truth!;
    expect(s.bets).toBeGreaterThanOrEqual(15);
    expect(s.avg_ev_percent!).toBeGreaterThan(0.5);
    // The simulator's truth: the bets the detector calls +EV are +EV (on average) in its own world.
    expect(t.bets).toBeGreaterThanOrEqual(10);
    expect(t.expected_roi_percent!).toBeGreaterThan(0);
    // Realised ROI against the true edge: inside the normal-approximation 95% interval.
    expect(t.within_ci).toBe(true);
    expect(t.roi_ci95_percent![0]).toBeLessThanOrEqual(t.expected_roi_percent!);
    expect(t.roi_ci95_percent![1]).toBeGreaterThanOrEqual(t.expected_roi_percent!);
    // Every bet is graded (the window plays on until the games bet on have ended), at a price above fair value.
    expect(s.void).toBe(0);
    for (const b of report.bets) {
      expect(b.ev_percent).toBeGreaterThanOrEqual(0.5);
      expect(b.true_probability).not.toBeNull();
    }
    // The bankroll curve starts at the bankroll and ends at bankroll + profit.
    expect(report.bankroll[0]!.bankroll).toBe(1000);
    expect(report.bankroll.at(-1)!.bankroll).toBeCloseTo(1000 + s.profit, 2);
  }, 300_000);
});

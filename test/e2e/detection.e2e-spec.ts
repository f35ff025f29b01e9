import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Catalog } from '../../src/config/catalog.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { MarketSimulator } from '../../src/modules/ingestion/simulator/simulator.js';
import { DetectionEngine } from '../../src/modules/detection/detection.engine.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Incremental detection against the safety net: a simulated market runs for three minutes through the real
 * pipeline; every 20 s the full re-scan must find exactly what the incremental engine holds, and live
 * opportunities keep their id and detected_at.
 */
describe('incremental detection agrees with the full re-scan', () => {
  let t: TestApp;
  const start = Date.parse('2026-11-21T23:00:00Z');
  const clock = new ManualClock(start);

  beforeAll(async () => {
    t = await startTestApp({ clock });
  });
  afterAll(async () => {
    await t.close();
  });

  it('over three simulated minutes', () => {
    const ingestion = t.app.get(IngestionService);
    const detection = t.app.get(DetectionEngine);
    const ids = (kind: string) => new Set([...detection.live(kind)!.values()].map((r) => r.id));
    const sim = new MarketSimulator(new Catalog(), { seed: 7, events: 60, days: 3, tickMs: 1000, start });
    ingestion.ingest(sim.start(start), start, { backfill: true });
    expect(detection.rescan(start)).toBe(0);
    const firstSeen = new Map<string, number>();
    const seen = { arbitrage: new Set<string>(), ev: new Set<string>(), middles: new Set<string>(), low_hold: new Set<string>() };
    const expired = { arbitrage: 0, ev: 0, middles: 0 };
    let prev = { arbitrage: new Set<string>(), ev: new Set<string>(), middles: new Set<string>() };
    for (let i = 1; i <= 180; i++) {
      clock.advance(1000);
      const batch = sim.poll(clock.now());
      ingestion.ingest(batch, clock.now());
      const now = {
        arbitrage: ids('arbitrage'),
        ev: ids('ev'),
        middles: ids('middles'),
      };
      for (const k of ['arbitrage', 'ev', 'middles'] as const) {
        for (const id of now[k]) seen[k].add(id);
        for (const id of prev[k]) if (!now[k].has(id)) expired[k]++;
      }
      for (const h of ids('low_hold')) seen.low_hold.add(h);
      for (const r of [...detection.live('arbitrage')!.values(), ...detection.live('middles')!.values()]) {
        const first = firstSeen.get(r.id);
        if (first === undefined) firstSeen.set(r.id, r.detectedAt);
        else if (now.arbitrage.has(r.id) || now.middles.has(r.id)) {
          // detected_at is kept while the opportunity lives (a re-detection after expiry may start afresh)
          if (prev.arbitrage.has(r.id) || prev.middles.has(r.id)) expect(r.detectedAt).toBe(first);
          else firstSeen.set(r.id, r.detectedAt);
        }
      }
      prev = now;
      if (i % 20 === 0) expect(detection.rescan(clock.now())).toBe(0);
    }
    expect(detection.stats.rescanMismatches).toBe(0);
    for (const k of ['arbitrage', 'ev', 'middles', 'low_hold'] as const) expect(seen[k].size).toBeGreaterThan(0);
    expect(expired.ev).toBeGreaterThan(0);
    expect(expired.middles + expired.arbitrage).toBeGreaterThan(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Catalog } from '../../src/config/catalog.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { MarketSimulator } from '../../src/modules/ingestion/simulator/simulator.js';
import { DetectionEngine } from '../../src/modules/detection/detection.engine.js';
import type { Quote } from '../../src/domain/types.js';
import { BoardService } from '../../src/modules/board/board.service.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import type { LowHoldRecord } from '../../src/modules/low-hold/low-hold.record.js';

/** The records of the group types (every scope) as JSON without `updatedAt`, by kind, scope and id. */
function records(detection: DetectionEngine): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kind of ['arbitrage', 'ev', 'low_hold'])
    for (const s of detection.scopes(kind))
      for (const r of detection.live(kind, s.key)!.values())
        out[`${kind}|${s.key}|${r.id}`] = JSON.parse(JSON.stringify({ ...r, updatedAt: 0 }));
  return out;
}

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
      if (i % 20 === 0) {
        // Not only the same ids: the same records (groups confirmed unchanged included), as a fresh evaluation makes them.
        const held = records(detection);
        expect(detection.rescan(clock.now())).toBe(0);
        expect(records(detection)).toEqual(held);
      }
    }
    expect(detection.stats.rescanMismatches).toBe(0);
    for (const k of ['arbitrage', 'ev', 'middles', 'low_hold'] as const) expect(seen[k].size).toBeGreaterThan(0);
    expect(expired.ev).toBeGreaterThan(0);
    expect(expired.middles + expired.arbitrage).toBeGreaterThan(0);
  });
});

/**
 * A price change re-evaluates every group of its ladder (the main line may move); groups whose rows and main
 * line are unchanged are confirmed from what the registries hold. Each case is checked against a fresh
 * evaluation (the re-scan).
 */
describe('re-evaluating the groups of a touched ladder', () => {
  let t: TestApp;
  const start = Date.parse('2026-11-21T23:00:00Z');
  const clock = new ManualClock(start);
  const kick = start + 86_400_000;

  beforeAll(async () => {
    t = await startTestApp({ clock });
  });
  afterAll(async () => {
    await t.close();
  });

  const side = (book: string, team: 'Kansas City Chiefs' | 'Buffalo Bills', line: number, decimal: number): Quote => ({
    book,
    league: 'nfl',
    homeTeam: 'Kansas City Chiefs',
    awayTeam: 'Buffalo Bills',
    startTime: kick,
    marketType: 'point_spread',
    selection: team,
    selectionType: team === 'Kansas City Chiefs' ? 'home' : 'away',
    line,
    price: { decimal },
  });
  const spread = (book: string, line: number, home: number, away = 1.95): Quote[] => [
    side(book, 'Kansas City Chiefs', line, home),
    side(book, 'Buffalo Bills', -line, away),
  ];

  it('follows a moved main line and a changed row; unchanged groups keep their records, confirmed now', () => {
    const ingestion = t.app.get(IngestionService);
    const detection = t.app.get(DetectionEngine);
    const board = t.app.get(BoardService).board;
    const ingest = (quotes: Quote[]) => {
      clock.advance(1000);
      ingestion.ingest({ source: 'test', quotes }, clock.now());
    };
    const lowHold = (line: number) => {
      const hits = [...detection.live<LowHoldRecord>('low_hold')!.values()].filter(
        (r) => r.marketType === 'point_spread' && r.line === line,
      );
      expect(hits).toHaveLength(1);
      return hits[0]!;
    };
    const checkAgainstRescan = () => {
      const held = records(detection);
      expect(detection.rescan(clock.now())).toBe(0);
      expect(records(detection)).toEqual(held);
    };

    // -2.5 at four books, -3.5 at two: the main line is -2.5. Every group holds about 2.6%: a low-hold item each.
    ingest([
      ...['draftkings', 'fanduel', 'betmgm', 'caesars'].flatMap((b) => spread(b, -2.5, 1.95)),
      ...['pinnacle', 'circa'].flatMap((b) => spread(b, -3.5, 1.95)),
    ]);
    expect(detection.rescan(clock.now())).toBe(0);
    const ladder = [...board.rows.values()].find((r) => r.marketType === 'point_spread')!.ladderKey;
    expect(board.mainLine(ladder)).toBe(-2.5);
    expect([lowHold(-2.5).isAlternateLine, lowHold(-3.5).isAlternateLine]).toEqual([false, true]);
    const detectedAt = lowHold(-2.5).detectedAt;

    // -4.5 at five books: the main line moves there. -2.5 and -3.5 have the same rows, but -2.5 is now an alternate.
    ingest(['draftkings', 'fanduel', 'betmgm', 'caesars', 'betrivers'].flatMap((b) => spread(b, -4.5, 1.95)));
    expect(board.mainLine(ladder)).toBe(-4.5);
    expect([lowHold(-2.5).isAlternateLine, lowHold(-3.5).isAlternateLine, lowHold(-4.5).isAlternateLine]).toEqual([true, true, false]);
    expect(lowHold(-2.5).detectedAt).toBe(detectedAt);
    checkAgainstRescan();

    // A row of -3.5 changes (the main line stays): that group's item follows its new best price; -2.5, unchanged,
    // is confirmed now with the same content.
    const before = lowHold(-2.5);
    const holdBefore = lowHold(-3.5).holdPercent;
    ingest(spread('pinnacle', -3.5, 2.0));
    expect(board.mainLine(ladder)).toBe(-4.5);
    expect(lowHold(-3.5).holdPercent).toBeCloseTo((1 / 2.0 + 1 / 1.95 - 1) * 100, 9);
    expect(lowHold(-3.5).holdPercent).toBeLessThan(holdBefore);
    const after = lowHold(-2.5);
    expect(after.updatedAt).toBe(clock.now());
    expect({ ...after, updatedAt: 0 }).toEqual({ ...before, updatedAt: 0 });
    checkAgainstRescan();

    // The change goes back: -3.5 is re-read again, not taken from what it held before.
    ingest(spread('pinnacle', -3.5, 1.95));
    expect(lowHold(-3.5).holdPercent).toBeCloseTo(holdBefore, 9);
    checkAgainstRescan();
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EventBus } from '../../src/common/bus/event-bus.js';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { Leadership } from '../../src/modules/cluster/leadership.service.js';
import { DetectionEngine } from '../../src/modules/detection/detection.engine.js';
import type { LifecycleMessage } from '../../src/modules/detection/lifecycle-wire.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, celticsMoneyline, H } from '../factories/market.js';
import { until } from '../support/tcp-proxy.js';
import { isolationEnv, KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';
import { LIFECYCLE_TOPIC } from '../../src/domain/topics.js';

/** Every live opportunity id of an instance, per kind and scope. */
function liveIds(t: TestApp): Record<string, string[]> {
  const engine = t.app.get(DetectionEngine);
  const out: Record<string, string[]> = {};
  for (const d of engine.types())
    for (const s of engine.scopes(d.kind)) out[`${d.kind}/${s.key}`] = [...engine.live(d.kind, s.key)!.values()].map((r) => r.id).sort();
  return out;
}

/** Every live record of an instance as JSON (a replica's prices are copies of the worker's), per kind and scope. */
function liveRecords(t: TestApp): unknown {
  const engine = t.app.get(DetectionEngine);
  const out: Record<string, unknown> = {};
  for (const d of engine.types())
    for (const s of engine.scopes(d.kind))
      out[`${d.kind}/${s.key}`] = [...engine.live(d.kind, s.key)!.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  return JSON.parse(JSON.stringify(out));
}

const LISTS = [
  '/opportunities/arbitrage?min_profit=0',
  '/opportunities/ev?limit=200',
  '/opportunities/middles?limit=200',
  '/opportunities/low_hold?limit=200',
];

/** The active worker detects once; an api replica holds what it found without running a detector. */
describe('detect once: the active worker detects, replicas follow its lifecycle', () => {
  const NOW = Date.parse('2026-11-22T12:00:00Z');
  let worker: TestApp;
  let api: TestApp;
  let late: TestApp | null = null;
  const shared = isolationEnv();
  const games = [
    { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 6 * H },
    { league: 'nba', home: 'Miami Heat', away: 'Chicago Bulls', start: NOW + 8 * H },
  ];
  const books = ['draftkings', 'fanduel', 'pinnacle', 'betmgm'];
  const ingest = (quotes: Quote[], at: number) => worker.app.get(IngestionService).ingest({ source: 'test', quotes }, at);
  /** DraftKings' Celtics moneyline at `american` (its Lakers price moves too, so its own market stays sound). */
  const dk = (american: number, lakers: number): Quote[] => [
    celticsMoneyline('draftkings', american, NOW),
    celticsMoneyline('draftkings', lakers, NOW, 'away'),
  ];

  beforeAll(async () => {
    worker = await startTestApp({ clock: new ManualClock(NOW), config: testConfig({ ...shared, ROLE: 'worker' }) });
    api = await startTestApp({ clock: new ManualClock(NOW), config: testConfig({ ...shared, ROLE: 'api' }) });
  });
  let standby: TestApp | null = null;
  let workerClosed = false;
  afterAll(async () => {
    await late?.close({ keepStore: true });
    await api.close({ keepStore: true });
    if (!workerClosed) await worker.close({ keepStore: true });
    await standby?.close();
  });

  it('a replica holds the same opportunity ids and REST lists as the worker, and never runs a detector', async () => {
    await until(() => api.app.get(DetectionEngine).replica?.synced === true, 10_000);
    ingest(buildMarket(games, books, NOW), NOW);
    ingest(dk(115, -116), NOW + 1000);
    const W = worker.app.get(DetectionEngine);
    expect(W.live('arbitrage')!.size).toBeGreaterThan(0);
    expect(W.live('ev')!.size).toBeGreaterThan(0);
    await until(() => JSON.stringify(liveIds(api)) === JSON.stringify(liveIds(worker)), 10_000);
    expect(liveIds(api)).toEqual(liveIds(worker));

    // Bodies too: the records travel whole (their prices inline), so the replica presents what the worker does.
    let items = 0;
    for (const path of LISTS) {
      const [w, a] = await Promise.all([worker.call(path, { key: KEYS.enterprise }), api.call(path, { key: KEYS.enterprise })]);
      expect([path, w.status, w.json.error?.message]).toEqual([path, 200, undefined]);
      expect(a.json.data).toEqual(w.json.data);
      items += w.json.data.length;
    }
    expect(items).toBeGreaterThan(W.live('arbitrage')!.size);
    expect(liveRecords(api)).toEqual(liveRecords(worker));
    const A = api.app.get(DetectionEngine);
    expect(W.stats.incrementalRuns).toBeGreaterThan(0);
    expect(A.stats.incrementalRuns).toBe(0);
    expect(A.stats.groupsEvaluated).toBe(0);
    expect(A.stats.laddersEvaluated).toBe(0);
  });

  it('a re-evaluation with unchanged prices sends every record as its id only; the replica still shows what the worker does', async () => {
    const W = worker.app.get(DetectionEngine);
    const A = api.app.get(DetectionEngine);
    await until(() => JSON.stringify(liveIds(api)) === JSON.stringify(liveIds(worker)), 10_000);
    const heard: LifecycleMessage[] = [];
    const off = api.app.get(EventBus).subscribe<LifecycleMessage>(LIFECYCLE_TOPIC, (msg, remote) => void (remote && heard.push(msg)));
    const { applied, resyncs } = A.replica!.stats;
    const announced: unknown[] = [];
    const offEvents = api.app.get(EventBus).subscribe('opportunities', (evt) => void announced.push(evt));
    // Every source evaluated again, later (the odds still fresh): nothing moved.
    expect(W.rescan(NOW + 1500)).toBe(0);
    await until(() => A.replica!.stats.applied > applied, 10_000);
    off();
    offEvents();
    expect(heard).toHaveLength(1);
    const msg = heard[0]!;
    expect(msg.at).toBe(NOW + 1500);
    expect(msg.rows).toEqual([]);
    expect(msg.changes.flatMap((c) => [...c.detected, ...c.updated])).toEqual([]);
    expect(msg.changes.flatMap((c) => c.expired)).toEqual([]);
    const live = Object.values(liveIds(worker)).flat().length;
    expect(live).toBeGreaterThan(0);
    expect(msg.changes.flatMap((c) => c.kept ?? []).length).toBe(live);
    // Nothing changed: nothing announced for the stream; the records (their updatedAt too) and bodies agree.
    expect(announced).toEqual([]);
    expect(A.replica!.stats).toMatchObject({ resyncs, unknownKept: 0 });
    expect(liveRecords(api)).toEqual(liveRecords(worker));
    expect(W.live('arbitrage')!.values().next().value!.updatedAt).toBe(NOW + 1500);
    for (const path of LISTS) {
      const [w, a] = await Promise.all([worker.call(path, { key: KEYS.enterprise }), api.call(path, { key: KEYS.enterprise })]);
      expect([path, w.status]).toEqual([path, 200]);
      expect(a.json.data).toEqual(w.json.data);
    }
  });

  it('the arbitrage expires on the replica when the worker says so', async () => {
    const W = worker.app.get(DetectionEngine);
    const before = W.live('arbitrage')!.size;
    ingest(dk(-110, -110), NOW + 2000);
    expect(W.live('arbitrage')!.size).toBeLessThan(before);
    await until(() => JSON.stringify(liveIds(api)) === JSON.stringify(liveIds(worker)), 10_000);
    expect(api.app.get(DetectionEngine).stats.incrementalRuns).toBe(0);
  });

  it('a replica that missed messages resyncs from the worker and converges', async () => {
    const A = api.app.get(DetectionEngine);
    const replica = A.replica!;
    const resyncs = replica.stats.resyncs;
    // The replica misses what the next change causes (as if the bus lost it) ...
    const onMessage = replica.onMessage.bind(replica);
    replica.onMessage = () => undefined;
    ingest(dk(115, -116), NOW + 3000);
    await new Promise((r) => setTimeout(r, 300));
    replica.onMessage = onMessage;
    expect(liveIds(api)).not.toEqual(liveIds(worker));
    // ... and learns of the gap from the next one.
    ingest(dk(120, -121), NOW + 4000);
    await until(() => JSON.stringify(liveIds(api)) === JSON.stringify(liveIds(worker)), 10_000);
    expect(replica.stats.resyncs).toBeGreaterThan(resyncs);
    expect(replica.synced).toBe(true);
    expect(A.stats.incrementalRuns).toBe(0);
  });

  it('an instance started later loads the state from the worker', async () => {
    late = await startTestApp({ clock: new ManualClock(NOW), config: testConfig({ ...shared, ROLE: 'api' }) });
    await until(() => JSON.stringify(liveIds(late!)) === JSON.stringify(liveIds(worker)), 10_000);
    expect(liveIds(late)['arbitrage/all']!.length).toBeGreaterThan(0);
    expect(late.app.get(DetectionEngine).stats.incrementalRuns).toBe(0);
  });

  it('a standby worker follows, takes over when the active one goes, detects from then on, and the replicas follow it', async () => {
    standby = await startTestApp({ clock: new ManualClock(NOW), config: testConfig({ ...shared, ROLE: 'worker' }) });
    const S = standby.app.get(DetectionEngine);
    await until(() => JSON.stringify(liveIds(standby!)) === JSON.stringify(liveIds(worker)), 10_000);
    expect(S.stats.incrementalRuns).toBe(0);
    await worker.close({ keepStore: true });
    workerClosed = true;
    // Its session ended: the standby's next poll takes the lock (polls run on its clock).
    await until(async () => {
      await (standby!.clock as ManualClock).advance(2000);
      return standby!.app.get(Leadership).isLeader;
    }, 10_000);
    await until(() => S.stats.lastRescanAt !== null, 10_000);
    standby.app.get(IngestionService).ingest({ source: 'test', quotes: dk(-110, -110) }, NOW + 5000);
    expect(S.stats.incrementalRuns).toBeGreaterThan(0);
    await until(() => JSON.stringify(liveIds(api)) === JSON.stringify(liveIds(standby!)), 10_000);
    expect(liveIds(api)).toEqual(liveIds(standby));
    expect(api.app.get(DetectionEngine).stats.incrementalRuns).toBe(0);
  });
});

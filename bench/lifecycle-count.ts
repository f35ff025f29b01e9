// Counts what the lifecycle messages to the replicas carry (load-independent): the service in one process
// (embedded store, no providers, no schedulers) ingests a simulated market tick by tick, and each evaluation's
// changes are encoded as the active worker would publish them: as now (records re-found unchanged as ids) and
// as before (every re-found record whole). Prints per-message bytes and records for both.
// Run: node --import tsx bench/lifecycle-count.ts  (LC_EVENTS, LC_ACTIVITY, LC_TICKS to change the market)
import { benchApp } from './bench-app.js';
import type { EventBus } from '../src/common/bus/event-bus.js';
import { Catalog } from '../src/config/catalog.js';
import { DetectionEngine } from '../src/modules/detection/detection.engine.js';
import type { Detector } from '../src/modules/detection/detector.js';
import { LifecyclePublisher, MemorySnapshotStore, type LiveState, type ScopeDiff } from '../src/modules/detection/lifecycle-publisher.js';
import type { LifecycleMessage } from '../src/modules/detection/lifecycle-wire.js';
import type { LifecycleDiff, Tracked } from '../src/modules/detection/registry.js';
import { IngestionService } from '../src/modules/ingestion/ingestion.service.js';
import { MarketSimulator } from '../src/modules/ingestion/simulator/simulator.js';

const events = Number(process.env.LC_EVENTS ?? 240);
const activity = Number(process.env.LC_ACTIVITY ?? 30);
const ticks = Number(process.env.LC_TICKS ?? 240);
const tickMs = 250;

const app = await benchApp({}, { writes: false });
const ingestion = app.get(IngestionService);
const detection = app.get(DetectionEngine);

/** A publisher whose bus only keeps the last message, as JSON. */
function recorder() {
  const out: { last: string | null } = { last: null };
  const bus = { instanceId: 'count', publish: (_t: string, msg: LifecycleMessage) => void (out.last = JSON.stringify(msg)) };
  const state = { registries: () => [], flags: () => [], seq: () => 0, now: () => 0 } as LiveState;
  const p = new LifecyclePublisher(bus as unknown as EventBus, new MemorySnapshotStore(), state);
  p.begin();
  return { p, out };
}
const now = recorder();
const before = recorder();
interface Tally {
  messages: number;
  bytes: number;
  whole: number;
  ids: number;
  rows: number;
}
const tally = (): Tally => ({ messages: 0, bytes: 0, whole: 0, ids: 0, rows: 0 });
const phases: Record<string, { now: Tally; before: Tally }> = {};
let phase = 'initial';
const add = (t: Tally, json: string | null) => {
  if (!json) return;
  const m = JSON.parse(json) as LifecycleMessage;
  t.messages++;
  t.bytes += Buffer.byteLength(json);
  t.rows += m.rows.length;
  for (const c of m.changes) {
    t.whole += c.detected.length + c.updated.length;
    t.ids += (c.kept?.length ?? 0) + c.expired.length;
  }
};

type Diffs = Map<{ detector: Detector }, Map<string, LifecycleDiff<Tracked>>>;
const engine = detection as unknown as { publish(diffs: Diffs, at: number): void };
const publish = engine.publish.bind(detection);

// LC_WHY=1: what differs in the records sent whole during the ticks (field paths), and whether the detector's
// signature (what the stream re-sends on) moved too: shows that "changed" is a change a client can see.
const held = new Map<string, Tracked>();
const why = new Map<string, number>();
const differing = (a: unknown, b: unknown, path: string, out: Set<string>): void => {
  if (a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b))) return;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return void out.add(path);
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) differing(x[k], y[k], /^\d+$/.test(k) ? path : `${path}.${k}`, out);
};
const explain = (diffs: Diffs) => {
  for (const [{ detector }, byScope] of diffs)
    for (const [scope, diff] of byScope) {
      for (const r of diff.updated) {
        const p = held.get(`${detector.kind}/${scope}/${r.id}`);
        if (!p) continue;
        const out = new Set<string>();
        differing({ ...p, updatedAt: 0 }, { ...r, updatedAt: 0 }, detector.kind, out);
        const sig = (x: Tracked) => JSON.stringify(detector.signature(x as never));
        const k = `${sig(p) === sig(r) ? 'signature same ' : 'signature moved'} ${[...out].sort().join(',')}`;
        why.set(k, (why.get(k) ?? 0) + 1);
      }
      for (const r of [...diff.detected, ...diff.updated, ...(diff.kept ?? [])]) held.set(`${detector.kind}/${scope}/${r.id}`, r);
    }
};

engine.publish = (diffs, at) => {
  if (process.env.LC_WHY) explain(diffs);
  const scoped: ScopeDiff[] = [];
  // Before: every re-found record in `updated`, whole.
  const old: ScopeDiff[] = [];
  for (const [{ detector }, byScope] of diffs)
    for (const [scope, diff] of byScope) {
      scoped.push({ detector, scope, diff });
      old.push({ detector, scope, diff: { ...diff, updated: [...diff.updated, ...(diff.kept ?? [])], kept: [] } });
    }
  now.out.last = before.out.last = null;
  now.p.publish(0, at, scoped, []);
  before.p.publish(0, at, old, []);
  const t = (phases[phase] ??= { now: tally(), before: tally() });
  add(t.now, now.out.last);
  add(t.before, before.out.last);
  publish(diffs, at);
};

const start = Date.now();
const sim = new MarketSimulator(new Catalog(), { seed: 42, events, tickMs, start, activity });
await sim.prepare(start);
ingestion.ingest(sim.start(start), start, { backfill: true });
phase = 'ticks';
for (let i = 1; i <= ticks; i++) {
  const at = start + i * tickMs;
  await sim.prepare(at);
  ingestion.ingest(sim.poll(at), at);
}
phase = 'rescan';
detection.rescan(start + ticks * tickMs + 1);

const live: Record<string, number> = {};
for (const d of detection.types())
  for (const s of detection.scopes(d.kind)) live[`${d.kind}/${s.key}`] = detection.live(d.kind, s.key)!.size;
const per = (t: Tally) => ({
  messages: t.messages,
  bytes_per_message: Math.round(t.bytes / Math.max(1, t.messages)),
  whole_records_per_message: +(t.whole / Math.max(1, t.messages)).toFixed(1),
  ids_per_message: +(t.ids / Math.max(1, t.messages)).toFixed(1),
  rows_per_message: +(t.rows / Math.max(1, t.messages)).toFixed(1),
  total_bytes: t.bytes,
});
const report: Record<string, unknown> = { events, activity, ticks, tick_ms: tickMs, live };
for (const [name, t] of Object.entries(phases)) report[name] = { before: per(t.before), now: per(t.now) };
process.stdout.write(JSON.stringify(report, null, 2) + '\n');
for (const [k, n] of [...why].sort((a, b) => b[1] - a[1]).slice(0, 25)) process.stdout.write(`${n}\t${k}\n`);
await app.close();
process.exit(0);

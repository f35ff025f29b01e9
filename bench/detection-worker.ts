// Child process of the detection benchmark: the service (embedded store, no providers, no schedulers) with a
// synthetic board of BENCH_ROWS prices; measures the naive arbitrage-only pass (the baseline), one full
// re-scan, single-price incremental updates from the ingest call, and the heap after a forced gc.
// Run with --expose-gc (detection.bench.ts does). BENCH_CPU_PROFILE=DIR writes CPU profiles of the re-scans
// (rescan.cpuprofile) and of the updates (updates.cpuprofile) there; BENCH_HEAP_PROFILE=DIR an allocation
// profile of one re-scan. BENCH_DETECTION_METHODS=1 times each method of the pipeline and the engine (below).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { Catalog } from '../src/config/catalog.js';
import { BoardService } from '../src/modules/board/board.service.js';
import { IngestionService } from '../src/modules/ingestion/ingestion.service.js';
import { DetectionEngine } from '../src/modules/detection/detection.engine.js';
import { benchApp } from './bench-app.js';
import { naiveArbitragePass } from './naive-arbitrage.js';
import { movedQuote, syntheticQuotes } from './synthetic-board.js';

const rows = Number(process.env.BENCH_ROWS ?? 250_000);
const profileDir = process.env.BENCH_CPU_PROFILE;
const gc = (globalThis as { gc?: () => void }).gc;
const app = await benchApp();
const ingestion = app.get(IngestionService);
const detection = app.get(DetectionEngine);
const board = app.get(BoardService).board;
const now = Date.now();
let quotes = syntheticQuotes(new Catalog(), rows, now);
for (let i = 0; i < quotes.length; i += 50_000)
  ingestion.ingest({ source: 'bench', quotes: quotes.slice(i, i + 50_000) }, now, { backfill: true });
// Keep the writer's buffer from growing without bound: this benchmark measures detection only.
(app.get(BoardService).writer as unknown as { enqueue: () => void }).enqueue = () => undefined;

let session: Session | undefined;
async function profile<T>(name: string, run: () => T): Promise<T> {
  if (!profileDir) return run();
  if (!session) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
  }
  await session.post('Profiler.start');
  const out = run();
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
  return out;
}

// The same rows, read three times each; the best run counts (the first one warms up).
// CPU time (this process, user + system) beside the wall time: steadier than wall time on a shared machine.
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const naives: number[] = [];
const naiveCpu: number[] = [];
let crossed = 0;
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const c = cpuMs();
  crossed = naiveArbitragePass(board);
  naiveCpu.push(cpuMs() - c);
  naives.push(performance.now() - t);
}

// BENCH_HEAP_PROFILE=DIR: a sampling allocation profile of one re-scan (rescan.heapprofile), what its gc comes from.
const heapDir = process.env.BENCH_HEAP_PROFILE;
if (heapDir) {
  const s = new Session();
  s.connect();
  await s.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  detection.rescan(now);
  const { profile } = await s.post('HeapProfiler.stopSampling');
  writeFileSync(join(heapDir, 'rescan.heapprofile'), JSON.stringify(profile));
  s.disconnect();
}

const rescans: number[] = [];
const rescanCpu: number[] = [];
let mismatches = 0;
await profile('rescan', () => {
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const c = cpuMs();
    mismatches += detection.rescan(now);
    rescanCpu.push(cpuMs() - c);
    rescans.push(performance.now() - t);
  }
});
// The first re-scan (at bootstrap) built the state; these three must agree with it.
const arbitrages = detection.live('arbitrage')?.size ?? 0;

const updates: number[] = [];
await profile('updates', () => {
  for (let i = 0; i < 2000; i++) {
    const q = quotes[(i * 7919) % quotes.length]!;
    const t = performance.now();
    ingestion.ingest({ source: 'bench', quotes: [movedQuote(q, i % 2 ? 0.02 : -0.02)] }, now + i);
    updates.push(performance.now() - t);
  }
});

// Where one update's time goes: the same updates again, each phase timed by wrapping the method that runs it
// (about a microsecond per wrapped call is the wrappers' own). Means per update, so the phases add up to the total.
const phaseTotals = new Map<string, number>();
const phaseStack: Array<{ label: string; child: number }> = [];
function timed(obj: object, method: string, label: string): void {
  const o = obj as Record<string, (...a: unknown[]) => unknown>;
  const f = o[method]!;
  o[method] = function (this: unknown, ...a: unknown[]) {
    const frame = { label, child: 0 };
    phaseStack.push(frame);
    const t = performance.now();
    try {
      return f.apply(this, a);
    } finally {
      const d = performance.now() - t;
      phaseStack.pop();
      // Self time: a phase's time less what phases it called took (counted under their own labels).
      phaseTotals.set(label, (phaseTotals.get(label) ?? 0) + d - frame.child);
      const parent = phaseStack[phaseStack.length - 1];
      if (parent) parent.child += d;
    }
  };
}
const boards = app.get(BoardService);
timed(ingestion.pipeline, 'process', 'pipeline (validate, resolve the event, build the row)');
timed((boards as unknown as { bus: object }).bus, 'publish', 'stream hub (render, queue frames)');
timed(boards.board, 'applyChangeSet', 'board (indexes)');
timed(detection, 'onChange', 'detection engine (registries, diffs, flags)');
for (const d of detection.types()) timed(d, 'detect', `detector: ${d.kind}`);
// BENCH_DETECTION_METHODS=1: every other method of the pipeline and of the detection engine timed too (self time,
// as `pipeline.<method>` and `engine.<method>`): where those two phases' own time goes. About 1 µs a wrapped call
// is the wrappers' own, so the update reads slower with them.
if (process.env.BENCH_DETECTION_METHODS === '1')
  for (const [obj, prefix, phase] of [
    [ingestion.pipeline, 'pipeline', 'process'],
    [detection, 'engine', 'onChange'],
  ] as const) {
    const proto = Object.getPrototypeOf(obj) as object;
    for (const m of Object.getOwnPropertyNames(proto))
      if (m !== 'constructor' && m !== phase && typeof Object.getOwnPropertyDescriptor(proto, m)?.value === 'function')
        timed(obj, m, `${prefix}.${m}`);
  }
const phased: number[] = [];
for (let i = 0; i < 2000; i++) {
  const q = quotes[(i * 104_729) % quotes.length]!;
  if (i === 500) phaseTotals.clear();
  const t = performance.now();
  ingestion.ingest({ source: 'bench', quotes: [movedQuote(q, i % 2 ? 0.03 : -0.03)] }, now + 3000 + i);
  if (i >= 500) phased.push(performance.now() - t);
}
const phasedTotal = phased.reduce((a, b) => a + b, 0);
const phases: Record<string, number> = {};
let named = 0;
for (const [label, ms] of phaseTotals) {
  phases[label] = Math.round((ms / phased.length) * 1000);
  named += ms;
}
phases['rest (ingest call, splits, players, metrics)'] = Math.round(((phasedTotal - named) / phased.length) * 1000);

const afterUpdates = detection.rescan(now + 5000);
updates.splice(0, 500); // warm-up
updates.sort((a, b) => a - b);
const pct = (p: number) => updates[Math.min(updates.length - 1, Math.floor((p / 100) * updates.length))]!;

// The heap the service holds for the board (quotes and profiler released first).
quotes = [];
session?.disconnect();
gc?.();
gc?.();
const heap = process.memoryUsage().heapUsed;
process.stdout.write(
  JSON.stringify({
    rows: board.size,
    groups: [...board.keys('group')].length,
    ladders: [...board.keys('ladder')].length,
    naive_arbitrage_ms: Math.min(...naives),
    naive_arbitrage_cpu_ms: Math.min(...naiveCpu),
    naive_crossed_groups: crossed,
    live_arbitrages: arbitrages,
    rescan_ms: Math.min(...rescans),
    rescan_cpu_ms: Math.min(...rescanCpu),
    rescan_mismatches: mismatches + afterUpdates,
    update_p50_ms: pct(50),
    update_p99_ms: pct(99),
    update_mean_us_by_phase: phases,
    heap_mb: Math.round(heap / 2 ** 20),
    heap_bytes_per_row: Math.round(heap / board.size),
    heap_after_gc: gc !== undefined,
  }) + '\n',
);
process.exit(0);

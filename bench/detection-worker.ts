// Child process of the detection benchmark: the service (embedded store, no providers, no schedulers) with a
// synthetic board of BENCH_ROWS prices; measures one full re-scan and single-price incremental updates.
import { createApp } from '../src/app.factory.js';
import { Catalog } from '../src/config/catalog.js';
import { loadConfig } from '../src/config/env.js';
import { BoardService } from '../src/modules/board/board.service.js';
import { IngestionService } from '../src/modules/ingestion/ingestion.service.js';
import { DetectionEngine } from '../src/modules/detection/detection.engine.js';
import { syntheticQuotes } from './synthetic-board.js';

const rows = Number(process.env.BENCH_ROWS ?? 250_000);
const config = loadConfig(
  { PROVIDERS: 'none', SCHEDULERS: 'false', LOG_LEVEL: 'warn', EMBEDDED_IN_MEMORY: 'true', API_KEYS: 'sharp:sk_bench_sharp_0001' },
  'bench',
);
const app = await createApp(config);
const ingestion = app.get(IngestionService);
const detection = app.get(DetectionEngine);
const board = app.get(BoardService).board;
const now = Date.now();
const quotes = syntheticQuotes(new Catalog(), rows, now);
for (let i = 0; i < quotes.length; i += 50_000)
  ingestion.ingest({ source: 'bench', quotes: quotes.slice(i, i + 50_000) }, now, { backfill: true });
// Keep the writer's buffer from growing without bound: this benchmark measures detection only.
(app.get(BoardService).writer as unknown as { enqueue: () => void }).enqueue = () => undefined;

const rescans: number[] = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  detection.rescan(now);
  rescans.push(performance.now() - t);
}
const updates: number[] = [];
for (let i = 0; i < 500; i++) {
  const q = quotes[(i * 7919) % quotes.length]!;
  const d = q.price.decimal ?? 2;
  const t = performance.now();
  ingestion.ingest({ source: 'bench', quotes: [{ ...q, price: { decimal: +(d + (i % 2 ? 0.02 : -0.02)).toFixed(3) } }] }, now + i);
  updates.push(performance.now() - t);
}
updates.sort((a, b) => a - b);
const pct = (p: number) => updates[Math.min(updates.length - 1, Math.floor((p / 100) * updates.length))]!;
process.stdout.write(
  JSON.stringify({
    rows: board.size,
    groups: [...board.keys('group')].length,
    ladders: [...board.keys('ladder')].length,
    rescan_ms: Math.min(...rescans),
    update_p50_ms: pct(50),
    update_p99_ms: pct(99),
    heap_mb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
  }) + '\n',
);
process.exit(0);

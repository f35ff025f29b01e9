// Child process of the memory benchmark (run with --expose-gc): the whole service (embedded store, no providers,
// no schedulers: board, delayed free-tier views, detection's bookkeeping, the writers) with a synthetic board of
// BENCH_ROWS prices. Reports heapUsed after a forced gc against the empty service of the same process, and what
// each part holds (measured by releasing it and collecting again).
import { benchApp } from './bench-app.js';
import { writeHeapSnapshot } from 'node:v8';
import { Catalog } from '../src/config/catalog.js';
import { BoardService } from '../src/modules/board/board.service.js';
import { DetectionEngine } from '../src/modules/detection/detection.engine.js';
import { IngestionService } from '../src/modules/ingestion/ingestion.service.js';
import { LineHistoryStore } from '../src/modules/stores/line-history/line-history.store.js';
import { StreamHub } from '../src/modules/stream/stream-hub.js';
import { movedQuote, syntheticQuotes } from './synthetic-board.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const heap = (): number => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
};

const rows = Number(process.env.BENCH_ROWS ?? 250_000);
const app = await benchApp();
const ingestion = app.get(IngestionService);
const boards = app.get(BoardService);
const detection = app.get(DetectionEngine);
const now = Date.now();
const empty = heap();
const quotes = syntheticQuotes(new Catalog(), rows, now);
for (let i = 0; i < quotes.length; i += 50_000)
  ingestion.ingest({ source: 'bench', quotes: quotes.slice(i, i + 50_000) }, now, { backfill: true });
// Later (non-backfill) change sets wait in the delayed views' queues: one price update per 100 rows.
for (let i = 0; i < quotes.length; i += 100) {
  const q = quotes[i]!;
  ingestion.ingest({ source: 'bench', quotes: [movedQuote(q, 0.01)] }, now + 1);
}
quotes.length = 0;
// The delayed views as a running server holds them: indexed (3 s after a start, or at their first read).
boards.fillDelayedViews();
const n = boards.board.size;
const full = heap();
if (process.env.BENCH_MEMORY_SNAPSHOT) writeHeapSnapshot(process.env.BENCH_MEMORY_SNAPSHOT);

// The parts, released one at a time (each figure: the heap the part held).
// The writers' buffers: the board writer's (current prices, their history, sightings, events) and the line
// history's (every change: the rows it names stay alive through it until it is written).
type Writer = { rows: Map<string, unknown>; history: { take(): unknown[] }; seen: Map<string, number>; events: Map<string, unknown> };
const writer = boards.writer as unknown as Writer;
writer.rows.clear();
writer.history.take();
writer.seen.clear();
writer.events.clear();
(app.get(LineHistoryStore).writer as unknown as { buffer: { take(): unknown[] } }).buffer.take();
const afterWriter = heap();
// The stream's replay buffer holds the last 2 minutes of change sets (here: the whole initial load).
const log = (app.get(StreamHub) as unknown as { buffer: { entries: unknown[]; bySeq: Map<number, unknown> } }).buffer;
log.entries.length = 0;
log.bySeq.clear();
const afterReplay = heap();
const delayed = (boards as unknown as { delayed: Map<number, unknown> }).delayed;
const delayedCount = delayed.size;
// Their queues (change sets younger than the delay) go with them.
delayed.clear();
const afterDelayed = heap();
const det = detection as unknown as Record<string, Map<string, unknown>>;
for (const f of ['rowSource', 'eventSources', 'ladderGroups', 'lineLadders', 'evaluatedOn']) det[f]?.clear();
// Whatever the engine keeps per row beyond those (opportunity state) stays: measured with the board below.
const afterDetection = heap();
// The board's indexes, caches and logs: every collection it holds except its rows and events.
const board = boards.board as unknown as Record<string, unknown>;
const clear = (v: unknown): void => {
  if (v instanceof Map || v instanceof Set) v.clear();
  else if (Array.isArray(v)) v.length = 0;
  else if (v && typeof v === 'object' && !ArrayBuffer.isView(v)) for (const x of Object.values(v)) clear(x);
};
for (const [k, v] of Object.entries(board)) if (k !== 'rows' && k !== 'events' && k !== 'listeners') clear(v);
const afterIndexes = heap();
(board.rows as Map<string, unknown>).clear();
const afterRows = heap();

const perRow = (b: number) => Math.round(b / n);
process.stdout.write(
  JSON.stringify({
    rows: n,
    delayed_views: delayedCount,
    empty_mb: Math.round(empty / 2 ** 20),
    heap_mb: Math.round(full / 2 ** 20),
    total_per_row: perRow(full - empty),
    steady_per_row: perRow(afterReplay - empty),
    writer_buffer_per_row: perRow(full - afterWriter),
    stream_replay_per_row: perRow(afterWriter - afterReplay),
    delayed_views_per_row: perRow(afterReplay - afterDelayed),
    detection_per_row: perRow(afterDelayed - afterDetection),
    board_indexes_per_row: perRow(afterDetection - afterIndexes),
    board_rows_per_row: perRow(afterIndexes - afterRows),
    rest_per_row: perRow(afterRows - empty),
  }) + '\n',
);
process.exit(0);

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BENCH_DIR, save } from './run.js';

/** Runs the worker to its end (building a 1M-row board takes minutes on a busy machine) and parses its report. */
async function measure(rows: number): Promise<Record<string, number>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--max-old-space-size=8192', join(BENCH_DIR, 'memory-worker.js')],
    { env: { ...process.env, BENCH_ROWS: String(rows) }, maxBuffer: 64 * 2 ** 20 },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('{"rows"'));
  if (!line) throw new Error(`memory worker printed no report:\n${stdout.slice(-2000)}`);
  return JSON.parse(line) as Record<string, number>;
}

/**
 * Heap per board row with the whole service running (board, delayed free-tier views, detection's per-row
 * bookkeeping, the writer's buffer), after a forced gc, against the empty service in the same process; split
 * by part. BENCH_MEMORY_ROWS chooses the board sizes (default 100k, 250k, 1M).
 */
export async function memoryBench(): Promise<void> {
  const sizes = (process.env.BENCH_MEMORY_ROWS ?? '100000,250000,1000000').split(',').map(Number);
  const out: Array<Record<string, number>> = [];
  const line = (r: Record<string, number>) =>
    `| ${r.rows} | ${r.heap_mb} MB | ${r.total_per_row} | ${r.steady_per_row} | ${r.writer_buffer_per_row} | ${r.stream_replay_per_row} | ${r.delayed_views_per_row} | ${r.detection_per_row} | ${r.board_indexes_per_row} | ${r.board_rows_per_row} | ${r.rest_per_row} |`;
  for (const rows of sizes) {
    const info = await measure(rows);
    out.push(info);
    console.log(
      `board ${info.rows} rows: heap ${info.heap_mb} MB (empty service ${info.empty_mb} MB), ${info.total_per_row} B/row, ${info.steady_per_row} B/row once the writers have flushed and the initial load left the stream's 2-minute replay buffer`,
    );
    console.log(`  ${line(info)}`);
    // Saved after every size: a 1M-row board needs several GB and may not fit on a busy machine.
    save('memory', out);
  }
  console.log(
    '\n| board rows | heap | B/row (all) | B/row (steady) | writer buffers | stream replay (2 min) | delayed views | detection | board indexes+logs | board rows | rest |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of out) console.log(line(r));
}

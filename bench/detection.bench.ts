import { join } from 'node:path';
import { startChild } from './child.js';
import { BENCH_DIR, save } from './run.js';

/**
 * Full re-scan time of the detection engine (every group and ladder, every scope, all four detectors) on
 * boards of 250,000 and 1,000,000 prices, and the cost of one incremental update (one price changes: the
 * pipeline, the board and the re-evaluation of the groups and ladders it touches).
 */
export async function detectionBench(): Promise<void> {
  const sizes = (process.env.BENCH_DETECTION_ROWS ?? '250000,1000000').split(',').map(Number);
  const out: Array<Record<string, number>> = [];
  for (const rows of sizes) {
    const { child, info } = await startChild<Record<string, number>>(join(BENCH_DIR, 'detection-worker.js'), [], {
      BENCH_ROWS: String(rows),
      NODE_OPTIONS: '--max-old-space-size=8192',
    });
    child.kill();
    out.push(info);
    console.log(
      `board ${info.rows} rows: full re-scan ${info.rescan_ms!.toFixed(0)} ms; one update p50 ${info.update_p50_ms!.toFixed(2)} ms, p99 ${info.update_p99_ms!.toFixed(2)} ms`,
    );
  }
  console.log('\n| board rows | groups | ladders | full re-scan | incremental update p50 | p99 | heap |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of out)
    console.log(
      `| ${r.rows} | ${r.groups} | ${r.ladders} | ${r.rescan_ms!.toFixed(0)} ms | ${r.update_p50_ms!.toFixed(2)} ms | ${r.update_p99_ms!.toFixed(2)} ms | ${r.heap_mb} MB |`,
    );
  save('detection', out);
}

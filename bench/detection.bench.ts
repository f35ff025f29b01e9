import { join } from 'node:path';
import { startChild } from './child.js';
import { BENCH_DIR, save } from './run.js';

/**
 * Detection at scale, per board size (BENCH_DETECTION_ROWS, default 100k / 250k / 1M prices), each in its own
 * process (--expose-gc): the naive arbitrage-only pass over the same rows (the baseline: best price per
 * outcome, sum of 1/decimal < 1), the full re-scan (every group and ladder, every scope, all four detectors),
 * one incremental update (one price changes, from the ingest call through the pipeline, the board and the
 * re-evaluation of the groups and ladders it touches) and the heap after a forced gc.
 */
export async function detectionBench(): Promise<void> {
  const sizes = (process.env.BENCH_DETECTION_ROWS ?? '100000,250000,1000000').split(',').map(Number);
  const out: Array<Record<string, number> & { update_mean_us_by_phase?: Record<string, number> }> = [];
  for (const rows of sizes) {
    const { child, info } = await startChild<Record<string, number> & { update_mean_us_by_phase?: Record<string, number> }>(
      join(BENCH_DIR, 'detection-worker.js'),
      [],
      { BENCH_ROWS: String(rows), NODE_OPTIONS: '--max-old-space-size=8192' },
      ['--expose-gc'],
      // building a 1M-row board takes minutes on a busy 2-core machine
      1_800_000,
    );
    child.kill();
    out.push(info);
    console.log(
      `board ${info.rows} rows: naive arbitrage pass ${info.naive_arbitrage_ms!.toFixed(0)} ms, full re-scan ${info.rescan_ms!.toFixed(0)} ms (${(info.rescan_ms! / info.naive_arbitrage_ms!).toFixed(1)}x); CPU ${info.naive_arbitrage_cpu_ms!.toFixed(0)} / ${info.rescan_cpu_ms!.toFixed(0)} ms (${(info.rescan_cpu_ms! / info.naive_arbitrage_cpu_ms!).toFixed(1)}x); one update p50 ${(info.update_p50_ms! * 1000).toFixed(0)} µs, p99 ${info.update_p99_ms!.toFixed(2)} ms; re-scan mismatches ${info.rescan_mismatches}`,
    );
  }
  console.log(
    '\n| board rows | groups | ladders | naive arbitrage pass (baseline) | full re-scan | re-scan / naive | incremental update p50 | p99 | heap after gc | per row |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of out)
    console.log(
      `| ${r.rows} | ${r.groups} | ${r.ladders} | ${r.naive_arbitrage_ms!.toFixed(0)} ms | ${r.rescan_ms!.toFixed(0)} ms | ${(r.rescan_ms! / r.naive_arbitrage_ms!).toFixed(1)}x | ${(r.update_p50_ms! * 1000).toFixed(0)} µs | ${r.update_p99_ms!.toFixed(2)} ms | ${r.heap_mb} MB | ${r.heap_bytes_per_row} B |`,
    );
  console.log('\nOne incremental update, mean µs per phase (self time; target for the whole update: p50 ≤ 100 µs)');
  const labels = [...new Set(out.flatMap((r) => Object.keys(r.update_mean_us_by_phase ?? {})))];
  console.log(`| phase | ${out.map((r) => `${r.rows} rows`).join(' | ')} |`);
  console.log(`|---|${out.map(() => '---').join('|')}|`);
  for (const l of labels) console.log(`| ${l} | ${out.map((r) => `${r.update_mean_us_by_phase?.[l] ?? '-'} µs`).join(' | ')} |`);
  console.log(
    `| all (mean) | ${out.map((r) => `${Object.values(r.update_mean_us_by_phase ?? {}).reduce((a, b) => a + b, 0)} µs`).join(' | ')} |`,
  );
  save('detection', out);
}

// npm run bench [-- odds|detection|stream|load|startup|history ...]: benchmarks, not tests. Prints tables and writes
// bench/results/<name>.json. See README "Benchmarks" for the figures and the machine they ran on.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectionBench } from './detection.bench.js';
import { oddsBench } from './odds.bench.js';
import { loadBench } from './load.bench.js';
import { startupBench } from './startup.bench.js';
import { streamBench } from './stream.bench.js';
import { clvBench } from './clv-track-record.js';
import { ingestBench } from './ingest.bench.js';
import { memoryBench } from './memory.bench.js';
import { lineHistoryBench } from './line-history.bench.js';

export const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
export const RESULTS_DIR = join(process.cwd(), 'bench', 'results');

export function machine(): string {
  return `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

export function save(name: string, result: unknown): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${name}.json`), JSON.stringify({ machine: machine(), at: new Date().toISOString(), result }, null, 2));
}

const suites: Record<string, () => Promise<void>> = {
  odds: oddsBench,
  detection: detectionBench,
  stream: streamBench,
  load: loadBench,
  startup: startupBench,
  clv: clvBench,
  ingest: ingestBench,
  memory: memoryBench,
  history: lineHistoryBench,
};
/** Run when named only (clv simulates hours of games; history fills a store of a million changes). */
const ON_REQUEST = new Set(['clv', 'history']);

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length ? wanted : Object.keys(suites).filter((n) => !ON_REQUEST.has(n));
console.log(`machine: ${machine()}`);
for (const name of names) {
  const run = suites[name];
  if (!run) {
    console.error(`unknown benchmark "${name}" (known: ${Object.keys(suites).join(', ')})`);
    process.exit(2);
  }
  console.log(`\n== ${name}`);
  await run();
}
process.exit(0);

import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// autocannon ships CommonJS without types.
import autocannon from 'autocannon';
import { startChild } from './child.js';
import { BENCH_DIR, save } from './run.js';

interface Row {
  target: string;
  path: string;
  rps: number;
  p50: number;
  p99: number;
  bytes: number;
}

const KEY = 'sk_bench_ent_000001';
const PATHS = ['/api/v1/odds?limit=100', '/api/v1/odds/best'];
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

async function hit(
  url: string,
  headers: Record<string, string>,
): Promise<{ rps: number; p50: number; p99: number; errors: number; non2xx: number }> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/**
 * /odds?limit=100 and /odds/best on a board of 250,000 rows, against a bare Fastify route answering the same
 * bytes precomputed. Two scenarios: a still board (the per-version result cache warm), and a churning board
 * (a price changes every 100 ms, so results are recomputed at that rate).
 */
export async function oddsBench(): Promise<void> {
  const results: Array<Row & { scenario: string; ratio: number }> = [];
  for (const scenario of ['still', 'churn'] as const) {
    const { child, info } = await startChild<{ port: number; rows: number }>(join(BENCH_DIR, 'odds-server.js'), [], {
      BENCH_CHURN: scenario === 'churn' ? '100' : '0',
    });
    const base = `http://127.0.0.1:${info.port}`;
    const bodies: Record<string, string> = {};
    for (const p of PATHS) bodies[p.split('?')[0]!] = await (await fetch(base + p, { headers: { 'X-API-Key': KEY } })).text();
    const file = join(tmpdir(), `bench-bodies-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(bodies));
    const bare = await startChild<{ port: number }>(join(BENCH_DIR, 'bare-server.js'), [file]);
    console.log(`board: ${info.rows} rows, scenario: ${scenario}`);
    for (const p of PATHS) {
      const app = await hit(base + p, { 'X-API-Key': KEY });
      const raw = await hit(`http://127.0.0.1:${bare.info.port}${p.split('?')[0]}`, {});
      if (app.errors || app.non2xx) console.log(`  warning: ${app.errors} errors, ${app.non2xx} non-2xx on ${p}`);
      const bytes = Buffer.byteLength(bodies[p.split('?')[0]!]!);
      results.push({ scenario, target: 'service', path: p, rps: app.rps, p50: app.p50, p99: app.p99, bytes, ratio: app.rps / raw.rps });
      results.push({ scenario, target: 'bare fastify', path: p, rps: raw.rps, p50: raw.p50, p99: raw.p99, bytes, ratio: 1 });
    }
    bare.child.kill();
    child.kill();
  }
  console.log('\n| board | endpoint | target | req/s | p50 ms | p99 ms | body bytes | service/bare |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of results)
    console.log(
      `| ${r.scenario} | ${r.path.replace('/api/v1', '')} | ${r.target} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.bytes} | ${r.target === 'service' ? r.ratio.toFixed(2) : ''} |`,
    );
  save('odds', results);
}

import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// autocannon ships CommonJS without types.
import autocannon from 'autocannon';
import { startChild } from './child.js';
import { BENCH_DIR, save } from './run.js';

interface Row {
  rows: number;
  scenario: string;
  target: string;
  path: string;
  rps: number;
  p50: number;
  p99: number;
  bytes: number;
  ratio: number;
  /** Server CPU per request, µs (user + system, Linux). */
  cpuUs: number;
}

const KEY = 'sk_bench_ent_000001';
const LIST = '/api/v1/odds?limit=100';
const PATHS = [LIST, '/api/v1/odds/best'];
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Board sizes (rows), comma-separated: BENCH_ODDS_ROWS=100000,250000,1000000 for the scaling table. */
const SIZES = (process.env.BENCH_ODDS_ROWS ?? '250000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isFinite(n) && n > 0);
/** The size the full table (both endpoints, still and churning board) runs at; the other sizes run /odds on a still board. */
const MAIN_SIZE = SIZES.includes(250_000) ? 250_000 : SIZES[0]!;

/** Service and bare route take turns, ROUNDS slices each, so that both see the same share of a busy machine. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));

interface Hit {
  /** The server's CPU time per request, µs (user + system): unlike req/s, not moved by other work on the machine. */
  cpuUs: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** User + system CPU seconds a process has used (Linux /proc; undefined elsewhere). Clock ticks at 100 Hz. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function slice(url: string, headers: Record<string, string>, seconds: number, pid: number | undefined) {
  const before = cpuSeconds(pid);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  const after = cpuSeconds(pid);
  return { ...r, cpu: before === undefined || after === undefined ? Number.NaN : after - before };
}

/** The middle value (the upper one of an even count). */
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Both targets for DURATION seconds in all, alternating in ROUNDS slices: req/s over all slices; p50 and p99 the
 * median of the slices' (a slice that met a burst of other work on the machine does not decide the figure).
 */
type Target = { url: string; headers: Record<string, string>; pid: number | undefined };

async function hitPair(a: Target, b: Target): Promise<[Hit, Hit]> {
  const runs: Array<Array<Awaited<ReturnType<typeof slice>>>> = [[], []];
  for (let i = 0; i < ROUNDS; i++) {
    runs[0]!.push(await slice(a.url, a.headers, DURATION / ROUNDS, a.pid));
    runs[1]!.push(await slice(b.url, b.headers, DURATION / ROUNDS, b.pid));
  }
  const sum = (rs: (typeof runs)[0], f: (r: (typeof rs)[0]) => number) => rs.reduce((acc, r) => acc + f(r), 0);
  return runs.map((rs) => ({
    cpuUs: (1e6 * sum(rs, (r) => r.cpu)) / sum(rs, (r) => r.requests.total),
    rps: sum(rs, (r) => r.requests.total) / sum(rs, (r) => r.duration),
    p50: median(rs.map((r) => r.latency.p50)),
    p99: median(rs.map((r) => r.latency.p99)),
    errors: sum(rs, (r) => r.errors),
    non2xx: sum(rs, (r) => r.non2xx),
  })) as [Hit, Hit];
}

/**
 * /odds?limit=100 and /odds/best against a bare Fastify route answering the same bytes precomputed, in the same
 * run (the service first, then the bare route, per endpoint). At the main size (250,000 rows) two scenarios: a
 * still board (the per-version result cache warm), and a churning board (a price changes every 100 ms, so results
 * are recomputed at that rate). At every other size of BENCH_ODDS_ROWS, /odds?limit=100 on a still board: the
 * REST column of the scaling table. Each figure also gives the server's CPU time per request (user + system, from
 * /proc): on a machine shared with other work, req/s and latency move with the load; CPU per request does not.
 */
export async function oddsBench(): Promise<void> {
  const results: Row[] = [];
  for (const size of SIZES) {
    const scenarios = size === MAIN_SIZE ? (['still', 'churn'] as const) : (['still'] as const);
    const paths = size === MAIN_SIZE ? PATHS : [LIST];
    for (const scenario of scenarios) {
      const { child, info } = await startChild<{ port: number; rows: number }>(join(BENCH_DIR, 'odds-server.js'), [], {
        BENCH_ROWS: String(size),
        BENCH_CHURN: scenario === 'churn' ? '100' : '0',
      });
      const base = `http://127.0.0.1:${info.port}`;
      const bodies: Record<string, string> = {};
      for (const p of paths) bodies[p.split('?')[0]!] = await (await fetch(base + p, { headers: { 'X-API-Key': KEY } })).text();
      const file = join(tmpdir(), `bench-bodies-${process.pid}.json`);
      writeFileSync(file, JSON.stringify(bodies));
      const bare = await startChild<{ port: number }>(join(BENCH_DIR, 'bare-server.js'), [file]);
      console.log(
        `board: ${info.rows} rows, scenario: ${scenario}, ${CONNECTIONS} connections, ${DURATION} s each in ${ROUNDS} alternating slices`,
      );
      for (const p of paths) {
        const [app, raw] = await hitPair(
          { url: base + p, headers: { 'X-API-Key': KEY }, pid: child.pid },
          { url: `http://127.0.0.1:${bare.info.port}${p.split('?')[0]}`, headers: {}, pid: bare.child.pid },
        );
        if (app.errors || app.non2xx) console.log(`  warning: ${app.errors} errors, ${app.non2xx} non-2xx on ${p}`);
        const bytes = Buffer.byteLength(bodies[p.split('?')[0]!]!);
        const ratio = app.rps / raw.rps;
        console.log(
          `  ${p.replace('/api/v1', '')}: service ${Math.round(app.rps)} req/s (p50 ${app.p50} ms, p99 ${app.p99} ms), bare ${Math.round(raw.rps)} req/s (p99 ${raw.p99} ms), ratio ${ratio.toFixed(2)}, ${bytes} bytes; server CPU per request: service ${Math.round(app.cpuUs)} µs, bare ${Math.round(raw.cpuUs)} µs`,
        );
        const common = { rows: info.rows, scenario, path: p, bytes };
        results.push({ ...common, target: 'service', rps: app.rps, p50: app.p50, p99: app.p99, ratio, cpuUs: app.cpuUs });
        results.push({ ...common, target: 'bare fastify', rps: raw.rps, p50: raw.p50, p99: raw.p99, ratio: 1, cpuUs: raw.cpuUs });
      }
      bare.child.kill();
      child.kill();
    }
  }
  console.log('\n| rows | board | endpoint | target | req/s | p50 ms | p99 ms | CPU µs/req | body bytes | service/bare |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results)
    console.log(
      `| ${r.rows} | ${r.scenario} | ${r.path.replace('/api/v1', '')} | ${r.target} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${Math.round(r.cpuUs)} | ${r.bytes} | ${r.target === 'service' ? r.ratio.toFixed(2) : ''} |`,
    );
  const scaling = results.filter((r) => r.target === 'service' && r.scenario === 'still' && r.path === LIST);
  if (scaling.length > 1) {
    console.log(
      '\nscaling (/odds?limit=100, still board):\n| rows | service req/s | p50 ms | p99 ms | bare req/s | service/bare | CPU µs/req service / bare | body bytes |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of scaling) {
      const bare = results.find((b) => b.target === 'bare fastify' && b.rows === r.rows && b.scenario === 'still' && b.path === LIST)!;
      console.log(
        `| ${r.rows} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${Math.round(bare.rps)} | ${r.ratio.toFixed(2)} | ${Math.round(r.cpuUs)} / ${Math.round(bare.cpuUs)} | ${r.bytes} |`,
      );
    }
  }
  save('odds', { connections: CONNECTIONS, seconds: DURATION, rounds: ROUNDS, results });
}

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { save } from './run.js';

const ROOT = process.cwd();
const PORT = Number(process.env.BENCH_PORT ?? 3199);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DATA_DIR = `/tmp/odds-bench-startup-${PORT}`;
const HEALTH = `http://127.0.0.1:${PORT}/api/v1/health`;
/** `npm` as the user runs it (the npm running this benchmark when there is one). */
const NPM = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];

interface StartRun {
  kind: 'first start' | 'restart';
  /** `npm start` to the first HTTP answer from /health (any status). */
  health_ms: number;
  /** ... to /health `ok` with the initial market on the board. */
  ok_ms: number;
  board_rows: number;
  events: number;
  load_avg: number;
  /** CPU time the server process had used when it said ok (Linux /proc): what the wall times become on an idle machine. */
  cpu_ms: number | null;
  /** Which tree ran: this one, or BENCH_BASELINE_ROOT's. */
  tree: string;
  /** Resident memory of the server (MB): at ok, and BENCH_SETTLE_S seconds after the board was written (steady). */
  rss_ok_mb: number | null;
  rss_steady_mb: number | null;
  /** The most it held at any point of the run (VmHWM). */
  rss_peak_mb: number | null;
  /** At the steady reading: V8's heap (committed, in use) and memory outside it (PGlite's WebAssembly heap, buffers), MB. */
  heap_total_mb: number;
  heap_used_mb: number;
  external_mb: number;
}

/** Seconds the steady memory reading waits after the start's board is written. */
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 20);
/** Targets of the performance issue: ready within 3 s, 300 MB resident. */
const READY_TARGET_MS = 3000;
const RSS_TARGET_MB = 300;

/** VmRSS / VmHWM of the server (its pid from DATA_DIR/server.json), in MB; null off Linux. */
function serverMemMb(field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const { pid } = JSON.parse(readFileSync(`${DATA_DIR}/server.json`, 'utf8')) as { pid: number };
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Math.round(Number(line.split(/\s+/)[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** User + system CPU time of the server (its pid from DATA_DIR/server.json), in ms; null off Linux. */
function serverCpuMs(): number | null {
  try {
    const { pid } = JSON.parse(readFileSync(`${DATA_DIR}/server.json`, 'utf8')) as { pid: number };
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of the line (11 and 12 after the command), in clock ticks (100/s).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

function npmStart(root: string): ChildProcess {
  // Its own process group, so stopping it stops npm's child (the server) too.
  return spawn(NPM[0]!, [...NPM.slice(1), 'start', '--silent'], {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR, LOG_LEVEL: 'warn', API_KEYS: '', PROVIDERS: 'simulator' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops npm and the server (its process group) and waits until every process of the group is gone. */
async function stop(proc: ChildProcess): Promise<void> {
  const pid = proc.pid!;
  if (groupAlive(pid)) process.kill(-pid, 'SIGTERM');
  const end = Date.now() + 60_000;
  while (groupAlive(pid)) {
    if (Date.now() > end) process.kill(-pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits (at most 60 s) until the server has written the board to its database, as it would in a while anyway. */
async function settle(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const metrics = await (await fetch(`http://127.0.0.1:${PORT}/metrics`)).text();
    if (
      Number(
        metrics
          .split('\n')
          .find((l) => l.startsWith('board_write_backlog '))
          ?.split(' ')[1] ?? 1,
      ) === 0
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function metricsOf(): Promise<(name: string) => number> {
  const metrics = await (await fetch(`http://127.0.0.1:${PORT}/metrics`)).text();
  return (name: string) =>
    Number(
      metrics
        .split('\n')
        .find((l) => l.startsWith(`${name} `))
        ?.split(' ')[1] ?? 0,
    );
}

async function timeStart(kind: StartRun['kind'], tree: { name: string; root: string }, cli?: number[]): Promise<StartRun> {
  const load = loadavg()[0] ?? 0;
  const t0 = performance.now();
  const proc = npmStart(tree.root);
  let healthMs = 0;
  try {
    while (performance.now() - t0 < 180_000) {
      if (proc.exitCode !== null) throw new Error(`npm start exited with ${proc.exitCode}`);
      try {
        const r = await fetch(HEALTH, { signal: AbortSignal.timeout(2000) });
        const body = (await r.json()) as { status: string; checks: Record<string, { status: string; message?: string }> };
        if (!healthMs) healthMs = performance.now() - t0;
        if (body.status === 'ok' && body.checks.startup?.status === 'ok') {
          const okMs = performance.now() - t0;
          const cpu = serverCpuMs();
          const rssOk = serverMemMb('VmRSS');
          const gauge = await metricsOf();
          if (cli) for (let i = 0; i < 3; i++) cli.push(timeCli());
          await settle();
          await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
          const steady = await metricsOf();
          const mb = (name: string) => Math.round(steady(name) / 2 ** 20);
          return {
            kind,
            tree: tree.name,
            health_ms: Math.round(healthMs),
            ok_ms: Math.round(okMs),
            board_rows: gauge('board_rows'),
            events: gauge('board_events'),
            load_avg: Math.round(load * 10) / 10,
            rss_ok_mb: rssOk,
            rss_steady_mb: serverMemMb('VmRSS'),
            rss_peak_mb: serverMemMb('VmHWM'),
            heap_total_mb: mb('nodejs_heap_size_total_bytes'),
            heap_used_mb: mb('nodejs_heap_size_used_bytes'),
            external_mb: mb('nodejs_external_memory_bytes'),
            cpu_ms: cpu,
          };
        }
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('no ok within 180 s');
  } finally {
    await stop(proc);
  }
}

/** Wall time of one `npm run cli -- keys:list` against a running server (the CLI's usual path). */
function timeCli(): number {
  const t0 = performance.now();
  const r = spawnSync(NPM[0]!, [...NPM.slice(1), 'run', '--silent', 'cli', '--', 'keys:list'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`npm run cli -- keys:list exited with ${r.status}`);
  return Math.round(performance.now() - t0);
}

/** The middle value (the mean of the two middle ones for an even count), rounded. */
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length ? Math.round(s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2) : 0;
};

/**
 * `npm start` as a user runs it: the time to the first answer of /health and to /health `ok` with the initial
 * market loaded, on a first start (a new DATA_DIR: database created, demo keys, the simulator's market) and on a
 * restart of the same DATA_DIR; then, on each restart, three `npm run cli -- keys:list` against the running server. BENCH_RUNS rounds
 * (default 3); medians reported. Wall times on a shared machine: the 1-minute load average is given per run.
 * Each run also reads the server's resident memory (at ok, and BENCH_SETTLE_S s after its board is written) and
 * how it splits between V8's heap and what lies outside it. BENCH_BASELINE_ROOT=<a built checkout of another
 * tree> runs the same rounds on that tree too, alternated with this one, for a side-by-side table.
 */
export async function startupBench(): Promise<void> {
  const runs: StartRun[] = [];
  const cli: number[] = [];
  const trees = [{ name: 'this tree', root: ROOT }];
  if (process.env.BENCH_BASELINE_ROOT) trees.push({ name: 'baseline', root: process.env.BENCH_BASELINE_ROOT });
  for (let i = 0; i < RUNS; i++) {
    // Alternated, so both trees see the machine in the same state.
    for (const tree of trees) {
      rmSync(DATA_DIR, { recursive: true, force: true });
      runs.push(await timeStart('first start', tree));
      runs.push(await timeStart('restart', tree, tree.root === ROOT ? cli : undefined));
    }
  }
  const mid = (xs: Array<number | null>) => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length ? median(v) : null;
  };
  // One group of runs per tree and kind of start, in the order both tables print them.
  const groups = trees.flatMap((tree) =>
    (['first start', 'restart'] as const).map((kind) => ({
      tree: tree.name,
      kind,
      rs: runs.filter((r) => r.kind === kind && r.tree === tree.name),
    })),
  );
  console.log(
    `\n| tree | start | runs | npm start -> /health answers (median, max) | -> ok with the market (median, max; target ${READY_TARGET_MS} ms) | server CPU time to ok (median) | board rows | load avg (1 min) |`,
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const { tree, kind, rs } of groups) {
    const h = rs.map((r) => r.health_ms);
    const o = rs.map((r) => r.ok_ms);
    const cpu = mid(rs.map((r) => r.cpu_ms));
    console.log(
      `| ${tree} | ${kind} | ${rs.length} | ${median(h)} ms, ${Math.max(...h)} ms | ${median(o)} ms, ${Math.max(...o)} ms | ${cpu === null ? 'n/a' : `${cpu} ms`} | ${median(rs.map((r) => r.board_rows))} | ${rs.map((r) => r.load_avg).join(', ')} |`,
    );
  }
  console.log(
    `\n| tree | start | resident at ok | resident ${SETTLE_S} s after the board is written (target ${RSS_TARGET_MB} MB) | peak | V8 heap committed / in use | outside the heap (PGlite, buffers) |`,
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const { tree, kind, rs } of groups)
    console.log(
      `| ${tree} | ${kind} | ${mid(rs.map((r) => r.rss_ok_mb))} MB | ${mid(rs.map((r) => r.rss_steady_mb))} MB | ${mid(rs.map((r) => r.rss_peak_mb))} MB | ${mid(rs.map((r) => r.heap_total_mb))} / ${mid(rs.map((r) => r.heap_used_mb))} MB | ${mid(rs.map((r) => r.external_mb))} MB |`,
    );
  console.log(`\nnpm run cli -- keys:list (server running): median ${median(cli)} ms, max ${Math.max(...cli)} ms over ${cli.length} calls`);
  save('startup', { runs, cli_ms: cli });
  rmSync(DATA_DIR, { recursive: true, force: true });
}

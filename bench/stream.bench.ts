import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { startChild } from './child.js';
import { BENCH_DIR, save } from './run.js';

const ADMIN = 'bench-admin-token-0001';
const key = (i: number) => `sk_bench_stream_${String(i % 50).padStart(4, '0')}`;
/** The machine's clock, comparable across the processes of one machine (the clients note reads on it too). */
const now = () => performance.timeOrigin + performance.now();

interface Stats {
  frames: number;
  /** The first frame read: what the service spends before its fan-out reaches the first stream. */
  min_ms: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

export interface StreamFigures {
  streams: number;
  odds_update: Stats;
  arb_detected: Stats;
  /**
   * Writes handed to the kernel (system calls) per stream per price change, by the streams' channel (a count: it does
   * not depend on the machine's load): what one ingest call costs each stream in socket writes.
   */
  writes_per_stream_per_change: Record<string, number>;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 10) / 10 : NaN;
}

function stats(xs: number[]): Stats {
  return { frames: xs.length, min_ms: pct(xs, 0), p50_ms: pct(xs, 50), p99_ms: pct(xs, 99), max_ms: pct(xs, 100) };
}

/** Sends a message to a client process and waits for its answer. */
function ask<T>(child: ChildProcess, msg: unknown): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(msg as object);
  });
}

/**
 * One run against a server script: `streams` SSE clients in `procs` client processes (half watching one event's
 * odds, half the opportunities), then `rounds` price changes sent with POST /admin/ingest, one every 250 ms.
 * Each latency runs from the moment the bench hands the ingest request to its socket to the moment a client
 * process reads the frame it caused: odds:update on every round, arb:detected on the rounds whose price opens an
 * arbitrage (a long home price against every book's away price); the rounds in between close it again.
 */
export async function measureStream(
  script: string,
  streams: number,
  procs: number,
  rounds: number,
  env: Record<string, string> = {},
): Promise<StreamFigures> {
  const writesFile = join(tmpdir(), `stream-bench-writes-${process.pid}-${Date.now()}.json`);
  const { child, info } = await startChild<{ port: number }>(script, [], { ...env, BENCH_WRITES_FILE: writesFile });
  /** The server's count of writes on stream sockets so far, by channel. */
  const writesSoFar = async (): Promise<Record<string, number>> => {
    rmSync(writesFile, { force: true });
    child.kill('SIGUSR2');
    for (let i = 0; i < 200; i++) {
      await new Promise((r) => setTimeout(r, 25));
      try {
        return JSON.parse(readFileSync(writesFile, 'utf8')) as Record<string, number>;
      } catch {
        // not written yet
      }
    }
    return {};
  };
  const base = `http://127.0.0.1:${info.port}`;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const get = async <T>(path: string): Promise<T> => (await (await fetch(base + path, { headers: { 'X-API-Key': key(0) } })).json()) as T;
  const ingest = (quotes: unknown[]): Promise<void> => {
    const body = JSON.stringify({ source: 'bench', quotes });
    return new Promise((resolve, reject) => {
      const req = request(
        `${base}/api/v1/admin/ingest`,
        {
          method: 'POST',
          agent,
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-Admin-Token': ADMIN },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
      sent.push(now());
      req.end(body);
    });
  };
  const sent: number[] = [];
  try {
    // An event that starts in more than an hour (the synthetic board's first one starts as the server does).
    const ev = (
      await get<{ data: Array<{ id: string; home_team: string; away_team: string; start_time: string }> }>(
        '/api/v1/events?league=nba&limit=20',
      )
    ).data.find((e) => Date.parse(e.start_time) > Date.now() + 3_600_000)!;
    const books = (await get<{ data: Array<{ id: string }> }>('/api/v1/sportsbooks?catalog=true')).data.map((b) => b.id);
    const quote = (book: string, side: 'home' | 'away', price: number) => ({
      book,
      league: 'nba',
      homeTeam: ev.home_team,
      awayTeam: ev.away_team,
      startTime: Date.parse(ev.start_time),
      marketType: 'moneyline',
      selection: side === 'home' ? ev.home_team : ev.away_team,
      selectionType: side,
      line: null,
      price: { decimal: price },
    });
    // A sane market on the watched event first: every book 1.90 / 1.90.
    await ingest(books.flatMap((b) => [quote(b, 'home', 1.9), quote(b, 'away', 1.9)]));
    // BENCH_STREAM_MIX=all: the opportunity streams take the prices too (channel=all), as a client watching an
    // event's prices and opportunities does.
    const oppChannel = process.env.BENCH_STREAM_MIX === 'all' ? 'all' : 'opportunities';
    const paths = Array.from({ length: streams }, (_, i) =>
      i % 2
        ? `/api/v1/stream?channel=${oppChannel}&event=${ev.id}&min_profit=0&api_key=${key(i)}`
        : `/api/v1/stream?channel=odds&event=${ev.id}&sportsbook=draftkings&api_key=${key(i)}`,
    );
    const clients = Array.from({ length: procs }, () => fork(join(BENCH_DIR, 'stream-clients.js'), [], { stdio: 'inherit' }));
    await Promise.all(clients.map((c, j) => ask(c, { open: { port: info.port, paths: paths.filter((_, i) => i % procs === j) } })));
    sent.length = 0;
    const warmup = 4;
    let before: Record<string, number> = {};
    for (let round = 0; round < rounds + warmup; round++) {
      if (round === warmup) before = await writesSoFar();
      // Even rounds: a long home price at draftkings (2.2 against the other books' 1.90 away: a 1.95 % arbitrage),
      // a little different each time, its own away price shortened (a book crossing itself is flagged, not an
      // arbitrage); odd rounds: back to 1.90 / 1.90, which closes it.
      const arb = round % 2 === 0;
      await ingest([quote('draftkings', 'home', arb ? 2.2 + (round % 7) / 1000 : 1.9), quote('draftkings', 'away', arb ? 1.6 : 1.9)]);
      await new Promise((r) => setTimeout(r, 250));
    }
    await new Promise((r) => setTimeout(r, 500));
    const after = await writesSoFar();
    const perChannel = streams / 2;
    const writes = Object.fromEntries(
      Object.entries(after).map(([channel, n]) => [channel, Math.round(((n - (before[channel] ?? 0)) / perChannel / rounds) * 100) / 100]),
    );
    const reports = await Promise.all(clients.map((c) => ask<{ frames: { odds: number[]; arb: number[] } }>(c, { report: true })));
    // Each read belongs to the last ingest call sent before it; the warm-up rounds are left out.
    const since = (at: number): number | null => {
      let r = -1;
      for (let i = 0; i < sent.length && sent[i]! <= at; i++) r = i;
      return r >= warmup ? at - sent[r]! : null;
    };
    const lat = (xs: number[]) => xs.map(since).filter((x): x is number => x !== null);
    return {
      streams,
      odds_update: stats(reports.flatMap((r) => lat(r.frames.odds))),
      arb_detected: stats(reports.flatMap((r) => lat(r.frames.arb))),
      writes_per_stream_per_change: writes,
    };
  } finally {
    agent.destroy();
    child.kill();
    rmSync(writesFile, { force: true });
  }
}

/**
 * Stream latency with 1,000 concurrent SSE clients, measured from the ingest call (the moment the price enters
 * the service) to the frame read by each client. BENCH_STREAM_BASELINE=path/to/another/dist/bench/stream-server.js
 * runs that build too, in the same run, and prints both (the "before" of a change).
 */
export async function streamBench(): Promise<void> {
  const streams = Number(process.env.BENCH_STREAMS ?? 1000);
  const procs = Number(process.env.BENCH_STREAM_CLIENT_PROCS ?? 2);
  const rounds = Number(process.env.BENCH_STREAM_ROUNDS ?? 40);
  const server = join(BENCH_DIR, 'stream-server.js');
  const runs: Array<{ name: string; script: string; env?: Record<string, string> }> = [];
  if (process.env.BENCH_STREAM_BASELINE) runs.push({ name: 'baseline', script: process.env.BENCH_STREAM_BASELINE });
  runs.push({ name: 'this build', script: server });
  // The floor: a bare node:http server writing frames of the same sizes to the same streams, with no service behind.
  if (process.env.BENCH_STREAM_BARE !== '0')
    runs.push({ name: 'bare node:http (floor)', script: join(BENCH_DIR, 'bare-stream-server.js') });
  const results: Record<string, StreamFigures> = {};
  for (const r of runs) {
    results[r.name] = await measureStream(r.script, streams, procs, rounds, r.env);
    console.log(`${r.name}: ${JSON.stringify(results[r.name])}`);
  }
  console.log(`\n${streams} SSE clients in ${procs} client processes, ${rounds} ingest calls, latency from the ingest call`);
  console.log('| build | frame | frames read | first | p50 | p99 | max |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, res] of Object.entries(results)) {
    for (const [frame, s] of [
      ['odds:update', res.odds_update],
      ['arb:detected', res.arb_detected],
    ] as const)
      console.log(`| ${name} | ${frame} | ${s.frames} | ${s.min_ms} ms | ${s.p50_ms} ms | ${s.p99_ms} ms | ${s.max_ms} ms |`);
  }
  console.log('\nSocket writes (system calls) per stream per price change, by channel (counts)');
  for (const [name, res] of Object.entries(results)) console.log(`${name}: ${JSON.stringify(res.writes_per_stream_per_change)}`);
  save('stream', results['this build']);
  if (results.baseline) save('stream-baseline', results.baseline);
}

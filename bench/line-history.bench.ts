import pg from 'pg';
import type { DataSource } from 'typeorm';
import { createApp } from '../src/app.factory.js';
import { Catalog } from '../src/config/catalog.js';
import { loadConfig } from '../src/config/env.js';
import type { Quote } from '../src/domain/types.js';
import { IngestionService } from '../src/modules/ingestion/ingestion.service.js';
import { LineHistoryStore } from '../src/modules/stores/line-history/line-history.store.js';
import { save } from './run.js';
import { movedQuote, syntheticQuotes } from './synthetic-board.js';

/**
 * The line history store: how fast its writer stores changes, how many bytes a change takes on disk, and how long
 * GET /odds/history and /odds/movement take for a busy event.
 *
 * A synthetic market of BENCH_HISTORY_ROWS prices (default 100,000: as many series) is ingested, then every price
 * moves BENCH_HISTORY_ROUNDS times (default 5); after each ingest the writer's drain is timed alone (the board's own
 * writes are not in it). One event then moves BENCH_HISTORY_BUSY times (default 300) on every one of its rows, and
 * the two routes are called over HTTP for it (20 times each; median and p95).
 *
 *   BENCH_DATABASE_URL   PostgreSQL (default postgres://postgres@127.0.0.1:5432/test), in a schema of its own dropped
 *                        after; `none` skips it. The embedded store (PGlite, in memory) is always measured.
 */
export async function lineHistoryBench(): Promise<void> {
  const rows = Number(process.env.BENCH_HISTORY_ROWS ?? 100_000);
  const rounds = Number(process.env.BENCH_HISTORY_ROUNDS ?? 5);
  const busy = Number(process.env.BENCH_HISTORY_BUSY ?? 300);
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const stores: Array<{ name: string; env: Record<string, string>; schema?: string }> = [];
  if (url !== 'none') {
    const schema = `bench_history_${process.pid}`;
    stores.push({ name: 'PostgreSQL', env: { DATABASE_URL: url, DATABASE_SCHEMA: schema }, schema });
  }
  stores.push({ name: 'PGlite', env: { EMBEDDED_IN_MEMORY: 'true' } });
  const out: Array<Record<string, unknown>> = [];
  for (const store of stores) {
    try {
      out.push(await benchStore(store.name, store.env, rows, rounds, busy));
    } finally {
      if (store.schema) await dropSchema(url, store.schema);
    }
  }
  console.log(
    '\n| store | first sight (series + change) changes/s | steady changes/s | bytes per change | of which heap / primary key / BRIN | bytes per series |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of out)
    console.log(
      `| ${r.store as string} | ${fmt(r.first_per_s as number)} | ${fmt(r.steady_per_s as number)} | ${(r.bytes_per_change as number).toFixed(1)} | ${r.split as string} | ${(r.bytes_per_series as number).toFixed(0)} |`,
    );
  console.log('\n| store | request | series | points | body KB | median ms | p95 ms |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of out)
    for (const q of r.reads as Array<Record<string, number | string>>)
      console.log(`| ${r.store as string} | ${q.request as string} | ${q.items} | ${q.points} | ${q.kb} | ${q.median} | ${q.p95} |`);
  save('line-history', out);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function dropSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await c.end();
  }
}

/** Every price moved by k cents (each row changes). */
function moved(quotes: Quote[], k: number): Quote[] {
  return quotes.map((q) => movedQuote(q, 0.01 * (k % 40)));
}

async function benchStore(
  name: string,
  env: Record<string, string>,
  n: number,
  rounds: number,
  busy: number,
): Promise<Record<string, unknown>> {
  const config = loadConfig(
    { PROVIDERS: 'none', SCHEDULERS: 'false', LOG_LEVEL: 'warn', API_KEYS: 'sharp:sk_bench_sharp_0001', ...env },
    'bench',
  );
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
  try {
    const ingestion = app.get(IngestionService);
    const store = app.get(LineHistoryStore);
    const ds = store['repo']['ds'] as DataSource;
    const writer = store.writer;
    // Every change in the past (a read's window ends now): the busy event's 2.5 hours end well before it.
    let now = Date.now() - 4 * 3600_000;
    const quotes = syntheticQuotes(new Catalog(), n, now + 86_400_000);
    const ingestAll = (qs: Quote[], at: number) => {
      for (let i = 0; i < qs.length; i += 25_000)
        ingestion.ingest({ source: 'bench', quotes: qs.slice(i, i + 25_000) }, at, { backfill: true });
    };
    const timeDrain = async (): Promise<{ changes: number; ms: number }> => {
      const before = writer.stats.stored;
      const t = performance.now();
      await writer.drain(600_000);
      return { changes: writer.stats.stored - before, ms: performance.now() - t };
    };

    ingestAll(quotes, now);
    const first = await timeDrain();
    console.log(`${name}: first sight of ${first.changes} rows (series created): ${fmt((first.changes / first.ms) * 1000)} changes/s`);
    let steadyChanges = 0;
    let steadyMs = 0;
    for (let k = 1; k <= rounds; k++) {
      ingestAll(moved(quotes, k), (now += 1000));
      const r = await timeDrain();
      steadyChanges += r.changes;
      steadyMs += r.ms;
      console.log(`${name}: round ${k}: ${r.changes} changes in ${r.ms.toFixed(0)} ms`);
    }

    // The busy event: every row of one game moves `busy` times, 30 s apart, the books one after another (a book
    // every second): 2.5 hours of a live game at the default 300.
    const eventOf = (q: Quote) => `${q.homeTeam}|${q.awayTeam}|${q.startTime}`;
    const game = quotes.filter((q) => eventOf(q) === eventOf(quotes[0]!));
    const books = [...new Set(game.map((q) => q.book))];
    const start = now;
    for (let k = 1; k <= busy; k++) {
      books.forEach((b, i) =>
        ingestion.ingest(
          {
            source: 'bench',
            quotes: moved(
              game.filter((q) => q.book === b),
              k,
            ),
          },
          start + k * 30_000 + i * 1000,
        ),
      );
      if (k % 50 === 0) await writer.drain(600_000);
    }
    now = start + (busy + 1) * 30_000;
    await writer.drain(600_000);
    if (name === 'PostgreSQL') await ds.query('VACUUM ANALYZE line_history, line_history_series');
    const size = await store.size();
    const [parts] = (await ds.query(
      `SELECT pg_relation_size('line_history')::bigint AS heap,
              pg_relation_size('"PK_line_history"')::bigint AS pk,
              pg_relation_size('ix_line_history_at')::bigint AS brin`,
    )) as Array<Record<string, string>>;
    const per = (v: unknown) => (Number(v) / size.changes).toFixed(1);
    const split = `${per(parts?.heap)} / ${per(parts?.pk)} / ${per(parts?.brin)}`;
    console.log(
      `${name}: ${size.changes} changes in ${size.series} series: ${(size.changeBytes / size.changes).toFixed(1)} B per change (${split}), ${(size.seriesBytes / size.series).toFixed(0)} B per series`,
    );

    const eventId = (
      (await (
        await fetch(`${base}/events?team=${encodeURIComponent(game[0]!.homeTeam)}&limit=200`, {
          headers: { 'X-API-Key': 'sk_bench_sharp_0001' },
        })
      ).json()) as {
        data: Array<{ id: string; start_time: string }>;
      }
    ).data.find((e) => Date.parse(e.start_time) === game[0]!.startTime)!.id;
    const hourAgo = new Date(now - 3600_000).toISOString();
    const requests = [
      `/odds/history?event=${eventId}&market=moneyline`,
      `/odds/history?event=${eventId}&market=moneyline&from=${hourAgo}`,
      `/odds/history?event=${eventId}&limit=200&max_points=100`,
      `/odds/movement?event=${eventId}&market=moneyline`,
      `/odds/movement?event=${eventId}&limit=200`,
    ];
    const reads = [];
    for (const path of requests) {
      const times: number[] = [];
      let body: { data: Array<{ points?: unknown[] }> } = { data: [] };
      let bytes = 0;
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        const res = await fetch(`${base}${path}`, { headers: { 'X-API-Key': 'sk_bench_sharp_0001' } });
        const text = await res.text();
        times.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
        bytes = text.length;
        body = JSON.parse(text);
      }
      times.sort((a, b) => a - b);
      const row = {
        request: path.replace(eventId, 'EVENT').replace(hourAgo, '1h ago'),
        items: body.data.length,
        points: body.data.reduce((s, x) => s + (x.points?.length ?? 0), 0),
        kb: Math.round(bytes / 1024),
        median: +times[10]!.toFixed(1),
        p95: +times[18]!.toFixed(1),
      };
      console.log(`${name}: ${row.request}: ${row.items} items, ${row.kb} KB, median ${row.median} ms, p95 ${row.p95} ms`);
      reads.push(row);
    }
    return {
      store: name,
      first_per_s: (first.changes / first.ms) * 1000,
      steady_per_s: (steadyChanges / steadyMs) * 1000,
      changes: size.changes,
      series: size.series,
      bytes_per_change: size.changeBytes / size.changes,
      split,
      bytes_per_series: size.seriesBytes / size.series,
      reads,
    };
  } finally {
    await app.close();
  }
}

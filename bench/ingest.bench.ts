import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { createApp } from '../src/app.factory.js';
import { Catalog } from '../src/config/catalog.js';
import { loadConfig } from '../src/config/env.js';
import type { ChangeSet, OddsRow } from '../src/domain/odds-row.js';
import { BoardWriter, type BoardStore } from '../src/modules/board/board-writer.js';
import { BoardRepository, type HistoryEntry } from '../src/modules/board/board.repository.js';
import { BoardService } from '../src/modules/board/board.service.js';
import { IngestionService } from '../src/modules/ingestion/ingestion.service.js';
import type { Quote } from '../src/domain/types.js';
import { save } from './run.js';
import { movedQuote, syntheticQuotes } from './synthetic-board.js';

/**
 * Durable ingest: rows/s the board writer stores in PostgreSQL and in the embedded PGlite, for inserts (an empty
 * store) and for updates of every existing row, with the statement the writer used before (reproduced below as
 * `PreviousStore`) side by side in the same run; and end to end, from the ingest call to the writer's flush
 * having completed (the price is durable).
 *
 * A "row" is one changed price: its current-state row (upserted) and its history entry (appended).
 *
 *   BENCH_INGEST_ROWS      prices (default 250,000)
 *   BENCH_DATABASE_URL     PostgreSQL (default postgres://postgres@127.0.0.1:5432/test); the bench works in its own
 *                          schema and drops it after; BENCH_DATABASE_URL=none skips PostgreSQL
 *   BENCH_INGEST_ROUNDS    times each (statement, phase) is measured, the best kept (default 2)
 */
export async function ingestBench(): Promise<void> {
  const rows = Number(process.env.BENCH_INGEST_ROWS ?? 250_000);
  const rounds = Number(process.env.BENCH_INGEST_ROUNDS ?? 2);
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const stores: Array<{ name: string; env: Record<string, string>; schema?: string }> = [];
  if (url !== 'none') {
    const schema = `bench_ingest_${process.pid}`;
    // Tagged so the bench can find its own server processes (their CPU time is reported beside the wall time).
    const tagged = `${url}${url.includes('?') ? '&' : '?'}application_name=${schema}`;
    stores.push({ name: 'PostgreSQL', env: { DATABASE_URL: tagged, DATABASE_SCHEMA: schema }, schema });
  }
  stores.push({ name: 'PGlite', env: { EMBEDDED_IN_MEMORY: 'true' } });
  const out: Array<Record<string, unknown>> = [];
  for (const store of stores) {
    try {
      out.push(await benchStore(store.name, store.env, rows, rounds));
    } finally {
      if (store.schema) await dropSchema(url, store.schema);
    }
  }
  console.log(
    '\n| store | statement | insert rows/s | per CPU-s | update rows/s | per CPU-s | ingest → durable (updates) rows/s | per CPU-s |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  const x = (a: number, b: number) => ` (${(a / b).toFixed(2)}x)`;
  for (const r of out) {
    const cells = (which: 'prev' | 'new') =>
      (['insert', 'update', 'e2e'] as const)
        .flatMap((phase) => {
          const m = r[`${which}_${phase}`] as Measure;
          const base = r[`prev_${phase}`] as Measure;
          return which === 'new' ? [fmt(m.wall) + x(m.wall, base.wall), fmt(m.cpu) + x(m.cpu, base.cpu)] : [fmt(m.wall), fmt(m.cpu)];
        })
        .join(' | ');
    console.log(`| ${r.store as string} | previous | ${cells('prev')} |`);
    console.log(`| ${r.store as string} | new | ${cells('new')} |`);
  }
  console.log(
    `first load, ingest → durable (new statement): ${out.map((r) => `${r.store as string} ${show(r.load_e2e as Measure)}`).join('; ')}`,
  );
  save('ingest', out);
}

/**
 * CPU time of this process and, on PostgreSQL running on this machine, of the server processes serving the
 * bench's connections (found by application_name in pg_stat_activity, read from /proc): on a busy machine the
 * wall time says little, rows per CPU-second says what an idle one would do (node and the server take turns).
 */
class CpuMeter {
  constructor(
    private readonly ds: DataSource,
    private readonly app: string | null,
  ) {}

  private async serverMs(): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (!this.app) return out;
    const pids = (await this.ds.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [this.app])) as Array<{
      pid: number;
    }>;
    for (const { pid } of pids) {
      try {
        const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        out.set(pid, ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK);
      } catch {
        // Not on this machine (or gone).
      }
    }
    return out;
  }

  async start(): Promise<() => Promise<{ node: number; server: number }>> {
    const s0 = await this.serverMs();
    const n0 = process.cpuUsage();
    return async () => {
      const n = process.cpuUsage(n0);
      const s1 = await this.serverMs();
      let server = 0;
      for (const [pid, ms] of s1) server += ms - (s0.get(pid) ?? 0);
      return { node: (n.user + n.system) / 1000, server };
    };
  }
}
/** Linux's clock ticks per second (USER_HZ), the unit of /proc/PID/stat's times. */
const CLK_TCK = 100;

async function dropSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await c.end();
  }
}

/** Every price of the market moved (a different price, so every row changes). */
function moved(quotes: Quote[], k: number): Quote[] {
  return quotes.map((q) => movedQuote(q, 0.01 * k));
}

interface Measure {
  /** Rows per second of wall time. */
  wall: number;
  /** Rows per CPU-second (this process plus the PostgreSQL server processes of the bench's connections). */
  cpu: number;
}

async function benchStore(name: string, env: Record<string, string>, n: number, rounds: number): Promise<Record<string, unknown>> {
  const config = loadConfig(
    { PROVIDERS: 'none', SCHEDULERS: 'false', LOG_LEVEL: 'warn', API_KEYS: 'sharp:sk_bench_sharp_0001', ...env },
    'bench',
  );
  const app = await createApp(config);
  try {
    const repo = app.get(BoardRepository);
    const ds = repo['ds'] as DataSource;
    const meter = new CpuMeter(ds, env.DATABASE_SCHEMA ?? null);
    const measure = async (rows: number, work: () => Promise<void>): Promise<Measure> => {
      const stop = await meter.start();
      const t = performance.now();
      await work();
      const ms = performance.now() - t;
      const cpu = await stop();
      return { wall: (rows / ms) * 1000, cpu: (rows / (cpu.node + cpu.server)) * 1000 };
    };
    const ingestion = app.get(IngestionService);
    const writer = app.get(BoardService).writer;
    const current: BoardStore = { write: (b) => repo.write(b), touch: (ids, at) => repo.touch(ids, at) };
    const previous = new PreviousStore(ds);
    const now = Date.now();
    const quotes = syntheticQuotes(new Catalog(), n, now);

    // What the ingest produces, captured on its way to the writer.
    const captured: ChangeSet[] = [];
    const enqueue = writer.enqueue.bind(writer);
    writer.enqueue = (cs: ChangeSet) => {
      captured.push(cs);
      enqueue(cs);
    };
    const ingestAll = (qs: Quote[], at: number) => {
      for (let i = 0; i < qs.length; i += 25_000)
        ingestion.ingest({ source: 'bench', quotes: qs.slice(i, i + 25_000) }, at, { backfill: true });
    };
    const count = (css: ChangeSet[]) => css.reduce((s, cs) => s + cs.upserted.length, 0);

    // End to end, first load (empty board, empty store): the ingest calls, then the writer's flush completes.
    const load = await measure(n, async () => {
      ingestAll(quotes, now);
      await writer.drain(600_000);
    });
    const inserts = captured.splice(0);
    const insertRows = count(inserts);
    console.log(`${name}: first load of ${insertRows} rows, ingest → durable: ${show(load)}`);

    // End to end, every price moves: previous and new statement alternately (the same writer, its store swapped).
    const e2e: Record<'prev' | 'new', Measure[]> = { prev: [], new: [] };
    const updates: ChangeSet[] = [];
    let k = 1;
    for (let r = 0; r < rounds; r++) {
      for (const which of ['prev', 'new'] as const) {
        repo.write = which === 'prev' ? (b) => previous.write(b) : BoardRepository.prototype.write.bind(repo);
        const qs = moved(quotes, k++);
        const m = await measure(n, async () => {
          ingestAll(qs, now + k * 1000);
          await writer.drain(600_000);
        });
        if (count(captured) !== insertRows) throw new Error(`${name}: ${count(captured)} prices changed, ${insertRows} expected`);
        if (!updates.length) updates.push(...captured);
        captured.length = 0;
        e2e[which].push(m);
        console.log(`${name}: ${which} statement, ingest → durable of ${insertRows} changed prices: ${show(m)}`);
      }
    }
    repo.write = BoardRepository.prototype.write.bind(repo);
    writer.enqueue = enqueue;

    // The writer alone: the captured change sets into an empty store (inserts), then the update round (every row
    // exists). One batch each, the way a flush after a pause writes it.
    const measured: Record<string, Measure[]> = { prev_insert: [], prev_update: [], new_insert: [], new_update: [] };
    for (let r = 0; r < rounds; r++) {
      for (const [which, store] of [
        ['prev', previous],
        ['new', current],
      ] as const) {
        await ds.query('TRUNCATE odds, odds_history, odds_removals, events');
        const w = new BoardWriter(store);
        for (const cs of inserts) w.enqueue(cs);
        measured[`${which}_insert`]!.push(await measure(insertRows, () => w.drain(600_000)));
        for (const cs of updates) w.enqueue(cs);
        measured[`${which}_update`]!.push(await measure(insertRows, () => w.drain(600_000)));
        if (w.pending || w.quarantined || !w.healthy) throw new Error(`${name} ${which}: the writer did not store everything`);
        const c = ((await ds.query('SELECT count(*)::int AS c FROM odds')) as Array<{ c: number }>)[0]!.c;
        if (c !== insertRows) throw new Error(`${name} ${which}: ${c} rows stored, ${insertRows} expected`);
        console.log(
          `${name}: ${which} statement, writer only: insert ${show(measured[`${which}_insert`]!.at(-1)!)}; update ${show(measured[`${which}_update`]!.at(-1)!)}`,
        );
      }
    }
    const best = (a: Measure[]): Measure => ({ wall: Math.max(...a.map((m) => m.wall)), cpu: Math.max(...a.map((m) => m.cpu)) });
    return {
      store: name,
      rows: insertRows,
      load_e2e: load,
      prev_insert: best(measured.prev_insert!),
      new_insert: best(measured.new_insert!),
      prev_update: best(measured.prev_update!),
      new_update: best(measured.new_update!),
      prev_e2e: best(e2e.prev),
      new_e2e: best(e2e.new),
    };
  } finally {
    await app.close();
  }
}

const fmt = (v: number) => Math.round(v).toLocaleString('en-US');
const show = (m: Measure) => `${fmt(m.wall)} rows/s (${fmt(m.cpu)} rows per CPU-second)`;

// ---------------------------------------------------------------------------------------------------------------
// The statement the writer used before (issue 18): per 2,000-row chunk, one INSERT ... SELECT FROM unnest(32 typed
// arrays) ON CONFLICT DO UPDATE for the current rows, and one unnest INSERT for their history.

const iso = (ms: number) => new Date(ms).toISOString();

async function* chunks<T>(items: T[], size = 2000): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) {
    if (i > 0) await new Promise((r) => setImmediate(r));
    yield items.slice(i, i + size);
  }
}

class PreviousStore implements BoardStore {
  private readonly current: BoardRepository;

  constructor(private readonly ds: DataSource) {
    this.current = new BoardRepository(ds);
  }

  async touch(ids: string[], at: number): Promise<void> {
    for await (const c of chunks(ids))
      await this.ds.query(`UPDATE odds SET last_seen_at = $2 WHERE id = ANY($1::text[]) AND last_seen_at < $2`, [c, iso(at)]);
  }

  async write(batch: Parameters<BoardStore['write']>[0]): Promise<void> {
    if (batch.events.length || batch.removed.length || batch.eventsRemoved.length) {
      // Events and removals are not what this bench measures: the current statements store them.
      await this.current.write({ ...batch, rows: [], history: [] });
    }
    await this.ds.transaction(async (m) => {
      for await (const c of chunks(batch.rows)) await this.upsertRows(m, c);
      for await (const c of chunks(batch.history)) await this.insertHistory(m, c);
    });
  }

  private async insertHistory(m: EntityManager, c: HistoryEntry[]): Promise<void> {
    await m.query(
      `INSERT INTO odds_history (odds_id, event_id, sportsbook, odds_american, odds_decimal, line, is_live, is_active, recorded_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::float8[], $6::float8[], $7::bool[], $8::bool[], $9::timestamptz[])`,
      [
        c.map((h) => h.row.id),
        c.map((h) => h.row.eventId),
        c.map((h) => h.row.sportsbook),
        c.map((h) => h.row.american),
        c.map((h) => h.row.decimal),
        c.map((h) => h.row.line),
        c.map((h) => h.row.isLive),
        c.map((h) => h.row.isActive),
        c.map((h) => iso(h.at)),
      ],
    );
  }

  private async upsertRows(m: EntityManager, rows: OddsRow[]): Promise<void> {
    const col = <T>(f: (r: OddsRow) => T) => rows.map(f);
    await m.query(
      `INSERT INTO odds (id, event_id, sportsbook, sport, league, market_type, period, ladder_key, group_key, group_line,
         selection, selection_type, line, player_name, stat_category, odds_american, odds_decimal, probability,
         is_live, is_active, changed_at, odds_changed_at, last_seen_at, external_event_id, market_id, selection_id, max_bet,
         volume, volume_24h, open_interest, home_pitcher, away_pitcher)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
         $9::text[], $10::float8[], $11::text[], $12::text[], $13::float8[], $14::text[], $15::text[], $16::int[], $17::float8[],
         $18::float8[], $19::bool[], $20::bool[], $21::timestamptz[], $22::timestamptz[], $23::timestamptz[], $24::text[],
         $25::text[], $26::text[], $27::float8[], $28::float8[], $29::float8[], $30::float8[], $31::text[], $32::text[])
       ON CONFLICT (id) DO UPDATE SET
         odds_american = EXCLUDED.odds_american, odds_decimal = EXCLUDED.odds_decimal, probability = EXCLUDED.probability,
         line = EXCLUDED.line, group_line = EXCLUDED.group_line, group_key = EXCLUDED.group_key, selection = EXCLUDED.selection,
         is_live = EXCLUDED.is_live, is_active = EXCLUDED.is_active, changed_at = EXCLUDED.changed_at,
         odds_changed_at = EXCLUDED.odds_changed_at, last_seen_at = EXCLUDED.last_seen_at,
         external_event_id = EXCLUDED.external_event_id, market_id = EXCLUDED.market_id, selection_id = EXCLUDED.selection_id,
         max_bet = EXCLUDED.max_bet, volume = EXCLUDED.volume, volume_24h = EXCLUDED.volume_24h, open_interest = EXCLUDED.open_interest,
         home_pitcher = EXCLUDED.home_pitcher, away_pitcher = EXCLUDED.away_pitcher`,
      [
        col((r) => r.id),
        col((r) => r.eventId),
        col((r) => r.sportsbook),
        col((r) => r.sport),
        col((r) => r.league),
        col((r) => r.marketType),
        col((r) => r.period),
        col((r) => r.ladderKey),
        col((r) => r.groupKey),
        col((r) => r.groupLine),
        col((r) => r.selection),
        col((r) => r.selectionType),
        col((r) => r.line),
        col((r) => r.playerName),
        col((r) => r.statCategory),
        col((r) => r.american),
        col((r) => r.decimal),
        col((r) => r.probability),
        col((r) => r.isLive),
        col((r) => r.isActive),
        col((r) => iso(r.changedAt)),
        col((r) => iso(r.oddsChangedAt)),
        col((r) => iso(r.lastSeenAt)),
        col((r) => r.externalEventId),
        col((r) => r.marketId),
        col((r) => r.selectionId),
        col((r) => r.maxBet),
        col((r) => r.volume ?? null),
        col((r) => r.volume24h ?? null),
        col((r) => r.openInterest ?? null),
        col((r) => r.homePitcher ?? null),
        col((r) => r.awayPitcher ?? null),
      ],
    );
  }
}

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import cliProgress from 'cli-progress';
import type { ServerInfo } from '../common/admin/admin-token.js';
import { SystemClock } from '../common/time/clock.js';
import { Catalog } from '../config/catalog.js';
import type { AppConfig } from '../config/env.js';
import { createDataSource, runMigrations } from '../database/data-source.js';
import { BoardWriter } from '../modules/board/board-writer.js';
import { BoardRepository } from '../modules/board/board.repository.js';
import { OddsBoard } from '../modules/board/odds-board.js';
import { readImportFile } from '../modules/ingestion/importers/import-file.js';
import type { ParseError, ParsedQuote } from '../modules/ingestion/importers/parsed.js';
import type { EventUpdate, ProviderBatch } from '../domain/types.js';
import { IngestionPipeline, mergeRegistered, type IngestReport } from '../modules/ingestion/pipeline.js';
import { dict } from '../domain/dict.js';
import { applyFutures, mergeFuturesReport, splitFutures, type FuturesBatchContext } from '../modules/ingestion/futures-intake.js';
import { isFutureQuote } from '../modules/ingestion/futures-mapping.js';
import { FuturesStore } from '../modules/stores/futures/futures-store.js';
import { FuturesRepository } from '../modules/stores/futures/futures.repository.js';

const CHUNK = 500;
const SHOWN_ERRORS = 50;
/** The CLI runs outside the application: wall time. */
const clock = new SystemClock();
/** Files with more rows than this get a progress bar (on a terminal). */
const PROGRESS_FROM = 2000;

/**
 * Exit codes of `import`: 0 every row imported; 1 some rows rejected (each listed with its line and reason);
 * 2 nothing imported (an empty or unreadable file, a wrong header, every row rejected).
 */
export const IMPORT_EXIT = { ALL: 0, SOME_REJECTED: 1, NOTHING: 2 } as const;

type AdminCall = (server: ServerInfo, method: string, path: string, body?: unknown) => Promise<unknown>;

export interface ImportSummary {
  file: string;
  format: string;
  records: number;
  imported: number;
  changed: number;
  unchanged: number;
  rejected: number;
  reasons: Record<string, number>;
  errors: ParseError[];
  byBook: Record<string, number>;
  shiftMs: number;
  via: 'server' | 'store';
  /** Leagues and books the catalog lacked, registered on first sight by this import. */
  registered: { leagues: Array<{ id: string; sport: string; from: string }>; books: Array<{ id: string; from: string }> };
  /** Rows kept of market types the catalog does not know (shown, never in detection), per type. */
  displayOnly: Record<string, number>;
  /** Remarks that are not rejections (ignored unknown columns). */
  notes: string[];
  /** Where every rejected row was written (when there were more than the summary shows), else null. */
  rejectionsFile: string | null;
  /** 0 all imported, 1 some rejected, 2 nothing imported (IMPORT_EXIT). */
  exitCode: number;
  /** The import's source name (`--source`, default the file name): what `import:remove` withdraws. */
  source: string;
  /** Rows of events that had started before the import (not live now): their events imported as ended, the prices kept off the live board. */
  ended: { rows: number; events: number };
  /** Rows the previous import of this source brought that this one no longer has: withdrawn. */
  withdrawn: number;
  dryRun: boolean;
}

/**
 * What an import brought, per source (DATA_DIR/imports/<source>.json): the ids `import:remove` withdraws (board
 * rows and futures prices).
 */
export interface ImportManifest {
  source: string;
  file: string;
  imported_at: string;
  replay: boolean;
  ids: string[];
}

function manifestPath(dataDir: string, source: string): string {
  return join(dataDir, 'imports', `${source.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
}

export function readManifest(dataDir: string, source: string): ImportManifest | null {
  const p = manifestPath(dataDir, source);
  if (!existsSync(p)) return null;
  try {
    return JSON.parse(readFileSync(p, 'utf8')) as ImportManifest;
  } catch {
    return null;
  }
}

function writeManifest(dataDir: string, m: ImportManifest): void {
  mkdirSync(join(dataDir, 'imports'), { recursive: true });
  writeFileSync(manifestPath(dataDir, m.source), JSON.stringify(m));
}

/** A capture this recent is a market that may still be running: its live rows are live, its games in progress. */
const FRESH_CAPTURE_MS = 6 * 3600_000;

/**
 * A row is of the past when its event had started before the reference time (the server's clock, else now) and
 * cannot still be running: for a capture older than 6 hours (a snapshot from July imported in November), every
 * event that had started, futures and prediction-market contracts included (their close time has passed); for a
 * fresh capture (or a replayed one), only games that started more than 6 hours before it.
 */
export function isPast(p: ParsedQuote, reference: number, capturedAt: number | null): boolean {
  const q = p.quote;
  const fresh = capturedAt !== null && reference - capturedAt <= FRESH_CAPTURE_MS;
  if (fresh && q.approximateStart) return false;
  return q.startTime < reference - (fresh ? FRESH_CAPTURE_MS : 0);
}

/**
 * In a fresh capture, an event that had started and that a book still quoted is in progress (a game without
 * the live flag, a contract past its listing time): live, never upcoming with a start in the past.
 */
function inProgress(p: ParsedQuote, reference: number): void {
  if (p.quote.startTime < reference) p.quote.isLive = true;
}

/** The server's clock (its health answer's timestamp), so a test server on a manual clock is judged by its time. */
async function serverNow(server: ServerInfo): Promise<number | null> {
  try {
    const r = await fetch(`http://${server.host}:${server.port}/api/v1/health`, { signal: AbortSignal.timeout(5000) });
    const t = Date.parse(((await r.json()) as { timestamp?: string }).timestamp ?? '');
    return Number.isNaN(t) ? null : t;
  } catch {
    return null;
  }
}

/** One ended-event update per distinct past event. */
function endedEvents(past: ParsedQuote[]): EventUpdate[] {
  const out = new Map<string, EventUpdate>();
  for (const { quote: q } of past) {
    const k = JSON.stringify([q.league, q.homeTeam, q.awayTeam, q.startTime, q.gameNumber ?? null]);
    if (!out.has(k))
      out.set(k, {
        league: q.league,
        homeTeam: q.homeTeam,
        awayTeam: q.awayTeam,
        startTime: q.startTime,
        gameNumber: q.gameNumber,
        book: q.book,
        externalEventId: q.externalEventId ?? null,
        status: 'ended',
      });
  }
  return [...out.values()];
}

type ImportOptions = {
  replay: boolean;
  format?: 'csv' | 'json';
  server: ServerInfo | null;
  admin: AdminCall;
  rejectionsFile?: string;
  source?: string;
  dryRun?: boolean;
  progress?: boolean;
  now?: number;
};

/**
 * Imports a file: parse (bad rows reported with line and reason), then feed the good quotes through the same
 * pipeline the providers use, through a running server's admin channel when there is one, else straight into
 * the store (the server rebuilds its board from it at its next start). Prints a summary.
 */
export async function runImport(
  path: string,
  config: AppConfig,
  opts: ImportOptions,
  print: (line: string) => void = console.log,
): Promise<ImportSummary> {
  const plan = await planImport(path, config, opts);
  const tally = new ImportTally(plan);
  const progress = startProgress(plan, opts);
  if (opts.dryRun) checkOnly(plan, tally, progress.tick);
  else if (opts.server) await importThroughServer(plan, tally, progress.tick, opts.server, opts.admin);
  else await importIntoStore(plan, tally, progress.tick, config);
  const seconds = progress.stop();
  if (!opts.dryRun)
    writeManifest(config.dataDir, {
      source: plan.source,
      file: path,
      imported_at: new Date(plan.now).toISOString(),
      replay: opts.replay,
      ids: [...tally.ids],
    });
  const rejectionsFile = reportRejections(plan, tally, config, opts, print);
  const summary = summaryOf(path, plan, tally, opts, rejectionsFile);
  printSummary(summary, { seconds, now: plan.now, replay: opts.replay, tally }, print);
  return summary;
}

/** The file read and sorted: the rows of events already over (imported as ended) and the current ones, in chunks. */
interface ImportPlan {
  source: string;
  now: number;
  replay: boolean;
  catalog: Catalog;
  parsed: ReturnType<typeof readImportFile>;
  past: ParsedQuote[];
  current: ParsedQuote[];
  ended: EventUpdate[];
  /** What the previous import of this source brought. */
  previous: ImportManifest | null;
  /** The index in `current` of each chunk's first row. */
  chunks: number[];
}

async function planImport(path: string, config: AppConfig, opts: ImportOptions): Promise<ImportPlan> {
  const catalog = new Catalog();
  const now = opts.now ?? (opts.server ? await serverNow(opts.server) : null) ?? clock.now();
  const parsed = readOrExplain(path, catalog, { replay: opts.replay, now, format: opts.format });
  // Events that had started before the import are imported as what they are: ended (their prices never become
  // upcoming or live prices on the board).
  const captured = parsed.capturedAt === null ? null : parsed.capturedAt + parsed.shiftMs;
  // A replay's futures are history whatever their dates: imported as history markets, never as live ones.
  const pastRow = (p: ParsedQuote) => !(opts.replay && isFutureQuote(p.quote)) && isPast(p, now, captured);
  const past = parsed.quotes.filter(pastRow);
  const current = parsed.quotes.filter((p) => !pastRow(p));
  for (const p of current) inProgress(p, now);
  const source = opts.source ?? basename(path);
  const chunks: number[] = [];
  for (let i = 0; i < current.length; i += CHUNK) chunks.push(i);
  if (!chunks.length) chunks.push(0);
  const previous = readManifest(config.dataDir, source);
  return { source, now, replay: opts.replay, catalog, parsed, past, current, ended: endedEvents(past), previous, chunks };
}

/** The parsed file, or, for a file that cannot be read at all (missing, a directory, no permission), why. */
function readOrExplain(path: string, catalog: Catalog, read: Parameters<typeof readImportFile>[2]): ReturnType<typeof readImportFile> {
  try {
    return readImportFile(path, catalog, read);
  } catch (err) {
    return {
      format: read.format === 'json' ? 'odds_api_json' : 'sample_csv',
      quotes: [],
      errors: [{ line: 0, reason: `cannot read the file: ${(err as Error).message}` }],
      records: 0,
      capturedAt: null,
      shiftMs: 0,
    };
  }
}

/** What the import did so far: the chunks' reports added up. */
class ImportTally {
  readonly errors: ParseError[];
  readonly reasons: Record<string, number> = dict();
  changed = 0;
  unchanged = 0;
  /** Indexes in `current` of the rows accepted. */
  readonly accepted = new Set<number>();
  /** The row and futures price ids the import brought (its manifest). */
  readonly ids = new Set<string>();
  readonly merged: Pick<IngestReport, 'registered' | 'displayOnly'> = {};
  notDurable = false;
  quarantined = 0;
  withdrawn = 0;

  constructor(private readonly plan: ImportPlan) {
    this.errors = [...plan.parsed.errors];
    for (const e of plan.parsed.errors) this.reasons[e.code ?? 'invalid_row'] = (this.reasons[e.code ?? 'invalid_row'] ?? 0) + 1;
  }

  /** Adds the report of the chunk starting at `chunkStart` (rejection indexes are within the chunk). */
  record(chunkStart: number, report: IngestReport): void {
    this.changed += report.changed;
    this.unchanged += report.unchanged;
    mergeRegistered(this.merged, report);
    for (const [k, v] of Object.entries(report.rejected)) this.reasons[k] = (this.reasons[k] ?? 0) + (v ?? 0);
    const rejectedIdx = new Set(report.rejections.map((r) => r.index));
    for (const r of report.rejections) this.errors.push({ line: this.plan.current[chunkStart + r.index]!.line, reason: r.message });
    for (let i = 0; i < report.quotes; i++) if (!rejectedIdx.has(i)) this.accepted.add(chunkStart + i);
    for (const id of report.ids ?? []) if (id) this.ids.add(id);
  }
}

/** The batch of the chunk starting at row `i` of `current`. */
function batchOf(plan: ImportPlan, i: number, extra: Partial<ProviderBatch> = {}): ProviderBatch {
  return {
    source: `import:${plan.source}`,
    quotes: plan.current.slice(i, i + CHUNK).map((p) => p.quote),
    reportIds: true,
    ...(plan.replay ? { history: true } : {}),
    ...extra,
  };
}

function futuresContext(batch: ProviderBatch): FuturesBatchContext {
  return { source: batch.source, history: batch.history === true, removeIds: batch.removeIds };
}

/** A progress bar for big files, on a terminal (stderr), with rows/s and the time left; `stop` returns the seconds taken. */
function startProgress(plan: ImportPlan, opts: ImportOptions): { tick: (done: number) => void; stop: () => number } {
  const bar =
    (opts.progress ?? process.stderr.isTTY) && plan.parsed.records > PROGRESS_FROM
      ? new cliProgress.SingleBar(
          {
            format: `${opts.dryRun ? 'checking' : 'importing'} {bar} {percentage}% | {value}/{total} rows | {speed} rows/s | ETA {eta_formatted}`,
            hideCursor: true,
            etaBuffer: 20,
          },
          cliProgress.Presets.shades_classic,
        )
      : null;
  const started = performance.now();
  bar?.start(plan.current.length, 0, { speed: 0 });
  return {
    tick: (done) => bar?.update(done, { speed: Math.round(done / Math.max(0.001, (performance.now() - started) / 1000)) }),
    stop: () => {
      bar?.stop();
      return (performance.now() - started) / 1000;
    },
  };
}

/** --dry-run: checked against an empty board and futures store with a throwaway catalog: rejections and ids, nothing written. */
function checkOnly(plan: ImportPlan, tally: ImportTally, tick: (done: number) => void): void {
  const dryCatalog = new Catalog();
  const pipeline = new IngestionPipeline(dryCatalog, new OddsBoard());
  const futures = new FuturesStore();
  for (const i of plan.chunks) {
    const batch = batchOf(plan, i);
    const split = splitFutures(batch);
    const f = split.futures.length ? applyFutures(futures, dryCatalog, split.futures, plan.now, futuresContext(batch)) : null;
    tally.record(i, mergeFuturesReport(pipeline.process(split.games, plan.now).report, split, f));
    tick(Math.min(plan.current.length, i + CHUNK));
  }
  const previous = plan.previous?.ids ?? [];
  tally.withdrawn = previous.filter((id) => !tally.ids.has(id)).length;
  tally.unchanged = previous.filter((id) => tally.ids.has(id)).length;
  tally.changed = tally.ids.size - tally.unchanged;
}

/** Through a running server's admin channel; then what the previous import of this source brought and this one did not is withdrawn. */
async function importThroughServer(
  plan: ImportPlan,
  tally: ImportTally,
  tick: (done: number) => void,
  server: ServerInfo,
  admin: AdminCall,
): Promise<void> {
  for (const [n, i] of plan.chunks.entries()) {
    const batch = batchOf(plan, i, n === 0 ? { events: plan.ended } : {});
    const report = (await admin(server, 'POST', '/ingest', {
      source: batch.source,
      quotes: batch.quotes,
      events: batch.events,
      report_ids: true,
      ...(batch.history ? { history: true } : {}),
    })) as IngestReport & { durable?: boolean };
    tally.record(i, report);
    if (report.durable === false) tally.notDurable = true;
    tick(Math.min(plan.current.length, i + CHUNK));
  }
  // Withdrawn idempotently, by row identity.
  const stale = (plan.previous?.ids ?? []).filter((id) => !tally.ids.has(id));
  for (let i = 0; i < stale.length; i += 5000) {
    const report = (await admin(server, 'POST', '/ingest', {
      source: `import:${plan.source}`,
      quotes: [],
      remove_ids: stale.slice(i, i + 5000),
    })) as IngestReport & { durable?: boolean };
    tally.withdrawn += report.removed;
    if (report.durable === false) tally.notDurable = true;
  }
}

/** Straight into the store (no server holds it): board rows through the pipeline and the board writer, futures to their table. */
async function importIntoStore(plan: ImportPlan, tally: ImportTally, tick: (done: number) => void, config: AppConfig): Promise<void> {
  await withStores(
    config,
    async ({ board, pipeline, writer, futures, futuresRepo }) => {
      const apply = async (batch: ProviderBatch) => {
        const at = clock.now();
        const split = splitFutures(batch);
        const f =
          split.futures.length || batch.removeIds?.length
            ? applyFutures(futures, plan.catalog, split.futures, at, futuresContext(batch))
            : null;
        const { changeSet, report } = pipeline.process(split.games, at);
        board.applyChangeSet(changeSet);
        writer.enqueue(changeSet);
        if (f) await futuresRepo.save(f.change);
        return mergeFuturesReport(report, split, f);
      };
      for (const [n, i] of plan.chunks.entries()) {
        tally.record(i, await apply(batchOf(plan, i, n === 0 ? { events: plan.ended } : {})));
        tick(Math.min(plan.current.length, i + CHUNK));
      }
      const stale = (plan.previous?.ids ?? []).filter((id) => !tally.ids.has(id));
      if (stale.length) tally.withdrawn = (await apply({ source: `import:${plan.source}`, quotes: [], removeIds: stale })).removed;
      await writer.flush();
      if (!writer.healthy) throw new Error('could not write the imported prices to the store');
      tally.quarantined = writer.quarantined;
    },
    plan.catalog,
  );
}

/** The stores as a server would load them: the board (with its pipeline and writer) and the futures markets. */
interface LoadedStores {
  board: OddsBoard;
  pipeline: IngestionPipeline;
  writer: BoardWriter;
  futures: FuturesStore;
  futuresRepo: FuturesRepository;
}

/** Opens the database (migrated), loads the board and the futures markets, runs `fn`, closes the database. */
async function withStores<T>(config: AppConfig, fn: (s: LoadedStores) => Promise<T>, catalog = new Catalog()): Promise<T> {
  const ds = createDataSource(config);
  await ds.initialize();
  try {
    await runMigrations(ds);
    const repo = new BoardRepository(ds);
    const board = new OddsBoard();
    const loaded = await repo.load();
    board.load(loaded.events, loaded.rows, clock.now());
    const pipeline = new IngestionPipeline(catalog, board);
    const writer = new BoardWriter(repo, clock);
    // Futures quotes go to the futures markets, as on a server (never onto the board as events).
    const futuresRepo = new FuturesRepository(ds);
    const futures = new FuturesStore();
    futures.applyChange(await futuresRepo.load());
    return await fn({ board, pipeline, writer, futures, futuresRepo });
  } finally {
    await ds.destroy();
  }
}

/** Prints the first rejected rows and writes every one to a file (not for a dry run); returns the file's path, or null. */
function reportRejections(
  plan: ImportPlan,
  tally: ImportTally,
  config: AppConfig,
  opts: ImportOptions,
  print: (line: string) => void,
): string | null {
  const errors = tally.errors;
  errors.sort((a, b) => a.line - b.line);
  for (const e of errors.slice(0, SHOWN_ERRORS)) print(`line ${e.line}: ${e.reason}`);
  let rejectionsFile: string | null = null;
  if (errors.length && !opts.dryRun) {
    rejectionsFile = writeRejections(config.dataDir, plan.source, errors, opts.rejectionsFile);
    if (errors.length > SHOWN_ERRORS) print(`... and ${errors.length - SHOWN_ERRORS} more rejected rows`);
    print(`every rejected row with its line and reason: ${rejectionsFile ?? '(could not write the list)'}`);
  } else if (errors.length > SHOWN_ERRORS) print(`... and ${errors.length - SHOWN_ERRORS} more rejected rows`);
  return rejectionsFile;
}

function summaryOf(path: string, plan: ImportPlan, tally: ImportTally, opts: ImportOptions, rejectionsFile: string | null): ImportSummary {
  const byBook: Record<string, number> = dict();
  for (const i of tally.accepted) {
    const b = plan.current[i]!.quote.book;
    byBook[b] = (byBook[b] ?? 0) + 1;
  }
  const rejected = tally.errors.length;
  // Rows of ended events are imported as what they are: they count as imported.
  const imported = tally.accepted.size + plan.past.length;
  const exitCode =
    imported === 0 ? IMPORT_EXIT.NOTHING : rejected > 0 || tally.quarantined > 0 ? IMPORT_EXIT.SOME_REJECTED : IMPORT_EXIT.ALL;
  return {
    file: path,
    format: plan.parsed.format,
    records: plan.parsed.records,
    imported,
    changed: tally.changed,
    unchanged: tally.unchanged,
    rejected,
    reasons: tally.reasons,
    errors: tally.errors,
    byBook,
    shiftMs: (plan.parsed as { shiftMs: number }).shiftMs,
    via: opts.server ? 'server' : 'store',
    registered: { leagues: tally.merged.registered?.leagues ?? [], books: tally.merged.registered?.books ?? [] },
    displayOnly: tally.merged.displayOnly ?? {},
    notes: plan.parsed.notes ?? [],
    rejectionsFile,
    exitCode,
    source: plan.source,
    ended: { rows: plan.past.length, events: plan.ended.length },
    withdrawn: tally.withdrawn,
    dryRun: opts.dryRun ?? false,
  };
}

interface RunFacts {
  seconds: number;
  now: number;
  replay: boolean;
  tally: ImportTally;
}

function printSummary(summary: ImportSummary, run: RunFacts, print: (line: string) => void): void {
  for (const n of summary.notes) print(`note: ${n}`);
  printOutcome(summary, run, print);
  printBreakdown(summary, run, print);
  printWarnings(summary, run, print);
}

/** What was imported (or would be), and the rows of events already over. */
function printOutcome(summary: ImportSummary, run: RunFacts, print: (line: string) => void): void {
  const { file: path, source, imported, changed, unchanged, rejected, withdrawn } = summary;
  const into = summary.via === 'server' ? 'running server' : 'store';
  if (summary.dryRun) {
    print(
      `dry run (nothing written): ${path} (${summary.format}) as source "${source}" would import ${imported} of ${summary.records} rows into the ${into}: ${changed} new, ${unchanged} already imported by this source, ${rejected} rejected; ${withdrawn} rows of its previous import would be withdrawn`,
    );
  } else {
    print(
      `imported ${imported} of ${summary.records} rows from ${path} (${summary.format}) as source "${source}" into the ${into} in ${run.seconds.toFixed(1)} s (${Math.round(summary.records / Math.max(run.seconds, 0.001))} rows/s): ${changed} new or changed, ${unchanged} unchanged, ${rejected} rejected${withdrawn ? `, ${withdrawn} rows of its previous import withdrawn` : ''}`,
    );
  }
  if (summary.ended.rows)
    print(
      `${summary.ended.rows} rows of ${summary.ended.events} events that had started before ${new Date(run.now).toISOString()} ${summary.dryRun ? 'would be' : 'were'} imported as ended events: their prices are not on the live board${run.replay ? '' : ' (use --replay to see the capture as a live market)'}`,
    );
}

/** Rejections by reason, rows by book, what the catalog lacked, the replay's shift and how to withdraw it. */
function printBreakdown(summary: ImportSummary, run: RunFacts, print: (line: string) => void): void {
  const list = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  if (summary.rejected)
    print(
      `rejected by reason: ${Object.entries(summary.reasons)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  print(`by sportsbook: ${list(summary.byBook)}`);
  const { leagues, books } = summary.registered;
  if (leagues.length)
    print(`new leagues (not in the catalog; registered): ${leagues.map((l) => `${l.id} (${l.sport}, sent as "${l.from}")`).join(', ')}`);
  if (books.length)
    print(
      `new sportsbooks (not in the catalog; registered unverified: unlisted, shown from the sharp tier, never a sharp reference, every opportunity on them carries UNVERIFIED_BOOK until an operator describes them in config/catalog/sportsbooks.json): ${books.map((b) => `${b.id} (sent as "${b.from}")`).join(', ')}`,
    );
  if (Object.keys(summary.displayOnly).length)
    print(`display-only markets (not in the catalog; shown, never in detection): ${list(summary.displayOnly)}`);
  if (run.replay) print(`replayed: times shifted by ${(summary.shiftMs / 3600_000).toFixed(1)} h so the capture time is now`);
  if (!summary.dryRun) print(`withdraw it with: npm run cli -- import:remove ${summary.source}`);
}

/** Items the store refused, prices not yet durable, and the exit code's meaning. */
function printWarnings(summary: ImportSummary, run: RunFacts, print: (line: string) => void): void {
  const { quarantined, notDurable } = run.tally;
  if (quarantined)
    print(`warning: the store refused ${quarantined} items for their data; they were not stored (see the log lines "quarantined")`);
  if (notDurable)
    print(
      'warning: the server could not write every imported price to its database yet; they are buffered in its memory and written when the database returns (lost if it stops before)',
    );
  if (summary.exitCode === IMPORT_EXIT.NOTHING) print(`nothing was imported from ${summary.file} (exit code ${IMPORT_EXIT.NOTHING})`);
  else if (summary.exitCode === IMPORT_EXIT.SOME_REJECTED)
    print(
      `partial import (exit code ${IMPORT_EXIT.SOME_REJECTED}): ${summary.imported} rows imported, ${summary.rejected + quarantined} refused${summary.rejectionsFile ? ` (listed in ${summary.rejectionsFile})` : ''}`,
    );
}

/** Withdraws what the import of `source` brought (its rows, by id) and forgets it. */
export async function removeImport(
  source: string,
  config: AppConfig,
  opts: { server: ServerInfo | null; admin: AdminCall },
  print: (line: string) => void = console.log,
): Promise<number> {
  const manifest = readManifest(config.dataDir, source);
  if (!manifest) throw new Error(`no import named "${source}" (known: ${knownImports(config.dataDir).join(', ') || 'none'})`);
  const removed = opts.server
    ? await removeThroughServer(source, manifest.ids, opts.server, opts.admin)
    : await removeFromStore(source, manifest.ids, config);
  rmSync(manifestPath(config.dataDir, source), { force: true });
  print(
    `withdrew the import "${source}" (${manifest.file}, imported ${manifest.imported_at}): ${removed} of its ${manifest.ids.length} rows removed${removed < manifest.ids.length ? ' (the others had already left the board: ended events, or replaced)' : ''}`,
  );
  return removed;
}

/** The sources with a manifest. */
function knownImports(dataDir: string): string[] {
  const dir = join(dataDir, 'imports');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5));
}

async function removeThroughServer(source: string, ids: string[], server: ServerInfo, admin: AdminCall): Promise<number> {
  let removed = 0;
  for (let i = 0; i < ids.length; i += 5000) {
    const report = (await admin(server, 'POST', '/ingest', {
      source: `import:${source}`,
      quotes: [],
      remove_ids: ids.slice(i, i + 5000),
    })) as IngestReport;
    removed += report.removed;
  }
  return removed;
}

/** The board rows it brought, then its futures prices and the markets they leave empty (its history markets). */
async function removeFromStore(importSource: string, ids: string[], config: AppConfig): Promise<number> {
  const source = `import:${importSource}`;
  return withStores(
    config,
    async ({ board, pipeline, writer, futures, futuresRepo }) => {
      const { changeSet, report } = pipeline.process({ source, quotes: [], removeIds: ids }, Date.now());
      board.applyChangeSet(changeSet);
      writer.enqueue(changeSet);
      await writer.flush();
      if (!writer.healthy) throw new Error('could not write the removal to the store');
      const gone = futures.remove(ids, source, Date.now());
      await futuresRepo.save(gone);
      return report.removed + (gone.removedPrices?.length ?? 0);
    },
    new Catalog(),
  );
}

/**
 * Writes every rejected row (line, reason) as CSV: to `wanted` (`--rejections PATH`), else under the data directory
 * (DATA_DIR/imports/<source>.rejected.csv), else in the working directory; never beside the input file (its folder may
 * be read-only). Returns the path written, or null.
 */
export function writeRejections(dataDir: string, source: string, errors: readonly ParseError[], wanted?: string): string | null {
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const text = `line,reason\n${errors.map((e) => `${e.line},${q(e.reason)}`).join('\n')}\n`;
  const name = `${source.replace(/[^A-Za-z0-9._-]/g, '_')}.rejected.csv`;
  const candidates = wanted ? [wanted] : [join(dataDir, 'imports', name), join(process.cwd(), name)];
  for (const c of candidates) {
    try {
      mkdirSync(dirname(c), { recursive: true });
      writeFileSync(c, text);
      return c;
    } catch {
      /* try the next place */
    }
  }
  return null;
}

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * Imports a file: parse (bad rows reported with line and reason), then feed the good quotes through the same
 * pipeline the providers use, through a running server's admin channel when there is one, else straight into
 * the store (the server rebuilds its board from it at its next start). Prints a summary.
 */
export async function runImport(
  path: string,
  config: AppConfig,
  opts: {
    replay: boolean;
    format?: 'csv' | 'json';
    server: ServerInfo | null;
    admin: AdminCall;
    rejectionsFile?: string;
    source?: string;
    dryRun?: boolean;
    progress?: boolean;
    now?: number;
  },
  print: (line: string) => void = console.log,
): Promise<ImportSummary> {
  const catalog = new Catalog();
  const now = opts.now ?? (opts.server ? await serverNow(opts.server) : null) ?? clock.now();
  const source = opts.source ?? basename(path);
  let parsed: ReturnType<typeof readImportFile>;
  try {
    parsed = readImportFile(path, catalog, { replay: opts.replay, now, format: opts.format });
  } catch (err) {
    // A file that cannot be read at all (missing, a directory, no permission).
    parsed = {
      format: opts.format === 'json' ? 'odds_api_json' : 'sample_csv',
      quotes: [],
      errors: [{ line: 0, reason: `cannot read the file: ${(err as Error).message}` }],
      records: 0,
      capturedAt: null,
      shiftMs: 0,
    };
  }
  // Events that had started before the import are imported as what they are: ended (their prices never become
  // upcoming or live prices on the board).
  const captured = parsed.capturedAt === null ? null : parsed.capturedAt + parsed.shiftMs;
  // A replay's futures are history whatever their dates: imported as history markets, never as live ones.
  const pastRow = (p: ParsedQuote) => !(opts.replay && isFutureQuote(p.quote)) && isPast(p, now, captured);
  const past = parsed.quotes.filter(pastRow);
  const current = parsed.quotes.filter((p) => !pastRow(p));
  for (const p of current) inProgress(p, now);
  const ended = endedEvents(past);
  const previous = readManifest(config.dataDir, source);

  const errors: ParseError[] = [...parsed.errors];
  const reasons: Record<string, number> = dict();
  for (const e of parsed.errors) reasons[e.code ?? 'invalid_row'] = (reasons[e.code ?? 'invalid_row'] ?? 0) + 1;
  let changed = 0;
  let unchanged = 0;
  const accepted = new Set<number>();
  const ids = new Set<string>();
  const merged: Pick<IngestReport, 'registered' | 'displayOnly'> = {};
  const record = (chunkStart: number, report: IngestReport) => {
    changed += report.changed;
    unchanged += report.unchanged;
    mergeRegistered(merged, report);
    for (const [k, v] of Object.entries(report.rejected)) reasons[k] = (reasons[k] ?? 0) + (v ?? 0);
    const rejectedIdx = new Set(report.rejections.map((r) => r.index));
    for (const r of report.rejections) errors.push({ line: current[chunkStart + r.index]!.line, reason: r.message });
    for (let i = 0; i < report.quotes; i++) if (!rejectedIdx.has(i)) accepted.add(chunkStart + i);
    for (const id of report.ids ?? []) if (id) ids.add(id);
  };
  const batchOf = (i: number, extra: Partial<ProviderBatch> = {}): ProviderBatch => ({
    source: `import:${source}`,
    quotes: current.slice(i, i + CHUNK).map((p) => p.quote),
    reportIds: true,
    ...(opts.replay ? { history: true } : {}),
    ...extra,
  });
  const futuresContext = (batch: ProviderBatch): FuturesBatchContext => ({
    source: batch.source,
    history: batch.history === true,
    removeIds: batch.removeIds,
  });
  const chunks: number[] = [];
  for (let i = 0; i < current.length; i += CHUNK) chunks.push(i);
  if (!chunks.length) chunks.push(0);

  // A progress bar for big files, on a terminal (stderr), with rows/s and the time left.
  const bar =
    (opts.progress ?? process.stderr.isTTY) && parsed.records > PROGRESS_FROM
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
  bar?.start(current.length, 0, { speed: 0 });
  const tick = (done: number) => bar?.update(done, { speed: Math.round(done / Math.max(0.001, (performance.now() - started) / 1000)) });

  let notDurable = false;
  let quarantined = 0;
  let withdrawn = 0;
  if (opts.dryRun) {
    // Checked against an empty board and futures store with a throwaway catalog: rejections and ids, nothing written.
    const dryCatalog = new Catalog();
    const pipeline = new IngestionPipeline(dryCatalog, new OddsBoard());
    const futures = new FuturesStore();
    for (const i of chunks) {
      const batch = batchOf(i);
      const split = splitFutures(batch);
      const f = split.futures.length ? applyFutures(futures, dryCatalog, split.futures, now, futuresContext(batch)) : null;
      record(i, mergeFuturesReport(pipeline.process(split.games, now).report, split, f));
      tick(Math.min(current.length, i + CHUNK));
    }
    withdrawn = (previous?.ids ?? []).filter((id) => !ids.has(id)).length;
    unchanged = (previous?.ids ?? []).filter((id) => ids.has(id)).length;
    changed = ids.size - unchanged;
  } else if (opts.server) {
    for (const [n, i] of chunks.entries()) {
      const batch = batchOf(i, n === 0 ? { events: ended } : {});
      const report = (await opts.admin(opts.server, 'POST', '/ingest', {
        source: batch.source,
        quotes: batch.quotes,
        events: batch.events,
        report_ids: true,
        ...(batch.history ? { history: true } : {}),
      })) as IngestReport & { durable?: boolean };
      record(i, report);
      if (report.durable === false) notDurable = true;
      tick(Math.min(current.length, i + CHUNK));
    }
    // What the previous import of this source brought and this one did not: withdrawn (idempotent by row identity).
    const stale = (previous?.ids ?? []).filter((id) => !ids.has(id));
    for (let i = 0; i < stale.length; i += 5000) {
      const report = (await opts.admin(opts.server, 'POST', '/ingest', {
        source: `import:${source}`,
        quotes: [],
        remove_ids: stale.slice(i, i + 5000),
      })) as IngestReport & { durable?: boolean };
      withdrawn += report.removed;
      if (report.durable === false) notDurable = true;
    }
  } else {
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
      const apply = async (batch: ProviderBatch) => {
        const at = clock.now();
        const split = splitFutures(batch);
        const f =
          split.futures.length || batch.removeIds?.length ? applyFutures(futures, catalog, split.futures, at, futuresContext(batch)) : null;
        const { changeSet, report } = pipeline.process(split.games, at);
        board.applyChangeSet(changeSet);
        writer.enqueue(changeSet);
        if (f) await futuresRepo.save(f.change);
        return mergeFuturesReport(report, split, f);
      };
      for (const [n, i] of chunks.entries()) {
        record(i, await apply(batchOf(i, n === 0 ? { events: ended } : {})));
        tick(Math.min(current.length, i + CHUNK));
      }
      const stale = (previous?.ids ?? []).filter((id) => !ids.has(id));
      if (stale.length) withdrawn = (await apply({ source: `import:${source}`, quotes: [], removeIds: stale })).removed;
      await writer.flush();
      if (!writer.healthy) throw new Error('could not write the imported prices to the store');
      quarantined = writer.quarantined;
    } finally {
      await ds.destroy();
    }
  }
  bar?.stop();
  const seconds = (performance.now() - started) / 1000;
  if (!opts.dryRun)
    writeManifest(config.dataDir, { source, file: path, imported_at: new Date(now).toISOString(), replay: opts.replay, ids: [...ids] });

  const byBook: Record<string, number> = dict();
  for (const i of accepted) {
    const b = current[i]!.quote.book;
    byBook[b] = (byBook[b] ?? 0) + 1;
  }
  errors.sort((a, b) => a.line - b.line);
  const rejected = errors.length;
  for (const e of errors.slice(0, SHOWN_ERRORS)) print(`line ${e.line}: ${e.reason}`);
  let rejectionsFile: string | null = null;
  if (errors.length && !opts.dryRun) {
    rejectionsFile = writeRejections(config.dataDir, source, errors, opts.rejectionsFile);
    if (errors.length > SHOWN_ERRORS) print(`... and ${errors.length - SHOWN_ERRORS} more rejected rows`);
    print(`every rejected row with its line and reason: ${rejectionsFile ?? '(could not write the list)'}`);
  } else if (errors.length > SHOWN_ERRORS) print(`... and ${errors.length - SHOWN_ERRORS} more rejected rows`);
  const registered = { leagues: merged.registered?.leagues ?? [], books: merged.registered?.books ?? [] };
  // Rows of ended events are imported as what they are: they count as imported.
  const imported = accepted.size + past.length;
  const exitCode = imported === 0 ? IMPORT_EXIT.NOTHING : rejected > 0 || quarantined > 0 ? IMPORT_EXIT.SOME_REJECTED : IMPORT_EXIT.ALL;
  const summary: ImportSummary = {
    file: path,
    format: parsed.format,
    records: parsed.records,
    imported,
    changed,
    unchanged,
    rejected,
    reasons,
    errors,
    byBook,
    shiftMs: (parsed as { shiftMs: number }).shiftMs,
    via: opts.server ? 'server' : 'store',
    registered,
    displayOnly: merged.displayOnly ?? {},
    notes: parsed.notes ?? [],
    rejectionsFile,
    exitCode,
    source,
    ended: { rows: past.length, events: ended.length },
    withdrawn,
    dryRun: opts.dryRun ?? false,
  };
  for (const n of summary.notes) print(`note: ${n}`);
  const into = summary.via === 'server' ? 'running server' : 'store';
  if (opts.dryRun) {
    print(
      `dry run (nothing written): ${path} (${summary.format}) as source "${source}" would import ${imported} of ${summary.records} rows into the ${into}: ${changed} new, ${unchanged} already imported by this source, ${rejected} rejected; ${withdrawn} rows of its previous import would be withdrawn`,
    );
  } else {
    print(
      `imported ${imported} of ${summary.records} rows from ${path} (${summary.format}) as source "${source}" into the ${into} in ${seconds.toFixed(1)} s (${Math.round(parsed.records / Math.max(seconds, 0.001))} rows/s): ${changed} new or changed, ${unchanged} unchanged, ${rejected} rejected${withdrawn ? `, ${withdrawn} rows of its previous import withdrawn` : ''}`,
    );
  }
  if (past.length)
    print(
      `${past.length} rows of ${ended.length} events that had started before ${new Date(now).toISOString()} ${opts.dryRun ? 'would be' : 'were'} imported as ended events: their prices are not on the live board${opts.replay ? '' : ' (use --replay to see the capture as a live market)'}`,
    );
  if (rejected)
    print(
      `rejected by reason: ${Object.entries(reasons)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  print(
    `by sportsbook: ${Object.entries(byBook)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  if (registered.leagues.length)
    print(
      `new leagues (not in the catalog; registered): ${registered.leagues.map((l) => `${l.id} (${l.sport}, sent as "${l.from}")`).join(', ')}`,
    );
  if (registered.books.length)
    print(
      `new sportsbooks (not in the catalog; registered unverified: unlisted, shown from the sharp tier, never a sharp reference, every opportunity on them carries UNVERIFIED_BOOK until an operator describes them in config/catalog/sportsbooks.json): ${registered.books.map((b) => `${b.id} (sent as "${b.from}")`).join(', ')}`,
    );
  const shown = Object.entries(summary.displayOnly).sort((a, b) => b[1] - a[1]);
  if (shown.length)
    print(`display-only markets (not in the catalog; shown, never in detection): ${shown.map(([k, v]) => `${k} ${v}`).join(', ')}`);
  if (opts.replay) print(`replayed: times shifted by ${(summary.shiftMs / 3600_000).toFixed(1)} h so the capture time is now`);
  if (!opts.dryRun) print(`withdraw it with: npm run cli -- import:remove ${source}`);
  if (quarantined)
    print(`warning: the store refused ${quarantined} items for their data; they were not stored (see the log lines "quarantined")`);
  if (notDurable)
    print(
      'warning: the server could not write every imported price to its database yet; they are buffered in its memory and written when the database returns (lost if it stops before)',
    );
  if (exitCode === IMPORT_EXIT.NOTHING) print(`nothing was imported from ${path} (exit code ${IMPORT_EXIT.NOTHING})`);
  else if (exitCode === IMPORT_EXIT.SOME_REJECTED)
    print(
      `partial import (exit code ${IMPORT_EXIT.SOME_REJECTED}): ${imported} rows imported, ${rejected + quarantined} refused${rejectionsFile ? ` (listed in ${rejectionsFile})` : ''}`,
    );
  return summary;
}

/** Withdraws what the import of `source` brought (its rows, by id) and forgets it. */
export async function removeImport(
  source: string,
  config: AppConfig,
  opts: { server: ServerInfo | null; admin: AdminCall },
  print: (line: string) => void = console.log,
): Promise<number> {
  const manifest = readManifest(config.dataDir, source);
  if (!manifest) {
    const dir = join(config.dataDir, 'imports');
    const known = existsSync(dir)
      ? (await import('node:fs'))
          .readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .map((f) => f.slice(0, -5))
      : [];
    throw new Error(`no import named "${source}" (known: ${known.length ? known.join(', ') : 'none'})`);
  }
  let removed = 0;
  if (opts.server) {
    for (let i = 0; i < manifest.ids.length; i += 5000) {
      const report = (await opts.admin(opts.server, 'POST', '/ingest', {
        source: `import:${source}`,
        quotes: [],
        remove_ids: manifest.ids.slice(i, i + 5000),
      })) as IngestReport;
      removed += report.removed;
    }
  } else {
    const ds = createDataSource(config);
    await ds.initialize();
    try {
      await runMigrations(ds);
      const repo = new BoardRepository(ds);
      const board = new OddsBoard();
      const loaded = await repo.load();
      board.load(loaded.events, loaded.rows, Date.now());
      const writer = new BoardWriter(repo);
      const { changeSet, report } = new IngestionPipeline(new Catalog(), board).process(
        { source: `import:${source}`, quotes: [], removeIds: manifest.ids },
        Date.now(),
      );
      board.applyChangeSet(changeSet);
      writer.enqueue(changeSet);
      await writer.flush();
      if (!writer.healthy) throw new Error('could not write the removal to the store');
      // The futures prices it brought, and the markets they leave empty (its history markets).
      const futuresRepo = new FuturesRepository(ds);
      const futures = new FuturesStore();
      futures.applyChange(await futuresRepo.load());
      const gone = futures.remove(manifest.ids, `import:${source}`, Date.now());
      await futuresRepo.save(gone);
      removed = report.removed + (gone.removedPrices?.length ?? 0);
    } finally {
      await ds.destroy();
    }
  }
  rmSync(manifestPath(config.dataDir, source), { force: true });
  print(
    `withdrew the import "${source}" (${manifest.file}, imported ${manifest.imported_at}): ${removed} of its ${manifest.ids.length} rows removed${removed < manifest.ids.length ? ' (the others had already left the board: ended events, or replaced)' : ''}`,
  );
  return removed;
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

import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { ServerInfo } from '../common/admin/admin-token.js';
import { SystemClock } from '../common/time/clock.js';
import { Catalog } from '../config/catalog.js';
import type { AppConfig } from '../config/env.js';
import { createDataSource, runMigrations } from '../database/data-source.js';
import { BoardWriter } from '../modules/board/board-writer.js';
import { BoardRepository } from '../modules/board/board.repository.js';
import { OddsBoard } from '../modules/board/odds-board.js';
import { readImportFile } from '../modules/ingestion/importers/import-file.js';
import type { ParseError } from '../modules/ingestion/importers/parsed.js';
import { IngestionPipeline, mergeRegistered, type IngestReport } from '../modules/ingestion/pipeline.js';
import { applyFutures, mergeFuturesReport, splitFutures } from '../modules/futures/futures-ingest.js';
import { FuturesStore } from '../modules/futures/futures-store.js';
import { FuturesRepository } from '../modules/futures/futures.repository.js';

const CHUNK = 2000;
const SHOWN_ERRORS = 50;
/** The CLI runs outside the application: wall time. */
const clock = new SystemClock();

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
}

/**
 * Imports a file: parse (bad rows reported with line and reason), then feed the good quotes through the same
 * pipeline the providers use, through a running server's admin channel when there is one, else straight into
 * the store (the server rebuilds its board from it at its next start). Prints a summary.
 */
export async function runImport(
  path: string,
  config: AppConfig,
  opts: { replay: boolean; format?: 'csv' | 'json'; server: ServerInfo | null; admin: AdminCall; rejectionsFile?: string },
  print: (line: string) => void = console.log,
): Promise<ImportSummary> {
  const catalog = new Catalog();
  let parsed: ReturnType<typeof readImportFile>;
  try {
    parsed = readImportFile(path, catalog, { replay: opts.replay, now: clock.now(), format: opts.format });
  } catch (err) {
    // A file that cannot be read at all (missing, a directory, no permission).
    parsed = { format: opts.format === 'json' ? 'odds_api_json' : 'sample_csv', quotes: [], errors: [{ line: 0, reason: `cannot read the file: ${(err as Error).message}` }], records: 0, capturedAt: null, shiftMs: 0 };
  }
  const errors: ParseError[] = [...parsed.errors];
  const reasons: Record<string, number> = {};
  for (const e of parsed.errors) reasons[e.code ?? 'invalid_row'] = (reasons[e.code ?? 'invalid_row'] ?? 0) + 1;
  let changed = 0;
  let unchanged = 0;
  const accepted = new Set<number>();
  const merged: Pick<IngestReport, 'registered' | 'displayOnly'> = {};
  const record = (chunkStart: number, report: IngestReport) => {
    changed += report.changed;
    unchanged += report.unchanged;
    mergeRegistered(merged, report);
    for (const [k, v] of Object.entries(report.rejected)) reasons[k] = (reasons[k] ?? 0) + (v ?? 0);
    const rejectedIdx = new Set(report.rejections.map((r) => r.index));
    for (const r of report.rejections) errors.push({ line: parsed.quotes[chunkStart + r.index]!.line, reason: r.message });
    for (let i = 0; i < report.quotes; i++) if (!rejectedIdx.has(i)) accepted.add(chunkStart + i);
  };

  let notDurable = false;
  let quarantined = 0;
  if (opts.server) {
    for (let i = 0; i < parsed.quotes.length; i += CHUNK) {
      const chunk = parsed.quotes.slice(i, i + CHUNK).map((p) => p.quote);
      const report = (await opts.admin(opts.server, 'POST', '/ingest', { source: `import:${path.split('/').pop()}`, quotes: chunk })) as IngestReport & { durable?: boolean };
      record(i, report);
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
      for (let i = 0; i < parsed.quotes.length; i += CHUNK) {
        const now = clock.now();
        const split = splitFutures({ source: 'import', quotes: parsed.quotes.slice(i, i + CHUNK).map((p) => p.quote) });
        const f = split.futures.length ? applyFutures(futures, catalog, split.futures, now) : null;
        const { changeSet, report } = pipeline.process(split.games, now);
        board.applyChangeSet(changeSet);
        writer.enqueue(changeSet);
        if (f) await futuresRepo.save(f.change);
        record(i, mergeFuturesReport(report, split, f));
      }
      await writer.flush();
      if (!writer.healthy) throw new Error('could not write the imported prices to the store');
      quarantined = writer.quarantined;
    } finally {
      await ds.destroy();
    }
  }

  const byBook: Record<string, number> = {};
  for (const i of accepted) {
    const b = parsed.quotes[i]!.quote.book;
    byBook[b] = (byBook[b] ?? 0) + 1;
  }
  errors.sort((a, b) => a.line - b.line);
  const rejected = errors.length;
  for (const e of errors.slice(0, SHOWN_ERRORS)) print(`line ${e.line}: ${e.reason}`);
  let rejectionsFile: string | null = null;
  if (errors.length > SHOWN_ERRORS) {
    rejectionsFile = writeRejections(path, errors, opts.rejectionsFile);
    print(`... and ${errors.length - SHOWN_ERRORS} more rejected rows; every rejected row with its line and reason: ${rejectionsFile ?? '(could not write the list)'}`);
  }
  const registered = { leagues: merged.registered?.leagues ?? [], books: merged.registered?.books ?? [] };
  const imported = accepted.size;
  const exitCode = imported === 0 ? IMPORT_EXIT.NOTHING : rejected > 0 || quarantined > 0 ? IMPORT_EXIT.SOME_REJECTED : IMPORT_EXIT.ALL;
  const summary: ImportSummary = {
    file: path,
    format: parsed.format,
    records: parsed.records,
    imported: accepted.size,
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
  };
  for (const n of summary.notes) print(`note: ${n}`);
  print(`imported ${summary.imported} of ${summary.records} rows from ${path} (${summary.format}) into the ${summary.via === 'server' ? 'running server' : 'store'}: ${changed} new or changed, ${unchanged} unchanged, ${rejected} rejected`);
  if (rejected) print(`rejected by reason: ${Object.entries(reasons).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  print(`by sportsbook: ${Object.entries(byBook).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  if (registered.leagues.length) print(`new leagues (not in the catalog; registered): ${registered.leagues.map((l) => `${l.id} (${l.sport}, sent as "${l.from}")`).join(', ')}`);
  if (registered.books.length) print(`new sportsbooks (not in the catalog; registered unlisted, sharp tier): ${registered.books.map((b) => `${b.id} (sent as "${b.from}")`).join(', ')}`);
  const shown = Object.entries(summary.displayOnly).sort((a, b) => b[1] - a[1]);
  if (shown.length) print(`display-only markets (not in the catalog; shown, never in detection): ${shown.map(([k, v]) => `${k} ${v}`).join(', ')}`);
  if (opts.replay) print(`replayed: times shifted by ${(summary.shiftMs / 3600_000).toFixed(1)} h so the capture time is now`);
  if (quarantined) print(`warning: the store refused ${quarantined} items for their data; they were not stored (see the log lines "quarantined")`);
  if (notDurable) print('warning: the server could not write every imported price to its database yet; they are buffered in its memory and written when the database returns (lost if it stops before)');
  if (exitCode === IMPORT_EXIT.NOTHING) print(`nothing was imported from ${path}`);
  return summary;
}

/** Writes every rejected row (line, reason) as CSV next to the file, else in the temp directory; returns its path. */
function writeRejections(path: string, errors: ParseError[], wanted?: string): string | null {
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const text = `line,reason\n${errors.map((e) => `${e.line},${q(e.reason)}`).join('\n')}\n`;
  const candidates = wanted ? [wanted] : [`${path}.rejected.csv`, join(tmpdir(), `${basename(path)}.${process.pid}.rejected.csv`)];
  for (const c of candidates) {
    try {
      writeFileSync(c, text);
      return c;
    } catch {
      /* try the next place */
    }
  }
  return null;
}

import type { ServerInfo } from '../common/admin/admin-token.js';
import { Catalog } from '../config/catalog.js';
import type { AppConfig } from '../config/env.js';
import { createDataSource, runMigrations } from '../database/data-source.js';
import { BoardWriter } from '../modules/board/board-writer.js';
import { BoardRepository } from '../modules/board/board.repository.js';
import { OddsBoard } from '../modules/board/odds-board.js';
import { readImportFile } from '../modules/ingestion/importers/import-file.js';
import type { ParseError } from '../modules/ingestion/importers/parsed.js';
import { IngestionPipeline, type IngestReport } from '../modules/ingestion/pipeline.js';

const CHUNK = 2000;
const SHOWN_ERRORS = 50;

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
}

/**
 * Imports a file: parse (bad rows reported with line and reason), then feed the good quotes through the same
 * pipeline the providers use, through a running server's admin channel when there is one, else straight into
 * the store (the server rebuilds its board from it at its next start). Prints a summary.
 */
export async function runImport(path: string, config: AppConfig, opts: { replay: boolean; format?: 'csv' | 'json'; server: ServerInfo | null; admin: AdminCall }, print: (line: string) => void = console.log): Promise<ImportSummary> {
  const catalog = new Catalog();
  const parsed = readImportFile(path, catalog, { replay: opts.replay, now: Date.now(), format: opts.format });
  const errors: ParseError[] = [...parsed.errors];
  const reasons: Record<string, number> = {};
  for (const _e of parsed.errors) reasons.invalid_row = (reasons.invalid_row ?? 0) + 1;
  let changed = 0;
  let unchanged = 0;
  const accepted = new Set<number>();
  const record = (chunkStart: number, report: IngestReport) => {
    changed += report.changed;
    unchanged += report.unchanged;
    for (const [k, v] of Object.entries(report.rejected)) reasons[k] = (reasons[k] ?? 0) + (v ?? 0);
    const rejectedIdx = new Set(report.rejections.map((r) => r.index));
    for (const r of report.rejections) errors.push({ line: parsed.quotes[chunkStart + r.index]!.line, reason: r.message });
    for (let i = 0; i < report.quotes; i++) if (!rejectedIdx.has(i)) accepted.add(chunkStart + i);
  };

  if (opts.server) {
    for (let i = 0; i < parsed.quotes.length; i += CHUNK) {
      const chunk = parsed.quotes.slice(i, i + CHUNK).map((p) => p.quote);
      record(i, (await opts.admin(opts.server, 'POST', '/ingest', { source: `import:${path.split('/').pop()}`, quotes: chunk })) as IngestReport);
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
      const pipeline = new IngestionPipeline(catalog, board);
      const writer = new BoardWriter(repo);
      for (let i = 0; i < parsed.quotes.length; i += CHUNK) {
        const { changeSet, report } = pipeline.process({ source: 'import', quotes: parsed.quotes.slice(i, i + CHUNK).map((p) => p.quote) }, Date.now());
        board.applyChangeSet(changeSet);
        writer.enqueue(changeSet);
        record(i, report);
      }
      await writer.flush();
      if (!writer.healthy) throw new Error('could not write the imported prices to the store');
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
  if (errors.length > SHOWN_ERRORS) print(`... and ${errors.length - SHOWN_ERRORS} more rejected rows`);
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
  };
  print(`imported ${summary.imported} of ${summary.records} rows from ${path} (${summary.format}) into the ${summary.via === 'server' ? 'running server' : 'store'}: ${changed} new or changed, ${unchanged} unchanged, ${rejected} rejected`);
  if (rejected) print(`rejected by reason: ${Object.entries(reasons).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  print(`by sportsbook: ${Object.entries(byBook).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  if (opts.replay) print(`replayed: times shifted by ${(summary.shiftMs / 3600_000).toFixed(1)} h so the capture time is now`);
  return summary;
}

import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * The embedded store's prices as a file: written at a clean stop, once every change is in the database, and read
 * at the next start in place of the `odds` table (reading the table through PGlite is most of a restart). The file
 * names the state of the table it was taken from (`mark`: the database's identity, the table's row count and its
 * row versions); a start uses it only when the table still has that mark, and removes it either way, so a file is
 * read at most once and never outlives a change it does not hold.
 */
export interface BoardSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  mark: string;
  /** The column each value of a row is for, in order (a file written for other columns is not read). */
  columns: string[];
  rows: unknown[][];
}

export const SNAPSHOT_FORMAT = 1;
export const SNAPSHOT_FILE = 'board-snapshot.json';

/** Writes the file whole or not at all (a stop cut short leaves no half-written file to read). */
export function writeSnapshot(path: string, snapshot: BoardSnapshot): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(snapshot));
  renameSync(tmp, path);
}

/**
 * Reads and removes the file: the snapshot when it is one for these columns, null when there is none or it is not
 * one (unreadable, another format or columns; the start reads the table instead), with why.
 */
export function takeSnapshot(path: string, columns: readonly string[]): { snapshot: BoardSnapshot | null; refused?: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { snapshot: null };
  } finally {
    rmSync(path, { force: true });
    // What a stop cut short while writing left behind.
    rmSync(`${path}.tmp`, { force: true });
  }
  let s: unknown;
  try {
    s = JSON.parse(text);
  } catch {
    return { snapshot: null, refused: 'not JSON' };
  }
  const o = s as Partial<BoardSnapshot> | null;
  if (!o || o.format !== SNAPSHOT_FORMAT || typeof o.mark !== 'string' || !Array.isArray(o.rows) || !Array.isArray(o.columns))
    return { snapshot: null, refused: 'not a snapshot of this format' };
  if (o.columns.length !== columns.length || o.columns.some((c, i) => c !== columns[i]))
    return { snapshot: null, refused: 'written for other columns' };
  if (o.rows.some((r) => !Array.isArray(r) || r.length !== columns.length)) return { snapshot: null, refused: 'a row of the wrong size' };
  return { snapshot: o as BoardSnapshot };
}

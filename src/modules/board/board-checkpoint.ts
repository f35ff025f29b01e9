import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import type { EventEntity, OddsEntity } from './board.entities.js';
import { SHARED_FIELDS, toBoardEvent, toOddsRow, type StoreStamp } from './board.repository.js';

/** What the board is rebuilt from: every stored event and price. */
export interface BoardContent {
  events: BoardEvent[];
  rows: OddsRow[];
}

/** Bumped when the file's layout changes (the fields of rows and events are checked on their own: `shape`). */
export const CHECKPOINT_FORMAT = 1;

/**
 * The file: the rows as one flat array of their field values in `keys` order, each repeated string (books, events,
 * keys, selections: SHARED_FIELDS) written once in `strings` and referred to by its index (-1: null). A third of
 * the size of the rows as JSON objects, and each repeated string is one string again when read.
 */
interface CheckpointFile {
  format: number;
  shape: string;
  stamp: StoreStamp;
  events: BoardEvent[];
  keys: string[];
  strings: string[];
  values: unknown[];
}

/** The fields of a row as this build reads them from the store, in order. */
function rowKeys(): string[] {
  const t = new Date(0);
  return Object.keys(toOddsRow({ changedAt: t, oddsChangedAt: t, lastSeenAt: t } as OddsEntity));
}

/**
 * The fields of a row and of an event as this build reads them from the store: a checkpoint written by a build
 * whose rows had other fields is not used.
 */
function shape(): string {
  const t = new Date(0);
  const event = toBoardEvent({ startTime: t, firstSeenAt: t, updatedAt: t } as EventEntity);
  return `${rowKeys().join(',')}|${Object.keys(event).join(',')}`;
}

const SHARED: ReadonlySet<string> = new Set(SHARED_FIELDS);

function encode(rows: readonly OddsRow[]): Pick<CheckpointFile, 'keys' | 'strings' | 'values'> {
  const keys = rowKeys();
  const shared = keys.map((k) => SHARED.has(k));
  const index = new Map<string, number>();
  const strings: string[] = [];
  const values: unknown[] = [];
  for (const row of rows) {
    const r = row as unknown as Record<string, unknown>;
    for (let i = 0; i < keys.length; i++) {
      const v = r[keys[i]!];
      if (!shared[i]) values.push(v ?? null);
      else if (typeof v !== 'string') values.push(-1);
      else {
        let at = index.get(v);
        if (at === undefined) index.set(v, (at = strings.push(v) - 1));
        values.push(at);
      }
    }
  }
  return { keys, strings, values };
}

/** The rows of a file, or null when its values do not fit its keys and strings. */
function decode(f: Pick<CheckpointFile, 'keys' | 'strings' | 'values'>): OddsRow[] | null {
  const { keys, strings, values } = f;
  const n = keys.length;
  if (!n || values.length % n !== 0) return null;
  const shared = keys.map((k) => SHARED.has(k));
  const rows: OddsRow[] = [];
  for (let p = 0; p < values.length; p += n) {
    // A plain object like the rows read from the store; its keys are this build's row fields (checked above).
    const row = {} as OddsRow;
    const r = row as unknown as Record<string, unknown>;
    for (let i = 0; i < n; i++) {
      const v = values[p + i];
      if (!shared[i]) r[keys[i]!] = v;
      else if (v === -1) r[keys[i]!] = null;
      else if (typeof v === 'number' && v >= 0 && v < strings.length) r[keys[i]!] = strings[v];
      else return null;
    }
    rows.push(row);
  }
  return rows;
}

function sameStamp(a: StoreStamp, b: StoreStamp): boolean {
  return a.through === b.through && a.odds === b.odds && a.events === b.events && a.migrations === b.migrations;
}

/**
 * The board as the embedded store held it at a clean shutdown, in one file beside the store. Reading the store's
 * price table is most of a restart's time (PGlite decodes every row); this file is parsed in a fraction of it.
 * - Written at shutdown from the store itself, after the last write, with the store's stamp: it holds exactly what
 *   a rebuild from the store would read, never the memory's own view.
 * - Read once: it is removed as it is read, whether it is used or not, so it can never outlive the store state it
 *   was written for. It is used only when the store's stamp at start is the one it was written with, and its
 *   format and the fields of its rows and events are this build's; otherwise the board is read from the store.
 */
export class BoardCheckpoint {
  constructor(readonly path: string) {}

  /** Writes the content with the stamp of the store it was read from (a new file beside, then renamed over). */
  async save(content: BoardContent, stamp: StoreStamp): Promise<void> {
    const file: CheckpointFile = { format: CHECKPOINT_FORMAT, shape: shape(), stamp, events: content.events, ...encode(content.rows) };
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(file), { mode: 0o600 });
    await rename(tmp, this.path);
  }

  /**
   * The content saved for the store as it is now (`current` gives its stamp), or null and why not. The file is
   * removed either way.
   */
  async take(current: () => Promise<StoreStamp>): Promise<{ content: BoardContent | null; reason: string }> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      return { content: null, reason: 'no checkpoint' };
    }
    await rm(this.path, { force: true });
    let file: Partial<CheckpointFile>;
    try {
      file = JSON.parse(text) as Partial<CheckpointFile>;
    } catch {
      return { content: null, reason: 'the checkpoint is not readable' };
    }
    if (file.format !== CHECKPOINT_FORMAT || file.shape !== shape())
      return { content: null, reason: 'the checkpoint was written by another build' };
    const { keys, strings, values, events, stamp } = file;
    const rows =
      Array.isArray(keys) && keys.join(',') === rowKeys().join(',') && Array.isArray(strings) && Array.isArray(values)
        ? decode({ keys, strings, values })
        : null;
    if (!rows || !Array.isArray(events) || !stamp) return { content: null, reason: 'the checkpoint is not readable' };
    if (!sameStamp(stamp, await current())) return { content: null, reason: 'the store changed after the checkpoint' };
    return { content: { events, rows }, reason: 'checkpoint' };
  }
}

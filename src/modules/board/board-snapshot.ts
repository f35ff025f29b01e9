import { takeStopFile, writeStopFile } from '../../common/stop-file.js';
import type { OddsRow } from '../../domain/odds-row.js';

/**
 * The embedded store's prices as a file: written at a clean stop, once every change is in the database, and read
 * at the next start in place of the `odds` table (reading the table through PGlite is most of a restart). The file
 * names the state of the table it was taken from (`mark`: the database's identity, the table's row count and its
 * row versions); a start uses it only when the table still has that mark, and removes it either way, so a file is
 * read at most once and never outlives a change it does not hold.
 *
 * The prices are held by field, not by row: one array per field of a board row, and each text field as indexes
 * into one list of the distinct texts of the file. Parsing it makes a few dozen arrays instead of an array per
 * price, and each distinct text once, shared by every price that has it (as the board's interning shares them).
 */
export interface BoardSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  mark: string;
  /** How many prices. */
  rows: number;
  /** The field each column is for, in order (a file written for other fields is not read). */
  fields: string[];
  /** The distinct texts the text columns point into. */
  strings: string[];
  /** Per field: its values (`v`), or, for a field whose values are all texts or null, indexes into `strings` (`s`; -1: null). */
  columns: Array<{ v: unknown[] } | { s: number[] }>;
}

export const SNAPSHOT_FORMAT = 2;
export const SNAPSHOT_FILE = 'board-snapshot.json';

/** The board's prices as the snapshot holds them, every field a column. */
type Columns = { [K in keyof Required<OddsRow>]: ReadonlyArray<Required<OddsRow>[K]> };

/** Every field of a board row, once (the compiler refuses a field missing here or one OddsRow does not have). */
const FIELDS = Object.keys({
  id: 0,
  sportsbook: 0,
  eventId: 0,
  sport: 0,
  league: 0,
  marketType: 0,
  period: 0,
  ladderKey: 0,
  groupKey: 0,
  groupLine: 0,
  selection: 0,
  selectionType: 0,
  line: 0,
  playerName: 0,
  statCategory: 0,
  american: 0,
  decimal: 0,
  probability: 0,
  isLive: 0,
  isActive: 0,
  changedAt: 0,
  oddsChangedAt: 0,
  lastSeenAt: 0,
  externalEventId: 0,
  marketId: 0,
  selectionId: 0,
  maxBet: 0,
  volume: 0,
  volume24h: 0,
  openInterest: 0,
  bid: 0,
  ask: 0,
  last: 0,
  homePitcher: 0,
  awayPitcher: 0,
} satisfies Record<keyof OddsRow, 0>) as Array<keyof OddsRow>;

/**
 * The snapshot of these prices. `lastSeenAt` is each price's sighting as the table holds it (a sighting updates the
 * stored row, not the board's); a field a price lacks is held as null, as the table holds it.
 */
export function snapshotOf(mark: string, rows: readonly OddsRow[], lastSeenAt: (r: OddsRow) => number): BoardSnapshot {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const columns = FIELDS.map((f) => {
    const values = rows.map((r) => (f === 'lastSeenAt' ? lastSeenAt(r) : (r[f] ?? null)));
    if (!values.every((v) => v === null || typeof v === 'string')) return { v: values };
    return {
      s: values.map((v) => {
        if (v === null) return -1;
        let i = index.get(v as string);
        if (i === undefined) index.set(v as string, (i = strings.push(v as string) - 1));
        return i;
      }),
    };
  });
  return { format: SNAPSHOT_FORMAT, mark, rows: rows.length, fields: [...FIELDS], strings, columns };
}

/** The board rows of a snapshot, as the odds table gives them (BoardRepository.load). */
export function rowsOf(snapshot: BoardSnapshot): OddsRow[] {
  const { strings } = snapshot;
  const byField = new Map<string, readonly unknown[]>();
  snapshot.columns.forEach((col, k) => byField.set(FIELDS[k]!, 'v' in col ? col.v : col.s.map((i) => (i < 0 ? null : strings[i]))));
  const c = Object.fromEntries(byField) as Columns;
  const out = new Array<OddsRow>(snapshot.rows);
  for (let i = 0; i < snapshot.rows; i++) {
    const row: Required<OddsRow> = {
      id: c.id[i]!,
      sportsbook: c.sportsbook[i]!,
      eventId: c.eventId[i]!,
      sport: c.sport[i]!,
      league: c.league[i]!,
      marketType: c.marketType[i]!,
      period: c.period[i]!,
      ladderKey: c.ladderKey[i]!,
      groupKey: c.groupKey[i]!,
      groupLine: c.groupLine[i]!,
      selection: c.selection[i]!,
      selectionType: c.selectionType[i]!,
      line: c.line[i]!,
      playerName: c.playerName[i]!,
      statCategory: c.statCategory[i]!,
      american: c.american[i]!,
      decimal: c.decimal[i]!,
      probability: c.probability[i]!,
      isLive: c.isLive[i]!,
      isActive: c.isActive[i]!,
      changedAt: c.changedAt[i]!,
      oddsChangedAt: c.oddsChangedAt[i]!,
      lastSeenAt: c.lastSeenAt[i]!,
      externalEventId: c.externalEventId[i]!,
      marketId: c.marketId[i]!,
      selectionId: c.selectionId[i]!,
      maxBet: c.maxBet[i]!,
      volume: c.volume[i]!,
      volume24h: c.volume24h[i]!,
      openInterest: c.openInterest[i]!,
      bid: c.bid[i]!,
      ask: c.ask[i]!,
      last: c.last[i]!,
      homePitcher: c.homePitcher[i]!,
      awayPitcher: c.awayPitcher[i]!,
    };
    out[i] = row;
  }
  return out;
}

/** Writes the file whole or not at all, in ASCII (see writeStopFile). */
export function writeSnapshot(path: string, snapshot: BoardSnapshot): void {
  writeStopFile(path, snapshot);
}

/** Why a parsed file is not a snapshot this build can read, or null when it is one. */
function problem(o: Partial<BoardSnapshot> | null): string | null {
  if (!o || o.format !== SNAPSHOT_FORMAT || typeof o.mark !== 'string' || !Number.isInteger(o.rows) || (o.rows as number) < 0)
    return 'not a snapshot of this format';
  if (!Array.isArray(o.fields) || o.fields.length !== FIELDS.length || o.fields.some((f, i) => f !== FIELDS[i]))
    return 'written for other fields';
  if (!Array.isArray(o.strings) || o.strings.some((s) => typeof s !== 'string')) return 'its texts are not a list of texts';
  const n = o.rows as number;
  const texts = o.strings.length;
  if (!Array.isArray(o.columns) || o.columns.length !== FIELDS.length) return 'a column missing';
  for (const col of o.columns as unknown[]) {
    const c = col as { v?: unknown; s?: unknown } | null;
    if (Array.isArray(c?.v) && c.v.length === n) continue;
    if (!Array.isArray(c?.s) || c.s.length !== n) return 'a column of the wrong size';
    for (const i of c.s as unknown[])
      if (!Number.isInteger(i) || (i as number) < -1 || (i as number) >= texts) return 'a text index out of range';
  }
  return null;
}

/**
 * Reads and removes the file: the snapshot when it is one this build reads, null when there is none or it is not
 * one (unreadable, another format or fields, a column of the wrong size; the start reads the table instead), with why.
 */
export function takeSnapshot(path: string): { snapshot: BoardSnapshot | null; refused?: string } {
  const file = takeStopFile(path);
  if ('missing' in file) return { snapshot: null };
  if ('invalid' in file) return { snapshot: null, refused: file.invalid };
  const refused = problem(file.value as Partial<BoardSnapshot> | null);
  return refused ? { snapshot: null, refused } : { snapshot: file.value as BoardSnapshot };
}

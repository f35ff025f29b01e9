import { asciiJson, parseJson, takeStopBytes, writeStopBytes } from '../../common/stop-file.js';
import type { OddsRow } from '../../domain/odds-row.js';

/**
 * The embedded store's prices as a file: written at a clean stop, once every change is in the database, and read
 * at the next start in place of the `odds` table (reading the table through PGlite is most of a restart). The file
 * names the state of the table it was taken from (`mark`: the database's identity, the table's row count and its
 * row versions); a start uses it only when the table still has that mark, and removes it either way, so a file is
 * read at most once and never outlives a change it does not hold.
 *
 * The prices are held by field, not by row: one column per field of a board row. The file is one line of ASCII
 * JSON (the header: format, mark, count, fields, each distinct text once, and where each column is), padded to a
 * multiple of 8 bytes, then the columns as arrays of fixed-size values in the byte order of the machine that
 * wrote it (a file of the other order is refused): a text field as 32-bit indexes into the texts (-1: null), a
 * number field as 64-bit floats (NaN: null), a flag as one byte (0 false, 1 true, 2 null). A field of mixed
 * values stays a JSON array in the header. A start takes the columns as views of the file: of the read, only the
 * header is parsed (parsing every value as JSON text took most of it).
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
  /** Per field, its values. */
  columns: SnapshotColumn[];
}

/** A field's values: texts as indexes into `strings` (-1: null), numbers (NaN: null), flags (2: null), or as they are. */
export type SnapshotColumn = { s: Int32Array } | { n: Float64Array } | { b: Uint8Array } | { v: unknown[] };

export const SNAPSHOT_FORMAT = 3;
export const SNAPSHOT_FILE = 'board-snapshot.bin';
/** The snapshot an earlier build wrote (JSON, format 2): removed at a start, not read. */
export const EARLIER_SNAPSHOT_FILE = 'board-snapshot.json';

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Bytes per value of each kind of column held in the body. */
const WIDTH = { s: 4, n: 8, b: 1 } as const;
type Kind = keyof typeof WIDTH;
/** Where a column is: its kind and its offset in the body, or its values in the header. */
type HeaderColumn = { k: Kind; o: number } | { k: 'v'; v: unknown[] };

/** Each field's value of the i-th price. */
type Readers = { [K in keyof Required<OddsRow>]: (i: number) => Required<OddsRow>[K] };

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
  const indexOf = (v: string): number => {
    let i = index.get(v);
    if (i === undefined) index.set(v, (i = strings.push(v) - 1));
    return i;
  };
  const columns = FIELDS.map((f): SnapshotColumn => {
    const values = rows.map((r) => (f === 'lastSeenAt' ? lastSeenAt(r) : (r[f] ?? null)));
    if (values.every((v) => v === null || typeof v === 'string'))
      return { s: Int32Array.from(values, (v) => (v === null ? -1 : indexOf(v))) };
    if (values.every((v) => v === null || (typeof v === 'number' && !Number.isNaN(v))))
      return { n: Float64Array.from(values, (v) => (v === null ? NaN : (v as number))) };
    if (values.every((v) => v === null || typeof v === 'boolean'))
      return { b: Uint8Array.from(values, (v) => (v === null ? 2 : v ? 1 : 0)) };
    return { v: values };
  });
  return { format: SNAPSHOT_FORMAT, mark, rows: rows.length, fields: [...FIELDS], strings, columns };
}

/** The board rows of a snapshot, as the odds table gives them (BoardRepository.load). */
export function rowsOf(snapshot: BoardSnapshot): OddsRow[] {
  const c = Object.fromEntries(snapshot.columns.map((col, k) => [FIELDS[k]!, readerOf(col, snapshot.strings)])) as Readers;
  const out = new Array<OddsRow>(snapshot.rows);
  for (let i = 0; i < snapshot.rows; i++) {
    const row: Required<OddsRow> = {
      id: c.id(i),
      sportsbook: c.sportsbook(i),
      eventId: c.eventId(i),
      sport: c.sport(i),
      league: c.league(i),
      marketType: c.marketType(i),
      period: c.period(i),
      ladderKey: c.ladderKey(i),
      groupKey: c.groupKey(i),
      groupLine: c.groupLine(i),
      selection: c.selection(i),
      selectionType: c.selectionType(i),
      line: c.line(i),
      playerName: c.playerName(i),
      statCategory: c.statCategory(i),
      american: c.american(i),
      decimal: c.decimal(i),
      probability: c.probability(i),
      isLive: c.isLive(i),
      isActive: c.isActive(i),
      changedAt: c.changedAt(i),
      oddsChangedAt: c.oddsChangedAt(i),
      lastSeenAt: c.lastSeenAt(i),
      externalEventId: c.externalEventId(i),
      marketId: c.marketId(i),
      selectionId: c.selectionId(i),
      maxBet: c.maxBet(i),
      volume: c.volume(i),
      volume24h: c.volume24h(i),
      openInterest: c.openInterest(i),
      bid: c.bid(i),
      ask: c.ask(i),
      last: c.last(i),
      homePitcher: c.homePitcher(i),
      awayPitcher: c.awayPitcher(i),
    };
    out[i] = row;
  }
  return out;
}

/**
 * A column's value of the i-th price, as the row's field holds it. Read from the column as each row is made: arrays
 * of the values in between would hold a boxed number per value.
 */
function readerOf(col: SnapshotColumn, strings: readonly string[]): (i: number) => unknown {
  if ('s' in col) {
    const s = col.s;
    return (i) => (s[i]! < 0 ? null : strings[s[i]!]);
  }
  if ('n' in col) {
    const n = col.n;
    return (i) => (Number.isNaN(n[i]) ? null : n[i]);
  }
  if ('b' in col) {
    const b = col.b;
    return (i) => (b[i] === 2 ? null : b[i] === 1);
  }
  const v = col.v;
  return (i) => v[i];
}

/** The file's bytes: the header line, then the body (see BoardSnapshot). */
export function encodeSnapshot(snapshot: BoardSnapshot): Uint8Array[] {
  const arrays: Array<{ o: number; bytes: Uint8Array }> = [];
  let size = 0;
  const columns = snapshot.columns.map((col): HeaderColumn => {
    if ('v' in col) return { k: 'v', v: col.v };
    const [k, values] = 's' in col ? (['s', col.s] as const) : 'n' in col ? (['n', col.n] as const) : (['b', col.b] as const);
    const o = size;
    arrays.push({ o, bytes: new Uint8Array(values.buffer, values.byteOffset, values.byteLength) });
    size = o + Math.ceil(values.byteLength / 8) * 8;
    return { k, o };
  });
  const { format, mark, rows, fields, strings } = snapshot;
  const json = asciiJson(JSON.stringify({ format, mark, rows, fields, strings, columns, littleEndian: LITTLE_ENDIAN }));
  const header = `${json}${' '.repeat(7 - (json.length % 8))}\n`;
  const body = new Uint8Array(size);
  for (const a of arrays) body.set(a.bytes, a.o);
  return [Buffer.from(header, 'latin1'), body];
}

/** Writes the file whole or not at all (see writeStopBytes). */
export function writeSnapshot(path: string, snapshot: BoardSnapshot): void {
  writeStopBytes(path, encodeSnapshot(snapshot));
}

/** Why a parsed header is not one this build can read, or null when it is one. */
function problem(o: Partial<BoardSnapshot & { littleEndian: boolean; columns: unknown[] }> | null): string | null {
  if (!o || o.format !== SNAPSHOT_FORMAT || typeof o.mark !== 'string' || !Number.isInteger(o.rows) || (o.rows as number) < 0)
    return 'not a snapshot of this format';
  if (o.littleEndian !== LITTLE_ENDIAN) return 'written on a machine of the other byte order';
  if (!Array.isArray(o.fields) || o.fields.length !== FIELDS.length || o.fields.some((f, i) => f !== FIELDS[i]))
    return 'written for other fields';
  if (!Array.isArray(o.strings) || o.strings.some((s) => typeof s !== 'string')) return 'its texts are not a list of texts';
  if (!Array.isArray(o.columns) || o.columns.length !== FIELDS.length) return 'a column missing';
  return null;
}

/** The columns the header places in the body, or why they cannot be read from it. */
function columnsIn(header: readonly unknown[], rows: number, texts: number, body: ArrayBuffer): SnapshotColumn[] | string {
  const out: SnapshotColumn[] = [];
  for (const c of header as Array<Partial<{ k: unknown; o: unknown; v: unknown }> | null>) {
    if (c?.k === 'v') {
      if (!Array.isArray(c.v) || c.v.length !== rows) return 'a column of the wrong size';
      out.push({ v: c.v as unknown[] });
      continue;
    }
    const k = c?.k as Kind;
    const o = c?.o as number;
    if (typeof k !== 'string' || !Object.hasOwn(WIDTH, k) || !Number.isInteger(o) || o < 0 || o % 8 !== 0)
      return 'a column of no known kind or place';
    if (o + rows * WIDTH[k] > body.byteLength) return 'a column of the wrong size';
    if (k === 's') {
      const s = new Int32Array(body, o, rows);
      for (let i = 0; i < rows; i++) if (s[i]! < -1 || s[i]! >= texts) return 'a text index out of range';
      out.push({ s });
    } else if (k === 'n') out.push({ n: new Float64Array(body, o, rows) });
    else {
      const b = new Uint8Array(body, o, rows);
      if (b.some((x) => x > 2)) return 'a flag that is not one';
      out.push({ b });
    }
  }
  return out;
}

/**
 * Reads and removes the file: the snapshot when it is one this build reads, null when there is none or it is not
 * one (unreadable, another format or fields, a column of the wrong size; the start reads the table instead), with why.
 */
export function takeSnapshot(path: string): { snapshot: BoardSnapshot | null; refused?: string } {
  const bytes = takeStopBytes(path);
  if (!bytes) return { snapshot: null };
  const end = bytes.indexOf(10);
  const header = parseJson(end < 0 ? bytes : bytes.subarray(0, end)) as Partial<BoardSnapshot & { columns: unknown[] }> | null | undefined;
  if (header === undefined) return { snapshot: null, refused: 'not JSON' };
  const refused = problem(header);
  if (refused) return { snapshot: null, refused };
  const h = header as BoardSnapshot & { columns: unknown[] };
  // A copy of the body: its own buffer, at offset 0, so each column's view is aligned.
  const body = bytes.buffer.slice(bytes.byteOffset + end + 1, bytes.byteOffset + bytes.byteLength);
  const columns = columnsIn(h.columns, h.rows, h.strings.length, body as ArrayBuffer);
  if (typeof columns === 'string') return { snapshot: null, refused: columns };
  return { snapshot: { format: h.format, mark: h.mark, rows: h.rows, fields: h.fields, strings: h.strings, columns } };
}

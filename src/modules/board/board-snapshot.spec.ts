import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { OddsRow } from '../../domain/odds-row.js';
import { oddsRow, T0 } from './board.fixtures.js';
import { encodeSnapshot, rowsOf, snapshotOf, takeSnapshot, writeSnapshot, type BoardSnapshot } from './board-snapshot.js';

/** An exchange's player prop with every field a price can have. */
const full: Required<OddsRow> = {
  id: 'a1b2c3d4e5f60718',
  sportsbook: 'prophetx',
  eventId: 'mlb_yankees_redsox_2026-11-29_b0',
  sport: 'baseball',
  league: 'mlb',
  marketType: 'player_strikeouts',
  period: 'full',
  ladderKey: 'mlb_yankees_redsox_2026-11-29_b0|player_strikeouts|full|gerrit cole',
  groupKey: 'mlb_yankees_redsox_2026-11-29_b0|player_strikeouts|full|gerrit cole|6.5',
  groupLine: 6.5,
  selection: 'Gerrit Cole Over 6.5',
  selectionType: 'over',
  line: 6.5,
  playerName: 'Gerrit Cole',
  statCategory: 'strikeouts',
  american: 125,
  decimal: 2.25,
  probability: 0.444444,
  isLive: true,
  isActive: false,
  changedAt: T0 + 1,
  oddsChangedAt: T0 + 2,
  lastSeenAt: T0 + 3,
  externalEventId: 'px-evt-991',
  marketId: 'px-mkt-17',
  selectionId: 'px-sel-4',
  maxBet: 2500.5,
  volume: 10_000.25,
  volume24h: 1_234,
  openInterest: 77,
  bid: 0.43,
  ask: 0.45,
  last: 0.44,
  homePitcher: 'Gerrit Cole',
  awayPitcher: 'Brayan Bello',
};

const dir = mkdtempSync(join(tmpdir(), 'board-snapshot-'));
let files = 0;
/** The file's round trip: written, read back. */
const throughFile = (s: BoardSnapshot): BoardSnapshot => {
  const path = join(dir, `round-${files++}.bin`);
  writeSnapshot(path, s);
  const { snapshot, refused } = takeSnapshot(path);
  expect(refused).toBeUndefined();
  return snapshot!;
};

describe('the board snapshot file', () => {
  it('gives back every field of every price; a field a price lacks comes back null, as the table gives it', () => {
    // A sportsbook's moneyline: none of the exchange fields (absent, not null), two books sharing their texts.
    const plain = oddsRow('r1');
    const other = oddsRow('r2', { sportsbook: 'fanduel', american: 105, decimal: 2.05, probability: 0.487805 });
    const sighted = new Map([
      [full.id, T0 + 50],
      ['r1', T0 + 60],
      ['r2', T0],
    ]);
    const snap = snapshotOf('mark-1', [full, plain, other], (r) => sighted.get(r.id)!);
    const back = rowsOf(throughFile(snap));
    const nulls = {
      volume: null,
      volume24h: null,
      openInterest: null,
      bid: null,
      ask: null,
      last: null,
      homePitcher: null,
      awayPitcher: null,
    };
    expect(back).toEqual([
      { ...full, lastSeenAt: T0 + 50 },
      { ...plain, ...nulls, lastSeenAt: T0 + 60 },
      { ...other, ...nulls, lastSeenAt: T0 },
    ]);
    // Each distinct text once: 'Boston Celtics', 'basketball', 'ev1' ... are not repeated per price.
    expect(new Set(snap.strings).size).toBe(snap.strings.length);
    expect(snap.strings.filter((s) => s === 'Boston Celtics')).toHaveLength(1);
    // Texts become indexes, numbers 64-bit floats (NaN for null), flags bytes (2 for null).
    expect(snap.columns[snap.fields.indexOf('american')]).toEqual({ n: Float64Array.from([125, -110, 105]) });
    expect(snap.columns[snap.fields.indexOf('volume')]).toEqual({ n: Float64Array.from([10_000.25, NaN, NaN]) });
    expect(snap.columns[snap.fields.indexOf('isLive')]).toEqual({ b: Uint8Array.from([1, 0, 0]) });
    const books = snap.columns[snap.fields.indexOf('sportsbook')] as { s: Int32Array };
    expect([...books.s].map((i) => snap.strings[i])).toEqual(['prophetx', 'draftkings', 'fanduel']);
    const pitchers = snap.columns[snap.fields.indexOf('homePitcher')] as { s: Int32Array };
    expect([...pitchers.s].slice(1)).toEqual([-1, -1]);
    expect(snap.mark).toBe('mark-1');
    expect(snap.rows).toBe(3);
  });

  it('an empty board is a snapshot of no prices', () => {
    expect(rowsOf(throughFile(snapshotOf('m', [], () => 0)))).toEqual([]);
  });

  it('a field of mixed values (a number beside a text) stays a list of its values', () => {
    const odd = { ...oddsRow('r9'), selectionId: 42 as unknown as string };
    const snap = snapshotOf('m', [odd, { ...full, id: 'f2' }], (r) => r.lastSeenAt);
    expect(snap.columns[snap.fields.indexOf('selectionId')]).toEqual({ v: [42, 'px-sel-4'] });
    expect(rowsOf(throughFile(snap)).map((r) => r.selectionId)).toEqual([42, 'px-sel-4']);
  });

  it('the header is one line of ASCII JSON padded to 8 bytes; each column starts on an 8-byte boundary', () => {
    const [header, body] = encodeSnapshot(snapshotOf('m', [full, oddsRow('r1'), oddsRow('r2')], (r) => r.lastSeenAt));
    expect(header!.length % 8).toBe(0);
    expect(header![header!.length - 1]).toBe(10);
    expect(header!.every((b) => b < 0x80)).toBe(true);
    const h = JSON.parse(Buffer.from(header!).toString('latin1')) as { columns: Array<{ k: string; o?: number }> };
    const placed = h.columns.filter((c) => c.o !== undefined);
    expect(placed.every((c) => c.o! % 8 === 0)).toBe(true);
    // 3 prices: a text column takes 12 bytes (16 with its padding), a number column 24, a flag column 3 (8).
    const width = { s: 16, n: 24, b: 8 } as Record<string, number>;
    expect(body!.length).toBe(placed.reduce((sum, c) => sum + width[c.k]!, 0));
  });

  const good = () => snapshotOf('m', [full, oddsRow('r1')], (r) => r.lastSeenAt);

  it('is read once: taking it removes the file and what a cut-short write left beside it', () => {
    const path = join(dir, 'a.bin');
    writeSnapshot(path, good());
    writeFileSync(`${path}.tmp`, '{"format"');
    const { snapshot, refused } = takeSnapshot(path);
    expect(refused).toBeUndefined();
    expect(rowsOf(snapshot!)).toHaveLength(2);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.tmp`)).toBe(false);
    expect(takeSnapshot(path)).toEqual({ snapshot: null });
  });

  it('its header is ASCII and gives back texts outside it as they were', () => {
    // Two-byte (é, Ž, ğ), three-byte (€) and four-byte (a surrogate pair: 🙂) characters, and a control character.
    const names = ['Kiké Hernández', 'Žan Ğül €', 'Fan 🙂 Club', 'tab\there'];
    const rows = names.map((playerName, i) => oddsRow(`n${i}`, { playerName }));
    const path = join(dir, 'ascii.bin');
    writeSnapshot(
      path,
      snapshotOf('m', rows, (r) => r.lastSeenAt),
    );
    const bytes = readFileSync(path);
    const header = bytes.subarray(0, bytes.indexOf(10));
    expect(header.every((b) => b < 0x80)).toBe(true);
    expect(header.toString('latin1')).toContain('Kik\\u00e9 Hern\\u00e1ndez');
    expect(header.toString('latin1')).toContain('Fan \\ud83d\\ude42 Club');
    expect(rowsOf(takeSnapshot(path).snapshot!).map((r) => r.playerName)).toEqual(names);
  });

  /** The file of good() with its header changed (the body as written). */
  const broken = (
    change: (h: Record<string, unknown> & { fields: string[]; strings: unknown[]; columns: Array<Record<string, unknown>> }) => void,
  ): Buffer => {
    const [header, body] = encodeSnapshot(good());
    const h = JSON.parse(Buffer.from(header!).toString('latin1')) as Parameters<typeof change>[0];
    change(h);
    return Buffer.concat([Buffer.from(`${JSON.stringify(h)}\n`, 'latin1'), body!]);
  };
  /** The file of good() with its body changed. */
  const brokenBody = (change: (body: Uint8Array, columns: Array<{ k: string; o: number }>) => void): Buffer => {
    const [header, body] = encodeSnapshot(good());
    const copy = Uint8Array.from(body!);
    change(copy, (JSON.parse(Buffer.from(header!).toString('latin1')) as { columns: Array<{ k: string; o: number }> }).columns);
    return Buffer.concat([header!, copy]);
  };
  const firstText = (columns: Array<{ k: string; o: number }>) => columns.find((c) => c.k === 's')!.o;
  const firstFlag = (columns: Array<{ k: string; o: number }>) => columns.find((c) => c.k === 'b')!.o;
  it.each([
    ['not JSON', Buffer.from('{"format": 3, "mark": '), 'not JSON'],
    [
      'an earlier format (the JSON of format 2)',
      Buffer.from(JSON.stringify({ format: 2, mark: 'm', rows: 0, fields: [], strings: [], columns: [] })),
      'not a snapshot of this format',
    ],
    ['no mark', broken((h) => (h.mark = null)), 'not a snapshot of this format'],
    ['a count that is not one', broken((h) => (h.rows = 1.5)), 'not a snapshot of this format'],
    ['the other byte order', broken((h) => (h.littleEndian = !h.littleEndian)), 'written on a machine of the other byte order'],
    ['a field renamed', broken((h) => (h.fields[1] = 'book')), 'written for other fields'],
    ['a field missing', broken((h) => h.fields.pop()), 'written for other fields'],
    ['texts that are not texts', broken((h) => (h.strings[0] = 7)), 'its texts are not a list of texts'],
    ['a column missing', broken((h) => h.columns.pop()), 'a column missing'],
    ['a column past the end of the file', broken((h) => (h.columns[0]!.o = 1024)), 'a column of the wrong size'],
    ['a column of no known kind', broken((h) => (h.columns[0]!.k = 'x')), 'a column of no known kind or place'],
    ['a column of an inherited name', broken((h) => (h.columns[0]!.k = 'constructor')), 'a column of no known kind or place'],
    ['a column off its boundary', broken((h) => (h.columns[0]!.o = 4)), 'a column of no known kind or place'],
    ['more prices than the columns hold', broken((h) => (h.rows = 1000)), 'a column of the wrong size'],
    ['a text index past the texts', brokenBody((b, c) => b.set([0xff, 0xff, 0, 0], firstText(c) + 4)), 'a text index out of range'],
    ['a text index below -1', brokenBody((b, c) => b.set([0xfe, 0xff, 0xff, 0xff], firstText(c) + 4)), 'a text index out of range'],
    ['a flag that is not one', brokenBody((b, c) => (b[firstFlag(c)] = 7)), 'a flag that is not one'],
  ])('a file that is not a snapshot this build reads (%s) is refused, and removed', (_why, bytes, refused) => {
    const path = join(dir, 'b.bin');
    writeFileSync(path, bytes);
    expect(takeSnapshot(path)).toEqual({ snapshot: null, refused });
    expect(existsSync(path)).toBe(false);
  });
  it('the same file unchanged is read (the cases above are refused for what they change)', () => {
    const path = join(dir, 'c.bin');
    writeFileSync(
      path,
      brokenBody(() => undefined),
    );
    expect(rowsOf(takeSnapshot(path).snapshot!)).toEqual(rowsOf(good()));
  });
});

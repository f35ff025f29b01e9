import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { OddsRow } from '../../domain/odds-row.js';
import { oddsRow, T0 } from './board.fixtures.js';
import { rowsOf, snapshotOf, takeSnapshot, writeSnapshot, type BoardSnapshot } from './board-snapshot.js';

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

/** The file's round trip: written as JSON, parsed back. */
const throughJson = (s: BoardSnapshot): BoardSnapshot => JSON.parse(JSON.stringify(s)) as BoardSnapshot;

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
    const back = rowsOf(throughJson(snap));
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
    // Numbers, flags and times stay values; texts become indexes.
    expect(snap.columns[snap.fields.indexOf('american')]).toEqual({ v: [125, -110, 105] });
    expect(snap.columns[snap.fields.indexOf('isLive')]).toEqual({ v: [true, false, false] });
    expect('s' in snap.columns[snap.fields.indexOf('sportsbook')]!).toBe(true);
    expect(snap.mark).toBe('mark-1');
    expect(snap.rows).toBe(3);
  });

  it('an empty board is a snapshot of no prices', () => {
    expect(rowsOf(throughJson(snapshotOf('m', [], () => 0)))).toEqual([]);
  });

  const dir = mkdtempSync(join(tmpdir(), 'board-snapshot-'));
  const good = () => throughJson(snapshotOf('m', [full, oddsRow('r1')], (r) => r.lastSeenAt));

  it('is read once: taking it removes the file and what a cut-short write left beside it', () => {
    const path = join(dir, 'a.json');
    writeSnapshot(path, good());
    writeFileSync(`${path}.tmp`, '{"format"');
    const { snapshot, refused } = takeSnapshot(path);
    expect(refused).toBeUndefined();
    expect(rowsOf(snapshot!)).toHaveLength(2);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.tmp`)).toBe(false);
    expect(takeSnapshot(path)).toEqual({ snapshot: null });
  });

  it('is written in ASCII and gives back texts outside it as they were; a file in UTF-8 reads the same', () => {
    // Two-byte (é, Ž, ğ), three-byte (€) and four-byte (a surrogate pair: 🙂) characters, and a control character.
    const names = ['Kiké Hernández', 'Žan Ğül €', 'Fan 🙂 Club', 'tab\there'];
    const rows = names.map((playerName, i) => oddsRow(`n${i}`, { playerName }));
    const path = join(dir, 'ascii.json');
    writeSnapshot(
      path,
      snapshotOf('m', rows, (r) => r.lastSeenAt),
    );
    const bytes = readFileSync(path);
    expect(bytes.every((b) => b < 0x80)).toBe(true);
    expect(bytes.toString('latin1')).toContain('Kik\\u00e9 Hern\\u00e1ndez');
    expect(bytes.toString('latin1')).toContain('Fan \\ud83d\\ude42 Club');
    expect(rowsOf(takeSnapshot(path).snapshot!).map((r) => r.playerName)).toEqual(names);
    // The same snapshot as plain JSON.stringify writes it (UTF-8, as a file of an earlier build is).
    writeFileSync(path, JSON.stringify(snapshotOf('m', rows, (r) => r.lastSeenAt)), 'utf8');
    expect(readFileSync(path).every((b) => b < 0x80)).toBe(false);
    expect(rowsOf(takeSnapshot(path).snapshot!).map((r) => r.playerName)).toEqual(names);
  });

  const broken = (change: (s: BoardSnapshot & Record<string, unknown>) => void): string => {
    const s = good() as BoardSnapshot & Record<string, unknown>;
    change(s);
    return JSON.stringify(s);
  };
  it.each([
    ['not JSON', '{"format": 2, "mark": ', 'not JSON'],
    ['an earlier format', JSON.stringify({ format: 1, mark: 'm', columns: ['id'], rows: [['x']] }), 'not a snapshot of this format'],
    ['no mark', broken((s) => (s.mark = null as unknown as string)), 'not a snapshot of this format'],
    ['a count that is not one', broken((s) => (s.rows = 1.5)), 'not a snapshot of this format'],
    ['a field renamed', broken((s) => (s.fields[1] = 'book')), 'written for other fields'],
    ['a field missing', broken((s) => s.fields.pop()), 'written for other fields'],
    ['texts that are not texts', broken((s) => (s.strings[0] = 7 as unknown as string)), 'its texts are not a list of texts'],
    ['a column missing', broken((s) => s.columns.pop()), 'a column missing'],
    ['a column cut short', broken((s) => ('v' in s.columns[15]! ? s.columns[15].v.pop() : null)), 'a column of the wrong size'],
    [
      'a text index past the texts',
      broken((s) => ('s' in s.columns[0]! ? (s.columns[0].s[1] = s.strings.length) : null)),
      'a text index out of range',
    ],
    ['a text index that is not one', broken((s) => ('s' in s.columns[0]! ? (s.columns[0].s[1] = 0.5) : null)), 'a text index out of range'],
  ])('a file that is not a snapshot this build reads (%s) is refused, and removed', (_why, text, refused) => {
    const path = join(dir, 'b.json');
    writeFileSync(path, text);
    expect(takeSnapshot(path)).toEqual({ snapshot: null, refused });
    expect(existsSync(path)).toBe(false);
  });
});

import { describe, expect, it } from '@jest/globals';
import type { OddsRow } from '../../domain/odds-row.js';
import { boardEvent, changeSet, oddsRow, removal, T0 } from './board.fixtures.js';
import { OddsBoard, type IndexKind } from './odds-board.js';

/** The field each index kind keys rows on: what a scan of the rows answers, independently of the indexes. */
const FIELD: Record<IndexKind, keyof OddsRow> = {
  event: 'eventId',
  book: 'sportsbook',
  league: 'league',
  sport: 'sport',
  market: 'marketType',
  group: 'groupKey',
  ladder: 'ladderKey',
};

function scan(board: OddsBoard, kind: IndexKind): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of board.rows.values()) {
    const k = String(r[FIELD[kind]]);
    out.set(k, [...(out.get(k) ?? []), r.id]);
  }
  return out;
}

const sorted = (xs: Iterable<string>) => [...xs].sort();

/** Every index answer (ids, keys, sizes, has, group) equals a scan of the board's rows. */
function expectIndexesMatchScan(board: OddsBoard): void {
  for (const kind of Object.keys(FIELD) as IndexKind[]) {
    const want = scan(board, kind);
    expect(sorted(board.keys(kind))).toEqual(sorted(want.keys()));
    for (const [key, ids] of want) {
      const got = board.ids(kind, key)!;
      expect(sorted(got)).toEqual(sorted(ids));
      expect(got.size).toBe(ids.length);
      for (const id of ids) expect(got.has(id)).toBe(true);
      expect(got.has('no-such-row')).toBe(false);
      // The key's rows straight from the index that holds them: each the row object the board holds now, counted exactly.
      const slice = board.slice(kind, key)!;
      const rows = [...slice.rows];
      expect(sorted(rows.map((r) => r.id))).toEqual(sorted(ids));
      for (const r of rows) expect(r).toBe(board.rows.get(r.id));
      expect(slice.count).toBe(ids.length);
    }
    expect(board.ids(kind, 'no-such-key')).toBeUndefined();
    expect(board.slice(kind, 'no-such-key')).toBeUndefined();
    // Several keys in turn, one the board does not hold.
    const keys = [...want.keys()].slice(0, 2);
    const rows = [...board.rowsUnderKeys(kind, [...keys, 'no-such-key'])].map((r) => r.id);
    expect(sorted(rows)).toEqual(sorted(keys.flatMap((k) => want.get(k)!)));
  }
  for (const [key, ids] of scan(board, 'group')) {
    const rows = board.group(key);
    expect(sorted(rows.map((r) => r.id))).toEqual(sorted(ids));
    // The group holds the rows the board holds now (not a copy replaced since).
    for (const r of rows) expect(r).toBe(board.rows.get(r.id));
  }
  expect(board.group('no-such-group')).toEqual([]);
  expect(board.groupRows('no-such-group')).toEqual([]);
  expect(board.ladderRows('no-such-ladder')).toBeUndefined();
  for (const [key, ids] of scan(board, 'group')) {
    // The group's own array: the same rows, in the same order, as group() copies.
    expect(board.groupRows(key)).toEqual(board.group(key));
    expect(board.groupRows(key)).toHaveLength(ids.length);
  }
  for (const [eventId, ids] of scan(board, 'event')) {
    // An event's rows straight from its ladders: each the row object the board holds now, counted exactly.
    const rows = [...board.eventRows(eventId)];
    expect(sorted(rows.map((r) => r.id))).toEqual(sorted(ids));
    for (const r of rows) expect(r).toBe(board.rows.get(r.id));
    expect(board.rowCountOf(eventId)).toBe(ids.length);
  }
  expect([...board.eventRows('no-such-event')]).toEqual([]);
  expect(board.rowCountOf('no-such-event')).toBe(0);
  for (const key of scan(board, 'ladder').keys()) {
    // The ladder's rows by id: the ids in ids('ladder') order, each the row object the board holds now.
    const rows = board.ladderRows(key)!;
    expect([...rows.keys()]).toEqual([...board.ids('ladder', key)!]);
    for (const [id, r] of rows) expect(r).toBe(board.rows.get(id));
  }
}

/** A deterministic mix of rows over 3 events, 3 books, 2 leagues/sports and 3 markets. */
function row(i: number, at: number, price = 2): OddsRow {
  const eventId = `ev${i % 3}`;
  const book = ['draftkings', 'fanduel', 'pinnacle'][i % 3 === 0 ? (i >> 2) % 3 : (i >> 1) % 3]!;
  const market = ['moneyline', 'point_spread', 'total_points'][(i >> 3) % 3]!;
  const nhl = eventId === 'ev2';
  const line = market === 'moneyline' ? null : ((i >> 5) % 2) + 0.5;
  const ladderKey = `${eventId}|${market}|game|`;
  return oddsRow(`r${i}`, {
    eventId,
    sportsbook: book,
    league: nhl ? 'nhl' : 'nba',
    sport: nhl ? 'hockey' : 'basketball',
    marketType: market,
    ladderKey,
    groupKey: `${ladderKey}|${line ?? ''}`,
    groupLine: line,
    line,
    selectionType: i % 2 ? 'home' : 'away',
    decimal: price,
    changedAt: at,
    lastSeenAt: at,
  });
}

describe('OddsBoard indexes', () => {
  it('answer ids, keys and group exactly as a scan of the rows does, through upserts, moves, removals and sightings', () => {
    const board = new OddsBoard();
    const events = [boardEvent('ev0'), boardEvent('ev1'), boardEvent('ev2', { league: 'nhl', sport: 'hockey' })];
    board.applyChangeSet(changeSet(1, T0, { events, upserted: Array.from({ length: 60 }, (_, i) => row(i, T0)) }));
    expectIndexesMatchScan(board);
    expect(board.size).toBe(60);

    // New prices, and rows that move to another book, market and group (same id).
    const moved = Array.from({ length: 20 }, (_, i) => row(i * 3 + 1, T0 + 1000, 2.5)).map((r, i) =>
      i % 2 ? { ...r, sportsbook: 'betmgm', marketType: 'total_points', groupKey: `${r.ladderKey}|9.5`, groupLine: 9.5 } : r,
    );
    board.applyChangeSet(changeSet(2, T0 + 1000, { upserted: moved }));
    expectIndexesMatchScan(board);

    // Rows that move to another event (same id): one with its ladder and group, one that keeps its old ladder's keys.
    const r9 = board.rows.get('r9')!;
    const r13 = board.rows.get('r13')!;
    expect([r9.eventId, r13.eventId]).toEqual(['ev0', 'ev1']);
    const ladder1 = r9.ladderKey.replace('ev0', 'ev1');
    board.applyChangeSet(
      changeSet(3, T0 + 1500, {
        upserted: [
          { ...r9, eventId: 'ev1', ladderKey: ladder1, groupKey: `${ladder1}|x` },
          { ...r13, eventId: 'ev0' },
        ],
      }),
    );
    expectIndexesMatchScan(board);

    const gone = [board.rows.get('r0')!, board.rows.get('r5')!, board.rows.get('r7')!];
    board.applyChangeSet(changeSet(4, T0 + 2000, { removed: gone.map((r) => removal(r, T0 + 2000)), seen: ['r2', 'r4', 'r9'] }));
    expectIndexesMatchScan(board);
    expect(board.seenAt(board.rows.get('r2')!)).toBe(T0 + 2000);
    expect(board.rows.get('r2')!.lastSeenAt).toBe(T0);
    expect(board.size).toBe(57);

    board.applyChangeSet(changeSet(5, T0 + 3000, { eventsRemoved: ['ev2'] }));
    expectIndexesMatchScan(board);
    expect(board.ids('league', 'nhl')).toBeUndefined();
    expect(board.ids('sport', 'hockey')).toBeUndefined();
    expect([...board.rows.values()].every((r) => r.eventId !== 'ev2')).toBe(true);
  });

  it('a ladder keeps its rows in the order first placed: a re-priced row and a sighting keep their place, a row moved to another line goes to the end', () => {
    const board = new OddsBoard();
    // Three rows of one ladder (ev0 moneyline).
    const rows = [row(0, T0), row(3, T0), row(6, T0)];
    board.applyChangeSet(changeSet(1, T0, { events: [boardEvent('ev0'), boardEvent('ev1'), boardEvent('ev2')], upserted: rows }));
    const ladder = rows[0]!.ladderKey;
    const ids = () => [...board.ladderRows(ladder)!.keys()];
    const before = ids();
    expect(before.length).toBeGreaterThan(1);
    const groupBefore = board.groupRows(rows[0]!.groupKey);
    board.applyChangeSet(changeSet(2, T0 + 1000, { seen: [before[0]!] }));
    expect(ids()).toEqual(before);
    const seenRow = board.ladderRows(ladder)!.get(before[0]!)!;
    expect(board.seenAt(seenRow)).toBe(T0 + 1000);
    // Nothing but the sighting changed: the same row object, the same group array (what caches keyed on them rely on).
    expect(seenRow).toBe(rows.find((r) => r.id === before[0])!);
    expect(board.groupRows(rows[0]!.groupKey)).toBe(groupBefore);
    const repriced = board.rows.get(before[0]!)!;
    board.applyChangeSet(changeSet(3, T0 + 2000, { upserted: [{ ...repriced, decimal: 3, lastSeenAt: T0 + 2000 }] }));
    // The new price carries its own sighting; the replaced object keeps its own.
    expect(board.seenAt(board.rows.get(before[0]!)!)).toBe(T0 + 2000);
    expect(board.seenAt(repriced)).toBe(T0);
    expect(ids()).toEqual(before);
    expect(board.ladderRows(ladder)!.get(before[0]!)!.decimal).toBe(3);
    // Its group holds the new object in the old one's place (a new array: the group changed).
    const groupAfter = board.groupRows(rows[0]!.groupKey);
    expect(groupAfter).not.toBe(groupBefore);
    expect(groupAfter.map((r) => r.id)).toEqual(groupBefore.map((r) => r.id));
    expect(groupAfter[groupBefore.indexOf(repriced)]).toBe(board.rows.get(before[0]!));
    expectIndexesMatchScan(board);
    // A row moved to another line of the ladder leaves its place and goes to the end.
    const mover = board.rows.get(before[0]!)!;
    board.applyChangeSet(changeSet(4, T0 + 3000, { upserted: [{ ...mover, line: 7.5, groupLine: 7.5, groupKey: `${ladder}|7.5` }] }));
    expect(ids()).toEqual([...before.slice(1), before[0]]);
    expect(board.groupRows(rows[0]!.groupKey).map((r) => r.id)).not.toContain(before[0]);
    expectIndexesMatchScan(board);
  });

  it('changesSince: the rows changed after a time (latest state once) and the rows removed after it', () => {
    const board = new OddsBoard();
    board.load([boardEvent('ev0'), boardEvent('ev1'), boardEvent('ev2')], [], T0);
    board.applyChangeSet(changeSet(1, T0 + 1000, { upserted: [row(0, T0 + 1000), row(1, T0 + 1000), row(2, T0 + 1000)] }));
    board.applyChangeSet(changeSet(2, T0 + 2000, { upserted: [row(1, T0 + 2000, 3), row(3, T0 + 2000)] }));
    board.applyChangeSet(changeSet(3, T0 + 3000, { removed: [removal(board.rows.get('r2')!, T0 + 3000)] }));
    board.applyChangeSet(changeSet(4, T0 + 4000, { upserted: [row(4, T0 + 4000)] }));

    const ids = (since: number) => sorted(board.changesSince(since).rows.map((r) => r.id));
    expect(ids(T0)).toEqual(['r0', 'r1', 'r3', 'r4']);
    expect(ids(T0 + 1000)).toEqual(['r1', 'r3', 'r4']);
    expect(ids(T0 + 2000)).toEqual(['r4']);
    expect(ids(T0 + 4000)).toEqual([]);
    expect(board.changesSince(T0 + 1000).rows.find((r) => r.id === 'r1')!.decimal).toBe(3);
    expect(board.changesSince(T0 + 2000).removed.map((r) => r.id)).toEqual(['r2']);
    expect(board.changesSince(T0 + 3000).removed).toEqual([]);
    expect(board.changesSince(T0).clamped).toBe(false);
    // Before the logs began: changed rows from a scan (still exact), flagged as clamped.
    const early = board.changesSince(T0 - 1);
    expect(early.clamped).toBe(true);
    expect(sorted(early.rows.map((r) => r.id))).toEqual(['r0', 'r1', 'r3', 'r4']);
  });
});

describe('OddsBoard listingVersion', () => {
  it('moves with what the event lists show (events, a book or market type joining or leaving an event), not with a price', () => {
    const board = new OddsBoard();
    const ml = (id: string, book: string, price: number, patch: Partial<OddsRow> = {}) =>
      oddsRow(id, { sportsbook: book, decimal: price, groupKey: `ev1|moneyline|full|${book}`, ...patch });
    board.applyChangeSet(
      changeSet(1, T0, { events: [boardEvent('ev1')], upserted: [ml('a', 'draftkings', 2), ml('b', 'draftkings', 1.9)] }),
    );
    const v = () => board.listingVersion;
    let last = v();
    const moved = (): boolean => {
      const m = v() !== last;
      last = v();
      return m;
    };
    // A new price for a row, and a second row of a book already on the event: nothing a list shows.
    board.applyChangeSet(changeSet(2, T0 + 1, { upserted: [ml('a', 'draftkings', 2.1)] }));
    expect(moved()).toBe(false);
    board.applyChangeSet(changeSet(3, T0 + 2, { upserted: [ml('c', 'draftkings', 1.8, { selection: 'Draw' })], seen: ['a'] }));
    expect(moved()).toBe(false);
    // A book joins; a market type joins; the book's only row leaves; the event is replaced; it leaves.
    board.applyChangeSet(changeSet(4, T0 + 3, { upserted: [ml('d', 'fanduel', 2)] }));
    expect(moved()).toBe(true);
    // A new price for the book's only row on the event: the row is replaced, the event's books are as they were.
    board.applyChangeSet(changeSet(5, T0 + 3, { upserted: [ml('d', 'fanduel', 2.05)] }));
    expect(moved()).toBe(false);
    board.applyChangeSet(
      changeSet(6, T0 + 4, { upserted: [ml('e', 'draftkings', 1.9, { marketType: 'point_spread', ladderKey: 'ev1|point_spread|full' })] }),
    );
    expect(moved()).toBe(true);
    // The same for the only row of a market type.
    const e = board.rows.get('e')!;
    board.applyChangeSet(changeSet(7, T0 + 4, { upserted: [{ ...e, decimal: 1.95 }] }));
    expect(moved()).toBe(false);
    // And for that row moved to another line (another group of the ladder): the event's market types are the same.
    board.applyChangeSet(
      changeSet(8, T0 + 4, { upserted: [{ ...e, line: -4.5, groupLine: -4.5, groupKey: 'ev1|point_spread|full|-4.5' }] }),
    );
    expect(moved()).toBe(false);
    board.applyChangeSet(changeSet(9, T0 + 5, { removed: [removal(board.rows.get('d')!, T0 + 5)] }));
    expect(moved()).toBe(true);
    board.applyChangeSet(changeSet(10, T0 + 6, { events: [boardEvent('ev1', { status: 'live' })] }));
    expect(moved()).toBe(true);
    board.applyChangeSet(changeSet(11, T0 + 7, { eventsRemoved: ['ev1'] }));
    expect(moved()).toBe(true);
    // Each board has a serial of its own: a stamp of one never matches another at the same version.
    expect(new OddsBoard().serial).not.toBe(board.serial);
  });
});

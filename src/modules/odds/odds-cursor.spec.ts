import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { OddsRow } from '../../domain/odds-row.js';
import { afterCursor, decodeCursor, encodeCursor } from './odds-cursor.js';

type Key = Array<number | string>;
/** Rows reduced to what afterCursor reads: their sort key, through keyOf. */
const rows = (keys: Key[]) => keys.map((k) => ({ key: k }) as unknown as OddsRow);
const keyOf = (r: OddsRow) => (r as unknown as { key: Key }).key;

describe('odds cursor', () => {
  it('round-trips a key, opaque (base64url, no padding or URL-unsafe characters)', () => {
    const key: Key = [1766430000000, 'nfl_bills_chiefs_2026-11-23_b3', 'moneyline', 'l|x', -2.5, 'home', 'draftkings', 'id:1'];
    const c = encodeCursor(key);
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c)).toEqual(key);
  });

  it('refuses what it did not issue: not base64 JSON, no key list, or items other than numbers and strings', () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const bad of ['', 'not a cursor', '%%%', b64({}), b64({ k: 'x' }), b64({ k: [1, null] }), b64({ k: [{}] }), b64([1, 2])])
      expect(decodeCursor(bad)).toBeNull();
  });

  it('finds the first row after the cursor in an ascending field sort ([value, id] keys)', () => {
    const list = rows([
      [-200, 'a'],
      [-110, 'a'],
      [-110, 'b'],
      [150, 'a'],
    ]);
    expect(afterCursor(list, keyOf, [-110, 'a'], false)).toBe(2);
    expect(afterCursor(list, keyOf, [-110, 'b'], false)).toBe(3);
    expect(afterCursor(list, keyOf, [-300, 'z'], false)).toBe(0);
    expect(afterCursor(list, keyOf, [150, 'a'], false)).toBe(4);
    // A cursor whose row has left the board still lands between its neighbours.
    expect(afterCursor(list, keyOf, [0, 'a'], false)).toBe(3);
  });

  it('reverses only the value in a descending field sort; ties stay in id order', () => {
    const list = rows([
      [150, 'a'],
      [-110, 'a'],
      [-110, 'b'],
      [-200, 'a'],
    ]);
    expect(afterCursor(list, keyOf, [-110, 'a'], true)).toBe(2);
    expect(afterCursor(list, keyOf, [150, 'a'], true)).toBe(1);
    expect(afterCursor(list, keyOf, [0, 'x'], true)).toBe(1);
  });

  it('pages through any sorted list without a gap or a repeat (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.integer({ min: -500, max: 500 }), fc.constantFrom('a', 'b', 'c', 'd')), {
          selector: (t) => `${t[0]}|${t[1]}`,
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        (keys, size, desc) => {
          const sorted = [...keys].sort((x, y) => (desc ? y[0] - x[0] : x[0] - y[0]) || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
          const list = rows(sorted);
          const seen: Key[] = [];
          let start = 0;
          while (start < list.length) {
            const page = list.slice(start, start + size);
            seen.push(...page.map(keyOf));
            const cursor = decodeCursor(encodeCursor(keyOf(page[page.length - 1]!)))!;
            start = afterCursor(list, keyOf, cursor, desc);
          }
          expect(seen).toEqual(sorted);
        },
      ),
    );
  });
});

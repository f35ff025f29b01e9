import type { OddsRow } from '../../domain/odds-row.js';
import { cmp } from './odds-sort.js';

/** Opaque keyset cursor: base64url JSON of the last row's sort key. */
export function encodeCursor(key: Array<number | string>): string {
  return Buffer.from(JSON.stringify({ k: key })).toString('base64url');
}

export function decodeCursor(cursor: string): Array<number | string> | null {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown };
    if (!Array.isArray(v.k) || v.k.some((x) => typeof x !== 'number' && typeof x !== 'string')) return null;
    return v.k as Array<number | string>;
  } catch {
    return null;
  }
}

/** Index of the first row whose sort key is after the cursor's (sorted rows, same sort). */
export function afterCursor(
  rows: OddsRow[],
  keyOf: (r: OddsRow) => Array<number | string>,
  cursor: Array<number | string>,
  desc: boolean,
): number {
  const compareKeys = (a: Array<number | string>, b: Array<number | string>) => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const c = cmp(a[i] ?? '', b[i] ?? '');
      // Only a field sort's value (position 0 of a two-part key) runs in the requested direction.
      if (c) return desc && i === 0 && a.length === 2 ? -c : c;
    }
    return 0;
  };
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keyOf(rows[mid]!), cursor) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

import { describe, expect, it } from '@jest/globals';
import type { OddsRow } from '../../domain/odds-row.js';
import { OpportunityRegistry, sameRecord, type Tracked } from './registry.js';

interface Rec extends Tracked {
  legs: Array<{ row: OddsRow; books: string[] }>;
  value: number;
  note?: string;
}

const row = (id: string, decimal: number, lastSeenAt = 100): OddsRow => ({ id, decimal, lastSeenAt, sportsbook: 'fanduel' }) as OddsRow;
const r1 = row('r1', 2.1);
const r2 = row('r2', 1.95);
const rec = (id: string, at: number, over: Partial<Rec> = {}): Rec => ({
  id,
  source: 'g1',
  detectedAt: at,
  updatedAt: at,
  legs: [
    { row: r1, books: ['fanduel'] },
    { row: r2, books: ['draftkings', 'fanduel'] },
  ],
  value: 1.5,
  ...over,
});

describe('opportunity registry', () => {
  it('says a re-found record is kept when only updatedAt differs, updated when anything else does', () => {
    const reg = new OpportunityRegistry<Rec>();
    const first = reg.replaceSource('g1', [rec('a', 1000), rec('b', 1000), rec('c', 1000)]);
    expect(first.detected.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(first.kept).toBeUndefined();

    const next = reg.replaceSource('g1', [
      rec('a', 2000), // new objects, same content
      rec('b', 2000, { value: 1.6 }),
      rec('c', 2000, {
        legs: [
          { row: r1, books: ['fanduel'] },
          { row: r2, books: ['draftkings'] },
        ],
      }),
    ]);
    expect(next.kept!.map((r) => r.id)).toEqual(['a']);
    expect(next.updated.map((r) => r.id)).toEqual(['b', 'c']);
    expect(next.detected).toEqual([]);
    expect(next.expired).toEqual([]);
    // The registry holds the fresh record, its first detection time kept.
    expect(reg.get('a')).toMatchObject({ detectedAt: 1000, updatedAt: 2000 });
  });

  it("counts a row replaced by a copy that differs (a new sighting: REST shows the odds' age) as a change, an equal copy as none", () => {
    const reg = new OpportunityRegistry<Rec>();
    reg.replaceSource('g1', [rec('a', 1000), rec('b', 1000)]);
    const seen = rec('a', 2000, {
      legs: [
        { row: { ...r1, lastSeenAt: 1900 }, books: ['fanduel'] },
        { row: r2, books: ['draftkings', 'fanduel'] },
      ],
    });
    const copy = rec('b', 2000, {
      legs: [
        { row: { ...r1 }, books: ['fanduel'] },
        { row: { ...r2 }, books: ['draftkings', 'fanduel'] },
      ],
    });
    const d = reg.replaceSource('g1', [seen, copy]);
    expect(d.updated.map((r) => r.id)).toEqual(['a']);
    expect(d.kept!.map((r) => r.id)).toEqual(['b']);
  });

  it('compares as the wire does: NaN equals NaN, an undefined key equals an absent one, a new key is a change', () => {
    // Found again later: only updatedAt moved.
    const again = (over: Partial<Rec> = {}) => rec('a', 1, { updatedAt: 2, ...over });
    expect(sameRecord(rec('a', 1), again())).toBe(true);
    expect(sameRecord(rec('a', 1, { value: NaN }), again({ value: NaN }))).toBe(true);
    expect(sameRecord(rec('a', 1, { value: NaN }), again({ value: 1 }))).toBe(false);
    expect(sameRecord(rec('a', 1, { note: undefined }), again())).toBe(true);
    expect(sameRecord(rec('a', 1), again({ note: 'x' }))).toBe(false);
    expect(sameRecord(rec('a', 1, { note: 'x' }), again())).toBe(false);
    expect(sameRecord(rec('a', 1), again({ source: 'g2' }))).toBe(false);
    expect(sameRecord(rec('a', 1), again({ detectedAt: 0 }))).toBe(false);
  });
});

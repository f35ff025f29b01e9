import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { chunk, Chunker, ENVELOPE_BYTES, MAX_FRAME_BYTES } from './chunks.js';

describe('snapshot frame chunks', () => {
  it('cuts by count and by bytes, keeping order and every item', () => {
    expect(chunk(['a', 'b', 'c', 'd', 'e'], 2)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    // 10-byte items, 25 bytes allowed: two items and a comma are 21 bytes, three are 32.
    const items = Array.from({ length: 5 }, (_, i) => `item-${i}----`);
    expect(chunk(items, 100, 25)).toEqual([[items[0], items[1]], [items[2], items[3]], [items[4]]]);
    expect(chunk([], 10)).toEqual([]);
  });

  it('counts bytes, not characters, and sends an oversized item alone', () => {
    // 'é' is two bytes in UTF-8: five of them are 10 bytes.
    expect(chunk(['ééééé', 'ééééé'], 10, 20)).toEqual([['ééééé'], ['ééééé']]);
    expect(chunk(['ééééé', 'ééééé'], 10, 21)).toEqual([['ééééé', 'ééééé']]);
    expect(chunk(['x', 'y'.repeat(50), 'z'], 10, 20)).toEqual([['x'], ['y'.repeat(50)], ['z']]);
  });

  it('by default leaves room for the envelope in a 256 KB frame', () => {
    const c = new Chunker(1000);
    expect(c.maxBytes).toBe(MAX_FRAME_BYTES - ENVELOPE_BYTES);
    const item = 'r'.repeat(700);
    const groups = chunk(
      Array.from({ length: 2000 }, () => item),
      1000,
    );
    for (const g of groups) expect(Buffer.byteLength(`[${g.join(',')}]`)).toBeLessThanOrEqual(MAX_FRAME_BYTES - ENVELOPE_BYTES + 2);
    // 701 bytes per item with its comma: 373 items fit in 261,120 bytes.
    expect(groups[0]!.length).toBe(Math.floor((MAX_FRAME_BYTES - ENVELOPE_BYTES + 1) / 701));
  });

  it('property: groups concatenate to the input, respect both bounds (unless a lone oversized item)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 40 })),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 120 }),
        (items, maxItems, maxBytes) => {
          const groups = chunk(items, maxItems, maxBytes);
          expect(groups.flat()).toEqual(items);
          for (const g of groups) {
            expect(g.length).toBeGreaterThan(0);
            expect(g.length).toBeLessThanOrEqual(maxItems);
            if (g.length > 1) expect(Buffer.byteLength(g.join(','))).toBeLessThanOrEqual(maxBytes);
          }
        },
      ),
    );
  });
});

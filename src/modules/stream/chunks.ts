/** The largest frame a stream sends: 256 KB, so a snapshot goes out in bounded frames. */
export const MAX_FRAME_BYTES = 256 * 1024;
/** Room kept in a frame for its envelope (`{"type","seq","timestamp","data":{..., "count","total",...}}`). */
export const ENVELOPE_BYTES = 1024;
/** Items per snapshot frame: prices and opportunities (each kept well under the frame size). */
export const MAX_ODDS_PER_FRAME = 1000;
export const MAX_OPPORTUNITIES_PER_FRAME = 300;

/**
 * Groups serialised items into frames of at most `maxItems` items whose joined size (with separators) stays
 * within `maxBytes`. An item is never split: one larger than `maxBytes` travels alone. Fill it with `fits`
 * and `push`, and `take` a full group before pushing an item that does not fit.
 */
export class Chunker {
  private items: string[] = [];
  private bytes = 0;

  constructor(
    readonly maxItems: number,
    readonly maxBytes: number = MAX_FRAME_BYTES - ENVELOPE_BYTES,
  ) {}

  get size(): number {
    return this.items.length;
  }

  /** Whether an item of `itemBytes` bytes still fits in the current group (always true for an empty one). */
  fits(itemBytes: number): boolean {
    if (!this.items.length) return true;
    return this.items.length < this.maxItems && this.bytes + 1 + itemBytes <= this.maxBytes;
  }

  push(item: string, itemBytes = Buffer.byteLength(item)): void {
    this.bytes += (this.items.length ? 1 : 0) + itemBytes;
    this.items.push(item);
  }

  /** The current group (emptied). */
  take(): string[] {
    const out = this.items;
    this.items = [];
    this.bytes = 0;
    return out;
  }
}

/** Splits a list of serialised items into groups as a Chunker fills them. */
export function chunk(items: readonly string[], maxItems: number, maxBytes?: number): string[][] {
  const c = new Chunker(maxItems, maxBytes);
  const out: string[][] = [];
  for (const item of items) {
    const n = Buffer.byteLength(item);
    if (!c.fits(n)) out.push(c.take());
    c.push(item, n);
  }
  if (c.size) out.push(c.take());
  return out;
}

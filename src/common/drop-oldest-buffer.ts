/**
 * A first-in first-out buffer of at most `max` items: a push past the bound drops the oldest item (handed to
 * `onDrop`, counted in `dropped`). Every operation is amortised O(1) per item whatever the backlog: taken and
 * dropped items are skipped by a head index, and the array is compacted once they make up half of it. (Cutting
 * the oldest off with a slice per push copies the whole backlog each time: at a bound of a million, a backlog the
 * database could not take made every change set cost a copy of a million entries.)
 */
export class DropOldestBuffer<T> {
  private items: T[] = [];
  private head = 0;
  /** Items dropped past the bound, since the buffer was made. */
  dropped = 0;

  constructor(
    private readonly max: number,
    private readonly onDrop?: (item: T) => void,
  ) {}

  get size(): number {
    return this.items.length - this.head;
  }

  /** Adds an item; past the bound (also after a putBack beyond it) the oldest are dropped down to it. */
  push(item: T): void {
    this.items.push(item);
    const over = this.size - this.max;
    if (over <= 0) return;
    if (this.onDrop) for (let i = this.head; i < this.head + over; i++) this.onDrop(this.items[i]!);
    this.advance(over);
    this.dropped += over;
  }

  /** The oldest `n` items (all when fewer), removed from the buffer. */
  take(n = Number.POSITIVE_INFINITY): T[] {
    if (n >= this.size) {
      const all = this.head ? this.items.slice(this.head) : this.items;
      this.items = [];
      this.head = 0;
      return all;
    }
    const out = this.items.slice(this.head, this.head + n);
    this.advance(n);
    return out;
  }

  /** Puts items taken earlier back in front, older than everything held (a write that failed); not bounded here. */
  putBack(items: readonly T[]): void {
    if (!items.length) return;
    this.items = items.concat(this.head ? this.items.slice(this.head) : this.items);
    this.head = 0;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i]!;
  }

  private advance(n: number): void {
    this.items.fill(undefined as T, this.head, this.head + n); // released for the gc now, not at compaction
    this.head += n;
    if (this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

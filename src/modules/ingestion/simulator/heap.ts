/** A binary min-heap ordered by (time, insertion sequence): ties resolve first-in first-out. */
export class TimeHeap<T> {
  private readonly times: number[] = [];
  private readonly seqs: number[] = [];
  private readonly items: T[] = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  push(time: number, item: T): void {
    this.times.push(time);
    this.seqs.push(this.seq++);
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  /** Time of the earliest item, or +Infinity when empty. */
  peekTime(): number {
    return this.times.length > 0 ? (this.times[0] as number) : Number.POSITIVE_INFINITY;
  }

  pop(): { time: number; item: T } | undefined {
    const n = this.items.length;
    if (n === 0) return undefined;
    const time = this.times[0] as number;
    const item = this.items[0] as T;
    const lastT = this.times.pop() as number;
    const lastS = this.seqs.pop() as number;
    const lastI = this.items.pop() as T;
    if (n > 1) {
      this.times[0] = lastT;
      this.seqs[0] = lastS;
      this.items[0] = lastI;
      this.down(0);
    }
    return { time, item };
  }

  private less(a: number, b: number): boolean {
    const ta = this.times[a] as number;
    const tb = this.times[b] as number;
    return ta < tb || (ta === tb && (this.seqs[a] as number) < (this.seqs[b] as number));
  }

  private swap(a: number, b: number): void {
    const t = this.times[a] as number;
    this.times[a] = this.times[b] as number;
    this.times[b] = t;
    const s = this.seqs[a] as number;
    this.seqs[a] = this.seqs[b] as number;
    this.seqs[b] = s;
    const i = this.items[a] as T;
    this.items[a] = this.items[b] as T;
    this.items[b] = i;
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(l, m)) m = l;
      if (r < n && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
}

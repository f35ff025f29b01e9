/**
 * Shares equal strings: intern(s) returns one canonical copy of every distinct value, so the many board rows
 * naming the same book, event, market, ladder or selection hold one string instead of a copy each. Bounded:
 * two generations of at most `limit` entries each; when the current one fills it becomes the previous one
 * (values still in use are promoted on their next lookup, the rest are dropped with it), so strings of events
 * long gone are not kept forever.
 */
export class Interner {
  private current = new Map<string, string>();
  private previous = new Map<string, string>();

  constructor(private readonly limit = 1 << 20) {}

  intern(s: string): string;
  intern(s: string | null): string | null;
  intern(s: string | null | undefined): string | null | undefined;
  intern(s: string | null | undefined): string | null | undefined {
    if (s === null || s === undefined) return s;
    const hit = this.current.get(s);
    if (hit !== undefined) return hit;
    const old = this.previous.get(s);
    const canonical = old ?? s;
    if (this.current.size >= this.limit) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(canonical, canonical);
    return canonical;
  }

  /** Distinct values held (both generations). */
  get size(): number {
    return this.current.size + this.previous.size;
  }
}

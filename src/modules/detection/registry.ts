/** A live opportunity: its id is stable while it lives, `detectedAt` is kept from its first detection. */
export interface Tracked {
  id: string;
  source: string;
  detectedAt: number;
  updatedAt: number;
}

export interface LifecycleDiff<R> {
  detected: R[];
  expired: R[];
  /**
   * Still alive, re-evaluated, and different from what was held in something besides `updatedAt` (a price, a
   * stake, a book, a guard, a row's own fields such as its last sighting): what a replica or a client can see.
   */
  updated: R[];
  /** Still alive, re-evaluated, and the same in everything but `updatedAt` (made on first use). */
  kept?: R[];
}

/**
 * Whether a re-evaluated record equals the one held, `updatedAt` aside: plain data compared field by field (a
 * row that did not change is the same object, rows being replaced, not edited, when they change), numbers by
 * value (NaN equal to NaN). Keys holding undefined count as absent, as on the wire.
 */
export function sameRecord(held: Tracked, found: Tracked): boolean {
  if (held === found) return true;
  const a = held as unknown as Record<string, unknown>;
  const b = found as unknown as Record<string, unknown>;
  for (const k in a) if (k !== 'updatedAt' && !same(a[k], b[k])) return false;
  for (const k in b) if (k !== 'updatedAt' && a[k] === undefined && b[k] !== undefined) return false;
  return true;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number') return typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k in x) if (!same(x[k], y[k])) return false;
  for (const k in y) if (x[k] === undefined && y[k] !== undefined) return false;
  return true;
}

/** The read side of a registry: what the type modules and the stream may look at. */
export interface LiveSet<R> {
  readonly size: number;
  get(id: string): R | undefined;
  values(): IterableIterator<R>;
  /** The market groups (or ladders) that hold live opportunities. */
  sources(): IterableIterator<string>;
  idsOf(source: string): ReadonlySet<string> | undefined;
}

/**
 * The live opportunities of one kind (and book scope), by id and by the market group or ladder they come
 * from. replaceSource() swaps in a fresh evaluation of one source and says what appeared, what changed, what
 * was re-found unchanged and what expired.
 */
export class OpportunityRegistry<R extends Tracked> implements LiveSet<R> {
  readonly byId = new Map<string, R>();
  private readonly bySource = new Map<string, Set<string>>();

  get size(): number {
    return this.byId.size;
  }

  get(id: string): R | undefined {
    return this.byId.get(id);
  }

  values(): IterableIterator<R> {
    return this.byId.values();
  }

  sources(): IterableIterator<string> {
    return this.bySource.keys();
  }

  idsOf(source: string): ReadonlySet<string> | undefined {
    return this.bySource.get(source);
  }

  replaceSource(source: string, found: readonly R[], into?: LifecycleDiff<Tracked>): LifecycleDiff<Tracked> {
    const diff: LifecycleDiff<Tracked> = into ?? { detected: [], expired: [], updated: [] };
    const prev = this.bySource.get(source);
    const next = new Set<string>();
    for (const r of found) {
      const existing = this.byId.get(r.id);
      if (existing) {
        r.detectedAt = existing.detectedAt;
        if (sameRecord(existing, r)) (diff.kept ??= []).push(r);
        else diff.updated.push(r);
      } else diff.detected.push(r);
      this.byId.set(r.id, r);
      next.add(r.id);
    }
    if (prev) {
      for (const id of prev) {
        if (next.has(id)) continue;
        const gone = this.byId.get(id);
        this.byId.delete(id);
        if (gone) diff.expired.push(gone);
      }
    }
    if (next.size) this.bySource.set(source, next);
    else this.bySource.delete(source);
    return diff;
  }

  /**
   * Applies lifecycle changes found elsewhere (a replica following the active worker): records detected or
   * updated replace those with their id (under their source), expired ids leave.
   */
  applyRemote(records: readonly R[], expired: readonly string[]): void {
    for (const r of records) {
      const prev = this.byId.get(r.id);
      if (prev && prev.source !== r.source) this.unlink(prev.source, r.id);
      this.byId.set(r.id, r);
      let set = this.bySource.get(r.source);
      if (!set) this.bySource.set(r.source, (set = new Set()));
      set.add(r.id);
    }
    for (const id of expired) {
      const gone = this.byId.get(id);
      if (!gone) continue;
      this.byId.delete(id);
      this.unlink(gone.source, id);
    }
  }

  private unlink(source: string, id: string): void {
    const set = this.bySource.get(source);
    set?.delete(id);
    if (set && !set.size) this.bySource.delete(source);
  }

  /** Replaces everything (an api replica loading the worker's state). */
  load(records: readonly R[]): void {
    this.byId.clear();
    this.bySource.clear();
    for (const r of records) {
      this.byId.set(r.id, r);
      const s = this.bySource.get(r.source) ?? new Set<string>();
      s.add(r.id);
      this.bySource.set(r.source, s);
    }
  }
}

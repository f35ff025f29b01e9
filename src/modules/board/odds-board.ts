import type { BoardEvent, ChangeSet, OddsRow, RemovedRow } from '../../domain/odds-row.js';
import { partitionPoint } from '../../domain/sorted.js';

export type IndexKind = 'event' | 'book' | 'league' | 'sport' | 'market' | 'group' | 'ladder';

/** A derived index: rows by `field`, found through the `parent` index (events or ladders) that holds them. */
interface Derived {
  field: 'eventId' | 'league' | 'sport' | 'marketType';
  parent: 'event' | 'ladder';
  /** key -> parent key (event or ladder) -> rows with that key */
  members: Map<string, Map<string, number>>;
  sizes: Map<string, number>;
}

/**
 * The row ids of one event, league, sport or market: the ids of `rowsOf()` (the rows of the ladders or events holding
 * that key). A read-only set view; nothing is copied.
 */
class DerivedIds implements ReadonlySet<string> {
  constructor(
    private readonly rows: ReadonlyMap<string, OddsRow>,
    private readonly rowsOf: () => Iterable<OddsRow>,
    private readonly field: Derived['field'],
    private readonly key: string,
    readonly size: number,
  ) {}

  has(id: string): boolean {
    return this.rows.get(id)?.[this.field] === this.key;
  }

  *[Symbol.iterator](): SetIterator<string> {
    for (const r of this.rowsOf()) yield r.id;
  }

  keys(): SetIterator<string> {
    return this[Symbol.iterator]();
  }

  values(): SetIterator<string> {
    return this[Symbol.iterator]();
  }

  *entries(): SetIterator<[string, string]> {
    for (const id of this) yield [id, id];
  }

  forEach(cb: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const id of this) cb.call(thisArg, id, id, this);
  }
}

/** The rows under one key of an index (OddsBoard.slice): how many, and the rows themselves, to iterate once. */
export interface IndexSlice {
  count: number;
  rows: Iterable<OddsRow>;
}

/** The ids of a ladder: a read-only set view over the keys of its id -> row map; nothing is copied. */
class KeyView implements ReadonlySet<string> {
  constructor(private readonly map: ReadonlyMap<string, OddsRow>) {}

  get size(): number {
    return this.map.size;
  }

  has(id: string): boolean {
    return this.map.has(id);
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.map.keys();
  }

  keys(): SetIterator<string> {
    return this.map.keys();
  }

  values(): SetIterator<string> {
    return this.map.keys();
  }

  *entries(): SetIterator<[string, string]> {
    for (const id of this.map.keys()) yield [id, id];
  }

  forEach(cb: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const id of this.map.keys()) cb.call(thisArg, id, id, this);
  }
}

/** How long the change and removal logs behind /odds/delta are kept. */
export const DELTA_RETENTION_MS = 10 * 60_000;

function addTo<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  s.add(v);
}

function removeFrom<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  const s = m.get(k);
  if (!s) return;
  s.delete(v);
  if (s.size === 0) m.delete(k);
}

/** Whether two versions of a row sit in the same places of every index (event, book, league, market, ladder, group). */
function sameSlot(a: OddsRow, b: OddsRow): boolean {
  return (
    a.eventId === b.eventId &&
    a.sportsbook === b.sportsbook &&
    a.marketType === b.marketType &&
    a.league === b.league &&
    a.sport === b.sport &&
    a.ladderKey === b.ladderKey &&
    a.groupKey === b.groupKey &&
    a.groupLine === b.groupLine
  );
}

/** Counts `inner` under `outer` up or down; true when that took `inner` into or out of the set (a count to or from 0). */
function bump(m: Map<string, Map<string, number>>, outer: string, inner: string, by: number): boolean {
  let im = m.get(outer);
  if (!im) m.set(outer, (im = new Map()));
  const was = im.get(inner) ?? 0;
  const n = was + by;
  if (n <= 0) im.delete(inner);
  else im.set(inner, n);
  if (im.size === 0) m.delete(outer);
  return was > 0 !== n > 0;
}

let boards = 0;

/**
 * The current odds in memory with their indexes: the read model every price-carrying GET uses.
 * It changes only through applyChangeSet, so the primary board, the delayed (free-tier) view and the
 * replicas of other instances stay identical given the same change sets. Row objects are never mutated
 * once on the board (a change replaces the object), so change sets can be shared between boards.
 */
export class OddsBoard {
  readonly rows = new Map<string, OddsRow>();
  /** The events by id, changed only by change sets (so listingVersion sees every change). */
  private readonly eventsById = new Map<string, BoardEvent>();
  readonly events: ReadonlyMap<string, BoardEvent> = this.eventsById;
  version = 0;
  /** Tells this board from any other in the process (the primary, a delayed view, a board rebuilt at start). */
  readonly serial = ++boards;
  /**
   * Moves when what the event and reference lists show of this board changes: an event added, replaced (status,
   * game state, teams, start, external ids) or removed, or a book or a market type starting or ceasing to price an
   * event (which also takes an event onto or off the lists). A price or line change alone does not move it.
   */
  listingVersion = 0;
  /** Time of the last applied change set (0 when empty). */
  lastChangeAt = 0;

  /**
   * Row ids by book: the sets readers iterate (a book's rows are spread over every ladder, so a view over ladders
   * would read the other books' rows too). Events need no set of their own: an event's rows are its ladders'.
   */
  private readonly bookIds = new Map<string, Set<string>>();
  /**
   * The rows of each ladder by id, in the order they were first placed (a re-priced row and a sighting keep their
   * place; a row moved from another group or ladder goes to the end): detection iterates the row objects without
   * looking each id up in `rows`.
   * A row replaced by a new object (price change or sighting) is replaced here too.
   */
  private readonly ladders = new Map<string, Map<string, OddsRow>>();
  /** The rows of each market group (two or three): exact-size arrays replaced on change, never mutated. */
  private readonly groups = new Map<string, readonly OddsRow[]>();
  /**
   * Event, league, sport and market are derived, not stored per row: the ladders (or, for leagues and sports, the
   * events) holding rows of each key, with their row counts. ids() of those kinds is a view over the ladders.
   */
  private readonly derived: Record<'event' | 'league' | 'sport' | 'market', Derived> = {
    event: { field: 'eventId', parent: 'ladder', members: new Map(), sizes: new Map() },
    league: { field: 'league', parent: 'event', members: new Map(), sizes: new Map() },
    sport: { field: 'sport', parent: 'event', members: new Map(), sizes: new Map() },
    market: { field: 'marketType', parent: 'ladder', members: new Map(), sizes: new Map() },
  };
  private readonly eventBooks = new Map<string, Map<string, number>>();
  private readonly eventMarkets = new Map<string, Map<string, number>>();
  /** event -> "market|book" -> rows: exact counts for totals without scanning rows. */
  private readonly eventMarketBook = new Map<string, Map<string, number>>();
  /** Per-event change counter: caches keyed on it stay valid while the event's rows do not change. */
  private readonly eventVersions = new Map<string, number>();
  private readonly sortedRowsCache = new Map<string, OddsRow[]>();
  private eventOrderCache: BoardEvent[] | null = null;
  private readonly eventsByLeague = new Map<string, Set<string>>();
  /** ladder -> line -> book -> rows */
  private readonly ladderLineBooks = new Map<string, Map<number, Map<string, number>>>();
  private readonly mainLineCache = new Map<string, number | null>();
  /** When each delta feed last confirmed all of a book's prices. */
  readonly bookConfirmedAt = new Map<string, number>();
  /**
   * A price's last sighting when later than its row's lastSeenAt (a `seen` change set). Kept beside the row, not
   * as a copy of it: a sighting changes nothing else, and a copy per sighting (every price, every poll) made
   * the delayed view and the detection engine's memory hold a second and third version of most rows.
   */
  private readonly seenLater = new Map<string, number>();
  /** Latest change time per book (the sportsbook list's last_update). */
  readonly bookLastUpdate = new Map<string, number>();
  /** The change log: when (ascending) and which row, in two parallel arrays (no object per change). */
  private changeAt: number[] = [];
  private changeIds: string[] = [];
  private removalLog: RemovedRow[] = [];
  private logStart = 0;
  private readonly listeners = new Set<(cs: ChangeSet) => void>();

  get size(): number {
    return this.rows.size;
  }

  /** Called after every applied change set (detectors, delayed views, the stream). */
  onChange(listener: (cs: ChangeSet) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  ids(kind: IndexKind, key: string): ReadonlySet<string> | undefined {
    switch (kind) {
      case 'book':
        return this.bookIds.get(key);
      case 'ladder': {
        const l = this.ladders.get(key);
        return l && new KeyView(l);
      }
      case 'group': {
        const g = this.groups.get(key);
        return g && new Set(g.map((r) => r.id));
      }
      default: {
        const d = this.derived[kind];
        const parents = d.members.get(key);
        if (!parents) return undefined;
        return new DerivedIds(this.rows, () => this.derivedRows(d, parents, key), d.field, key, d.sizes.get(key)!);
      }
    }
  }

  /**
   * The rows under one key of an index and how many there are, or undefined when the board holds none. Read from
   * the index that holds the rows (an event's, league's, sport's or market's from their ladders, a ladder's or a
   * group's own), with no lookup by id except for a book's. Nothing is copied: iterate the rows once, before the
   * board changes.
   */
  slice(kind: IndexKind, key: string): IndexSlice | undefined {
    switch (kind) {
      case 'book': {
        const ids = this.bookIds.get(key);
        return ids && { count: ids.size, rows: this.rowsById(ids) };
      }
      case 'ladder': {
        const l = this.ladders.get(key);
        return l && { count: l.size, rows: l.values() };
      }
      case 'group': {
        const g = this.groups.get(key);
        return g && { count: g.length, rows: g };
      }
      default: {
        const d = this.derived[kind];
        const parents = d.members.get(key);
        return parents && { count: d.sizes.get(key)!, rows: this.derivedRows(d, parents, key) };
      }
    }
  }

  /** The rows under each of `keys` of an index in turn (see slice). */
  *rowsUnderKeys(kind: IndexKind, keys: Iterable<string>): Generator<OddsRow> {
    for (const key of keys) {
      const s = this.slice(kind, key);
      if (s) yield* s.rows;
    }
  }

  private *rowsById(ids: Iterable<string>): Generator<OddsRow> {
    for (const id of ids) yield this.rows.get(id)!;
  }

  /** The rows of a derived index's key: those of its parents (ladders or events) whose own field is the key. */
  private *derivedRows(d: Derived, parents: ReadonlyMap<string, number>, key: string): Generator<OddsRow> {
    for (const p of parents.keys()) for (const r of this.rowsUnder(d.parent, p)) if (r[d.field] === key) yield r;
  }

  keys(kind: IndexKind): IterableIterator<string> {
    switch (kind) {
      case 'book':
        return this.bookIds.keys();
      case 'ladder':
        return this.ladders.keys();
      case 'group':
        return this.groups.keys();
      default:
        return this.derived[kind].members.keys();
    }
  }

  /** The rows of an event or a ladder (the parents of the derived indexes). */
  private *rowsUnder(parent: Derived['parent'], key: string): Generator<OddsRow> {
    if (parent === 'ladder') yield* this.ladders.get(key)?.values() ?? [];
    else yield* this.eventRows(key);
  }

  /** The rows of an event, ladder by ladder (no copy; do not change the board while iterating). */
  eventRows(eventId: string): Generator<OddsRow> {
    const d = this.derived.event;
    return this.derivedRows(d, d.members.get(eventId) ?? NO_PARENTS, eventId);
  }

  /**
   * The rows of a ladder by id (insertion order of its ids, as ids('ladder') lists them), or undefined when the
   * board holds none. The board's own map, read-only: iterate it, do not keep it across changes.
   */
  ladderRows(ladderKey: string): ReadonlyMap<string, OddsRow> | undefined {
    return this.ladders.get(ladderKey);
  }

  /**
   * The lines of a ladder (each the line of one market group: groupRows(groupKey(ladderKey, line))), in the order
   * first placed; none for a ladder without lines.
   */
  ladderLines(ladderKey: string): IterableIterator<number> {
    return (this.ladderLineBooks.get(ladderKey) ?? NO_LINES).keys();
  }

  /**
   * The rows of one market group (as group() returns them) without a copy: the array is replaced, never
   * mutated, when the group changes, so the same array means the same rows.
   */
  groupRows(groupKey: string): readonly OddsRow[] {
    return this.groups.get(groupKey) ?? NO_ROWS;
  }

  booksOf(eventId: string): string[] {
    return [...(this.eventBooks.get(eventId)?.keys() ?? [])].sort();
  }

  marketsOf(eventId: string): string[] {
    return [...(this.eventMarkets.get(eventId)?.keys() ?? [])].sort();
  }

  rowCountOf(eventId: string): number {
    return this.derived.event.sizes.get(eventId) ?? 0;
  }

  /** Rows of an event for a "market|book" key (exact, maintained incrementally). */
  countOf(eventId: string): ReadonlyMap<string, number> | undefined {
    return this.eventMarketBook.get(eventId);
  }

  /** Changes with every change to the event's rows. */
  eventVersion(eventId: string): number {
    return this.eventVersions.get(eventId) ?? 0;
  }

  /** Events in natural order (start time, then id). Cached until an event is added, moved or removed. */
  eventOrder(): BoardEvent[] {
    if (!this.eventOrderCache) {
      this.eventOrderCache = [...this.events.values()].sort(
        (a, b) => a.startTime - b.startTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
    }
    return this.eventOrderCache;
  }

  /** An event's rows in natural order (market, ladder, line, side, book, id). Cached per event version. */
  sortedRowsOf(eventId: string): OddsRow[] {
    let rows = this.sortedRowsCache.get(eventId);
    if (!rows) {
      rows = [...this.eventRows(eventId)].sort(withinEvent);
      this.sortedRowsCache.set(eventId, rows);
    }
    return rows;
  }

  private touchEvent(eventId: string): void {
    this.eventVersions.set(eventId, (this.eventVersions.get(eventId) ?? 0) + 1);
    this.sortedRowsCache.delete(eventId);
  }

  eventIdsOfLeague(league: string): ReadonlySet<string> | undefined {
    return this.eventsByLeague.get(league);
  }

  /** Rows of one market group (complementary outcomes at one line). */
  group(groupKey: string): OddsRow[] {
    return this.groups.get(groupKey)?.slice() ?? [];
  }

  /**
   * The consensus main line of a ladder: the (home-side) line offered by the most books; ties go to the
   * line nearer the middle of the ladder. null for markets without lines.
   */
  mainLine(ladderKey: string): number | null {
    if (this.mainLineCache.has(ladderKey)) return this.mainLineCache.get(ladderKey)!;
    const lines = this.ladderLineBooks.get(ladderKey);
    let best: number | null = null;
    if (lines && lines.size) {
      const sorted = [...lines.keys()].sort((a, b) => a - b);
      const mid = (sorted[0]! + sorted[sorted.length - 1]!) / 2;
      let bestBooks = -1;
      for (const line of sorted) {
        const books = lines.get(line)!.size;
        if (books > bestBooks || (books === bestBooks && Math.abs(line - mid) < Math.abs(best! - mid))) {
          best = line;
          bestBooks = books;
        }
      }
    }
    this.mainLineCache.set(ladderKey, best);
    return best;
  }

  /** A price's own last sighting (its lastSeenAt, or a later `seen` change set), as the store keeps it. */
  sightedAt(r: OddsRow): number {
    const later = this.seenLater.get(r.id);
    return later !== undefined && later > r.lastSeenAt ? later : r.lastSeenAt;
  }

  /** When a price was last confirmed: its own last sighting, or its book's last whole-feed confirmation. */
  seenAt(r: OddsRow): number {
    const own = this.sightedAt(r);
    const book = this.bookConfirmedAt.get(r.sportsbook);
    return book !== undefined && book > own ? book : own;
  }

  /** true / false, or null when the row has no line (always main). */
  isMainLine(row: OddsRow): boolean {
    if (row.groupLine === null) return true;
    return this.mainLine(row.ladderKey) === row.groupLine;
  }

  private indexRow(r: OddsRow): void {
    addTo(this.bookIds, r.sportsbook, r.id);
    let ladder = this.ladders.get(r.ladderKey);
    if (!ladder) this.ladders.set(r.ladderKey, (ladder = new Map()));
    ladder.set(r.id, r);
    const g = this.groups.get(r.groupKey);
    this.groups.set(r.groupKey, g ? [...g, r] : [r]);
    this.derive(r, 1);
    if (bump(this.eventBooks, r.eventId, r.sportsbook, 1)) this.listingVersion++;
    if (bump(this.eventMarkets, r.eventId, r.marketType, 1)) this.listingVersion++;
    bump(this.eventMarketBook, r.eventId, `${r.marketType}|${r.sportsbook}`, 1);
    this.touchEvent(r.eventId);
    if (r.groupLine !== null) {
      let lines = this.ladderLineBooks.get(r.ladderKey);
      if (!lines) this.ladderLineBooks.set(r.ladderKey, (lines = new Map()));
      let books = lines.get(r.groupLine);
      if (!books) lines.set(r.groupLine, (books = new Map()));
      books.set(r.sportsbook, (books.get(r.sportsbook) ?? 0) + 1);
      this.mainLineCache.delete(r.ladderKey);
    }
  }

  private unindexRow(r: OddsRow): void {
    removeFrom(this.bookIds, r.sportsbook, r.id);
    const ladder = this.ladders.get(r.ladderKey);
    if (ladder) {
      ladder.delete(r.id);
      if (ladder.size === 0) this.ladders.delete(r.ladderKey);
    }
    const g = this.groups.get(r.groupKey);
    if (g) {
      const rest = g.filter((x) => x.id !== r.id);
      if (rest.length) this.groups.set(r.groupKey, rest);
      else this.groups.delete(r.groupKey);
    }
    this.derive(r, -1);
    if (bump(this.eventBooks, r.eventId, r.sportsbook, -1)) this.listingVersion++;
    if (bump(this.eventMarkets, r.eventId, r.marketType, -1)) this.listingVersion++;
    bump(this.eventMarketBook, r.eventId, `${r.marketType}|${r.sportsbook}`, -1);
    this.touchEvent(r.eventId);
    if (r.groupLine !== null) {
      const lines = this.ladderLineBooks.get(r.ladderKey);
      const books = lines?.get(r.groupLine);
      if (books) {
        const n = (books.get(r.sportsbook) ?? 0) - 1;
        if (n <= 0) books.delete(r.sportsbook);
        else books.set(r.sportsbook, n);
        if (books.size === 0) lines!.delete(r.groupLine);
        if (lines!.size === 0) this.ladderLineBooks.delete(r.ladderKey);
      }
      this.mainLineCache.delete(r.ladderKey);
    }
  }

  private derive(r: OddsRow, by: 1 | -1): void {
    for (const d of Object.values(this.derived)) {
      const key = r[d.field];
      bump(d.members, key, d.parent === 'event' ? r.eventId : r.ladderKey, by);
      const n = (d.sizes.get(key) ?? 0) + by;
      if (n > 0) d.sizes.set(key, n);
      else d.sizes.delete(key);
    }
  }

  /** A row onto the board in place of the one with its id (its own lastSeenAt replaces any later sighting). */
  private placeRow(r: OddsRow): void {
    const prev = this.rows.get(r.id);
    this.rows.set(r.id, r);
    this.seenLater.delete(r.id);
    if (prev && sameSlot(prev, r)) return this.replaceInPlace(prev, r);
    const listed = this.listingVersion;
    if (prev) this.unindexRow(prev);
    this.indexRow(r);
    // A row moved to another line of its event, book and market type leaves the event's books and market types as
    // they were, even when it is their only row (its counts passed through 0 and back): nothing a list shows moved.
    if (prev && prev.eventId === r.eventId && prev.sportsbook === r.sportsbook && prev.marketType === r.marketType)
      this.listingVersion = listed;
  }

  /**
   * A new version of a row in the same slot (its event, book, market, ladder and group as before: a price or
   * state change): only the indexes that hold row objects change, the ladder's and the group's, and the group keeps
   * its order. Every count (books and market types per event, books per line) stays as it was.
   */
  private replaceInPlace(prev: OddsRow, r: OddsRow): void {
    this.ladders.get(r.ladderKey)!.set(r.id, r);
    const g = this.groups.get(r.groupKey)!;
    const copy = g.slice();
    copy[g.findIndex((x) => x.id === prev.id)] = r;
    this.groups.set(r.groupKey, copy);
    this.touchEvent(r.eventId);
  }

  /** A row off the board, with its indexes and its sighting. */
  private dropRow(prev: OddsRow): void {
    this.unindexRow(prev);
    this.rows.delete(prev.id);
    this.seenLater.delete(prev.id);
  }

  private putEvent(e: BoardEvent): void {
    const prev = this.events.get(e.id);
    if (prev && prev.league !== e.league) removeFrom(this.eventsByLeague, prev.league, prev.id);
    if (!prev || prev.startTime !== e.startTime) this.eventOrderCache = null;
    this.eventsById.set(e.id, e);
    this.listingVersion++;
    addTo(this.eventsByLeague, e.league, e.id);
  }

  private dropEvent(id: string): void {
    const e = this.events.get(id);
    if (!e) return;
    this.eventsById.delete(id);
    this.listingVersion++;
    removeFrom(this.eventsByLeague, e.league, id);
    this.eventOrderCache = null;
    this.eventVersions.delete(id);
    this.sortedRowsCache.delete(id);
  }

  /** Applies one change set. The only way the board changes. */
  applyChangeSet(cs: ChangeSet): void {
    for (const e of cs.events) this.putEvent(e);
    for (const r of cs.upserted) {
      this.placeRow(r);
      this.changeAt.push(cs.at);
      this.changeIds.push(r.id);
      if ((this.bookLastUpdate.get(r.sportsbook) ?? 0) < r.changedAt) this.bookLastUpdate.set(r.sportsbook, r.changedAt);
    }
    for (const rm of cs.removed) {
      const prev = this.rows.get(rm.id);
      if (!prev) continue;
      this.dropRow(prev);
      this.removalLog.push(rm);
    }
    for (const id of cs.seen) {
      const prev = this.rows.get(id);
      if (prev && (this.seenLater.get(id) ?? prev.lastSeenAt) < cs.at) {
        this.seenLater.set(id, cs.at);
        this.touchEvent(prev.eventId);
      }
    }
    for (const id of cs.eventsRemoved) {
      for (const prev of [...this.eventRows(id)]) {
        this.dropRow(prev);
        this.removalLog.push({ id: prev.id, sportsbook: prev.sportsbook, eventId: id, removedAt: cs.at });
      }
      this.dropEvent(id);
    }
    for (const b of cs.confirmed ?? []) if ((this.bookConfirmedAt.get(b) ?? 0) < cs.at) this.bookConfirmedAt.set(b, cs.at);
    this.version = Math.max(this.version + 1, cs.version);
    this.lastChangeAt = Math.max(this.lastChangeAt, cs.at);
    this.trimLogs(cs.at);
    for (const l of this.listeners) l(cs);
  }

  private trimLogs(now: number): void {
    const cutoff = now - DELTA_RETENTION_MS;
    if (this.changeAt.length > 4096 && this.changeAt[0]! < cutoff) {
      let i = 0;
      while (i < this.changeAt.length && this.changeAt[i]! < cutoff) i++;
      this.changeAt = this.changeAt.slice(i);
      this.changeIds = this.changeIds.slice(i);
      this.logStart = cutoff;
    }
    if (this.removalLog.length > 1024 && this.removalLog[0]!.removedAt < cutoff) {
      let i = 0;
      while (i < this.removalLog.length && this.removalLog[i]!.removedAt < cutoff) i++;
      this.removalLog = this.removalLog.slice(i);
      this.logStart = Math.max(this.logStart, cutoff);
    }
  }

  /** Earliest time the change and removal logs still cover. */
  get deltaCoverageStart(): number {
    return this.logStart;
  }

  /**
   * Rows changed after `since` (still on the board) and rows removed after it. When `since` predates the
   * logs, changed rows come from a scan of the board (still exact) and removals are limited to the logs
   * (`clamped`).
   */
  changesSince(since: number): { rows: OddsRow[]; removed: RemovedRow[]; clamped: boolean } {
    const clamped = since < this.logStart;
    let rows: OddsRow[];
    if (clamped) {
      rows = [];
      for (const r of this.rows.values()) if (r.changedAt > since) rows.push(r);
    } else {
      const ids = new Set<string>();
      for (let i = partitionPoint(this.changeAt, (at) => at <= since); i < this.changeIds.length; i++) ids.add(this.changeIds[i]!);
      rows = [];
      for (const id of ids) {
        const r = this.rows.get(id);
        if (r && r.changedAt > since) rows.push(r);
      }
    }
    const removed: RemovedRow[] = [];
    const seen = new Set<string>();
    for (let i = this.removalLog.length - 1; i >= 0; i--) {
      const rm = this.removalLog[i]!;
      if (rm.removedAt <= since) break;
      if (seen.has(rm.id) || this.rows.has(rm.id)) continue;
      seen.add(rm.id);
      removed.push(rm);
    }
    removed.reverse();
    return { rows, removed, clamped };
  }

  /** Loads rows and events wholesale (start-up rebuild) without logging them as changes. */
  load(events: BoardEvent[], rows: OddsRow[], at: number): void {
    for (const e of events) this.putEvent(e);
    for (const r of rows) {
      this.placeRow(r);
      if (r.lastSeenAt > this.lastChangeAt) this.lastChangeAt = r.lastSeenAt;
      if ((this.bookLastUpdate.get(r.sportsbook) ?? 0) < r.changedAt) this.bookLastUpdate.set(r.sportsbook, r.changedAt);
    }
    this.logStart = at;
  }
}

const NO_ROWS: readonly OddsRow[] = Object.freeze([]);
const NO_LINES: ReadonlyMap<number, unknown> = new Map();
const NO_PARENTS: ReadonlyMap<string, number> = new Map();

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Natural order of rows within an event. */
export function withinEvent(a: OddsRow, b: OddsRow): number {
  return (
    cmpStr(a.marketType, b.marketType) ||
    cmpStr(a.ladderKey, b.ladderKey) ||
    (a.groupLine ?? 0) - (b.groupLine ?? 0) ||
    cmpStr(a.selectionType, b.selectionType) ||
    cmpStr(a.sportsbook, b.sportsbook) ||
    cmpStr(a.id, b.id)
  );
}

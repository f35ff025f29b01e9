import type { EventBus } from '../../common/bus/event-bus.js';
import type { Detector, OpportunityRecord } from './detector.js';
import type { MarketCheck } from './guards.js';
import {
  offsetRefs,
  RowTable,
  type LifecycleMessage,
  type LifecycleSnapshot,
  type WireChange,
  type WireFlags,
  type WireRecord,
} from './lifecycle-wire.js';
import type { OddsRow } from '../../domain/odds-row.js';
import type { LifecycleDiff, LiveSet, Tracked } from './registry.js';
import { LIFECYCLE_TOPIC, SNAPSHOT_READY_TOPIC } from '../../domain/topics.js';

/** One type's changes in one scope, as an evaluation produced them. */
export interface ScopeDiff {
  detector: Detector;
  scope: string;
  diff: LifecycleDiff<Tracked>;
}

/** What a snapshot's meta entry says: the state it holds is the worker's at message `n` of `epoch`. */
export interface SnapshotMeta {
  epoch: string;
  n: number;
  seq: number;
  at: number;
  flags: WireFlags;
  /** How many record entries the store holds with this meta. */
  records: number;
}

/** One live record as the snapshot store keeps it: self-contained (its own row table). */
export interface SnapshotEntry {
  kind: string;
  scope: string;
  rows: OddsRow[];
  record: WireRecord;
}

/**
 * Where the snapshot lives between the worker and the replicas (a Redis hash and a meta key in services mode):
 * one entry per live record, so that a refresh writes only the records that changed since the one before.
 */
export interface SnapshotStore {
  /** The meta of what the store holds now (null when it holds nothing). */
  meta(): Promise<SnapshotMeta | null>;
  /** One atomic write: with `replace` every entry goes first; then `put` entries are set, `drop` ones removed, and the meta. */
  write(meta: SnapshotMeta, put: ReadonlyMap<string, string>, drop: readonly string[], replace: boolean): Promise<void>;
  /** The meta and every entry, read together (null when the store holds nothing). */
  read(): Promise<{ meta: SnapshotMeta; entries: string[] } | null>;
}

/** A snapshot store in memory (one process, tests). */
export class MemorySnapshotStore implements SnapshotStore {
  private stored: SnapshotMeta | null = null;
  readonly entries = new Map<string, string>();
  async meta(): Promise<SnapshotMeta | null> {
    return this.stored;
  }
  async write(meta: SnapshotMeta, put: ReadonlyMap<string, string>, drop: readonly string[], replace: boolean): Promise<void> {
    if (replace) this.entries.clear();
    for (const [k, v] of put) this.entries.set(k, v);
    for (const k of drop) this.entries.delete(k);
    this.stored = meta;
  }
  async read(): Promise<{ meta: SnapshotMeta; entries: string[] } | null> {
    return this.stored ? { meta: this.stored, entries: [...this.entries.values()] } : null;
  }
  /** Forgets everything (as a restarted Redis would). */
  clear(): void {
    this.stored = null;
    this.entries.clear();
  }
}

/**
 * The snapshot a store holds, as one LifecycleSnapshot (entries' row tables joined into one), or null when it
 * holds nothing or is torn (fewer entries than its meta counts).
 */
export function assembleSnapshot(read: { meta: SnapshotMeta; entries: string[] } | null): LifecycleSnapshot | null {
  if (!read || read.entries.length !== read.meta.records) return null;
  const { meta } = read;
  const rows: OddsRow[] = [];
  const registries = new Map<string, { kind: string; scope: string; records: WireRecord[] }>();
  for (const json of read.entries) {
    const e = JSON.parse(json) as SnapshotEntry;
    const key = `${e.kind}|${e.scope}`;
    let reg = registries.get(key);
    if (!reg) registries.set(key, (reg = { kind: e.kind, scope: e.scope, records: [] }));
    reg.records.push(offsetRefs(e.record, rows.length));
    for (const r of e.rows) rows.push(r);
  }
  return { epoch: meta.epoch, n: meta.n, seq: meta.seq, at: meta.at, rows, registries: [...registries.values()], flags: meta.flags };
}

/** A full rewrite this often at the latest (in refreshes), whatever the changes said: a safety net against drift. */
export const FULL_SNAPSHOT_EVERY = 60;

/** What a snapshot is made of: every live registry, and the flagged market groups. */
export interface LiveState {
  registries(): Iterable<{ detector: Detector; scope: string; live: LiveSet<OpportunityRecord> }>;
  flags(): Iterable<[string, MarketCheck[]]>;
  seq(): number;
  now(): number;
}

/**
 * The active worker's side of "detect once": numbers its lifecycle changes per leadership term and publishes
 * them (with the records) to the other instances; on request it writes a snapshot of its live state to the
 * store and says so on the bus, so a replica that missed messages can catch up.
 */
export class LifecyclePublisher {
  private epoch = '';
  private term = 0;
  private n = 0;
  private answering: Promise<void> | null = null;
  private askedAgain = false;
  /** Records changed since the last refresh of the store, by entry key: the record, or null once it expired. */
  private dirty = new Map<string, { detector: Detector; scope: string; record: OpportunityRecord } | null>();
  /** The next refresh rewrites every entry (a new term, a failed write, a store that lost or moved past ours). */
  private fullNext = true;
  private sinceFull = 0;
  private savedN = -1;
  readonly stats = { published: 0, snapshots: 0, fullSnapshots: 0, lastSnapshotEntries: 0, lastSnapshotBytes: 0 };

  constructor(
    private readonly bus: EventBus,
    private readonly store: SnapshotStore,
    private readonly state: LiveState,
  ) {}

  /** A new leadership term: numbers start again, so replicas resync onto this worker's state. */
  begin(): void {
    this.term++;
    this.epoch = `${this.bus.instanceId}:${this.term}`;
    this.n = 0;
    this.dirty.clear();
    this.fullNext = true;
  }

  /**
   * Publishes one evaluation's changes (nothing when nothing was evaluated): records detected or changed whole,
   * records re-found unchanged as ids, expired ones as ids.
   */
  publish(seq: number, at: number, diffs: readonly ScopeDiff[], flags: WireFlags): void {
    const table = new RowTable();
    const changes: WireChange[] = [];
    for (const { detector, scope, diff } of diffs) {
      const kept = diff.kept ?? [];
      if (!diff.detected.length && !diff.expired.length && !diff.updated.length && !kept.length) continue;
      const detected = diff.detected.map((r) => table.encode(detector, r as OpportunityRecord));
      const updated = diff.updated.map((r) => table.encode(detector, r as OpportunityRecord));
      // Unchanged records travel as their ids, their `updatedAt` being the message's time; one confirmed at
      // another time (not this evaluation's) travels whole.
      const keptIds: string[] = [];
      for (const r of [...diff.detected, ...diff.updated, ...kept])
        this.dirty.set(entryKey(detector.kind, scope, r.id), { detector, scope, record: r as OpportunityRecord });
      for (const r of diff.expired) this.dirty.set(entryKey(detector.kind, scope, r.id), null);
      for (const r of kept) {
        if (r.updatedAt === at) keptIds.push(r.id);
        else updated.push(table.encode(detector, r as OpportunityRecord));
      }
      changes.push({
        kind: detector.kind,
        scope,
        detected,
        updated,
        ...(keptIds.length ? { kept: keptIds } : {}),
        expired: diff.expired.map((r) => r.id),
      });
    }
    if (!changes.length && !flags.length) return;
    const msg: LifecycleMessage = { epoch: this.epoch, n: ++this.n, seq, at, rows: table.rows, changes, flags };
    this.stats.published++;
    this.bus.publish(LIFECYCLE_TOPIC, msg, { remoteOnly: true });
  }

  /**
   * Refreshes the store (a replica asked, or the periodic refresh) and announces it. Only the records changed
   * since the previous refresh are written, unless the store does not hold that refresh any more (a Redis
   * restart, another worker's term) or a full rewrite is due. Requests arriving while one is being written are
   * answered together by one more refresh after it.
   */
  answer(): Promise<void> {
    if (this.answering) {
      this.askedAgain = true;
      return this.answering;
    }
    this.answering = (async () => {
      do {
        this.askedAgain = false;
        await this.refresh();
        this.bus.publish(SNAPSHOT_READY_TOPIC, { epoch: this.epoch, n: this.savedN }, { remoteOnly: true });
      } while (this.askedAgain);
    })().finally(() => (this.answering = null));
    return this.answering;
  }

  private async refresh(): Promise<void> {
    const held = this.fullNext || this.sinceFull >= FULL_SNAPSHOT_EVERY ? null : await this.store.meta();
    // From here to the write, nothing awaits: the entries are the registries' state at message `n`.
    const n = this.n;
    const full = !held || held.epoch !== this.epoch || held.n !== this.savedN;
    const dirty = this.dirty;
    this.dirty = new Map();
    const put = new Map<string, string>();
    const drop: string[] = [];
    let records = 0;
    let bytes = 0;
    const add = (key: string, detector: Detector, scope: string, record: OpportunityRecord) => {
      const table = new RowTable();
      const json = JSON.stringify({ kind: detector.kind, scope, record: table.encode(detector, record), rows: table.rows });
      put.set(key, json);
      bytes += json.length;
    };
    if (full) {
      for (const { detector, scope, live } of this.state.registries())
        for (const r of live.values()) add(entryKey(detector.kind, scope, r.id), detector, scope, r);
      records = put.size;
    } else {
      const live = new Map<string, LiveSet<OpportunityRecord>>();
      for (const reg of this.state.registries()) {
        live.set(`${reg.detector.kind}|${reg.scope}`, reg.live);
        records += reg.live.size;
      }
      for (const [key, e] of dirty) {
        // What the registry holds now (the record as last published, or a later version of it), else it expired.
        const cur = e && live.get(`${e.detector.kind}|${e.scope}`)?.get(e.record.id);
        if (e && cur) add(key, e.detector, e.scope, cur);
        else drop.push(key);
      }
    }
    const meta: SnapshotMeta = {
      epoch: this.epoch,
      n,
      seq: this.state.seq(),
      at: this.state.now(),
      flags: [...this.state.flags()],
      records,
    };
    try {
      await this.store.write(meta, put, drop, full);
    } catch (err) {
      // What was not written is written by the next refresh, in full.
      this.fullNext = true;
      throw err;
    }
    this.savedN = n;
    this.fullNext = false;
    this.sinceFull = full ? 0 : this.sinceFull + 1;
    this.stats.snapshots++;
    if (full) this.stats.fullSnapshots++;
    this.stats.lastSnapshotEntries = put.size + drop.length;
    this.stats.lastSnapshotBytes = bytes;
  }
}

/** A record's entry in the snapshot store. */
function entryKey(kind: string, scope: string, id: string): string {
  return `${kind}|${scope}|${id}`;
}

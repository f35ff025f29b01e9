import type { EventBus } from '../../common/bus/event-bus.js';
import type { Detector, OpportunityRecord } from './detector.js';
import type { MarketCheck } from './guards.js';
import { RowTable, type LifecycleMessage, type LifecycleSnapshot, type WireChange, type WireFlags } from './lifecycle-wire.js';
import type { LifecycleDiff, LiveSet, Tracked } from './registry.js';
import { LIFECYCLE_TOPIC, SNAPSHOT_READY_TOPIC } from '../../domain/topics.js';

/** One type's changes in one scope, as an evaluation produced them. */
export interface ScopeDiff {
  detector: Detector;
  scope: string;
  diff: LifecycleDiff<Tracked>;
}

/** Where the snapshot lives between the worker and the replicas (a Redis key in services mode). */
export interface SnapshotStore {
  save(json: string): Promise<void>;
  load(): Promise<string | null>;
}

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
  readonly stats = { published: 0, snapshots: 0 };

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

  /** The whole live state now, at the last message published. */
  snapshot(): LifecycleSnapshot {
    const table = new RowTable();
    const registries = [...this.state.registries()].map(({ detector, scope, live }) => ({
      kind: detector.kind,
      scope,
      records: [...live.values()].map((r) => table.encode(detector, r)),
    }));
    const flags: WireFlags = [...this.state.flags()];
    return { epoch: this.epoch, n: this.n, seq: this.state.seq(), at: this.state.now(), rows: table.rows, registries, flags };
  }

  /**
   * A replica asked for the state: writes a fresh snapshot and announces it. Requests arriving while one is
   * being written are answered together by one more snapshot after it.
   */
  answer(): Promise<void> {
    if (this.answering) {
      this.askedAgain = true;
      return this.answering;
    }
    this.answering = (async () => {
      do {
        this.askedAgain = false;
        const snap = this.snapshot();
        await this.store.save(JSON.stringify(snap));
        this.stats.snapshots++;
        this.bus.publish(SNAPSHOT_READY_TOPIC, { epoch: snap.epoch, n: snap.n }, { remoteOnly: true });
      } while (this.askedAgain);
    })().finally(() => (this.answering = null));
    return this.answering;
  }
}

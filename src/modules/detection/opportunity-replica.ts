import type { OpportunityRecord } from './detector.js';
import { decodeRecord, type LifecycleMessage, type LifecycleSnapshot, type WireFlags } from './lifecycle-wire.js';
import type { OpportunityRegistry } from './registry.js';
import type { OpportunityEvent, OpportunityRef } from '../../domain/topics.js';

/** What a replica applies lifecycle changes to: the engine's registries, its flags and its local announcements. */
export interface ReplicaBook {
  registry(kind: string, scope: string): OpportunityRegistry<OpportunityRecord> | undefined;
  registries(): Iterable<{ kind: string; scope: string; registry: OpportunityRegistry<OpportunityRecord> }>;
  /** The expiry ref of a record of a kind (its event, market and books). */
  ref(kind: string, record: OpportunityRecord): OpportunityRef;
  /** The numbers that make a re-evaluated record worth announcing again (Detector.signature). */
  signature(kind: string, record: OpportunityRecord): unknown;
  /** Flag changes; `replaceAll`: the flags given are all there are (a snapshot). */
  setFlags(flags: WireFlags, replaceAll: boolean): void;
  /** The local OpportunityEvent the stream and CLV consume, as if this instance had detected it. */
  emit(evt: OpportunityEvent): void;
}

/** How a replica reaches the active worker's state. */
export interface SnapshotLink {
  /** Asks the active worker for a fresh snapshot (it answers with a ready note once the store holds it). */
  request(): void;
  /** The snapshot in the store (null when there is none). */
  load(): Promise<LifecycleSnapshot | null>;
  /** Runs `fn` later, unless a snapshot arrived first (asking again when the worker did not answer). */
  retryLater(fn: () => void): void;
}

/** Messages kept while a snapshot is awaited; the oldest go first (a continuity check catches the loss). */
const MAX_BUFFERED = 10_000;

/**
 * A replica's opportunity book follows the active worker: lifecycle messages are applied in their order
 * (numbered per leadership term); a skipped number, a new term, a lost bus message, a Redis reconnect or a
 * record said to be unchanged that it does not hold makes it resync: it asks the worker for a snapshot of its registries, keeps the messages arriving
 * meanwhile, loads the snapshot and replays the kept messages that follow it. Every change, applied or
 * loaded, is announced locally as the OpportunityEvent the stream and CLV already consume.
 */
export class OpportunityReplica {
  private epoch: string | null = null;
  private lastN = 0;
  /** Non-null while a snapshot is awaited: the messages received since it was asked for. */
  private buffer: LifecycleMessage[] | null = null;
  private loading = false;
  private active = false;
  /** Counters for diagnostics and tests. */
  readonly stats = { applied: 0, resyncs: 0, snapshotsLoaded: 0, unknownKept: 0 };

  constructor(
    private readonly book: ReplicaBook,
    private readonly link: SnapshotLink,
  ) {}

  get synced(): boolean {
    return this.active && this.buffer === null && this.epoch !== null;
  }

  /** Starts following the worker (a replica at start, or an active worker that stopped leading): resyncs first. */
  start(): void {
    this.active = true;
    this.resync();
  }

  /** Stops following (this instance now detects itself). */
  stop(): void {
    this.active = false;
    this.buffer = null;
    this.epoch = null;
    this.lastN = 0;
  }

  /** A lifecycle message from the active worker. */
  onMessage(msg: LifecycleMessage): void {
    if (!this.active) return;
    if (this.buffer) {
      this.buffer.push(msg);
      if (this.buffer.length > MAX_BUFFERED) this.buffer.shift();
      return;
    }
    if (msg.epoch === this.epoch && msg.n <= this.lastN) return; // already applied (or in the snapshot)
    if (msg.epoch !== this.epoch || msg.n !== this.lastN + 1 || !this.holdsKept(msg)) {
      this.resync();
      this.buffer!.push(msg);
      return;
    }
    this.apply(msg);
  }

  /** Whether this book holds every record the message says was re-found unchanged (else it drifted). */
  private holdsKept(msg: LifecycleMessage): boolean {
    for (const c of msg.changes) {
      if (!c.kept?.length) continue;
      const registry = this.book.registry(c.kind, c.scope);
      if (!registry) continue;
      for (const id of c.kept)
        if (!registry.get(id)) {
          this.stats.unknownKept++;
          return false;
        }
    }
    return true;
  }

  /** Messages may have been lost (bus gap, Redis reconnect): catch up from the worker's state. */
  resync(): void {
    if (!this.active) return;
    this.stats.resyncs++;
    this.buffer ??= [];
    this.link.request();
    this.link.retryLater(() => {
      if (!this.active || !this.buffer || this.loading) return;
      // No answer yet (the ready note lost, the worker busy): the worker's periodic snapshot may do.
      void this.onSnapshotReady().then(() => {
        if (this.active && this.buffer) this.resync();
      });
    });
  }

  /** The active worker says a fresh snapshot is in the store (also tried when it does not answer). */
  async onSnapshotReady(): Promise<void> {
    if (!this.active || !this.buffer || this.loading) return;
    this.loading = true;
    let snap: LifecycleSnapshot | null;
    try {
      snap = await this.link.load();
    } catch {
      snap = null;
    } finally {
      this.loading = false;
    }
    if (!snap || !this.active || !this.buffer) return;
    // Older than what was kept meanwhile (messages between them are missing): wait for a fresher one.
    const first = this.buffer[0];
    if (first && first.epoch === snap.epoch && first.n > snap.n + 1) return;
    this.load(snap);
    const kept = this.buffer;
    this.buffer = null;
    // In order; a gap among them starts another resync, which keeps the rest (onMessage buffers them).
    for (const msg of kept) this.onMessage(msg);
  }

  /** Replaces the registries with a snapshot, announcing what differs from what they held. */
  private load(snap: LifecycleSnapshot): void {
    this.stats.snapshotsLoaded++;
    const fresh = new Map(snap.registries.map((r) => [`${r.kind}|${r.scope}`, r.records]));
    for (const { kind, scope, registry } of this.book.registries()) {
      const records = (fresh.get(`${kind}|${scope}`) ?? []).map((w) => decodeRecord(w, snap.rows));
      const ids = new Set(records.map((r) => r.id));
      const expired = [...registry.values()].filter((r) => !ids.has(r.id)).map((r) => this.book.ref(kind, r));
      const detected: OpportunityRef[] = [];
      const updated: OpportunityRef[] = [];
      for (const r of records) {
        const had = registry.get(r.id);
        if (!had) detected.push(this.book.ref(kind, r));
        else if (JSON.stringify(this.book.signature(kind, had)) !== JSON.stringify(this.book.signature(kind, r)))
          updated.push(this.book.ref(kind, r));
      }
      registry.load(records);
      if (detected.length || expired.length || updated.length)
        this.book.emit({ seq: snap.seq, kind, scope, at: snap.at, detected, expired, updated });
    }
    this.book.setFlags(snap.flags, true);
    this.epoch = snap.epoch;
    this.lastN = snap.n;
  }

  private apply(msg: LifecycleMessage): void {
    this.lastN = msg.n;
    this.stats.applied++;
    for (const c of msg.changes) {
      const registry = this.book.registry(c.kind, c.scope);
      if (!registry) continue;
      const detected = c.detected.map((w) => decodeRecord(w, msg.rows));
      const updated = c.updated.map((w) => decodeRecord(w, msg.rows));
      const expired: OpportunityRef[] = [];
      for (const id of c.expired) {
        const had = registry.get(id);
        if (had) expired.push(this.book.ref(c.kind, had));
      }
      registry.applyRemote([...detected, ...updated], c.expired);
      // Unchanged but confirmed now; nothing to announce for them (the stream would not resend them).
      for (const id of c.kept ?? []) registry.get(id)!.updatedAt = msg.at;
      if (!c.detected.length && !c.updated.length && !c.expired.length) continue;
      this.book.emit({
        seq: msg.seq,
        kind: c.kind,
        scope: c.scope,
        at: msg.at,
        detected: detected.map((r) => this.book.ref(c.kind, r)),
        expired,
        updated: updated.map((r) => this.book.ref(c.kind, r)),
      });
    }
    if (msg.flags.length) this.book.setFlags(msg.flags, false);
  }
}

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, TIER_TABLE } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { TIERS, type TierTable } from '../../config/tiers.js';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { EventBus } from '../../common/bus/event-bus.js';
import { Sequencer } from '../../common/bus/sequencer.js';
import { RedisService } from '../../common/redis/redis.service.js';
import { Clock } from '../../common/time/clock.js';
import type { BoardEvent, ChangeSet, OddsRow, RemovedRow } from '../../domain/odds-row.js';
import { isChangeSetEmpty } from '../../domain/odds-row.js';
import { storeKind } from '../../database/data-source.js';
import { Jobs } from '../cluster/jobs.service.js';
import { Leadership } from '../cluster/leadership.service.js';
import { BoardWriter } from './board-writer.js';
import { BoardRepository } from './board.repository.js';
import { EARLIER_SNAPSHOT_FILE, rowsOf, SNAPSHOT_FILE, snapshotOf, takeSnapshot, writeSnapshot } from './board-snapshot.js';
import { DelayedBoard } from './delayed-board.js';
import { OddsBoard } from './odds-board.js';
import { ODDS_TOPIC } from '../../domain/topics.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';

/** A replica resyncs once this long after start: the active worker may still have been writing when it loaded. */
export const FIRST_RESYNC_MS = 10_000;

const MAINTAIN_INTERVAL_MS = 30_000;
const PURGE_INTERVAL_MS = 3600_000;
/**
 * How often the embedded store's price table is vacuumed. PostgreSQL keeps the old version of every updated row
 * until a vacuum; a server's autovacuum does that, the embedded store (one session) has none. Without it the
 * table grew to 120 MB for 66,000 prices within the hour (a sighting updates a row), and a restart read all of it.
 */
export const VACUUM_INTERVAL_MS = 300_000;
const RESYNC_INTERVAL_MS = 60_000;
/** The retry of the take-over write while the store cannot be read. */
export const TAKE_OVER_JOB = 'board:take-over';
/** The longest wait between two catch-up resyncs. */
export const CATCH_UP_MAX_MS = 60_000;
/** The delayed views index the stored board this long after the rebuild, unless a read needed them sooner. */
export const FILL_VIEWS_JOB = 'board:fill-delayed-views';
const FILL_VIEWS_AFTER_MS = 3_000;
/** The job names of a replica's catch-up retry and of its second resync after a bus outage. */
export const CATCH_UP_JOB = 'board:catch-up';
const OUTAGE_JOB = 'board:after-outage';
/** The most prices (and history entries) one transaction of the embedded store writes: see BoardWriter. */
export const EMBEDDED_MAX_BATCH = 5_000;
/** The most rows a resync applies in one change set (one turn of the event loop). */
export const RESYNC_SLICE = 2_000;

/**
 * Owns the board: the primary OddsBoard, the delayed views the tiers need, persistence (rebuild at start,
 * batched writes), maintenance (ended events leave after the grace period) and publication of every change
 * set on the bus.
 */
@Injectable()
export class BoardService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('board');
  readonly board = new OddsBoard();
  private readonly delayed = new Map<number, DelayedBoard>();
  readonly writer: BoardWriter;
  private loaded = false;
  /** The time the board was rebuilt from the database (delta coverage starts there). */
  loadedAt = 0;
  /** Where that rebuild read the prices: the snapshot file of the last clean stop, or the table. */
  pricesFrom: 'snapshot' | 'table' = 'table';
  /** The mark of the snapshot file the board was rebuilt from (null: rebuilt from the table). */
  snapshotMark: string | null = null;
  /** What else is written beside the snapshot at a clean stop, given its mark (the live opportunities). */
  private readonly besideSnapshot: Array<(mark: string) => void> = [];
  /** What the database held at that rebuild (a restart serves it at once). */
  stored = { events: 0, rows: 0 };

  constructor(
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly jobs: Jobs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(TIER_TABLE) tiers: TierTable,
    private readonly repo: BoardRepository,
    private readonly policy: AccessPolicy,
    private readonly sequencer: Sequencer,
    private readonly leadership: Leadership,
    private readonly redis: RedisService,
    private readonly metrics: MetricsService,
  ) {
    this.writer = new BoardWriter(this.repo, this.clock, storeKind(config) === 'embedded' ? EMBEDDED_MAX_BATCH : Infinity);
    for (const t of TIERS) {
      const ms = tiers.byName[t].dataDelaySeconds * 1000;
      if (ms > 0 && !this.delayed.has(ms)) this.delayed.set(ms, new DelayedBoard(ms));
    }
  }

  /** Rebuilds the board from the database. Called once at start (before providers run). */
  async rebuild(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    const started = performance.now();
    const fromFile = await this.fromSnapshot();
    const { events, rows } = fromFile ?? (await this.repo.load());
    this.pricesFrom = fromFile ? 'snapshot' : 'table';
    this.snapshotMark = fromFile?.mark ?? null;
    const now = this.clock.now();
    this.board.load(events, rows, now);
    for (const d of this.delayed.values()) d.load(events, rows, now);
    // Indexed on their first read, or here once the start is over, so that no delayed read later pays for it.
    if (this.delayed.size) this.jobs.after(FILL_VIEWS_JOB, FILL_VIEWS_AFTER_MS, () => this.fillDelayedViews(), { always: true });
    this.loadedAt = now;
    this.stored = { events: events.length, rows: rows.length };
    this.logger.log({
      msg: 'board rebuilt from the database',
      events: events.length,
      rows: rows.length,
      prices_from: fromFile ? SNAPSHOT_FILE : 'the odds table',
      ms: Math.round(performance.now() - started),
    });
  }

  /** Where the embedded store's snapshot of the prices goes (none for PostgreSQL or an in-memory store). */
  private get snapshotPath(): string | null {
    return this.stopFilePath(SNAPSHOT_FILE);
  }

  /**
   * Where a file written at a clean stop beside the snapshot goes (null where there is no snapshot: PostgreSQL,
   * an in-memory store). See besideTheSnapshot.
   */
  stopFilePath(name: string): string | null {
    const { dataDir, embeddedInMemory } = this.config;
    return storeKind(this.config) === 'embedded' && !embeddedInMemory && dataDir ? join(dataDir, name) : null;
  }

  /**
   * Writes something else at a clean stop, right after the snapshot and in the same turn (the same board), given
   * the snapshot's mark: the next start reads it only with a board rebuilt from that snapshot (snapshotMark).
   */
  besideTheSnapshot(write: (mark: string) => void): void {
    this.besideSnapshot.push(write);
  }

  /**
   * The events and prices of the store when a snapshot of its prices from the last clean stop is there and the
   * price table has not changed since (see board-snapshot.ts); null otherwise. The file is removed either way.
   */
  private async fromSnapshot(): Promise<{ mark: string; events: BoardEvent[]; rows: OddsRow[] } | null> {
    const path = this.snapshotPath;
    if (!path) return null;
    // An earlier build's snapshot (another name, another format) is never read: not left behind either.
    rmSync(this.stopFilePath(EARLIER_SNAPSHOT_FILE)!, { force: true });
    const { snapshot, refused } = takeSnapshot(path);
    if (refused) this.logger.warn({ msg: `${SNAPSHOT_FILE} not used: ${refused}; reading the odds table` });
    if (!snapshot) return null;
    if ((await this.repo.pricesMark()).mark !== snapshot.mark) {
      this.logger.log({ msg: `${SNAPSHOT_FILE} not used: the odds table changed since it was written; reading the table` });
      return null;
    }
    return { mark: snapshot.mark, events: await this.repo.loadEvents(), rows: rowsOf(snapshot) };
  }

  /**
   * At a clean stop of the embedded store, once the writer has stored everything: the prices as the table now holds
   * them, for the next start. Nothing is written while anything is unstored or the board is not the table's.
   */
  private async saveSnapshot(): Promise<void> {
    const path = this.snapshotPath;
    if (!path || !this.writer.settled) return;
    try {
      const table = await this.repo.pricesMark();
      // Checked again after the read: a change set applied meanwhile is not in the table yet.
      if (!this.writer.settled) return;
      if (this.board.size !== table.rows) return;
      writeSnapshot(
        path,
        snapshotOf(table.mark, [...this.board.rows.values()], (r) => this.board.sightedAt(r)),
      );
      for (const write of this.besideSnapshot) write(table.mark);
    } catch (err) {
      rmSync(path, { force: true });
      this.logger.warn({ msg: `${SNAPSHOT_FILE} not written: ${(err as Error).message}` });
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.rebuild();
    // Another instance's change sets keep this board a replica of the one that ingests (after the stream hub
    // has seen them, so it can still read what they remove).
    this.bus.subscribe<ChangeSet>(ODDS_TOPIC, (cs, remote) => {
      if (remote) queueMicrotask(() => this.applyReplica(cs));
    });
    // After a Redis outage a replica may have missed change sets: catch up from the store.
    if (this.redis.enabled) this.redis.onReconnect(() => this.afterBusOutage());
    // A change set lost on the way (a publish that timed out): catch up once the writer has stored it.
    this.bus.onGap(ODDS_TOPIC, () => (this.gapPending = true));
    this.jobs.every('board:flush', this.config.persistIntervalMs, () => this.writer.flush());
    // Taking over from an active worker that died: write what it published but had not stored yet.
    this.leadership.onChange((leader) => {
      if (leader && this.replicaSeen > 0) void this.persistWhatTheStoreLacks();
    });
    this.jobs.every('board:maintain', MAINTAIN_INTERVAL_MS, () => this.maintain(), { runsOn: 'leader' });
    this.jobs.every('board:purge', PURGE_INTERVAL_MS, () => this.purge(), { runsOn: 'leader' });
    if (storeKind(this.config) === 'embedded')
      this.jobs.every('board:vacuum', VACUUM_INTERVAL_MS, () => this.vacuum(), { runsOn: 'leader' });
    // Replicas catch up with the store now and then (anything a bus outage made them miss).
    this.jobs.every('board:resync', RESYNC_INTERVAL_MS, () => this.resync(), { runsOn: 'replicas' });
    // ... and once soon after start: the active worker may still have been writing when this one loaded.
    this.jobs.after(
      'board:first-resync',
      FIRST_RESYNC_MS,
      async () => {
        await this.resync();
        // No change set from the bus by now: no active worker is publishing, so there is nothing to catch up with.
        if (this.replicaSeen === 0) this.replicaCaughtUp = true;
      },
      { runsOn: 'replicas' },
    );
  }

  /** Writes what is buffered now; true when it reached the database within the time limit. */
  async flushed(timeoutMs: number): Promise<boolean> {
    const done = this.writer.flush({ force: true }).then(() => this.writer.healthy && this.writer.pending === 0);
    // A time limit on database I/O: real time, whatever the clock says (see Clock).
    return Promise.race([done, new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs).unref())]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.jobs.cancel(CATCH_UP_JOB);
    this.jobs.cancel(OUTAGE_JOB);
    await this.writer.drain();
    this.writer.warnIfLost();
    await this.saveSnapshot();
  }

  /**
   * Applies a change set: board, delayed views, persistence, bus. A `backfill` (a provider's initial snapshot
   * of a market that already existed before we started watching it) enters the delayed views at once; every
   * later change reaches them after their delay.
   */
  apply(cs: ChangeSet, opts: { backfill?: boolean } = {}): void {
    if (isChangeSetEmpty(cs)) return;
    // Published first, so the stream sends a price change before the opportunities it causes.
    cs.seq = this.sequencer.next();
    this.bus.publish(ODDS_TOPIC, cs);
    this.board.applyChangeSet(cs);
    for (const d of this.delayed.values()) {
      if (opts.backfill && d.pending === 0) d.applyNow(cs);
      else d.push(cs);
    }
    this.writer.enqueue(cs);
  }

  /** Applies another instance's change set: board and delayed views only (that instance persists it). */
  applyReplica(cs: ChangeSet): void {
    if (cs.seq !== undefined && cs.seq <= this.replicaSeen) return;
    // The first change set from the bus, or the first after lost ones: whatever came before it must come from
    // the store, once the store holds everything up to it.
    if (this.replicaSeen === 0 || this.gapPending) this.catchUp(cs.at);
    this.gapPending = false;
    this.replicaSeen = cs.seq ?? this.replicaSeen;
    this.metrics.busLag.observe(Math.max(0, this.clock.now() - cs.at) / 1000);
    // Removals seen on the bus, until the store has caught up with them (a resync must not bring them back).
    for (const rm of cs.removed) this.tombstones.set(rm.id, cs.at);
    for (const id of cs.eventsRemoved) this.tombstones.set(`event:${id}`, cs.at);
    this.board.applyChangeSet(cs);
    for (const d of this.delayed.values()) d.push(cs);
  }

  private replicaSeen = 0;
  private replicaCaughtUp = false;

  /**
   * Whether this board holds what the active worker's does: always on the active worker; on a replica once a
   * catch-up from the store has covered its first change set from the bus (or, with no worker publishing, after
   * its first resync). Until then a replica that started while the worker's writes lagged serves a partial board,
   * so readiness (GET /health/ready) waits for it.
   */
  get caughtUp(): boolean {
    return this.leadership.isLeader || this.replicaCaughtUp || !this.config.schedulers;
  }
  private gapPending = false;
  /** Row ids (and `event:ID`) removed over the bus, with when: newer than what a lagging store still holds. */
  private readonly tombstones = new Map<string, number>();
  /** A resync must see the store complete up to this time (epoch ms) before the replica is whole again. */
  private needThrough = 0;

  /** Removals heard on the bus that the store does not hold yet (kept so that a resync does not bring them back). */
  get tombstoneCount(): number {
    return this.tombstones.size;
  }

  /**
   * On taking over as the active worker: prices this board holds that the store lacks, or holds older (the
   * previous worker published them on the bus, then died before its next write), are queued for writing with a
   * history entry at their change time, and removals heard on the bus that the store still holds are applied.
   * Without it the store stays behind the board: a restart would lose those prices, and replicas' resyncs would
   * remove them once the store's watermark passed them. Retried after a write cycle while the store cannot be
   * read. Returns the number of prices and removals queued.
   */
  async persistWhatTheStoreLacks(): Promise<number> {
    let loaded;
    try {
      loaded = await this.repo.load();
    } catch (err) {
      this.logger.warn({ msg: 'take-over check of the store failed; retrying', error: (err as Error).message });
      this.jobs.after(TAKE_OVER_JOB, this.writeCycleMs, () => this.persistWhatTheStoreLacks(), { runsOn: 'leader', always: true });
      return 0;
    }
    const inStore = new Map(loaded.rows.map((r) => [r.id, r.changedAt]));
    const rows = [...this.board.rows.values()].filter((r) => (inStore.get(r.id) ?? -Infinity) < r.changedAt);
    const eventIds = new Set(rows.map((r) => r.eventId));
    const storedEvents = new Set(loaded.events.map((e) => e.id));
    const events = [...this.board.events.values()].filter((e) => eventIds.has(e.id) || !storedEvents.has(e.id));
    const now = this.clock.now();
    const removed = loaded.rows
      .filter((r) => !this.board.rows.has(r.id) && (this.tombstones.has(r.id) || this.tombstones.has(`event:${r.eventId}`)))
      .map((r) => ({ id: r.id, sportsbook: r.sportsbook, eventId: r.eventId, removedAt: this.tombstones.get(r.id) ?? now }));
    if (rows.length || removed.length) {
      this.writer.enqueueRecovered(rows, events, removed);
      this.logger.warn({
        msg: 'took over: writing what the previous worker had not stored',
        prices: rows.length,
        removals: removed.length,
      });
      void this.writer.flush();
    }
    return rows.length + removed.length;
  }

  /**
   * After a Redis outage: resync now, and once more after the active worker's next write cycle (change sets it
   * published while we were away may still have been in its write buffer when we came back).
   */
  private afterBusOutage(): void {
    if (this.leadership.isLeader) return;
    void this.resync();
    this.jobs.after(OUTAGE_JOB, this.writeCycleMs, () => this.resync(), { runsOn: 'replicas', always: true });
  }

  /** Long enough for the active worker to have written what it published before now (two flushes and some). */
  get writeCycleMs(): number {
    return this.config.persistIntervalMs * 2 + 500;
  }

  /**
   * Resyncs after the active worker's next writes, again until the store covers `at` (epoch ms): what a replica
   * does on its first change set from the bus and after lost ones. Each retry waits twice as long as the one
   * before (up to a minute): a worker whose writes lag under load is not made slower still by replicas reading
   * the whole store every few seconds. The pending retry is the job `board:catch-up`.
   */
  catchUp(at: number): void {
    this.needThrough = Math.max(this.needThrough, at);
    if (this.jobs.next(CATCH_UP_JOB) !== null || this.leadership.isLeader) return;
    const delay = Math.min(CATCH_UP_MAX_MS, this.writeCycleMs * 2 ** this.catchUpRetries);
    this.jobs.after(
      CATCH_UP_JOB,
      delay,
      async () => {
        const { through } = await this.resync();
        if (through < this.needThrough) {
          this.catchUpRetries++;
          this.catchUp(this.needThrough);
        } else {
          this.catchUpRetries = 0;
          this.replicaCaughtUp = true;
        }
      },
      { runsOn: 'replicas', always: true },
    );
  }
  private catchUpRetries = 0;

  /**
   * Brings a replica up to date with the store: prices newer in the store than on the board are applied; a
   * price (or event) missing from the store is removed only when the store holds everything up to its last
   * change (so a removal happened since), never because the active worker has not written it yet. Runs as
   * one change set, so detection and streams follow. Returns the number of rows changed and the store's watermark.
   */
  async resync(): Promise<{ changed: number; through: number }> {
    // One resync at a time: the periodic one, a catch-up and the one after an outage share a run in progress.
    this.resyncing ??= this.resyncOnce().finally(() => (this.resyncing = null));
    return this.resyncing;
  }
  private resyncing: Promise<{ changed: number; through: number }> | null = null;

  private async resyncOnce(): Promise<{ changed: number; through: number }> {
    const startedAt = this.clock.now();
    let loaded;
    let through: number;
    try {
      // The watermark first: whatever it covers is in the rows read after it.
      through = await this.repo.persistedThrough();
      loaded = await this.repo.load();
    } catch (err) {
      this.logger.warn({ msg: 'replica resync failed', error: (err as Error).message });
      return { changed: 0, through: 0 };
    }
    const inStore = new Map(loaded.rows.map((r) => [r.id, r]));
    const eventsInStore = new Set(loaded.events.map((e) => e.id));
    const plan = {
      upserted: loaded.rows,
      removed: [...this.board.rows.values()]
        .filter((r) => !inStore.has(r.id) && r.changedAt <= through)
        .map((r) => ({ id: r.id, sportsbook: r.sportsbook, eventId: r.eventId, removedAt: startedAt })),
      events: loaded.events,
      eventsRemoved: [...this.board.events.values()].filter((e) => !eventsInStore.has(e.id) && e.updatedAt <= through).map((e) => e.id),
    };
    for (const [key, at] of this.tombstones) if (at <= through) this.tombstones.delete(key);
    const applied = await this.applyInSlices(plan, startedAt, through);
    if (applied.upserted || applied.removed || applied.events || applied.eventsRemoved)
      this.logger.log({
        msg: 'replica resynced from the store',
        upserted: applied.upserted,
        removed: applied.removed,
        events: applied.events,
        events_removed: applied.eventsRemoved,
      });
    return { changed: applied.upserted + applied.removed, through };
  }

  /**
   * Applies what a resync found, in change sets of at most RESYNC_SLICE rows with a turn of the event loop
   * between them, so that a replica filling tens of thousands of rows keeps answering reads meanwhile. Each
   * slice is checked against the board as it is when the slice is applied: a change set from the bus that came
   * in between (newer than the store) is never overwritten, and a removal heard on the bus is never undone.
   */
  private async applyInSlices(
    plan: { upserted: OddsRow[]; removed: RemovedRow[]; events: BoardEvent[]; eventsRemoved: string[] },
    at: number,
    through: number,
  ): Promise<{ upserted: number; removed: number; events: number; eventsRemoved: number }> {
    const buried = (key: string, t: number) => (this.tombstones.get(key) ?? -1) >= t;
    const newerRow = (r: OddsRow) => {
      if (buried(r.id, r.changedAt) || buried(`event:${r.eventId}`, r.changedAt)) return false;
      const cur = this.board.rows.get(r.id);
      return !cur || r.changedAt > cur.changedAt;
    };
    const newerEvent = (e: BoardEvent) => {
      if (buried(`event:${e.id}`, e.updatedAt)) return false;
      const cur = this.board.events.get(e.id);
      return !cur || e.updatedAt > cur.updatedAt;
    };
    const stillGone = (rm: RemovedRow) => (this.board.rows.get(rm.id)?.changedAt ?? Infinity) <= through;
    const eventGone = (id: string) => (this.board.events.get(id)?.updatedAt ?? Infinity) <= through;
    const counts = { upserted: 0, removed: 0, events: 0, eventsRemoved: 0 };
    const steps = Math.max(1, Math.ceil(plan.upserted.length / RESYNC_SLICE), Math.ceil(plan.removed.length / RESYNC_SLICE));
    for (let i = 0; i < steps; i++) {
      if (i > 0) await new Promise((r) => setImmediate(r));
      const first = i === 0;
      const last = i === steps - 1;
      const [from, to] = [i * RESYNC_SLICE, (i + 1) * RESYNC_SLICE];
      const cs: ChangeSet = {
        version: this.board.version + 1,
        at,
        // Events first (rows need their event), event removals last (after the rows that leave with them).
        events: first ? plan.events.filter(newerEvent) : [],
        upserted: plan.upserted.slice(from, to).filter(newerRow),
        removed: plan.removed.slice(from, to).filter(stillGone),
        eventsRemoved: last ? plan.eventsRemoved.filter(eventGone) : [],
        seen: [],
      };
      if (isChangeSetEmpty(cs)) continue;
      counts.upserted += cs.upserted.length;
      counts.removed += cs.removed.length;
      counts.events += cs.events.length;
      counts.eventsRemoved += cs.eventsRemoved.length;
      this.board.applyChangeSet(cs);
      for (const d of this.delayed.values()) d.push(cs);
    }
    return counts;
  }

  /** Indexes what the start-up rebuild gave the delayed views, where no read has done it yet. */
  fillDelayedViews(): void {
    for (const d of this.delayed.values()) d.fill();
  }

  /** The board as this caller sees it: the tier's delay applied (the one place the data delay is applied). */
  viewFor(account: Account | undefined): OddsBoard {
    return this.view(this.policy.delaySeconds(account));
  }

  /** The board as a caller with this delay sees it. */
  view(delaySeconds: number): OddsBoard {
    if (delaySeconds <= 0) return this.board;
    const d = this.delayed.get(delaySeconds * 1000);
    if (!d) throw new Error(`no delayed view for ${delaySeconds} s`);
    return d.advance(this.clock.now());
  }

  /** Ended events leave after the grace period; events left without prices leave after 10 minutes. */
  maintain(): void {
    const now = this.clock.now();
    const graceMs = this.config.endedEventGraceSeconds * 1000;
    const removeIds: string[] = [];
    for (const e of this.board.events.values()) {
      const ended = e.status === 'ended' || e.status === 'cancelled';
      if (ended && e.endedAt !== null && now - e.endedAt >= graceMs) removeIds.push(e.id);
      else if (!ended && this.board.rowCountOf(e.id) === 0 && now - e.updatedAt >= 600_000) removeIds.push(e.id);
    }
    if (removeIds.length) {
      this.apply({ version: this.board.version + 1, at: now, upserted: [], removed: [], events: [], eventsRemoved: removeIds, seen: [] });
    }
  }

  async purge(): Promise<void> {
    const before = this.clock.now() - this.config.historyRetentionHours * 3600_000;
    try {
      const r = await this.repo.purge(before);
      if (r.history || r.removals) this.logger.log({ msg: 'purged price history', ...r });
    } catch (err) {
      this.logger.warn({ msg: 'history purge failed', error: (err as Error).message });
    }
  }

  /** Reclaims the space of old row versions in the embedded store (see VACUUM_INTERVAL_MS). */
  async vacuum(): Promise<void> {
    try {
      await this.repo.vacuum();
    } catch (err) {
      this.logger.warn({ msg: 'vacuum failed', error: (err as Error).message });
    }
  }

  /** The `data` check of GET /health: how fresh the board is and whether its writes reach the database. */
  dataCheck() {
    const now = this.clock.now();
    const rows = this.board.size;
    const last = this.board.lastChangeAt;
    const age = last ? Math.round((now - last) / 1000) : null;
    const q = this.writer.quarantined;
    const refused = q
      ? `; ${q === 1 ? '1 item refused by the database for its data was' : `${q} items refused by the database for their data were`} quarantined (not stored; see the logs)`
      : '';
    if (!this.writer.healthy)
      return {
        status: 'degraded' as const,
        message: `database writes failing; ${this.writer.pending} changes buffered in memory${refused}`,
      };
    if (!this.config.providers.length)
      return { status: 'ok' as const, latency_ms: 0, message: `no live source configured; board holds ${rows} prices${refused}` };
    if (age === null || age > 120)
      return { status: 'degraded' as const, message: (age === null ? 'no prices received yet' : `no price update for ${age} s`) + refused };
    return {
      status: 'ok' as const,
      latency_ms: 0,
      message: `board holds ${rows} prices in ${this.board.events.size} events; last update ${age} s ago${refused}`,
    };
  }
}

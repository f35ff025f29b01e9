import { rmSync } from 'node:fs';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { EventBus } from '../../common/bus/event-bus.js';
import { RedisService } from '../../common/redis/redis.service.js';
import { Clock } from '../../common/time/clock.js';
import { Jobs } from '../cluster/jobs.service.js';
import { Leadership } from '../cluster/leadership.service.js';
import { Catalog } from '../../config/catalog.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { buildId } from '../../config/paths.js';
import { TIERS, type TierName } from '../../config/tiers.js';
import type { ChangeSet, OddsRow } from '../../domain/odds-row.js';
import { BoardService } from '../board/board.service.js';
import type { Detector, OpportunityRecord } from './detector.js';
import { groupInfo, type DetectContext } from './group-info.js';
import type { MarketCheck } from './guards.js';
import { gamePricing, pricedOnMoneyline, scopeFilter, type BookFilter } from './market-groups.js';
import { assembleSnapshot, LifecyclePublisher, type ScopeDiff } from './lifecycle-publisher.js';
import { RedisSnapshotStore } from './redis-snapshot-store.js';
import type { LifecycleMessage, WireFlags } from './lifecycle-wire.js';
import { OpportunityReplica } from './opportunity-replica.js';
import {
  OPPORTUNITY_FILE,
  opportunityFileOf,
  takeOpportunityFile,
  writeOpportunityFile,
  type RestoredOpportunities,
  type StoredRegistry,
} from './opportunity-file.js';
import { OpportunityRegistry, type LifecycleDiff, type LiveSet, type Tracked } from './registry.js';
import {
  LIFECYCLE_TOPIC,
  RESYNC_REQUEST_TOPIC,
  SNAPSHOT_READY_TOPIC,
  OPPORTUNITIES_TOPIC,
  type OpportunityEvent,
  type OpportunityRef,
} from '../../domain/topics.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import { Serving } from '../../common/serving.js';

/** How often the whole board is re-scanned (checking the incremental state). */
const RESCAN_INTERVAL_MS = 60_000;
/** About how long the scheduled re-scan works before it yields to the event loop. */
const RESCAN_TURN_MS = 10;
/** How long a replica waits for the active worker's snapshot before asking again. */
export const REPLICA_RETRY_MS = 1_000;
/** How often the active worker refreshes its snapshot anyway (a replica whose request went unheard loads it). */
export const SNAPSHOT_INTERVAL_MS = 5_000;

/** A book scope opportunities are evaluated in: every book, or a tier's default set. */
export interface DetectionScope {
  key: string;
  books: ReadonlySet<string> | null;
  filter: BookFilter;
}

/** The ref of an opportunity: its event and market (from its first price) and its books. */
export function refOf(detector: Detector, r: OpportunityRecord): OpportunityRef {
  const rows = detector.rows(r);
  const first = rows[0];
  return {
    id: r.id,
    eventId: first?.eventId ?? '',
    sport: first?.sport ?? '',
    league: first?.league ?? '',
    marketType: first?.marketType ?? '',
    books: [...new Set(rows.map((x) => x.sportsbook))],
    live: rows.some((x) => x.isLive),
  };
}

export interface DetectionStats {
  incrementalRuns: number;
  groupsEvaluated: number;
  laddersEvaluated: number;
  lastIncrementalMs: number;
  lastRescanAt: number | null;
  lastRescanMs: number | null;
  /** Opportunities the periodic re-scan found different from the incremental state (should stay 0). */
  rescanMismatches: number;
  lastRescanMismatches: number;
  /** Venue markets (one book in one market group) currently flagged by the guards and kept out of detection. */
  flaggedMarkets: number;
}

/** A registered type: its detector, its scopes and a registry of live opportunities per scope. */
interface TypeState {
  detector: Detector;
  scopes: DetectionScope[];
  live: Map<string, OpportunityRegistry<OpportunityRecord>>;
}

/** Lifecycle changes of one evaluation, per type and scope (in the order they are published). */
type Diffs = Map<TypeState, Map<string, LifecycleDiff<Tracked>>>;

const NOTHING: readonly OpportunityRecord[] = Object.freeze([]);

const ALL_BOOKS: DetectionScope = { key: 'all', books: null, filter: scopeFilter(() => true) };

/**
 * The detection engine: finds the opportunities of every registered type (Detector) incrementally. Every change
 * set re-evaluates only the market groups and line ladders it touched, and only with the detectors that read
 * them; a periodic full re-scan is the safety net and is compared with the incremental state. Types evaluated
 * per scope are evaluated in each tier's default book set; the others once over every book. Lifecycle changes
 * go on the bus (local delivery: every instance detects for itself), for the stream.
 *
 * The registry is public (types(), detector(), live(), known()): the stream, the access policy and the type
 * modules read opportunities through it, and nothing here names a type.
 */
@Injectable()
export class DetectionEngine implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('detection');
  private readonly states: TypeState[] = [];
  private readonly byKind = new Map<string, TypeState>();
  readonly stats: DetectionStats = {
    incrementalRuns: 0,
    groupsEvaluated: 0,
    laddersEvaluated: 0,
    lastIncrementalMs: 0,
    lastRescanAt: null,
    lastRescanMs: null,
    rescanMismatches: 0,
    lastRescanMismatches: 0,
    flaggedMarkets: 0,
  };
  private readonly rowSource = new Map<string, { group: string; ladder: string; event: string }>();
  private readonly eventSources = new Map<string, Set<string>>();
  /** The groups (with their row counts) of each ladder on the board: what a touched ladder re-evaluates. */
  private readonly ladderGroups = new Map<string, Map<string, number>>();
  /** The line ladders (spreads, totals; no props) of each `event|period`: what a moved game total re-prices. */
  private readonly lineLadders = new Map<string, Set<string>>();
  /** The market groups holding a flagged venue market, with the flags (kept current as groups are evaluated). */
  private readonly flagged = new Map<string, MarketCheck[]>();
  /** The ladders of those groups (middles are found per ladder), with their flagged groups. */
  private readonly flaggedLadderGroups = new Map<string, Set<string>>();
  /**
   * What each market group was last evaluated on (in every type and scope): the board's array of its rows
   * (replaced whenever a row of the group changes) and its ladder's main line. While both are the same, a
   * fresh evaluation finds exactly what the registries hold (group detectors read nothing else), so a touched
   * ladder's unchanged groups are confirmed from the registries instead of re-read (evaluate).
   */
  private readonly evaluatedOn = new Map<string, { rows: readonly OddsRow[]; main: number | null }>();
  /** Detection has started (types can no longer register). */
  private started = false;
  /** This instance detects (single process, or the active worker); replicas follow the worker's lifecycle. */
  private running = false;
  /** With several instances: the active worker's publisher and a replica's follower (null in one process). */
  private publisher: LifecyclePublisher | null = null;
  replica: OpportunityReplica | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private closing = false;
  /** Whether this instance's registries ever followed another's (a takeover re-scans them in slices). */
  private followed = false;
  /** What the last clean stop left live (opportunity-file.ts), until detection starts from it. */
  private restored: RestoredOpportunities | null = null;
  /** Flag changes since the last publish, for the replicas (collected only when there are replicas). */
  private readonly flagChanges = new Map<string, MarketCheck[] | null>();
  /** Sequence of the last change set evaluated: opportunity events carry the sequence of their cause. */
  private lastSeq = 0;

  constructor(
    private readonly boards: BoardService,
    private readonly catalog: Catalog,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly policy: AccessPolicy,
    private readonly jobs: Jobs,
    private readonly metrics: MetricsService,
    private readonly leadership: Leadership,
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly serving: Serving,
  ) {}

  // ---------------------------------------------------------------- the registry

  /**
   * Adds an opportunity type (its module calls this in onModuleInit, before the application starts): its
   * features go to the access policy, and its registries are made for its scopes. Types are listed (stream
   * snapshots, tier tables) in the order they register, which is the order of their modules in app.module.
   */
  register(detector: Detector): void {
    if (this.started) throw new Error(`Opportunity type "${detector.kind}" registered after detection started`);
    const clash = this.states.find(
      (s) =>
        s.detector.kind === detector.kind ||
        s.detector.stream.channel === detector.stream.channel ||
        [s.detector.stream.detected, s.detector.stream.expired].some(
          (n) => n === detector.stream.detected || n === detector.stream.expired,
        ),
    );
    if (clash) throw new Error(`Opportunity type "${detector.kind}" clashes with "${clash.detector.kind}" (kind, channel or event names)`);
    this.policy.registerFeature(detector.feature);
    for (const f of detector.extraFeatures ?? []) this.policy.registerFeature(f, { listed: false });
    const scopes = detector.perScope ? this.scopesFor(detector) : [ALL_BOOKS];
    const state: TypeState = { detector, scopes, live: new Map(scopes.map((s) => [s.key, new OpportunityRegistry<OpportunityRecord>()])) };
    this.states.push(state);
    this.byKind.set(detector.kind, state);
  }

  /** The registered types, in registration order. */
  types(): readonly Detector[] {
    return this.states.map((s) => s.detector);
  }

  detector(kind: string): Detector | undefined {
    return this.byKind.get(kind)?.detector;
  }

  /** The registered types as a table for the API document: feature and lowest tier, stream names. */
  typesMarkdown(): string {
    const rows = this.states.map(({ detector: d }) => {
      const threshold = d.stream.threshold ? `\`${d.stream.threshold.param}\`` : '-';
      return `| ${d.kind} | \`${d.feature.name}\` (${this.policy.requiredTierFor(d.feature.name)} and up) | \`${d.stream.channel}\` | \`${d.stream.detected}\` / \`${d.stream.expired}\` | \`${d.stream.type}\` | ${threshold} |`;
    });
    return [
      '| Type | Feature | WebSocket channel | Stream events | Snapshot `type` | Stream threshold |',
      '|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  }

  /** The scopes a type is evaluated in (`all` always among them). */
  scopes(kind: string): readonly DetectionScope[] {
    return this.byKind.get(kind)?.scopes ?? [];
  }

  /**
   * The live opportunities of a type in one scope (`all`: every book), or undefined for an unknown type or
   * scope. Records are typed by the caller: a type's own module knows its record.
   */
  live<R extends OpportunityRecord = OpportunityRecord>(kind: string, scope = 'all'): LiveSet<R> | undefined {
    return this.byKind.get(kind)?.live.get(scope) as LiveSet<R> | undefined;
  }

  /** A live opportunity of a type in one scope, by id. */
  record(kind: string, scope: string, id: string): OpportunityRecord | undefined {
    return this.live(kind, scope)?.get(id);
  }

  /** A live opportunity of a type in any scope, by id. */
  known<R extends OpportunityRecord = OpportunityRecord>(kind: string, id: string): R | undefined {
    for (const reg of this.byKind.get(kind)?.live.values() ?? []) {
      const r = reg.get(id);
      if (r) return r as R;
    }
    return undefined;
  }

  /** Distinct default book sets of the tiers that have a type's feature, named after the lowest such tier. */
  private scopesFor(detector: Detector): DetectionScope[] {
    const out: DetectionScope[] = [];
    for (const tier of TIERS) {
      if (!this.policy.tierHas(tier, detector.feature.name)) continue;
      const d = this.policy.defaultBooks(tier);
      const key = d.all ? 'all' : tier;
      if (out.some((s) => s.key === key || (!d.all && s.books && s.books.size === d.books.length && d.books.every((b) => s.books!.has(b)))))
        continue;
      const books = d.all ? null : new Set(d.books);
      out.push({ key, books, filter: scopeFilter(books ? (b) => books.has(b) : () => true) });
    }
    if (!out.some((s) => s.key === 'all')) out.push(ALL_BOOKS);
    return out;
  }

  /** The scope a tier's default book set of a type is evaluated in (`all` for types evaluated once). */
  scopeKeyFor(kind: string, tier: TierName): string {
    const state = this.byKind.get(kind);
    if (!state?.detector.perScope) return 'all';
    const d = this.policy.defaultBooks(tier);
    if (d.all) return 'all';
    const hit = state.scopes.find((s) => s.books && s.books.size === d.books.length && d.books.every((b) => s.books!.has(b)));
    return hit?.key ?? 'all';
  }

  /** The scope a caller's opportunities of a type come from: its tier's default set when it named no book, else all books. */
  scopeFor(kind: string, tier: TierName, defaultBooks: boolean): string {
    return defaultBooks ? this.scopeKeyFor(kind, tier) : 'all';
  }

  ctx(now = this.clock.now(), opts: { includeFlagged?: boolean } = {}): DetectContext {
    return { board: this.boards.board, catalog: this.catalog, now, memo: new Map(), includeFlagged: opts.includeFlagged ?? false };
  }

  /** The flag of one venue's market in a group, if the guards flagged it (for odds rows and diagnostics). */
  marketFlag(groupKey: string, book: string): MarketCheck | undefined {
    return this.flagged.get(groupKey)?.find((f) => f.book === book);
  }

  /** The sources of a type holding a flagged venue market right now: market groups, or ladders for ladder readers. */
  flaggedSources(kind: string): ReadonlySet<string> {
    return new Set(this.byKind.get(kind)?.detector.reads === 'ladders' ? this.flaggedLadderGroups.keys() : this.flagged.keys());
  }

  /** Remembers whether a group just evaluated holds flagged venue markets. */
  private noteFlags(ctx: DetectContext, group: string): void {
    this.setGroupFlags(group, [...(groupInfo(ctx, group)?.flags.values() ?? [])]);
  }

  /** Sets the flags of one market group (none: it holds no flagged venue market). */
  private setGroupFlags(group: string, flags: MarketCheck[]): void {
    const had = this.flagged.get(group);
    if (!flags.length && !had) return;
    if (this.publisher && this.running) this.flagChanges.set(group, flags.length ? flags : null);
    const ladder = group.slice(0, group.lastIndexOf('|'));
    this.stats.flaggedMarkets += flags.length - (had?.length ?? 0);
    if (flags.length) {
      this.flagged.set(group, flags);
      let set = this.flaggedLadderGroups.get(ladder);
      if (!set) this.flaggedLadderGroups.set(ladder, (set = new Set()));
      set.add(group);
    } else {
      this.flagged.delete(group);
      const set = this.flaggedLadderGroups.get(ladder);
      set?.delete(group);
      if (set && !set.size) this.flaggedLadderGroups.delete(ladder);
    }
  }

  // ---------------------------------------------------------------- incremental detection

  async onApplicationBootstrap(): Promise<void> {
    await this.boards.rebuild();
    this.started = true;
    this.takeStoredOpportunities();
    this.boards.board.onChange((cs) => this.onChange(cs));
    this.jobs.every('detection:rescan', RESCAN_INTERVAL_MS, () => this.rescanInSlices());
    // One process (no distributed bus): it detects, on one direct in-process path.
    if (!this.bus.distributed) return this.startDetecting();
    // Several instances: only the active worker detects; the others follow its lifecycle messages.
    this.setUpFollowing();
    this.leadership.onChange((leader) => (leader ? this.startDetecting() : this.stopDetecting()));
    if (!this.running) this.replica!.start();
  }

  onApplicationShutdown(): void {
    this.closing = true;
    clearTimeout(this.retryTimer);
    this.replica?.stop();
  }

  /** This instance becomes the one that detects: at start, or an active worker taking over. */
  private startDetecting(): void {
    if (this.running) return;
    this.replica?.stop();
    clearTimeout(this.retryTimer);
    this.flagChanges.clear();
    this.publisher?.begin();
    // Rows that did not come through a change set here (loaded from the store, or while following another
    // instance): remember where they belong, so that their removal re-evaluates their market.
    this.rowSource.clear();
    this.evaluatedOn.clear();
    this.eventSources.clear();
    this.ladderGroups.clear();
    this.lineLadders.clear();
    for (const r of this.boards.board.rows.values()) this.remember(r);
    this.running = true;
    // Only at the start (a replica that has followed another instance holds a newer state than the stop's).
    const restored = this.followed ? null : this.restored;
    this.restored = null;
    if (!this.followed && !restored) {
      this.rescan();
      return;
    }
    if (restored) this.restore(restored);
    // A takeover, or a start from what the last clean stop left live: the registries hold what the previous
    // worker published (or the stop stored); a full re-scan (in slices, the board is full) publishes the
    // differences, and the replicas, seeing a new term, resync onto this state.
    this.logger.log({
      msg: restored
        ? 'detecting from the opportunities stored at the last stop; re-checking them against the board in slices'
        : 'detecting (this instance is the active worker); re-scanning the board',
    });
    this.stats.lastRescanAt = null;
    const recheck = () =>
      void this.rescanInSlices().catch((err: Error) => this.logger.error({ msg: 'first re-scan failed', error: err.message }));
    // The stop's opportunities are served as they are until the application serves, then re-checked (a takeover
    // re-checks at once: the application serves already).
    if (restored) this.serving.onServing(recheck);
    else recheck();
  }

  /**
   * The opportunities the last clean stop stored beside the board's prices (embedded store): kept for the start of
   * detection when the board was rebuilt from those prices, the file removed either way; and, from now on, what
   * this instance stores at its own clean stop.
   */
  private takeStoredOpportunities(): void {
    const path = this.boards.stopFilePath(OPPORTUNITY_FILE);
    if (!path) return;
    const started = performance.now();
    const { restored, refused } = takeOpportunityFile(path, buildId(), this.boards.snapshotMark, (id) => this.boards.board.rows.get(id));
    if (refused) this.logger.warn({ msg: `${OPPORTUNITY_FILE} not used: ${refused}; finding every opportunity again` });
    if (restored)
      this.logger.log({
        msg: `opportunities read from ${OPPORTUNITY_FILE}`,
        records: restored.registries.reduce((n, r) => n + r.records.length, 0),
        left_out: restored.dropped,
        ms: Math.round(performance.now() - started),
      });
    this.restored = restored;
    this.boards.besideTheSnapshot((mark) => {
      if (!this.running) return;
      try {
        writeOpportunityFile(path, opportunityFileOf(buildId(), mark, this.storedRegistries(), [...this.flagged]));
      } catch (err) {
        rmSync(path, { force: true });
        this.logger.warn({ msg: `${OPPORTUNITY_FILE} not written: ${(err as Error).message}` });
      }
    });
  }

  private storedRegistries(): StoredRegistry[] {
    return this.states.flatMap((s) => s.scopes.map((sc) => ({ detector: s.detector, scope: sc.key, live: s.live.get(sc.key)! })));
  }

  /** Fills the registries and flags with what the last clean stop stored (a registry of a type or scope gone is skipped). */
  private restore(restored: RestoredOpportunities): void {
    for (const { kind, scope, records } of restored.registries) this.byKind.get(kind)?.live.get(scope)?.load(records);
    this.applyFlags(restored.flags, true);
  }

  /** This instance stops detecting (it no longer leads): it follows the new active worker. */
  private stopDetecting(): void {
    if (!this.running) return;
    this.running = false;
    this.evaluatedOn.clear();
    if (this.closing) return;
    this.logger.log({ msg: 'no longer detecting; following the active worker' });
    this.replica?.start();
  }

  /** The lifecycle topics, the snapshot store in Redis and the replica follower. */
  private setUpFollowing(): void {
    const store = new RedisSnapshotStore(() => this.redis.client, this.config.redisPrefix);
    this.publisher = new LifecyclePublisher(this.bus, store, {
      registries: () => this.storedRegistries(),
      flags: () => this.flagged.entries(),
      seq: () => this.lastSeq,
      now: () => this.clock.now(),
    });
    this.replica = new OpportunityReplica(
      {
        registry: (kind, scope) => this.byKind.get(kind)?.live.get(scope),
        registries: () =>
          this.states.flatMap((s) => s.scopes.map((sc) => ({ kind: s.detector.kind, scope: sc.key, registry: s.live.get(sc.key)! }))),
        ref: (kind, r) => refOf(this.byKind.get(kind)!.detector, r),
        signature: (kind, r) => this.byKind.get(kind)!.detector.signature(r),
        setFlags: (flags, replaceAll) => this.applyFlags(flags, replaceAll),
        emit: (evt) => {
          this.followed = true;
          this.lastSeq = Math.max(this.lastSeq, evt.seq);
          this.bus.publishLocal(OPPORTUNITIES_TOPIC, evt);
        },
      },
      {
        request: () => this.bus.publish(RESYNC_REQUEST_TOPIC, { from: this.bus.instanceId }, { remoteOnly: true }),
        load: async () => assembleSnapshot(await store.read()),
        // Real time, whatever the clock says (see Clock): it waits on the network (a ready note lost while this
        // instance's subscriptions were still being made, a worker not there yet), not on the market.
        retryLater: (fn) => {
          clearTimeout(this.retryTimer);
          this.retryTimer = setTimeout(fn, REPLICA_RETRY_MS).unref();
        },
      },
    );
    // After the change set that caused it, which a replica's board applies in a microtask (BoardService).
    this.bus.subscribe<LifecycleMessage>(LIFECYCLE_TOPIC, (msg, remote) => {
      if (remote && !this.running) queueMicrotask(() => this.replica!.onMessage(msg));
    });
    this.bus.subscribe(SNAPSHOT_READY_TOPIC, (_note, remote) => {
      if (remote && !this.running) void this.replica!.onSnapshotReady();
    });
    const answer = () =>
      this.publisher!.answer().catch((err: Error) => this.logger.warn({ msg: 'opportunity snapshot not written', error: err.message }));
    this.bus.subscribe(RESYNC_REQUEST_TOPIC, (_req, remote) => {
      if (remote && this.running) void answer();
    });
    this.jobs.every('detection:snapshot', SNAPSHOT_INTERVAL_MS, () => (this.running ? answer() : undefined), { runsOn: 'leader' });
    // The same gap detection as prices: a lost bus message, or a Redis outage.
    this.bus.onGap(LIFECYCLE_TOPIC, () => {
      if (!this.running) this.replica!.resync();
    });
    if (this.redis.enabled)
      this.redis.onReconnect(() => {
        if (!this.running) this.replica!.resync();
      });
  }

  /** Flags heard from the active worker (`replaceAll`: a snapshot, holding every flagged group). */
  private applyFlags(flags: WireFlags, replaceAll: boolean): void {
    const given = new Map(flags);
    if (replaceAll) for (const g of [...this.flagged.keys()]) if (!given.has(g)) this.setGroupFlags(g, []);
    for (const [g, f] of given) this.setGroupFlags(g, f ?? []);
  }

  /** Lifecycle messages published to the replicas, snapshots written for them (null in one process). */
  get publishing(): LifecyclePublisher['stats'] | null {
    return this.publisher ? { ...this.publisher.stats } : null;
  }

  /** Where a row belongs (its group, ladder, event), for when it changes or goes. */
  private remember(r: OddsRow): void {
    const prev = this.rowSource.get(r.id);
    if (prev && prev.group === r.groupKey && prev.ladder === r.ladderKey && prev.event === r.eventId) return;
    if (prev) this.forgetRow(r.id);
    // The rows of one market group share one record (group, ladder and event are the same for all of them).
    let src: { group: string; ladder: string; event: string } | undefined;
    for (const other of this.boards.board.groupRows(r.groupKey)) {
      const o = other.id === r.id ? undefined : this.rowSource.get(other.id);
      if (o && o.group === r.groupKey && o.ladder === r.ladderKey && o.event === r.eventId) {
        src = o;
        break;
      }
    }
    this.rowSource.set(r.id, src ?? { group: r.groupKey, ladder: r.ladderKey, event: r.eventId });
    let ev = this.eventSources.get(r.eventId);
    if (!ev) this.eventSources.set(r.eventId, (ev = new Set()));
    ev.add(r.id);
    let groups = this.ladderGroups.get(r.ladderKey);
    if (!groups) this.ladderGroups.set(r.ladderKey, (groups = new Map()));
    groups.set(r.groupKey, (groups.get(r.groupKey) ?? 0) + 1);
    if (r.groupLine !== null && !r.playerName) {
      const key = `${r.eventId}|${r.period}`;
      let set = this.lineLadders.get(key);
      if (!set) this.lineLadders.set(key, (set = new Set()));
      set.add(r.ladderKey);
    }
  }

  private track(groupOrLadder: Set<string>, ladders: Set<string>, id: string): void {
    const src = this.rowSource.get(id);
    if (!src) return;
    groupOrLadder.add(src.group);
    ladders.add(src.ladder);
  }

  /** Incremental detection: re-evaluates the groups and ladders a change set touched. */
  onChange(cs: ChangeSet): void {
    if (!this.running) return;
    const groups = new Set<string>();
    const ladders = new Set<string>();
    for (const r of cs.upserted) {
      this.track(groups, ladders, r.id);
      groups.add(r.groupKey);
      ladders.add(r.ladderKey);
      this.remember(r);
    }
    for (const rm of cs.removed) {
      this.track(groups, ladders, rm.id);
      this.forgetRow(rm.id);
    }
    for (const eventId of cs.eventsRemoved) {
      for (const id of [...(this.eventSources.get(eventId) ?? [])]) {
        this.track(groups, ladders, id);
        this.forgetRow(id);
      }
      this.eventSources.delete(eventId);
      for (const key of this.lineLadders.keys()) if (key.startsWith(`${eventId}|`)) this.lineLadders.delete(key);
    }
    if (cs.seq !== undefined) this.lastSeq = cs.seq;
    if (!groups.size && !ladders.size) return;
    const started = performance.now();
    this.expand(groups, ladders);
    this.evaluate(groups, ladders, cs.at);
    this.stats.incrementalRuns++;
    this.stats.lastIncrementalMs = performance.now() - started;
    this.metrics.detectionLatency.observe(this.stats.lastIncrementalMs / 1000);
  }

  /**
   * What else a change affects: every group of a touched ladder (its main line, hence "alternate" flags, may
   * have moved) and the line ladders of the game that are priced on a touched market: all of them on a game total
   * (middles use the expected total), the spreads of a fixed-spread sport (puck line, run line) on a moneyline.
   */
  private expand(groups: Set<string>, ladders: Set<string>): void {
    const board = this.boards.board;
    for (const l of [...ladders]) {
      const inLadder = this.ladderGroups.get(l);
      if (inLadder) for (const g of inLadder.keys()) groups.add(g);
      const pricing = gamePricing(l);
      if (!pricing) continue;
      for (const other of this.lineLadders.get(pricing.game) ?? []) {
        if (other === l || ladders.has(other)) continue;
        if (pricing.by === 'moneyline') {
          const first = board.ladderRows(other)?.values().next().value;
          if (!first || !pricedOnMoneyline(first.marketType, first.sport)) continue;
        }
        ladders.add(other);
      }
    }
  }

  private forgetRow(id: string): void {
    const src = this.rowSource.get(id);
    if (!src) return;
    this.rowSource.delete(id);
    this.eventSources.get(src.event)?.delete(id);
    const groups = this.ladderGroups.get(src.ladder);
    const n = groups?.get(src.group) ?? 0;
    if (n > 1) groups!.set(src.group, n - 1);
    else if (groups) {
      groups.delete(src.group);
      if (!groups.size) this.ladderGroups.delete(src.ladder);
    }
  }

  /** The types reading market groups, then those reading ladders: the order sources are evaluated and published in. */
  private byReads(): { groupTypes: TypeState[]; ladderTypes: TypeState[] } {
    // Types only register before detection starts: the split is kept until another one registers.
    if (this.readsCache?.count !== this.states.length)
      this.readsCache = {
        count: this.states.length,
        groupTypes: this.states.filter((s) => s.detector.reads !== 'ladders'),
        ladderTypes: this.states.filter((s) => s.detector.reads === 'ladders'),
      };
    return this.readsCache;
  }

  private readsCache?: { count: number; groupTypes: TypeState[]; ladderTypes: TypeState[] };

  /** One type's opportunities on one source in one scope (a two-way reader finds nothing on other groups). */
  private detect(ctx: DetectContext, state: TypeState, source: string, scope: DetectionScope): OpportunityRecord[] {
    return this.detectOn(state.detector, ctx, source, scope.filter);
  }

  /**
   * A type's opportunities on one source among some books, found now and not kept (lists among named books,
   * `include_flagged`): what the type reads only (a two-way reader finds nothing on other groups).
   */
  detectOn<R extends OpportunityRecord>(detector: Detector<R>, ctx: DetectContext, source: string, inScope: BookFilter): R[] {
    if (detector.reads === 'two_way' && groupInfo(ctx, source)?.outcomes.length !== 2) return [];
    return detector.detect(ctx, source, inScope);
  }

  /** Evaluates groups and ladders in every scope, updates the registries and publishes the lifecycle. */
  evaluate(groups: Iterable<string>, ladders: Iterable<string>, now: number): void {
    const ctx = this.ctx(now);
    const diffs = this.newDiffs();
    const { groupTypes, ladderTypes } = this.byReads();
    for (const g of groups) {
      this.stats.groupsEvaluated++;
      if (this.unchanged(g)) {
        this.confirm(g, diffs, now);
        continue;
      }
      this.noteFlags(ctx, g);
      for (const state of groupTypes) this.reevaluate(ctx, state, g, diffs);
      this.noteEvaluated(g);
    }
    for (const l of ladders) {
      this.stats.laddersEvaluated++;
      for (const state of ladderTypes) this.reevaluate(ctx, state, l, diffs);
    }
    this.publish(diffs, now);
  }

  /** Whether a group's rows and its ladder's main line are those it was last evaluated on. */
  private unchanged(group: string): boolean {
    const was = this.evaluatedOn.get(group);
    if (!was) return false;
    const board = this.boards.board;
    const rows = board.groupRows(group);
    return rows === was.rows && board.mainLine(rows[0]!.ladderKey) === was.main;
  }

  /** Remembers what a group was just evaluated on (nothing for a group gone from the board). */
  private noteEvaluated(group: string): void {
    const board = this.boards.board;
    const rows = board.groupRows(group);
    const first = rows[0];
    if (!first) {
      this.evaluatedOn.delete(group);
      return;
    }
    const main = board.mainLine(first.ladderKey);
    const was = this.evaluatedOn.get(group);
    // Updated in place: a re-scan notes every group, and a new object each time is only more garbage.
    if (was) {
      was.rows = rows;
      was.main = main;
    } else this.evaluatedOn.set(group, { rows, main });
  }

  /**
   * Re-evaluation of an unchanged group (see evaluatedOn): every type and scope takes what it holds, confirmed
   * now (the record a fresh evaluation makes: the same, with `updatedAt` now), and the group's flags are set
   * again, as evaluating it would.
   */
  private confirm(group: string, diffs: Diffs, now: number): void {
    this.setGroupFlags(group, [...(this.flagged.get(group) ?? [])]);
    for (const state of this.byReads().groupTypes) {
      const byScope = diffs.get(state)!;
      for (const s of state.scopes) {
        const reg = state.live.get(s.key)!;
        const had = reg.idsOf(group);
        if (!had?.size) continue;
        const found: OpportunityRecord[] = [];
        for (const id of had) found.push({ ...reg.get(id)!, updatedAt: now });
        reg.replaceSource(group, found, byScope.get(s.key));
      }
    }
  }

  /**
   * One type on one source in every scope: the registries take the fresh result. The type's bound (mayFind) is
   * checked once for all scopes; a scope that holds nothing there and finds nothing is left alone (replacing
   * nothing with nothing changes nothing). With `count` (the re-scan's check), returns the number of
   * opportunities that differ from what the registries held.
   */
  private reevaluate(ctx: DetectContext, state: TypeState, source: string, diffs: Diffs, count = false): number {
    const may = state.detector.mayFind?.(ctx, source) ?? true;
    const byScope = diffs.get(state)!;
    let differ = 0;
    for (const s of state.scopes) {
      const reg = state.live.get(s.key)!;
      const found = may ? this.detect(ctx, state, source, s) : NOTHING;
      const had = reg.idsOf(source);
      if (!found.length && !had?.size) continue;
      if (count) {
        const ids = new Set<string>();
        for (const r of found) ids.add(r.id);
        for (const id of had ?? []) if (!ids.has(id)) differ++;
        for (const id of ids) if (!had?.has(id)) differ++;
      }
      reg.replaceSource(source, found, byScope.get(s.key));
    }
    return differ;
  }

  private newDiffs(): Diffs {
    const { groupTypes, ladderTypes } = this.byReads();
    return new Map(
      [...groupTypes, ...ladderTypes].map((state) => [
        state,
        new Map(state.scopes.map((s) => [s.key, { detected: [], expired: [], updated: [] } as LifecycleDiff<Tracked>])),
      ]),
    );
  }

  private publish(diffs: Diffs, at: number): void {
    for (const [state, byScope] of diffs) {
      const ref = (r: Tracked) => refOf(state.detector, r as OpportunityRecord);
      for (const [scope, d] of byScope) {
        if (!d.detected.length && !d.expired.length && !d.updated.length) continue;
        const evt: OpportunityEvent = {
          seq: this.lastSeq,
          kind: state.detector.kind,
          scope,
          at,
          detected: d.detected.map(ref),
          expired: d.expired.map(ref),
          updated: d.updated.map(ref),
        };
        // Local delivery (this instance's stream and CLV); the replicas get the records below.
        this.bus.publishLocal(OPPORTUNITIES_TOPIC, evt);
      }
    }
    if (this.publisher && this.running) {
      const out: ScopeDiff[] = [];
      for (const [state, byScope] of diffs) for (const [scope, diff] of byScope) out.push({ detector: state.detector, scope, diff });
      const flags: WireFlags = [...this.flagChanges];
      this.flagChanges.clear();
      this.publisher.publish(this.lastSeq, at, out, flags);
    }
  }

  // ---------------------------------------------------------------- the safety net

  /**
   * The safety net: evaluates every market group and ladder from scratch and compares, source by source,
   * with what the incremental engine holds (any difference is a bug, counted and logged), then keeps the
   * fresh result. Also refreshes time-dependent fields. Returns the number of differing opportunities.
   */
  rescan(now = this.clock.now()): number {
    const started = performance.now();
    const { groups, ladders } = this.allSources();
    const diffs = this.newDiffs();
    const mismatches = this.rescanSlice(groups, ladders, now, diffs);
    this.publish(diffs, now);
    this.finishRescan(mismatches, now, started);
    return mismatches;
  }

  private rescanning = false;

  /**
   * The scheduled re-scan: the same work in turns of about `turnMs` of work (`step` groups and ladders at a time),
   * each turn's changes published, yielding to the event loop between turns so HTTP and streams keep flowing.
   */
  async rescanInSlices(turnMs = RESCAN_TURN_MS, step = 50): Promise<number> {
    if (this.rescanning || !this.running) return 0;
    this.rescanning = true;
    try {
      const started = performance.now();
      const { groups, ladders } = this.allSources();
      const end = Math.max(groups.length, ladders.length);
      let mismatches = 0;
      for (let i = 0; i < end;) {
        const now = this.clock.now();
        const diffs = this.newDiffs();
        const turn = performance.now();
        do {
          mismatches += this.rescanSlice(groups.slice(i, i + step), ladders.slice(i, i + step), now, diffs);
          i += step;
        } while (i < end && performance.now() - turn < turnMs);
        this.publish(diffs, now);
        await new Promise<void>((r) => setImmediate(r));
      }
      this.finishRescan(mismatches, this.clock.now(), started);
      return mismatches;
    } finally {
      this.rescanning = false;
    }
  }

  /** Every source on the board plus those the registries still hold (vanished ones must expire). */
  private allSources(): { groups: string[]; ladders: string[] } {
    const board = this.boards.board;
    const { groupTypes, ladderTypes } = this.byReads();
    const groups = new Set(board.keys('group'));
    for (const state of groupTypes) for (const r of state.live.values()) for (const s of r.sources()) groups.add(s);
    for (const g of this.flagged.keys()) groups.add(g);
    const ladders = new Set(board.keys('ladder'));
    for (const state of ladderTypes) for (const r of state.live.values()) for (const s of r.sources()) ladders.add(s);
    return { groups: [...groups], ladders: [...ladders] };
  }

  private rescanSlice(groups: string[], ladders: string[], now: number, diffs: Diffs): number {
    const ctx = this.ctx(now);
    const memo = ctx.memo!;
    let mismatches = 0;
    const { groupTypes, ladderTypes } = this.byReads();
    // Each ladder is evaluated (in ladder order) as soon as the groups of it in this slice are (in group order):
    // each type's lifecycle lists keep the order of a groups-then-ladders pass (group and ladder types are
    // apart, and neither reads the other's registries), and a group's read, which its ladder's middles use
    // too, is dropped once that ladder is done instead of being held to the end of the scan.
    const ladderOf = (g: string) => g.slice(0, g.lastIndexOf('|'));
    const pending = new Map<string, string[]>();
    for (const g of groups) {
      const l = ladderOf(g);
      const list = pending.get(l);
      if (list) list.push(g);
      else pending.set(l, [g]);
    }
    const left = new Map<string, number>();
    for (const [l, list] of pending) left.set(l, list.length);
    let next = 0;
    const laddersReady = () => {
      for (; next < ladders.length && !left.get(ladders[next]!); next++) {
        const l = ladders[next]!;
        // A context per ladder (sharing the group reads): what a ladder reader keeps for it goes with it.
        const lctx: DetectContext = { ...ctx };
        for (const state of ladderTypes) mismatches += this.reevaluate(lctx, state, l, diffs, true);
        for (const g of pending.get(l) ?? []) memo.delete(g);
      }
    };
    laddersReady();
    for (const g of groups) {
      this.noteFlags(ctx, g);
      for (const state of groupTypes) mismatches += this.reevaluate(ctx, state, g, diffs, true);
      this.noteEvaluated(g);
      const l = ladderOf(g);
      const n = left.get(l)! - 1;
      left.set(l, n);
      if (n === 0) laddersReady();
    }
    for (const n of left.keys()) left.set(n, 0);
    laddersReady();
    this.stats.groupsEvaluated += groups.length;
    this.stats.laddersEvaluated += ladders.length;
    return mismatches;
  }

  private finishRescan(mismatches: number, now: number, started: number): void {
    // The first scan after start builds the state: nothing to disagree with yet.
    const first = this.stats.lastRescanAt === null;
    if (mismatches && !first) this.logger.warn({ msg: 'full re-scan disagreed with incremental detection; corrected', mismatches });
    if (!first) this.stats.rescanMismatches += mismatches;
    this.stats.lastRescanMismatches = first ? 0 : mismatches;
    this.stats.lastRescanAt = now;
    this.stats.lastRescanMs = performance.now() - started;
  }
}

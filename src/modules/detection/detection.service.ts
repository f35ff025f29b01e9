import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { EventBus } from '../../common/bus/event-bus.js';
import { Clock } from '../../common/time/clock.js';
import { Catalog } from '../../config/catalog.js';
import { APP_CONFIG, TIER_TABLE } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { TIERS, type Feature, type TierName, type TierTable } from '../../config/tiers.js';
import type { ChangeSet, OddsRow } from '../../domain/odds-row.js';
import { BoardService } from '../board/board.service.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { detectArbitrage, detectEv, detectLowHold, detectMiddles, groupInfo, impliedTotalAllBooks, LOW_HOLD_MAX, type DetectContext } from './detect/detectors.js';
import type { MarketCheck } from './detect/guards.js';
import type { BookFilter } from './detect/market-groups.js';
import type { ArbitrageRecord, EvRecord, LowHoldRecord, MiddleRecord, OpportunityKind, OpportunityRecord } from './detect/records.js';
import { OpportunityRegistry, type LifecycleDiff, type Tracked } from './detect/registry.js';

export const OPPORTUNITIES_TOPIC = 'opportunities';

/** A book scope opportunities are evaluated in: every book, or a tier's default set. */
export interface DetectionScope {
  key: string;
  books: ReadonlySet<string> | null;
  filter: BookFilter;
}

/** What an opportunity was about, enough to filter its expiry for a stream after it is gone. */
export interface OpportunityRef {
  id: string;
  eventId: string;
  sport: string;
  league: string;
  marketType: string;
  books: string[];
}

/** What the detection engine announces (locally) for the stream: a kind's lifecycle changes in one scope. */
export interface OpportunityEvent {
  /** Sequence of the change set that caused it (the last one, for re-scan corrections). */
  seq: number;
  kind: OpportunityKind;
  scope: string;
  at: number;
  detected: OpportunityRef[];
  expired: OpportunityRef[];
  updated: OpportunityRef[];
}

/** The books and market of a record, for stream filters. */
export function rowsOf(r: OpportunityRecord): OddsRow[] {
  switch (r.kind) {
    case 'arbitrage':
      return r.legs.map((l) => l.row);
    case 'low_hold':
      return r.sides.map((s) => s.row);
    case 'middles':
      return [r.side1.row, r.side2.row];
    case 'ev':
      return [r.row];
  }
}

export function refOf(rec: Tracked): OpportunityRef {
  const r = rec as OpportunityRecord;
  const rows = rowsOf(r);
  const first = rows[0];
  return { id: r.id, eventId: first?.eventId ?? '', sport: first?.sport ?? '', league: first?.league ?? '', marketType: first?.marketType ?? '', books: [...new Set(rows.map((x) => x.sportsbook))] };
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

const SCOPE_FEATURES: Record<Exclude<OpportunityKind, 'ev'>, Feature> = { arbitrage: 'arbitrage', low_hold: 'low_hold', middles: 'middles' };

/**
 * Finds +EV, arbitrage, middles and low-hold opportunities incrementally: every change set re-evaluates only
 * the market groups (and ladders, for middles) it touched; a periodic full re-scan is the safety net and is
 * compared with the incremental state. Arbitrage, middles and low-hold are evaluated in each tier's default
 * book scope (a hobby key's arbitrages are among its five books); +EV items are per book and evaluated once.
 * Lifecycle changes go on the bus.
 */
@Injectable()
export class DetectionService implements OnApplicationBootstrap {
  private readonly logger = new Logger('detection');
  readonly ev = new OpportunityRegistry<EvRecord>();
  readonly arbitrage = new Map<string, OpportunityRegistry<ArbitrageRecord>>();
  readonly lowHold = new Map<string, OpportunityRegistry<LowHoldRecord>>();
  readonly middles = new Map<string, OpportunityRegistry<MiddleRecord>>();
  readonly scopes: Record<Exclude<OpportunityKind, 'ev'>, DetectionScope[]>;
  readonly stats: DetectionStats = { incrementalRuns: 0, groupsEvaluated: 0, laddersEvaluated: 0, lastIncrementalMs: 0, lastRescanAt: null, lastRescanMs: null, rescanMismatches: 0, lastRescanMismatches: 0, flaggedMarkets: 0 };
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
  private running = false;
  /** Sequence of the last change set evaluated: opportunity events carry the sequence of their cause. */
  private lastSeq = 0;

  constructor(
    private readonly boards: BoardService,
    private readonly catalog: Catalog,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly policy: AccessPolicy,
    private readonly scheduler: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(TIER_TABLE) private readonly tiers: TierTable,
    private readonly metrics: MetricsService,
  ) {
    this.scopes = {
      arbitrage: this.scopesFor('arbitrage'),
      low_hold: this.scopesFor('low_hold'),
      middles: this.scopesFor('middles'),
    };
    for (const s of this.scopes.arbitrage) this.arbitrage.set(s.key, new OpportunityRegistry());
    for (const s of this.scopes.low_hold) this.lowHold.set(s.key, new OpportunityRegistry());
    for (const s of this.scopes.middles) this.middles.set(s.key, new OpportunityRegistry());
  }

  /** Distinct default book sets of the tiers that have a feature, named after the lowest such tier. */
  private scopesFor(feature: Feature): DetectionScope[] {
    const out: DetectionScope[] = [];
    for (const tier of TIERS) {
      if (!this.tiers.byName[tier].features[feature]) continue;
      const d = this.policy.defaultBooks(tier);
      const key = d.all ? 'all' : tier;
      if (out.some((s) => s.key === key || (!d.all && s.books && s.books.size === d.books.length && d.books.every((b) => s.books!.has(b))))) continue;
      const books = d.all ? null : new Set(d.books);
      out.push({ key, books, filter: books ? (b) => books.has(b) : () => true });
    }
    if (!out.some((s) => s.key === 'all')) out.push({ key: 'all', books: null, filter: () => true });
    return out;
  }

  /** The scope key a tier's default book set is evaluated in. */
  scopeKeyFor(kind: Exclude<OpportunityKind, 'ev'>, tier: TierName): string {
    const d = this.policy.defaultBooks(tier);
    if (d.all) return 'all';
    const hit = this.scopes[kind].find((s) => s.books && s.books.size === d.books.length && d.books.every((b) => s.books!.has(b)));
    return hit?.key ?? 'all';
  }

  ctx(now = this.clock.now(), opts: { includeFlagged?: boolean } = {}): DetectContext {
    return { board: this.boards.board, catalog: this.catalog, now, memo: new Map(), includeFlagged: opts.includeFlagged ?? false };
  }

  /** The flag of one venue's market in a group, if the guards flagged it (for odds rows and diagnostics). */
  marketFlag(groupKey: string, book: string): MarketCheck | undefined {
    return this.flagged.get(groupKey)?.find((f) => f.book === book);
  }

  /** A live opportunity of a kind in any scope, by id. */
  known(kind: OpportunityKind, id: string): OpportunityRecord | undefined {
    if (kind === 'ev') return this.ev.get(id);
    const regs = kind === 'arbitrage' ? this.arbitrage : kind === 'low_hold' ? this.lowHold : this.middles;
    for (const reg of regs.values() as IterableIterator<OpportunityRegistry<OpportunityRecord>>) {
      const r = reg.get(id);
      if (r) return r;
    }
    return undefined;
  }

  /** The market groups (or, for middles, ladders) holding a flagged venue market right now. */
  flaggedSources(kind: OpportunityKind): ReadonlySet<string> {
    return new Set(kind === 'middles' ? this.flaggedLadderGroups.keys() : this.flagged.keys());
  }

  /** Remembers whether a group just evaluated holds flagged venue markets. */
  private noteFlags(ctx: DetectContext, group: string): void {
    const flags = [...(groupInfo(ctx, group)?.flags.values() ?? [])];
    const had = this.flagged.get(group);
    if (!flags.length && !had) return;
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

  async onApplicationBootstrap(): Promise<void> {
    // Every instance detects on its own board (replicas too): detection is deterministic in the change sets.
    await this.boards.rebuild();
    this.running = true;
    // Rows loaded from the store did not come through a change set: remember where they belong, so that their
    // removal re-evaluates their market.
    for (const r of this.boards.board.rows.values()) this.remember(r);
    this.boards.board.onChange((cs) => this.onChange(cs));
    this.rescan();
    if (this.config.schedulers) this.scheduler.addInterval('detection:rescan', setInterval(() => void this.rescanInSlices(), 60_000));
  }

  /** Where a row belongs (its group, ladder, event), for when it changes or goes. */
  private remember(r: OddsRow): void {
    const prev = this.rowSource.get(r.id);
    if (prev && prev.group === r.groupKey && prev.ladder === r.ladderKey && prev.event === r.eventId) return;
    if (prev) this.forgetRow(r.id);
    this.rowSource.set(r.id, { group: r.groupKey, ladder: r.ladderKey, event: r.eventId });
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
   * have moved) and, when a game total moved, the spread ladders of that event (their middles are priced on
   * the total).
   */
  private expand(groups: Set<string>, ladders: Set<string>): void {
    for (const l of [...ladders]) {
      for (const g of this.ladderGroups.get(l)?.keys() ?? []) groups.add(g);
      const [eventId, market, period, subject] = l.split('|');
      if (market === 'total_points' && !subject && eventId) {
        for (const other of this.lineLadders.get(`${eventId}|${period}`) ?? []) if (other !== l) ladders.add(other);
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

  /** Evaluates groups and ladders in every scope, updates the registries and publishes the lifecycle. */
  evaluate(groups: Iterable<string>, ladders: Iterable<string>, now: number): void {
    const ctx = this.ctx(now);
    const diffs = this.newDiffs();
    for (const g of groups) {
      this.stats.groupsEvaluated++;
      this.noteFlags(ctx, g);
      this.ev.replaceSource(g, detectEv(ctx, g), diffs.ev.get('all'));
      // What all books together cannot offer, no narrower scope can: most groups stop here.
      const implied = impliedTotalAllBooks(ctx, g);
      const mayArb = implied !== null && implied < 1;
      const mayLowHold = implied !== null && (implied - 1) * 100 <= LOW_HOLD_MAX;
      for (const s of this.scopes.arbitrage) {
        const a = mayArb ? detectArbitrage(ctx, g, s.filter) : null;
        this.arbitrage.get(s.key)!.replaceSource(g, a ? [a] : [], diffs.arbitrage.get(s.key));
      }
      for (const s of this.scopes.low_hold) {
        const h = mayLowHold ? detectLowHold(ctx, g, s.filter) : null;
        this.lowHold.get(s.key)!.replaceSource(g, h ? [h] : [], diffs.low_hold.get(s.key));
      }
    }
    for (const l of ladders) {
      this.stats.laddersEvaluated++;
      for (const s of this.scopes.middles) this.middles.get(s.key)!.replaceSource(l, detectMiddles(ctx, l, s.filter), diffs.middles.get(s.key));
    }
    this.publish(diffs, now);
  }

  private newDiffs(): Record<OpportunityKind, Map<string, LifecycleDiff<Tracked>>> {
    const m = (keys: string[]) => new Map(keys.map((k) => [k, { detected: [], expired: [], updated: [] } as LifecycleDiff<Tracked>]));
    return {
      ev: m(['all']),
      arbitrage: m(this.scopes.arbitrage.map((s) => s.key)),
      low_hold: m(this.scopes.low_hold.map((s) => s.key)),
      middles: m(this.scopes.middles.map((s) => s.key)),
    };
  }

  private publish(diffs: Record<OpportunityKind, Map<string, LifecycleDiff<Tracked>>>, at: number): void {
    for (const [kind, byScope] of Object.entries(diffs) as Array<[OpportunityKind, Map<string, LifecycleDiff<Tracked>>]>) {
      for (const [scope, d] of byScope) {
        if (!d.detected.length && !d.expired.length && !d.updated.length) continue;
        const evt: OpportunityEvent = { seq: this.lastSeq, kind, scope, at, detected: d.detected.map(refOf), expired: d.expired.map(refOf), updated: d.updated.map(refOf) };
        // Every instance detects for itself from the same change sets (deterministically): local delivery only.
        this.bus.publishLocal(OPPORTUNITIES_TOPIC, evt);
      }
    }
  }

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

  /** The scheduled re-scan: the same work in slices, yielding to the event loop so HTTP keeps flowing. */
  async rescanInSlices(slice = 500): Promise<number> {
    if (this.rescanning || !this.running) return 0;
    this.rescanning = true;
    try {
      const started = performance.now();
      const { groups, ladders } = this.allSources();
      let mismatches = 0;
      for (let i = 0; i < Math.max(groups.length, ladders.length); i += slice) {
        const now = this.clock.now();
        const diffs = this.newDiffs();
        mismatches += this.rescanSlice(groups.slice(i, i + slice), ladders.slice(i, i + slice), now, diffs);
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
    const groups = new Set(board.keys('group'));
    for (const r of [this.ev, ...this.arbitrage.values(), ...this.lowHold.values()]) for (const s of r.sources()) groups.add(s);
    for (const g of this.flagged.keys()) groups.add(g);
    const ladders = new Set(board.keys('ladder'));
    for (const r of this.middles.values()) for (const s of r.sources()) ladders.add(s);
    return { groups: [...groups], ladders: [...ladders] };
  }

  private rescanSlice(groups: string[], ladders: string[], now: number, diffs: Record<OpportunityKind, Map<string, LifecycleDiff<Tracked>>>): number {
    const ctx = this.ctx(now);
    let mismatches = 0;
    const check = <R extends Tracked>(reg: OpportunityRegistry<R>, source: string, found: R[], diff: LifecycleDiff<Tracked>) => {
      const had = reg.idsOf(source);
      const ids = new Set(found.map((r) => r.id));
      for (const id of had ?? []) if (!ids.has(id)) mismatches++;
      for (const id of ids) if (!had?.has(id)) mismatches++;
      reg.replaceSource(source, found, diff);
    };
    for (const g of groups) {
      this.noteFlags(ctx, g);
      check(this.ev, g, detectEv(ctx, g), diffs.ev.get('all')!);
      for (const s of this.scopes.arbitrage) {
        const a = detectArbitrage(ctx, g, s.filter);
        check(this.arbitrage.get(s.key)!, g, a ? [a] : [], diffs.arbitrage.get(s.key)!);
      }
      for (const s of this.scopes.low_hold) {
        const h = detectLowHold(ctx, g, s.filter);
        check(this.lowHold.get(s.key)!, g, h ? [h] : [], diffs.low_hold.get(s.key)!);
      }
    }
    for (const l of ladders) {
      for (const s of this.scopes.middles) check(this.middles.get(s.key)!, l, detectMiddles(ctx, l, s.filter), diffs.middles.get(s.key)!);
    }
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

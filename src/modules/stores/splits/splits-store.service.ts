import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Account } from '../../../common/auth/account.js';
import { AccessPolicy } from '../../../common/auth/access-policy.js';
import { EventBus } from '../../../common/bus/event-bus.js';
import { Clock } from '../../../common/time/clock.js';
import { Catalog } from '../../../config/catalog.js';
import { TIER_TABLE } from '../../../config/config.module.js';
import { TIERS, type TierTable } from '../../../config/tiers.js';
import { SPLITS_TOPIC, type ResolvedSplits, type SplitsMessage } from '../../../domain/topics.js';
import { BoardService } from '../../board/board.service.js';
import { Jobs } from '../../cluster/jobs.service.js';
import { SplitsRepository, type SplitsHistoryFilter, type SplitsHistoryResult } from './splits.repository.js';
import { cleanMarkets, DelayedSplits, hasAnyMarket, SPLITS_BOOKS, SplitsStore, type CurrentSplits } from './splits-store.js';

/** Spec part 8: snapshots about every 5 minutes, kept 48 hours. */
export const SPLITS_CAPTURE_INTERVAL_MS = 5 * 60_000;
export const SPLITS_RETENTION_MS = 48 * 3600_000;
const PURGE_INTERVAL_MS = 3600_000;

/**
 * The splits store: the latest public betting splits per (event, book) in memory, a delayed copy per tier delay
 * (free: 60 s), snapshots to the database every 5 minutes for the 48-hour history. Ingestion hands it each batch's
 * resolved splits (`apply`), which go out on the bus: every instance's store, this one's included, takes them from
 * there. The splits read module (GET /splits, /splits/history) reads `viewFor` and `history`.
 */
@Injectable()
export class SplitsStoreService implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('splits');
  private readonly current = new SplitsStore();
  private readonly delayed = new Map<number, DelayedSplits>();
  private unsubscribe: (() => void) | null = null;
  private loaded = false;

  constructor(
    private readonly clock: Clock,
    private readonly boards: BoardService,
    private readonly bus: EventBus,
    private readonly catalog: Catalog,
    private readonly policy: AccessPolicy,
    private readonly repo: SplitsRepository,
    private readonly jobs: Jobs,
    @Inject(TIER_TABLE) tiers: TierTable,
  ) {
    for (const t of TIERS) {
      const ms = tiers.byName[t].dataDelaySeconds * 1000;
      if (ms > 0 && !this.delayed.has(ms)) this.delayed.set(ms, new DelayedSplits(ms));
    }
  }

  onModuleInit(): void {
    // Splits come from ingestion over the bus: published here by the active worker, and from it to the replicas.
    const offSplits = this.bus.subscribe<SplitsMessage>(SPLITS_TOPIC, (m, remote) =>
      this.accept(m.splits, m.at, !remote && m.backfill === true),
    );
    const offBoard = this.boards.board.onChange((cs) => {
      if (cs.eventsRemoved.length) this.dropEvents(cs.eventsRemoved, cs.at);
    });
    this.unsubscribe = () => {
      offSplits();
      offBoard();
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.load();
    // Only the active worker writes snapshots; replicas serve what the bus brings them.
    this.jobs.every('splits:capture', SPLITS_CAPTURE_INTERVAL_MS, () => this.job('capture', () => this.captureSnapshot()), {
      runsOn: 'leader',
    });
    this.jobs.every('splits:purge', PURGE_INTERVAL_MS, () => this.job('purge', () => this.purge()), { runsOn: 'leader' });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  // ------------------------------------------------------------------ intake

  /** A batch's splits, resolved to their events by ingestion: published to every instance's store (this one's too). */
  apply(splits: ResolvedSplits[], at: number, backfill = false): void {
    if (splits.length) this.bus.publish<SplitsMessage>(SPLITS_TOPIC, { splits, at, ...(backfill ? { backfill: true } : {}) });
  }

  /** Intake (from the bus): keeps the latest split per (event, book) of the splits books, for events on the board. */
  accept(splits: ResolvedSplits[], now: number, backfill = false): void {
    const accepted: CurrentSplits[] = [];
    for (const s of splits) {
      const rec = this.toCurrent(s);
      if (rec && this.current.put(rec, now)) accepted.push(rec);
    }
    if (!accepted.length) return;
    for (const d of this.delayed.values()) {
      // A provider's initial snapshot describes a market that existed before: the delayed view gets it at once
      // (as the board's delayed views do), unless newer changes already wait in its queue.
      if (backfill && d.pending === 0) for (const rec of accepted) d.store.put(rec, now);
      else d.push({ at: now, put: accepted });
    }
  }

  private toCurrent(s: ResolvedSplits): CurrentSplits | null {
    const book = this.catalog.book(s.book)?.id;
    if (!book || !SPLITS_BOOKS.includes(book)) return null;
    const event = this.boards.board.events.get(s.eventId);
    if (!event) return null;
    const markets = cleanMarkets(s);
    if (!hasAnyMarket(markets)) return null;
    return {
      eventId: s.eventId,
      sportsbook: book,
      sport: s.sport,
      league: s.league,
      homeTeam: s.homeTeamName,
      awayTeam: s.awayTeamName,
      startTime: event.startTime,
      fetchedAt: Number.isFinite(s.fetchedAt) ? s.fetchedAt : this.clock.now(),
      ...markets,
    };
  }

  /** Splits of events that left the board leave the current list (history stays until the purge). */
  private dropEvents(eventIds: string[], at: number): void {
    this.current.dropEvents(eventIds, at);
    for (const d of this.delayed.values()) d.push({ at, drop: eventIds });
  }

  /** At start: the latest snapshot per (event, book) still on the board, so a restart keeps serving splits. */
  async load(): Promise<number> {
    if (this.loaded) return 0;
    this.loaded = true;
    await this.boards.rebuild();
    const now = this.clock.now();
    const latest = await this.repo.latest(now - SPLITS_RETENTION_MS);
    let n = 0;
    for (const stored of latest) {
      const event = this.boards.board.events.get(stored.eventId);
      if (!event) continue;
      const { capturedAt: _capturedAt, ...rest } = stored;
      const rec: CurrentSplits = { ...rest, startTime: event.startTime };
      if (!this.current.put(rec, now)) continue;
      // Already old enough for every delayed view: they get it at once.
      for (const d of this.delayed.values()) d.store.put(rec, now);
      n++;
    }
    if (latest.length) this.logger.log({ msg: 'splits loaded from the latest snapshots', splits: n, snapshots: latest.length });
    return n;
  }

  // ------------------------------------------------------------------ jobs

  /** Writes every current (event, book) split with captured_at = now. Returns the snapshots written. */
  async captureSnapshot(now = this.clock.now()): Promise<number> {
    return this.repo.insert([...this.current.values()], now);
  }

  /** Deletes snapshots older than 48 hours. Returns how many. */
  async purge(now = this.clock.now()): Promise<number> {
    return this.repo.purge(now - SPLITS_RETENTION_MS);
  }

  private async job(name: string, run: () => Promise<number>): Promise<void> {
    const started = performance.now();
    try {
      const n = await run();
      this.logger.debug({ msg: `splits ${name}`, rows: n, ms: Math.round(performance.now() - started) });
    } catch (err) {
      this.logger.warn({ msg: `splits ${name} failed`, error: (err as Error).message });
    }
  }

  // ------------------------------------------------------------------ reads

  /** The current splits as this caller sees them (the tier's data delay applied). */
  viewFor(account: Account | undefined): SplitsStore {
    const delay = this.policy.delaySeconds(account);
    if (delay <= 0) return this.current;
    const d = this.delayed.get(delay * 1000);
    if (!d) throw new Error(`no delayed splits view for ${delay} s`);
    return d.advance(this.clock.now());
  }

  /** One event's stored snapshots (the history). */
  history(f: SplitsHistoryFilter): Promise<SplitsHistoryResult> {
    return this.repo.history(f);
  }
}

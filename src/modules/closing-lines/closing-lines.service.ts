import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { EventBus } from '../../common/bus/event-bus.js';
import { badRequest, notFound } from '../../common/http/api-error.js';
import { Clock } from '../../common/time/clock.js';
import { Jobs } from '../cluster/jobs.service.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import type { ChangeSet } from '../../domain/odds-row.js';
import { BoardService } from '../board/board.service.js';
import { closingCaptures, startedCaptures, toStoredLine, type PendingCapture } from './closing-capture.js';
import { ClosingLinesRepository, type ClosingCapture } from './closing-lines.repository.js';
import type { ClosingLinesQuery } from './dto/closing-lines.query.dto.js';
import { dict } from '../../domain/dict.js';
import { ODDS_TOPIC } from '../../domain/topics.js';

export const CLOSING_LINE_FEATURE = { name: 'closing_line', label: 'Closing lines', fromTier: 'pro' } as const;

/** Most captures kept in memory while the database refuses writes (oldest dropped past it, and logged). */
const MAX_PENDING = 20_000;

/**
 * Closing lines: every change set the active worker applies is looked at before the board takes it; a book
 * that first quotes an event live (or an event that goes live) has its last pre-game prices stored as its
 * closing line. The store keeps the first capture of each event and book, and is what counts: at start the
 * pairs it holds for the events on the board are marked captured, and listeners (the CLV track record) hear
 * of a capture once the store took it (in-process), so a capture repeated after a restart is never heard.
 */
@Injectable()
export class ClosingLinesService implements OnApplicationBootstrap {
  private readonly logger = new Logger('closing-lines');
  private readonly captured = new Set<string>();
  private pending: ClosingCapture[] = [];
  private readonly listeners = new Set<(c: ClosingCapture) => void>();
  private flushing: Promise<void> = Promise.resolve();
  stats = { captured: 0, stored: 0, purged: 0, writeFailures: 0 };

  constructor(
    private readonly boards: BoardService,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly repo: ClosingLinesRepository,
    private readonly policy: AccessPolicy,
    private readonly jobs: Jobs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get maxAgeMs(): number {
    return this.config.closingLineMaxAgeMinutes * 60_000;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.loadCaptured();
    // Local change sets only: the instance that applies them (the active worker) captures; replicas read the table.
    this.bus.subscribe<ChangeSet>(ODDS_TOPIC, (cs, remote) => {
      if (!remote) this.onChangeSet(cs);
    });
    this.jobs.every('closing-lines:flush', 2_000, () => this.flush());
    this.jobs.every('closing-lines:started', 15_000, () => this.captureStarted(), { runsOn: 'leader' });
    this.jobs.every('closing-lines:purge', 3600_000, () => this.purge(), { runsOn: 'leader' });
  }

  /** Marks captured the (event, book) pairs the store holds for the events on the board (the board is loaded first). */
  async loadCaptured(): Promise<number> {
    try {
      const pairs = await this.repo.capturedPairs([...this.boards.board.events.keys()]);
      for (const p of pairs) this.captured.add(p);
      return pairs.length;
    } catch (err) {
      this.logger.warn({ msg: 'closing lines already captured could not be read', error: (err as Error).message });
      return 0;
    }
  }

  /** Hears of every capture the store took (in-process, as it is written). */
  onCapture(fn: (c: ClosingCapture) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Called with each change set before the board applies it (the board still holds the pre-game prices). */
  onChangeSet(cs: ChangeSet): void {
    for (const id of cs.eventsRemoved) this.forget(id);
    this.take(closingCaptures(this.boards.board, cs, this.captured, this.maxAgeMs), cs.at);
  }

  /** Games past their start time that no book has quoted live: their pre-game prices close now. */
  captureStarted(now = this.clock.now()): number {
    const found = startedCaptures(this.boards.board, now, this.captured, this.maxAgeMs);
    this.take(found, now);
    return found.length;
  }

  private take(found: PendingCapture[], at: number): void {
    if (!found.length) return;
    for (const f of found) {
      const c: ClosingCapture = {
        eventId: f.event.id,
        sportsbook: f.sportsbook,
        sport: f.event.sport,
        league: f.event.league,
        homeTeam: f.event.homeTeam,
        awayTeam: f.event.awayTeam,
        eventStartTime: f.event.startTime,
        capturedAt: at,
        lines: f.rows.map(toStoredLine),
      };
      this.stats.captured++;
      this.pending.push(c);
    }
    if (this.pending.length > MAX_PENDING) {
      const dropped = this.pending.splice(0, this.pending.length - MAX_PENDING);
      this.logger.warn({ msg: 'closing lines dropped: the database has refused writes for too long', dropped: dropped.length });
    }
  }

  private forget(eventId: string): void {
    for (const key of this.captured) if (key.startsWith(`${eventId}|`)) this.captured.delete(key);
  }

  /** Writes the captures made so far (serialised: one write at a time). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (!this.pending.length) return;
      const batch = this.pending;
      this.pending = [];
      let stored: Set<string>;
      try {
        stored = new Set(await this.repo.insert(batch));
        this.stats.stored += stored.size;
      } catch (err) {
        this.stats.writeFailures++;
        this.pending = [...batch, ...this.pending];
        this.logger.warn({ msg: 'closing lines not written; retrying', error: (err as Error).message, pending: this.pending.length });
        return;
      }
      // Only the first capture of a pair is stored: a repeat (another worker's, one before a restart) is not heard.
      for (const c of batch) {
        if (!stored.has(`${c.eventId}|${c.sportsbook}`)) continue;
        for (const fn of this.listeners) {
          try {
            fn(c);
          } catch (err) {
            this.logger.warn({ msg: 'closing-line listener failed', error: (err as Error).message });
          }
        }
      }
    });
    return this.flushing;
  }

  async purge(): Promise<number> {
    const before = this.clock.now() - this.config.closingLinesRetentionHours * 3600_000;
    try {
      const n = await this.repo.purge(before);
      this.stats.purged += n;
      if (n) this.logger.log({ msg: 'purged closing lines', rows: n });
      return n;
    } catch (err) {
      this.logger.warn({ msg: 'closing-line purge failed', error: (err as Error).message });
      return 0;
    }
  }

  /** GET /odds/closing: the event's closing lines per book, among the books the caller may see. */
  async get(account: Account, q: ClosingLinesQuery) {
    const eventId = (q.event_id ?? q.event)?.trim();
    if (!eventId) throw badRequest('Missing required parameter "event_id"', { parameter: 'event_id' });
    const scope = this.policy.resolveBooks(account, q.sportsbook ?? q.books);
    await this.flush();
    const caps = (await this.repo.forEvent(eventId)).filter((c) => scope.has(c.sportsbook));
    const ev = this.boards.board.events.get(eventId);
    const first = caps[0];
    if (!ev && !first) throw notFound(`No event with id "${eventId}" and no closing lines stored for it`);
    const books: Record<string, unknown[]> = dict();
    for (const c of caps) {
      books[c.sportsbook] = c.lines.map((l) => {
        const line: Record<string, unknown> = dict({
          sportsbook: c.sportsbook,
          market_type: l.market_type,
          period: l.period,
          selection: l.selection,
          selection_type: l.selection_type,
          odds_american: l.odds_american,
          odds_decimal: Math.round(l.odds_decimal * 1000) / 1000,
        });
        if (l.line !== null) line.line = l.line;
        if (l.player_name) line.player_name = l.player_name;
        if (l.stat_category) line.stat_category = l.stat_category;
        return line;
      });
    }
    const base = first
      ? {
          sport: first.sport,
          league: first.league,
          home_team: first.homeTeam,
          away_team: first.awayTeam,
          event_start_time: new Date(first.eventStartTime).toISOString(),
        }
      : {
          sport: ev!.sport,
          league: ev!.league,
          home_team: ev!.homeTeam,
          away_team: ev!.awayTeam,
          event_start_time: new Date(ev!.startTime).toISOString(),
        };
    const capturedAt = caps.length ? Math.min(...caps.map((c) => c.capturedAt)) : null;
    return {
      success: true as const,
      data: { event_id: eventId, ...base, captured_at: capturedAt === null ? null : new Date(capturedAt).toISOString(), books },
      meta: {
        source: 'database',
        book_count: caps.length,
        retention_hours: this.config.closingLinesRetentionHours,
        updated_at: this.clock.iso(),
      },
    };
  }
}

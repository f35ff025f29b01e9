import { timeParam } from '../../common/time/time-param.js';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { EventBus } from '../../common/bus/event-bus.js';
import { badRequest } from '../../common/http/api-error.js';
import { Clock } from '../../common/time/clock.js';
import { Jobs } from '../cluster/jobs.service.js';
import { Catalog } from '../../config/catalog.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { venueCosts } from '../../config/costs.js';
import type { AppConfig } from '../../config/env.js';
import type { TierName } from '../../config/tiers.js';
import type { ChangeSet } from '../../domain/odds-row.js';
import type { DevigMethod } from '../../math/index.js';
import { BoardService } from '../board/board.service.js';
import type { ClosingCapture } from '../closing-lines/closing-lines.repository.js';
import { ClosingLinesService } from '../closing-lines/closing-lines.service.js';
import { Leadership } from '../cluster/leadership.service.js';
import { DetectionEngine } from '../detection/detection.engine.js';
import { closingValueFor, clvPercent, finalScoreOf, gradeBet, netClvPercent, summarise } from './clv.math.js';
import { ClvRepository, type NewPrediction, type ReportRow } from './clv.repository.js';
import type { ClvQuery, ClvGroupBy } from './dto/clv.query.dto.js';
import { ODDS_TOPIC, OPPORTUNITIES_TOPIC, type OpportunityEvent } from '../../domain/topics.js';
import type { EvRecord } from '../ev/ev.record.js';

/** How far back each tier may look (days; null: no limit). free 7, hobby 30, pro 90, sharp 365 days, enterprise unlimited. */
export const CLV_WINDOW_DAYS: Record<TierName, number | null> = { free: 7, hobby: 30, pro: 90, sharp: 365, enterprise: null };
const DAY = 86_400_000;

/**
 * The CLV track record of the service's own +EV signals. The active worker records each +EV price the
 * detection engine finds before its game starts (first detection of each opportunity: price, fair probability
 * by CLV_DEVIG_METHOD, the sharp book devigged); when that sharp book's closing line is captured the CLV is
 * computed against it; when the game ends with a final score the bet is graded.
 */
@Injectable()
export class ClvService implements OnApplicationBootstrap {
  private readonly logger = new Logger('clv');
  private readonly recorded = new Map<string, Set<string>>();
  private pending: NewPrediction[] = [];
  private chain: Promise<void> = Promise.resolve();
  stats = { recorded: 0, closed: 0, graded: 0, voided: 0, failures: 0 };

  private readonly costs = venueCosts();

  constructor(
    private readonly engine: DetectionEngine,
    private readonly closing: ClosingLinesService,
    private readonly boards: BoardService,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly repo: ClvRepository,
    private readonly leadership: Leadership,
    private readonly catalog: Catalog,
    private readonly jobs: Jobs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.subscribe<OpportunityEvent>(OPPORTUNITIES_TOPIC, (evt) => {
      if (evt.kind === 'ev' && evt.scope === 'all' && evt.detected.length && this.leadership.isLeader) this.record(evt);
    });
    this.closing.onCapture((c) => this.leadership.isLeader && this.onClose(c));
    this.bus.subscribe<ChangeSet>(ODDS_TOPIC, (cs, remote) => {
      if (!remote) this.onChangeSet(cs);
    });
    this.jobs.every('clv:flush', 2_000, () => this.flush());
  }

  private get method(): DevigMethod {
    return this.config.clvDevigMethod;
  }

  /** New +EV detections: pre-game prices, positive by the recorded method, first detection of each id. */
  private record(evt: OpportunityEvent): void {
    const board = this.boards.board;
    for (const ref of evt.detected) {
      const r = this.engine.record('ev', 'all', ref.id) as EvRecord | undefined;
      if (!r || r.row.isLive) continue;
      const ev = board.events.get(r.row.eventId);
      if (!ev || ev.status !== 'upcoming') continue;
      const seen = this.recorded.get(ev.id) ?? new Set<string>();
      if (seen.has(r.id)) continue;
      const fair = r.fair[this.method];
      const evPct = (fair * r.row.decimal - 1) * 100;
      if (!(evPct > 0)) continue;
      seen.add(r.id);
      this.recorded.set(ev.id, seen);
      this.pending.push({
        opportunityId: r.id,
        eventId: ev.id,
        sport: ev.sport,
        league: ev.league,
        homeTeam: ev.homeTeam,
        awayTeam: ev.awayTeam,
        eventStartTime: ev.startTime,
        sportsbook: r.row.sportsbook,
        marketType: r.row.marketType,
        period: r.row.period,
        groupKey: r.row.groupKey,
        selection: r.row.selection,
        selectionType: r.row.selectionType,
        line: r.row.line,
        playerName: r.row.playerName,
        entryAmerican: Math.round(r.row.american),
        entryDecimal: r.row.decimal,
        fairProbability: fair,
        evPercent: Math.round(evPct * 10_000) / 10_000,
        devigMethod: this.method,
        devigBook: r.sharpBook,
        outcomeCount: r.sharpRows.length,
        detectedAt: evt.at,
      });
      this.stats.recorded++;
    }
  }

  /** Runs database work one job at a time, in order (records are written before a close or a grade reads them). */
  private enqueue(job: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(job).catch((err: unknown) => {
      this.stats.failures++;
      this.logger.warn({ msg: 'CLV track record write failed', error: (err as Error).message });
    });
    return this.chain;
  }

  /** Writes the detections recorded so far. */
  flush(): Promise<void> {
    return this.enqueue(async () => {
      if (!this.pending.length) return;
      const batch = this.pending;
      this.pending = [];
      try {
        await this.repo.insert(batch);
      } catch (err) {
        this.pending = [...batch, ...this.pending].slice(-50_000);
        throw err;
      }
    });
  }

  /** A book's closing line was captured: value the predictions devigged against it. */
  private onClose(c: ClosingCapture): void {
    void this.flush();
    void this.enqueue(async () => {
      const open = await this.repo.unclosed(c.eventId, c.sportsbook);
      if (!open.length) return;
      const items = open.map((p) => {
        const v = closingValueFor(p, c.lines, p.devigMethod as DevigMethod);
        return {
          id: p.opportunityId,
          probability: v?.probability ?? null,
          clv: v ? clvPercent(v.probability, p.entryDecimal) : null,
          method: v?.method ?? null,
          referenceLine: v?.referenceLine ?? null,
        };
      });
      await this.repo.close(items, c.capturedAt);
      this.stats.closed += items.length;
    });
  }

  /** Events that ended with a final score: grade their predictions; postponed or cancelled: void them. */
  private onChangeSet(cs: ChangeSet): void {
    for (const e of cs.events) {
      if (e.status === 'postponed' || e.status === 'cancelled') {
        if (this.boards.board.events.get(e.id)?.status === e.status || !this.leadership.isLeader) continue;
        const reason = e.status;
        void this.flush();
        void this.enqueue(async () => {
          this.stats.voided += await this.repo.voidEvent(e.id, reason);
        });
        continue;
      }
      if (e.status !== 'ended') continue;
      const before = this.boards.board.events.get(e.id);
      if (before?.status === 'ended') continue;
      const score = finalScoreOf(e.sport, e.gameState);
      this.recorded.delete(e.id);
      if (!score || !this.leadership.isLeader) continue;
      void this.flush();
      void this.enqueue(async () => {
        const open = await this.repo.ungraded(e.id);
        if (!open.length) return;
        const items = open.map((p) => ({ id: p.opportunityId, result: gradeBet(p, score) }));
        await this.repo.grade(items, cs.at);
        this.stats.graded += items.length;
      });
    }
    for (const id of cs.eventsRemoved) this.recorded.delete(id);
  }

  /** Resolves when every write queued so far is done (tests, the track-record script). */
  async settle(): Promise<void> {
    await this.closing.flush();
    await this.flush();
    await this.chain;
  }

  /** GET /historical/clv. */
  async report(account: Account, q: ClvQuery) {
    const now = this.clock.now();
    const to = timeParam('to', q.to, { dateAlone: 'end' }) ?? now;
    let from = timeParam('from', q.from) ?? now - 7 * DAY;
    if (from > to) throw badRequest('Invalid parameters: "from" is after "to"', { parameter: 'from' });
    const windowDays = CLV_WINDOW_DAYS[account.tier];
    let clamped = false;
    if (windowDays !== null && from < now - windowDays * DAY) {
      from = now - windowDays * DAY;
      clamped = true;
    }
    const groupBy: ClvGroupBy = q.group_by ?? 'sportsbook';
    const sport = q.sport?.map((s) => {
      const id = this.catalog.sportId(s);
      if (!id) throw badRequest(`Invalid parameter "sport": unknown sport "${s}"`, { parameter: 'sport' });
      return id;
    });
    const league = q.league?.map((s) => {
      const l = this.catalog.league(s);
      if (!l) throw badRequest(`Invalid parameter "league": unknown league "${s}"`, { parameter: 'league' });
      return l.id;
    });
    const book = (name: string, param: string) => {
      const b = this.catalog.book(name);
      if (!b) throw badRequest(`Invalid parameter "${param}": unknown sportsbook "${name}"`, { parameter: param });
      return b.id;
    };
    const sportsbook = q.sportsbook?.map((b) => book(b, 'sportsbook'));
    const devigBook = q.devig_book?.map((b) => book(b, 'devig_book'));
    await this.settle();
    const read = from <= to ? await this.repo.report({ from, to, sport, league, sportsbook, devigBook }) : [];
    // The net figure of each bet: its closing probability against the entry price after its venue's costs.
    const rows = read.map((r) => ({
      ...r,
      netClvPercent:
        r.closingProbability === null
          ? null
          : netClvPercent(r.closingProbability, r.entryDecimal, this.costs.ofBook(r.sportsbook, this.catalog)),
    }));
    const keyOf = (r: ReportRow): string => {
      switch (groupBy) {
        case 'sportsbook':
          return r.sportsbook;
        case 'sport':
          return r.sport;
        case 'league':
          return r.league;
        case 'market':
          return r.marketType;
        case 'day':
          return new Date(r.detectedAt).toISOString().slice(0, 10);
        case 'devig_book':
          return r.devigBook;
      }
    };
    const groups = new Map<string, ReportRow[]>();
    for (const r of rows) {
      const k = keyOf(r);
      const list = groups.get(k);
      if (list) list.push(r);
      else groups.set(k, [r]);
    }
    const out = [...groups.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, list]) => ({ group_key: key, ...summarise(list) }));
    return {
      success: true as const,
      data: {
        date_range: { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
        group_by: groupBy,
        devig_method: this.method,
        overall: summarise(rows),
        groups: out,
      },
      meta: {
        filters: { sport: sport ?? null, league: league ?? null, sportsbook: sportsbook ?? null, devig_book: devigBook ?? null },
        source: 'database',
        tier_window_days: windowDays,
        window_clamped: clamped,
        updated_at: new Date(now).toISOString(),
      },
    };
  }
}

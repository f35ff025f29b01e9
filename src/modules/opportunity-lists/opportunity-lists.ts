import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy, type BookScope } from '../../common/auth/access-policy.js';
import { Clock } from '../../common/time/clock.js';
import { foldName } from '../../config/catalog.js';
import { localDateHour } from '../../domain/normalise.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import { BoardService } from '../board/board.service.js';
import type { OddsBoard } from '../board/odds-board.js';
import { DetectionEngine } from '../detection/detection.engine.js';
import type { OpportunityRecord } from '../detection/detector.js';
import { probableMappingError } from '../detection/guards.js';
import { ageSeconds } from '../detection/market-groups.js';
import { EventsService } from '../events/events.service.js';
import type { OpportunityFilters } from './dto/opportunity-filters.query.js';
import { dict } from '../../domain/dict.js';

/** One list request's view: the caller's board (its tier's delay), books (its tier's rules) and filters. */
export interface ListScope {
  board: OddsBoard;
  books: BookScope;
  now: number;
  sports?: ReadonlySet<string>;
  leagues?: ReadonlySet<string>;
  markets?: ReadonlySet<string>;
  events?: ReadonlySet<string>;
  eventOk: (e: BoardEvent | undefined) => boolean;
}

/** What every opportunity list's API description says about book scopes and the guards. */
export const LIST_SCOPE_NOTE =
  "Opportunities are found continuously in each tier's default book set (hobby: 5 books, pro: 15, sharp and enterprise: all); `sportsbook` narrows to opportunities among the named books (tier book rules apply: a book above the tier or more books than the tier allows is 403 tier_restricted). Suspended prices never enter an opportunity; every leg is a complementary outcome of the same market (same event, period, line and settlement). A venue whose own market crosses itself or holds far over its usual hold is left out, and so is an opportunity using a price far from the other books' consensus (a probable mapping error or stale line): `include_flagged=true` lists what they would add, with VENUE_SELF_ARBITRAGE, VENUE_EXCESS_HOLD or PRICE_OFF_CONSENSUS (thresholds in the README, Opportunities). A price from a book the catalog does not describe adds UNVERIFIED_BOOK.";

const ET = 'America/New_York';
const DAY = 86_400_000;

/**
 * A `sort` value as a field and a direction ("-profit": profit, reversed); a field's other name (`aliases`, such as
 * time for start_time) gives the field itself.
 */
export function sortOf(
  sort: string | undefined,
  def: string,
  aliases: Readonly<Record<string, string>> = {},
): { field: string; reverse: boolean } {
  const s = sort ?? def;
  const reverse = s.startsWith('-');
  const name = reverse ? s.slice(1) : s;
  return { field: aliases[name] ?? name, reverse };
}

export function countBy<T>(items: readonly T[], key: (t: T) => string | string[]): Record<string, number> {
  const out: Record<string, number> = dict();
  for (const i of items) for (const k of ([] as string[]).concat(key(i))) out[k] = (out[k] ?? 0) + 1;
  return out;
}

export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
export const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function bySport(a: { sport: string }, b: { sport: string }): number {
  return a.sport < b.sport ? -1 : a.sport > b.sport ? 1 : 0;
}

/** Offset of US Eastern from UTC at an instant, in ms (positive: Eastern midnight is later in UTC). */
function etOffsetMs(at: number): number {
  const { hour } = localDateHour(at, ET);
  const utcHour = new Date(at).getUTCHours();
  const diff = (utcHour - hour + 24) % 24;
  return diff * 3600_000;
}

/**
 * What every opportunity list shares: the caller's scope and filters, the records of a type as the caller may
 * see them, and the echo of the filters. For a caller's default book set the continuously maintained scope is
 * used; a narrower set of named books is evaluated on demand over the sources that have an opportunity among
 * all books (anything found among fewer books is also found among all of them).
 */
@Injectable()
export class OpportunityLists {
  constructor(
    private readonly engine: DetectionEngine,
    private readonly boards: BoardService,
    private readonly policy: AccessPolicy,
    private readonly events: EventsService,
    private readonly clock: Clock,
  ) {}

  /** The caller's view (the one place the tier data policy is applied to a list) and its resolved filters. */
  scope(account: Account | undefined, q: OpportunityFilters): ListScope {
    const books = this.policy.resolveBooks(account, q.sportsbook, q.add_sportsbook);
    const board = this.boards.viewFor(account);
    const now = this.clock.now();
    const team = q.team ? foldName(q.team) : '';
    let window: [number, number] | null = null;
    if (q.date_range) {
      const today = localDateHour(now, ET).date;
      const midnight = Date.parse(`${today}T00:00:00Z`) + etOffsetMs(now);
      window =
        q.date_range === 'today'
          ? [midnight, midnight + DAY]
          : q.date_range === 'tomorrow'
            ? [midnight + DAY, midnight + 2 * DAY]
            : [now - 6 * 3600_000, now + 7 * DAY];
    }
    const eventIds = [...(q.event ?? []), ...(q.event_id ?? [])];
    return {
      board,
      books,
      now,
      sports: this.events.resolveSports(q.sport),
      leagues: this.events.resolveLeagues(q.league),
      markets: this.events.resolveMarkets(q.market),
      events: eventIds.length ? new Set(eventIds) : undefined,
      eventOk: (e) => {
        if (!e) return false;
        if (team && !this.events.matchesTeam(e, team)) return false;
        if (window && (e.startTime < window[0] || e.startTime >= window[1])) return false;
        return true;
      },
    };
  }

  /** Whether a price an opportunity uses passes the caller's books and filters. */
  rowOk(c: ListScope, r: OddsRow, q: OpportunityFilters & { min_odds?: number; max_odds?: number }): boolean {
    if (!c.books.has(r.sportsbook)) return false;
    if (c.sports && !c.sports.has(r.sport)) return false;
    if (c.leagues && !c.leagues.has(r.league)) return false;
    if (c.markets && !c.markets.has(r.marketType)) return false;
    if (c.events && !c.events.has(r.eventId)) return false;
    if (q.live !== undefined && r.isLive !== q.live) return false;
    if (q.min_odds !== undefined && r.american < q.min_odds) return false;
    if (q.max_odds !== undefined && r.american > q.max_odds) return false;
    return true;
  }

  /** Whether an opportunity passes the filters on its prices, its event and (`max_odds_age`) its oldest price. */
  passes(
    c: ListScope,
    q: OpportunityFilters & { min_odds?: number; max_odds?: number },
    r: OpportunityRecord,
    rows: readonly OddsRow[],
  ): boolean {
    if (!rows.every((row) => this.rowOk(c, row, q))) return false;
    if (!c.eventOk(c.board.events.get(r.eventId))) return false;
    if (q.max_odds_age !== undefined && this.maxAge(c, rows) > q.max_odds_age) return false;
    return true;
  }

  /** Seconds since the stalest of some prices was confirmed. */
  maxAge(c: ListScope, rows: readonly OddsRow[]): number {
    return Math.max(...rows.map((r) => ageSeconds(c.board, r, c.now)));
  }

  /**
   * The live opportunities of a type as a caller sees them: its default scope's registry (types evaluated once:
   * the all-books one), or an on-demand evaluation among the books it named; with `include_flagged`, the sources
   * holding a flagged venue market evaluated again with flagged markets let in (each then carries its VENUE_*
   * warning). Without it, opportunities on a probable mapping error (a price far off the consensus) are left out.
   */
  records<R extends OpportunityRecord>(kind: string, account: Account | undefined, c: ListScope, includeFlagged: boolean | undefined): R[] {
    const detector = this.engine.detector(kind);
    if (!detector) return [];
    const all = this.engine.live<R>(kind)!;
    let base: R[];
    if (!detector.perScope) base = [...all.values()];
    else if (c.books.isDefault && account) base = [...this.engine.live<R>(kind, this.engine.scopeKeyFor(kind, account.tier))!.values()];
    else {
      const ctx = this.engine.ctx(c.now);
      base = [];
      for (const source of all.sources()) {
        for (const r of this.engine.detectOn(detector, ctx, source, c.books.has) as R[]) {
          const known = this.engine.known(kind, r.id);
          const group = [...(all.idsOf(source) ?? [])].map((id) => all.get(id)!.detectedAt);
          r.detectedAt = known?.detectedAt ?? Math.min(r.detectedAt, ...group);
          base.push(r);
        }
      }
    }
    if (!includeFlagged) return base.filter((r) => !probableMappingError(r.guards));
    const sources = this.engine.flaggedSources(kind);
    if (!sources.size) return base;
    const ctx = this.engine.ctx(c.now, { includeFlagged: true });
    const out = base.filter((r) => !sources.has(r.source));
    // The books a type evaluated once over every book is found among; the others among the caller's.
    const inScope = detector.perScope ? c.books.has : () => true;
    for (const source of sources) {
      for (const r of this.engine.detectOn(detector, ctx, source, inScope) as R[]) {
        const known = this.engine.known(kind, r.id);
        if (known) r.detectedAt = known.detectedAt;
        out.push(r);
      }
    }
    return out;
  }

  /** The filters every list echoes in `meta.filters`. */
  echo(q: OpportunityFilters, c: ListScope) {
    return {
      sport: q.sport ?? null,
      league: q.league ?? null,
      sportsbook: c.books.isDefault ? null : c.books.books,
      market: q.market ?? null,
      event: [...(q.event ?? []), ...(q.event_id ?? [])].join(',') || null,
      team: q.team ?? null,
      live: q.live ?? null,
      date_range: q.date_range ?? null,
      max_odds_age: q.max_odds_age ?? null,
      include_flagged: q.include_flagged ?? false,
    };
  }
}

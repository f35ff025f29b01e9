import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { badRequest, notFound } from '../../common/http/api-error.js';
import { page } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { selectionMovement, type BookPrices, type PricePoint } from '../../math/line-movement.js';
import { BoardService } from '../board/board.service.js';
import { EventsService } from '../events/events.service.js';
import { timeParam } from '../../common/time/time-param.js';
import type { ChangeRow, StoredSeries } from '../stores/line-history/line-history.repository.js';
import { LineHistoryStore } from '../stores/line-history/line-history.store.js';
import type { LineHistoryQuery, LineMovementQuery } from './dto/odds-history.query.dto.js';
import type { HistorySeriesDto, SelectionMovementDto } from './dto/odds-history.response.dto.js';
import { iso, movementItem, toPoint } from './odds-history.mapper.js';

/** Changes read per series for the movement figures; a series with more in the window is counted from its first ones. */
export const MOVEMENT_MAX_CHANGES = 50_000;
/** Changes read for one page of movement figures: a page of many series reads fewer of each (at least 100). */
export const MOVEMENT_PAGE_CHANGES = 1_000_000;
/** Changes one page of history holds at most: the page ends early (with `has_more`) rather than exceed it. */
export const HISTORY_PAGE_POINTS = 100_000;
const DEFAULT_MAX_POINTS = 1000;

interface Scope {
  eventId: string;
  from: number;
  to: number;
  /** The series in scope with at least one change in the window, in their stable order. */
  series: StoredSeries[];
  /** The series in scope whatever their changes (the window may start inside one's last price). */
  candidates: StoredSeries[];
  delaySeconds: number;
}

/** The selections of a series list: market, period, side, name, line and player (books apart). */
export function selectionKey(s: StoredSeries): string {
  return [s.marketType, s.period, s.selectionType, s.selection.toLowerCase(), s.line ?? '', (s.playerName ?? '').toLowerCase()].join('|');
}

/**
 * The line-history reads: GET /odds/history (each book's series of changes) and GET /odds/movement (open, current,
 * high, low, moves, first mover and steam per selection). The tier data policy is the one of the odds routes: the
 * books from the access policy (default set, tier book rules), and the tier's delay: a delayed key's window ends
 * its delay ago, so it sees no change newer than that.
 */
@Injectable()
export class OddsHistoryService {
  constructor(
    private readonly store: LineHistoryStore,
    private readonly boards: BoardService,
    private readonly events: EventsService,
    private readonly policy: AccessPolicy,
    private readonly clock: Clock,
  ) {}

  /** The one place both routes apply the query: event, books, markets, window (with the tier's delay), series. */
  private async scope(account: Account | undefined, q: LineHistoryQuery | LineMovementQuery): Promise<Scope> {
    const eventId = (q.event ?? q.event_id)?.trim();
    if (!eventId) throw badRequest('Missing required parameter "event" (alias event_id)', { parameter: 'event' });
    if (q.event !== undefined && q.event_id !== undefined && q.event.trim() !== q.event_id.trim())
      throw badRequest('Invalid parameters: "event_id" is an alias of "event"; give one of them', { parameter: 'event_id' });
    const books = this.policy.resolveBooks(account, q.sportsbook);
    const markets = this.events.resolveMarkets(q.market);
    const from = timeParam('from', q.from);
    const to = timeParam('to', q.to);
    if (from !== undefined && to !== undefined && from > to)
      throw badRequest('Invalid parameters: "from" is after "to"', { parameter: 'from' });
    const now = this.clock.now();
    const delaySeconds = this.policy.delaySeconds(account);
    const asOf = now - delaySeconds * 1000;
    const window = { from: from ?? this.store.oldest(now), to: Math.min(to ?? asOf, asOf) };
    const selections = q.selection?.length ? new Set(q.selection) : undefined;
    let series = await this.store.series(eventId, {
      books: books.all ? undefined : books.books,
      markets: markets ? [...markets] : undefined,
      periods: q.period,
      lines: q.line?.map(Number),
    });
    if (selections)
      series = series.filter((s) => selections.has(s.selectionType.toLowerCase()) || selections.has(s.selection.toLowerCase()));
    if (!series.length && !this.boards.board.events.has(eventId) && !(await this.store.hasEvent(eventId)))
      throw notFound(`No event with id "${eventId}" on the board or in the line history`);
    // The series with a change in the window (a window emptied by the delay holds none).
    const withChanges =
      window.from <= window.to
        ? new Set(
            await this.store.seriesWithChanges(
              series.map((s) => s.id),
              window.from,
              window.to,
            ),
          )
        : new Set();
    return { eventId, ...window, series: series.filter((s) => withChanges.has(s.id)), candidates: series, delaySeconds };
  }

  private meta(s: Scope) {
    return {
      event_id: s.eventId,
      from: iso(s.from),
      to: iso(s.to),
      delay_seconds: s.delaySeconds,
      retention_days: this.store.retentionDays,
    };
  }

  /** GET /odds/history: a page of series (books, selections, lines), each with its changes in the window. */
  async history(account: Account | undefined, q: LineHistoryQuery) {
    const s = await this.scope(account, q);
    // with_prior: each series starts with the change in force at the window start; a series quoted then counts too.
    const prior = new Map<number, ChangeRow>();
    if (q.with_prior && s.from <= s.to) {
      const inWindow = new Set(s.series.map((x) => x.id));
      for (const c of await this.store.inForceAt(
        s.candidates.map((x) => x.id),
        s.from - 1,
      ))
        if (c.priceE4 !== null || inWindow.has(c.seriesId)) prior.set(c.seriesId, c);
      s.series = s.candidates.filter((x) => inWindow.has(x.id) || prior.has(x.id));
    }
    const pageSeries = s.series.slice(q.offset, q.offset + q.limit);
    const max = q.max_points ?? DEFAULT_MAX_POINTS;
    const rows = await this.store.changes(
      pageSeries.map((x) => x.id),
      s.from,
      s.to,
      max + 1,
    );
    const bySeries = groupBySeries(rows);
    for (const [id, c] of prior) {
      const list = bySeries.get(id);
      if (list) list.unshift(c);
      else bySeries.set(id, [c]);
    }
    let points = 0;
    const data: HistorySeriesDto[] = [];
    for (const x of pageSeries) {
      const all = bySeries.get(x.id) ?? [];
      const kept = all.slice(0, max);
      // A page ends before the series that would take it past the budget (it holds one series at least).
      if (data.length && points + kept.length > HISTORY_PAGE_POINTS) break;
      points += kept.length;
      const next = all[max];
      data.push({
        sportsbook: x.sportsbook,
        market_type: x.marketType,
        period: x.period,
        selection: x.selection,
        selection_type: x.selectionType,
        line: x.line,
        player_name: x.playerName,
        odds_id: x.oddsId,
        points: kept.map(toPoint),
        truncated: next !== undefined,
        next_from: next ? iso(next.at) : null,
      });
    }
    return page(data, { limit: q.limit, offset: q.offset, total: s.series.length }, { ...this.meta(s), points, source: 'database' });
  }

  /** GET /odds/movement: a page of selections, each with the best price's and every book's movement and the steam moves. */
  async movement(account: Account | undefined, q: LineMovementQuery) {
    const s = await this.scope(account, q);
    const groups = new Map<string, StoredSeries[]>();
    for (const x of s.series) {
      const k = selectionKey(x);
      const g = groups.get(k);
      if (g) g.push(x);
      else groups.set(k, [x]);
    }
    const all = [...groups.values()];
    const pageGroups = all.slice(q.offset, q.offset + q.limit);
    const ids = pageGroups.flat().map((x) => x.id);
    const perSeries = Math.min(MOVEMENT_MAX_CHANGES, Math.max(100, Math.floor(MOVEMENT_PAGE_CHANGES / Math.max(1, ids.length))));
    const [before, inWindow] = await Promise.all([this.store.inForceAt(ids, s.from), this.store.changes(ids, s.from, s.to, perSeries + 1)]);
    const bySeries = groupBySeries(inWindow);
    let truncated = false;
    const steam = { windowMs: (q.steam_window ?? 60) * 1000, minFollowers: q.steam_min_followers ?? 2 };
    const prior = new Map(before.map((c) => [c.seriesId, c]));
    const data: SelectionMovementDto[] = pageGroups.map((g) => {
      const american = new Map<string, number>();
      const books: BookPrices[] = g.map((x) => {
        let changes = (bySeries.get(x.id) ?? []).filter((c) => c.at > s.from);
        if (changes.length > perSeries) {
          truncated = true;
          changes = changes.slice(0, perSeries);
        }
        const p = prior.get(x.id);
        const points: PricePoint[] = [];
        for (const c of p ? [p, ...changes] : changes) {
          const decimal = c.isActive && c.priceE4 !== null ? c.priceE4 / 10_000 : null;
          if (decimal !== null && c.american !== null) american.set(`${x.sportsbook}|${decimal}`, c.american);
          points.push({ at: c.at, decimal });
        }
        return { book: x.sportsbook, points };
      });
      return movementItem(g[0]!, selectionMovement(books, { from: s.from, to: s.to }, steam), american);
    });
    return page(
      data,
      { limit: q.limit, offset: q.offset, total: all.length },
      {
        ...this.meta(s),
        steam_window: steam.windowMs / 1000,
        steam_min_followers: steam.minFollowers,
        truncated,
        source: 'database',
      },
    );
  }
}

function groupBySeries(rows: readonly ChangeRow[]): Map<number, ChangeRow[]> {
  const out = new Map<number, ChangeRow[]>();
  for (const r of rows) {
    const g = out.get(r.seriesId);
    if (g) g.push(r);
    else out.set(r.seriesId, [r]);
  }
  return out;
}

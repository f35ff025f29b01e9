import { timeParam } from '../../common/time/time-param.js';
import { Inject, Injectable } from '@nestjs/common';
import { Catalog, foldName } from '../../config/catalog.js';
import { TIER_TABLE } from '../../config/config.module.js';
import type { TierTable } from '../../config/tiers.js';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy, type BookScope } from '../../common/auth/access-policy.js';
import { ApiError, badRequest, notFound } from '../../common/http/api-error.js';
import { envelope, page, pagination } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import { BoardService } from '../board/board.service.js';
import type { OddsBoard } from '../board/odds-board.js';
import { EventsService } from '../events/events.service.js';
import type { BatchOddsBody, BestOddsQuery, ComparisonQuery, DeltaQuery, EventOddsQuery, ListOddsQuery } from './dto/odds.query.js';
import { OddsItemBuilder, type OddsItem } from './odds-item.js';
import { afterCursor, decodeCursor, encodeCursor } from './odds-cursor.js';
import { selectRows, type OddsFilter } from './odds-filter.js';
import { comparator, sortKey, type SortSpec } from './odds-sort.js';
import { ResultCache } from './result-cache.js';
import { EventCounts, orderedPage, rowMatches, type NaturalKey } from './ordered-page.js';
import { withinEvent } from '../board/odds-board.js';
import { dict } from '../../domain/dict.js';

/** Rows older than this (last confirmed) are left out of best-price answers: 5 min pre-game, 1 min live. */
export const BEST_MAX_AGE_PREGAME_MS = 5 * 60_000;
export const BEST_MAX_AGE_LIVE_MS = 60_000;
const REMOVED_CAP = 1000;
const OVERFLOW_AT = 10_000;

interface FilterInput {
  sport?: string[];
  league?: string[];
  sportsbook?: string[];
  add_sportsbook?: string[];
  market?: string[];
  event?: string[];
  event_id?: string[];
  live?: boolean;
  team?: string;
  q?: string;
  date?: string;
  min_odds?: number;
  max_odds?: number;
}

/**
 * The odds reads. Every one goes through `scope()`: the caller's board view (the tier's delay) and book
 * scope (the tier's book rules), then the in-memory indexes; nothing here touches the database.
 */
/** `is_main_line` (the name of the row field) with `main` (the TypeScript SDK's parameter) accepted as its alias. */
export function mainLineOnly(q: { main?: boolean; is_main_line?: boolean }): true | undefined {
  if (q.main !== undefined && q.is_main_line !== undefined && q.main !== q.is_main_line) {
    throw badRequest('Invalid parameters: "main" is an alias of "is_main_line"; give one of them, or both with the same value', {
      parameter: 'main',
    });
  }
  return (q.is_main_line ?? q.main) === true ? true : undefined;
}

@Injectable()
export class OddsService {
  private readonly cache = new ResultCache<OddsRow[]>(256);
  private readonly counts = new EventCounts();

  constructor(
    private readonly boards: BoardService,
    private readonly policy: AccessPolicy,
    private readonly catalog: Catalog,
    private readonly events: EventsService,
    private readonly items: OddsItemBuilder,
    private readonly clock: Clock,
    @Inject(TIER_TABLE) private readonly tiers: TierTable,
  ) {}

  private readonly pages = new ResultCache<Buffer>(512);

  /**
   * A serialised response, cached per (caller's board view, its version, book scope, query): an unchanged
   * board answers repeated reads without building or serialising anything.
   */
  cachedJson(account: Account | undefined, kind: string, q: object, build: () => unknown): Buffer {
    const { board, books } = this.scope(account, q as { sportsbook?: string[]; add_sportsbook?: string[] });
    // Best-price pages also depend on time (prices turn stale): they are cached for at most 10 s.
    const bucket = kind === 'best' ? Math.floor(this.clock.now() / 10_000) : 0;
    const key = JSON.stringify([kind, books.all ? '*' : books.books, q, this.policy.delaySeconds(account), bucket]);
    // Kept as UTF-8 bytes: a cached page is written to the socket as it is, not re-encoded per request.
    return this.pages.get(board, key, () => Buffer.from(JSON.stringify(build())));
  }

  /** GET /odds: the page's bytes (cached per board version). Reads `q`, never changes it. */
  listPage(account: Account | undefined, q: ListOddsQuery): Buffer {
    return this.cachedJson(account, 'list', q, () => this.list(account, q));
  }

  /** GET /odds/best: the page's bytes (cached per board version, at most 10 s). Reads `q`, never changes it. */
  bestPage(account: Account | undefined, q: BestOddsQuery): Buffer {
    return this.cachedJson(account, 'best', q, () => this.best(account, q));
  }

  /** The one place the tier data policy is applied to a price read: delay (board view) and books. */
  scope(account: Account | undefined, q: { sportsbook?: string[]; add_sportsbook?: string[] }): { board: OddsBoard; books: BookScope } {
    const books = this.policy.resolveBooks(account, q.sportsbook, q.add_sportsbook);
    return { board: this.boards.viewFor(account), books };
  }

  /** When the data of a board view last changed (the `updated_at` of its pages; stable while the board is). */
  dataTime(board: OddsBoard): string {
    return new Date(board.lastChangeAt || this.clock.now()).toISOString();
  }

  /** The "as of" time of a caller's view (now minus the tier's delay). */
  asOf(account: Account | undefined): number {
    return this.clock.now() - this.policy.delaySeconds(account) * 1000;
  }

  filter(books: BookScope, q: FilterInput): OddsFilter {
    const events = [...(q.event ?? []), ...(q.event_id ?? [])];
    const team = q.team ? foldName(q.team) : '';
    const text = q.q ? foldName(q.q) : '';
    const date = q.date;
    const matchers: Array<(e: BoardEvent) => boolean> = [];
    if (team) matchers.push((e) => this.events.matchesTeam(e, team));
    if (text)
      matchers.push(
        (e) =>
          this.events.matchesTeam(e, text) ||
          foldName(`${e.league} ${this.catalog.league(e.league)?.label ?? ''} ${e.sport}`).includes(text),
      );
    if (date) matchers.push((e) => this.events.localDate(e) === date);
    if (q.min_odds !== undefined && q.max_odds !== undefined && q.min_odds > q.max_odds) {
      throw badRequest('Invalid parameters: min_odds is greater than max_odds', { parameter: 'min_odds' });
    }
    return {
      books,
      sports: this.events.resolveSports(q.sport),
      leagues: this.events.resolveLeagues(q.league),
      markets: this.events.resolveMarkets(q.market),
      events: events.length ? new Set(events) : undefined,
      live: q.live,
      eventMatch: matchers.length ? (e) => matchers.every((m) => m(e)) : undefined,
      minOdds: q.min_odds,
      maxOdds: q.max_odds,
    };
  }

  private sortSpec(sort?: string): SortSpec {
    if (!sort) return { field: 'default', desc: false };
    const desc = sort.startsWith('-');
    return { field: (desc ? sort.slice(1) : sort) as SortSpec['field'], desc };
  }

  private filtersEcho(q: FilterInput, books: BookScope) {
    return {
      sport: q.sport ?? null,
      league: q.league ?? null,
      sportsbook: books.isDefault ? null : books.books,
      market: q.market ?? null,
      event: [...(q.event ?? []), ...(q.event_id ?? [])].join(',') || null,
      live: q.live ?? null,
      team: q.team ?? null,
    };
  }

  private sorted(board: OddsBoard, f: OddsFilter, sort: SortSpec, key: string): OddsRow[] {
    return this.cache.get(board, key, () => selectRows(board, f).sort(comparator(board, sort)));
  }

  /**
   * The books the caller's rows come from: its tier's books; for a tier that sees every book, the listed books
   * (those /sportsbooks lists) and the unlisted ones that have prices on the board (/sportsbooks?include_unlisted=true).
   */
  private booksAvailable(books: BookScope, board: OddsBoard): string[] {
    return books.all
      ? this.catalog.books.filter((b) => !b.unlisted || (board.ids('book', b.id)?.size ?? 0) > 0).map((b) => b.id)
      : books.books;
  }

  list(account: Account | undefined, q: ListOddsQuery) {
    const { board, books } = this.scope(account, q);
    const mainOnly = mainLineOnly(q);
    const f = { ...this.filter(books, q), mainOnly };
    const sort = this.sortSpec(q.sort);
    const key = JSON.stringify([
      'list',
      books.books,
      books.all,
      q.sport,
      q.league,
      q.market,
      q.event,
      q.event_id,
      q.live,
      q.team,
      q.q,
      q.date,
      q.min_odds,
      q.max_odds,
      mainOnly,
      q.sort,
    ]);
    const now = this.dataTime(board);
    const filters = this.filtersEcho(q, books);
    const available = this.booksAvailable(books, board);

    if (q.group_by === 'event') {
      const rows = this.sorted(board, f, sort, key);
      const groups = new Map<string, OddsRow[]>();
      for (const r of rows) (groups.get(r.eventId) ?? groups.set(r.eventId, []).get(r.eventId)!).push(r);
      const all = [...groups.entries()];
      const slice = all.slice(q.offset, q.offset + q.limit).map(([eventId, list]) => {
        const e = board.events.get(eventId);
        return {
          event_id: eventId,
          event_name: e ? `${e.awayTeam} @ ${e.homeTeam}` : eventId,
          sport: e?.sport ?? list[0]!.sport,
          league: e?.league ?? list[0]!.league,
          home_team: e?.homeTeam ?? '',
          away_team: e?.awayTeam ?? '',
          start_time: e ? new Date(e.startTime).toISOString() : null,
          is_live: e?.status === 'live',
          odds: list.map((r) => this.items.project(this.items.build(board, r, e), q.fields)),
        };
      });
      return page(
        slice,
        { limit: q.limit, offset: q.offset, total: all.length },
        { group_by: 'event', books_available: available, filters, updated_at: now },
        { updated_at: now },
      );
    }

    const cursor = q.cursor ? decodeCursor(q.cursor) : undefined;
    if (q.cursor && (!cursor || cursor.length !== (sort.field === 'default' ? 8 : 2))) {
      throw badRequest('Invalid parameter "cursor": not a cursor issued by this API for this sort', { parameter: 'cursor' });
    }
    let slice: OddsRow[];
    let start: number;
    let total: number;
    if (sort.field === 'default') {
      // Row-level filters only (event-level ones are applied per event): the key of the per-event counts.
      const rowFilterKey = JSON.stringify([books.books, books.all, q.market, q.live, q.min_odds, q.max_odds, mainOnly]);
      ({
        rows: slice,
        start,
        total,
      } = orderedPage(board, f, {
        offset: q.offset,
        limit: q.limit,
        cursor: cursor as NaturalKey | undefined,
        counter: this.counts,
        rowFilterKey,
      }));
    } else {
      const rows = this.sorted(board, f, sort, key);
      start = cursor ? afterCursor(rows, (r) => sortKey(board, sort, r), cursor, sort.desc) : q.offset;
      slice = rows.slice(start, start + q.limit);
      total = rows.length;
    }
    const items = slice.map((r) => this.items.project(this.items.build(board, r), q.fields));
    const hasMore = start + slice.length < total;
    const pg = {
      ...pagination(q.limit, start, total, slice.length),
      next_cursor: hasMore && slice.length ? encodeCursor(sortKey(board, sort, slice[slice.length - 1]!)) : null,
    };
    const meta = {
      count: items.length,
      total,
      books_available: available,
      books_returned: [...new Set(slice.map((r) => r.sportsbook))].sort(),
      pagination: pg,
      updated_at: now,
      filters,
    };
    return {
      success: true as const,
      data: items,
      pagination: pg,
      meta,
      updated_at: now,
      ...(total > OVERFLOW_AT ? { overflow: true } : {}),
    };
  }

  /** The best active, fresh price per selection across the books in scope (one Odds row per selection). */
  best(account: Account | undefined, q: BestOddsQuery) {
    const { board, books } = this.scope(account, q);
    const f: OddsFilter = { ...this.filter(books, q), activeOnly: true, mainOnly: mainLineOnly(q) };
    const fkey = JSON.stringify([books.books, books.all, q.market, q.live, q.min_odds, q.max_odds, f.mainOnly]);
    const viewNow = this.asOf(account);
    const events = board
      .eventOrder()
      .filter(
        (e) =>
          (!f.events || f.events.has(e.id)) &&
          (!f.sports || f.sports.has(e.sport)) &&
          (!f.leagues || f.leagues.has(e.league)) &&
          (!f.eventMatch || f.eventMatch(e)),
      );
    const perEvent = events.map((e) => this.bestOfEvent(board, e.id, f, fkey, viewNow));
    const total = perEvent.reduce((a, b) => a + b.length, 0);
    const out: Array<{ row: OddsRow; books: number }> = [];
    let skip = q.offset;
    for (const list of perEvent) {
      if (out.length >= q.limit) break;
      if (skip >= list.length) {
        skip -= list.length;
        continue;
      }
      for (const b of list.slice(skip, skip + q.limit - out.length)) out.push(b);
      skip = 0;
    }
    const items = out.map((b) => ({ ...this.items.build(board, b.row), books_compared: b.books }));
    const now = this.dataTime(board);
    return page(
      items,
      { limit: q.limit, offset: q.offset, total },
      { books_available: this.booksAvailable(books, board), filters: this.filtersEcho(q, books), updated_at: now },
      { updated_at: now },
    );
  }

  private readonly bestMemo = new WeakMap<
    OddsBoard,
    Map<string, { version: number; validUntil: number; list: Array<{ row: OddsRow; books: number }> }>
  >();

  /**
   * One event's best price per selection, cached per (event version, filter) until a chosen price would turn
   * stale: only events whose rows changed are recomputed.
   */
  private bestOfEvent(board: OddsBoard, eventId: string, f: OddsFilter, fkey: string, now: number): Array<{ row: OddsRow; books: number }> {
    let memo = this.bestMemo.get(board);
    if (!memo) this.bestMemo.set(board, (memo = new Map()));
    const key = `${eventId}|${fkey}`;
    const version = board.eventVersion(eventId);
    const hit = memo.get(key);
    if (hit && hit.version === version && now < hit.validUntil) return hit.list;
    const bySelection = new Map<string, { row: OddsRow; books: number }>();
    let validUntil = Number.POSITIVE_INFINITY;
    for (const r of board.sortedRowsOf(eventId)) {
      if (!rowMatches(board, r, f)) continue;
      const expires = board.seenAt(r) + (r.isLive ? BEST_MAX_AGE_LIVE_MS : BEST_MAX_AGE_PREGAME_MS);
      if (now > expires) continue;
      validUntil = Math.min(validUntil, expires);
      const sel = `${r.groupKey}|${r.selectionType}|${r.selectionType === 'other' ? r.selection : ''}`;
      const cur = bySelection.get(sel);
      if (!cur) bySelection.set(sel, { row: r, books: 1 });
      else {
        cur.books++;
        if (r.decimal > cur.row.decimal || (r.decimal === cur.row.decimal && r.sportsbook < cur.row.sportsbook)) cur.row = r;
      }
    }
    const list = [...bySelection.values()].sort((a, b) => withinEvent(a.row, b.row));
    if (memo.size > 50_000) memo.clear();
    memo.set(key, { version, validUntil, list });
    return list;
  }

  /** One event's prices side by side: `data` maps each sportsbook id to its Odds rows for the event. */
  comparison(account: Account | undefined, q: ComparisonQuery) {
    const eventId = q.event ?? q.event_id;
    if (!eventId) throw badRequest('Missing required parameter "event" (the event id to compare)', { parameter: 'event' });
    const { board, books } = this.scope(account, q);
    const e = board.events.get(eventId);
    if (!e) throw notFound(`No event with id "${eventId}"`);
    // The /odds filters narrow the event's rows; limit and offset page over the books it lists in books_available.
    const available = this.booksAvailable(books, board).filter((b) => board.booksOf(e.id).includes(b));
    const offset = q.offset ?? 0;
    const pageBooks = new Set(available.slice(offset, q.limit === undefined ? undefined : offset + q.limit));
    const f: OddsFilter = { ...this.filter(books, { ...q, event: [eventId], event_id: undefined }), mainOnly: mainLineOnly(q) };
    const rows = selectRows(board, f)
      .filter((r) => pageBooks.has(r.sportsbook))
      .sort(comparator(board, { field: 'default', desc: false }));
    const data: Record<string, OddsItem[]> = dict();
    for (const r of rows) (data[r.sportsbook] ??= []).push(this.items.build(board, r, e));
    const now = this.clock.iso();
    return envelope(data, {
      meta: {
        event_id: e.id,
        event_name: `${e.awayTeam} @ ${e.homeTeam}`,
        start_time: new Date(e.startTime).toISOString(),
        is_live: e.status === 'live',
        books_available: available,
        markets: [...new Set(rows.map((r) => r.marketType))].sort(),
        market_filter: q.market ?? null,
        count: rows.length,
        updated_at: now,
      },
      updated_at: now,
    });
  }

  /** Several events' prices in one call; the tier's batch size caps the number of events. */
  batch(account: Account | undefined, body: BatchOddsBody) {
    const tier = this.tiers.byName[account?.tier ?? 'free'];
    const ids = [...new Set(body.event_ids.map((s) => s.trim()).filter(Boolean))];
    if (!ids.length) throw badRequest('Invalid body: event_ids must name at least one event', { parameter: 'event_ids' });
    if (ids.length > tier.batchSize) {
      throw new ApiError(
        'invalid_request',
        `Too many events: the ${tier.name} tier allows ${tier.batchSize} events per batch; this request has ${ids.length}`,
        { parameter: 'event_ids', max_batch: tier.batchSize, tier: tier.name },
      );
    }
    const split = (v?: string) =>
      v
        ? v
            .split(',')
            .map((s) => s.trim().toLowerCase())
            .filter(Boolean)
        : undefined;
    const { board, books } = this.scope(account, { sportsbook: split(body.sportsbook) });
    const markets = this.events.resolveMarkets(split(body.market));
    const data: Record<string, OddsItem[]> = dict();
    const missing: string[] = [];
    for (const id of ids) {
      const e = board.events.get(id);
      if (!e) {
        missing.push(id);
        continue;
      }
      data[id] = selectRows(board, { books, events: new Set([id]), markets })
        .sort(comparator(board, { field: 'default', desc: false }))
        .map((r) => this.items.build(board, r, e));
    }
    const now = this.clock.iso();
    return envelope(data, {
      meta: {
        requested: ids.length,
        found: ids.length - missing.length,
        missing,
        max_batch: tier.batchSize,
        filters: { sportsbook: books.isDefault ? null : books.books, market: body.market ?? null },
        updated_at: now,
      },
      updated_at: now,
    });
  }

  /** Rows changed after `since`, plus the ids removed after it (capped), with the time to chain the next call. */
  delta(account: Account | undefined, q: DeltaQuery) {
    if (!q.since) throw badRequest('Missing required parameter "since" (an RFC 3339 time)', { parameter: 'since' });
    const since = timeParam('since', q.since)!;
    const { board, books } = this.scope(account, q);
    const serverTime = this.asOf(account);
    const f = this.filter(books, q);
    const changes = board.changesSince(since);
    const matchIds = new Set(selectRows(board, { ...f, changedSince: since }).map((r) => r.id));
    // Without `sort`: in the order the changes happened.
    const sort: SortSpec = q.sort ? this.sortSpec(q.sort) : { field: 'changed', desc: false };
    const rows = changes.rows.filter((r) => matchIds.has(r.id)).sort(comparator(board, sort));
    const slice = rows.slice(q.offset, q.offset + q.limit);
    const items = slice.map((r) => this.items.project(this.items.build(board, r), q.fields));
    const removedAll = changes.removed.filter((rm) => books.has(rm.sportsbook) && (!f.events || f.events.has(rm.eventId)));
    const removed = removedAll
      .slice(0, REMOVED_CAP)
      .map((rm) => ({ id: rm.id, sportsbook: rm.sportsbook, removed_at: new Date(rm.removedAt).toISOString() }));
    const now = new Date(serverTime).toISOString();
    return {
      ...page(
        items,
        { limit: q.limit, offset: q.offset, total: rows.length },
        {
          server_time: now,
          books_changed: [...new Set(rows.map((r) => r.sportsbook))].sort(),
          filters: this.filtersEcho(q, books),
          since: new Date(since).toISOString(),
        },
      ),
      ...(removed.length ? { removed } : {}),
      ...(removedAll.length > REMOVED_CAP ? { removed_truncated: true } : {}),
      ...(changes.clamped ? { since_clamped: true } : {}),
      server_time: now,
      updated_at: now,
    };
  }

  eventOdds(account: Account | undefined, eventId: string, q: EventOddsQuery) {
    const { board } = this.scope(account, q);
    if (!board.events.has(eventId)) throw notFound(`No event with id "${eventId}"`);
    return this.list(account, { ...q, event: [eventId] } as ListOddsQuery);
  }
}

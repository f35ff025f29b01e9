import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { badRequest } from '../../common/http/api-error.js';
import { pagination } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { Catalog } from '../../config/catalog.js';
import { EventsService } from '../events/events.service.js';
import { SplitsStoreService } from '../stores/splits/splits-store.service.js';
import { hasAnyMarket, SPLITS_BOOKS, type CurrentSplits } from '../stores/splits/splits-store.js';
import type { SplitsListResponseDto } from './dto/splits-game.response.dto.js';
import type { SplitsHistoryResponseDto } from './dto/splits-history.response.dto.js';
import type { ListSplitsQuery } from './dto/list-splits.query.dto.js';
import type { SplitsHistoryQuery } from './dto/splits-history.query.dto.js';
import { toHistoryEntry, toSplitsGame } from './splits.mapper.js';
import { timeParam } from '../../common/time/time-param.js';

/** The two read paths of the public betting splits, GET /splits and GET /splits/history, over the splits store. */
@Injectable()
export class SplitsService {
  constructor(
    private readonly clock: Clock,
    private readonly store: SplitsStoreService,
    private readonly events: EventsService,
    private readonly catalog: Catalog,
    private readonly policy: AccessPolicy,
  ) {}

  /** GET /splits: one entry per (event, book), by event start, event id, book. */
  list(account: Account | undefined, q: ListSplitsQuery): SplitsListResponseDto {
    const sports = this.events.resolveSports(q.sport);
    const leagues = this.events.resolveLeagues(q.league);
    const books = this.resolveBooks(q.sportsbook);
    const eventIds = [...(q.event ?? []), ...(q.event_id ?? [])];
    const ids = eventIds.length ? new Set(eventIds) : undefined;
    const markets = q.market?.length ? q.market : undefined;
    const all: CurrentSplits[] = [];
    for (const s of this.store.viewFor(account).values()) {
      if (sports && !sports.has(s.sport)) continue;
      if (leagues && !leagues.has(s.league)) continue;
      if (books && !books.includes(s.sportsbook)) continue;
      if (ids && !ids.has(s.eventId)) continue;
      if (markets && !hasAnyMarket(s, markets)) continue;
      all.push(s);
    }
    all.sort((a, b) => a.startTime - b.startTime || cmp(a.eventId, b.eventId) || cmp(a.sportsbook, b.sportsbook));
    const data = all.slice(q.offset, q.offset + q.limit).map(toSplitsGame);
    const pg = { ...pagination(q.limit, q.offset, all.length, data.length), count: data.length, total: all.length };
    return {
      success: true,
      data,
      pagination: pg,
      meta: { count: data.length, total: all.length, pagination: pg },
      updated_at: this.clock.iso(),
    };
  }

  /** GET /splits/history: one event's snapshots, oldest first. */
  async history(account: Account | undefined, q: SplitsHistoryQuery): Promise<SplitsHistoryResponseDto> {
    const eventId = this.resolveEventId(q);
    const books = this.resolveBooks(q.sportsbook);
    const start = timeParam('start_time', q.start_time);
    const end = timeParam('end_time', q.end_time);
    if (start !== undefined && end !== undefined && start > end) {
      throw badRequest(
        `Invalid parameter "start_time": it is after end_time (${new Date(start).toISOString()} > ${new Date(end).toISOString()})`,
        { parameter: 'start_time' },
      );
    }
    const now = this.clock.now();
    // The tier's delay: snapshots captured within the last `delay` seconds are not visible yet.
    const visibleUntil = now - this.policy.delaySeconds(account) * 1000;
    const limit = books ? null : q.limit;
    const r = await this.store.history({
      eventId,
      books,
      from: start,
      to: end === undefined ? visibleUntil : Math.min(end, visibleUntil),
      limit,
    });
    const data = r.rows.map(toHistoryEntry);
    return {
      success: true,
      data,
      meta: {
        event_id: eventId,
        total: r.total,
        count: data.length,
        limit,
        truncated: data.length < r.total,
        books: r.books,
        oldest: data[0]?.ts ?? null,
        newest: data[data.length - 1]?.ts ?? null,
        updated_at: this.clock.iso(),
      },
    };
  }

  private resolveEventId(q: SplitsHistoryQuery): string {
    const a = q.event_id?.trim();
    const b = q.event?.trim();
    if (a && b && a !== b)
      throw badRequest('Parameters "event_id" and "event" name different events; send one of them', { parameter: 'event_id' });
    const id = a || b;
    if (!id) throw badRequest('Missing required parameter "event_id"', { parameter: 'event_id' });
    return id;
  }

  /** Splits books by id or alias; an unknown book, or a book that publishes no splits, is 400. */
  private resolveBooks(input: string[] | undefined): string[] | undefined {
    if (!input?.length) return undefined;
    const out: string[] = [];
    for (const raw of input) {
      const id = this.catalog.book(raw)?.id;
      if (!id)
        throw badRequest(`Invalid parameter "sportsbook": unknown sportsbook "${raw}"; splits come from ${SPLITS_BOOKS.join(' and ')}`, {
          parameter: 'sportsbook',
        });
      if (!SPLITS_BOOKS.includes(id))
        throw badRequest(`Invalid parameter "sportsbook": ${id} publishes no splits; splits come from ${SPLITS_BOOKS.join(' and ')}`, {
          parameter: 'sportsbook',
        });
      if (!out.includes(id)) out.push(id);
    }
    return out;
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { badRequest, tierRestricted } from '../../common/http/api-error.js';
import { paginate } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { Catalog, type BookDef } from '../../config/catalog.js';
import type { OddsRow } from '../../domain/odds-row.js';
import { BoardService } from '../board/board.service.js';
import { FuturesStoreService } from '../stores/futures/futures-store.service.js';
import type { PredictionMarketCategoriesQuery, PredictionMarketsQuery } from './dto/prediction-markets.query.dto.js';
import { categoriesOf, futuresContracts, gameContract, VENUE_CLASSES, type ContractMarket } from './prediction-markets.mapper.js';

/**
 * GET /prediction-markets and /prediction-markets/categories: every exchange and prediction-market contract as a
 * market of its own, read from the board (game contracts, the caller's delayed view) and the futures store
 * (futures and question contracts; stale and replayed-history prices left out).
 */
@Injectable()
export class PredictionMarketsService {
  constructor(
    private readonly boards: BoardService,
    private readonly futures: FuturesStoreService,
    private readonly catalog: Catalog,
    private readonly policy: AccessPolicy,
    private readonly clock: Clock,
  ) {}

  /** The venues asked for (unknown: 400; not a venue: 400; above the tier: 403), else every venue the tier may use. */
  private venues(account: Account | undefined, asked: string[] | undefined): BookDef[] {
    const tier = account?.tier ?? 'free';
    if (!asked?.length) return this.catalog.books.filter((b) => VENUE_CLASSES.has(b.class) && this.policy.mayUseBook(tier, b));
    return asked.map((raw) => {
      const b = this.catalog.book(raw);
      if (!b) throw badRequest(`Invalid parameter "venue": unknown venue "${raw}"`, { parameter: 'venue' });
      if (!VENUE_CLASSES.has(b.class))
        throw badRequest(`Invalid parameter "venue": ${b.id} is a sportsbook, not an exchange or prediction market`, {
          parameter: 'venue',
        });
      if (!this.policy.mayUseBook(tier, b))
        throw tierRestricted(
          `${b.display_name} (${b.id}) requires the ${b.requires_tier} tier or higher; this key is on the ${tier} tier`,
          b.requires_tier!,
          {
            tier,
          },
        );
      return b;
    });
  }

  private leagues(asked: string[] | undefined): Set<string> | null {
    if (!asked?.length) return null;
    return new Set(
      asked.map((l) => {
        const def = this.catalog.league(l);
        if (!def) throw badRequest(`Invalid parameter "league": unknown league "${l}"`, { parameter: 'league' });
        return def.id;
      }),
    );
  }

  /** Every contract of the venues in scope, filtered by league and status. */
  private contracts(account: Account | undefined, q: PredictionMarketCategoriesQuery): ContractMarket[] {
    const venues = this.venues(account, q.venue);
    const leagues = this.leagues(q.league);
    const now = this.clock.now();
    const board = this.boards.viewFor(account);
    const out: ContractMarket[] = [];
    for (const book of venues) {
      const groups = new Map<string, OddsRow[]>();
      for (const r of board.slice('book', book.id)?.rows ?? []) {
        if (leagues && !leagues.has(r.league)) continue;
        const g = groups.get(r.groupKey);
        if (g) g.push(r);
        else groups.set(r.groupKey, [r]);
      }
      for (const rows of groups.values()) {
        const e = board.events.get(rows[0]!.eventId);
        if (e) out.push(gameContract(rows, e, book));
      }
    }
    const venueIds = new Set(venues.map((b) => b.id));
    const store = this.futures.store;
    for (const m of store.markets.values()) {
      if (m.history || (leagues && !leagues.has(m.league))) continue;
      const byVenue = new Map<string, typeof prices>();
      const prices = store.livePricesOf(m.id, now).filter((p) => venueIds.has(p.sportsbook));
      for (const p of prices) {
        const list = byVenue.get(p.sportsbook);
        if (list) list.push(p);
        else byVenue.set(p.sportsbook, [p]);
      }
      for (const [venue, ps] of byVenue) out.push(...futuresContracts(m, ps, this.catalog.book(venue), now));
    }
    return q.status ? out.filter((m) => m.status === q.status) : out;
  }

  list(account: Account | undefined, q: PredictionMarketsQuery) {
    const categories = q.category ? new Set(q.category) : null;
    const items = this.contracts(account, q).filter(
      (m) => (!categories || categories.has(m.category)) && (!q.event_id || m.linked_event_id === q.event_id),
    );
    // Game contracts first, soonest game first; then the futures by league, category and title.
    items.sort(
      (a, b) =>
        Number(a.linked_event_id === null) - Number(b.linked_event_id === null) ||
        (a.linked_event_id !== null ? a.closes_at.localeCompare(b.closes_at) : 0) ||
        a.league.localeCompare(b.league) ||
        a.category.localeCompare(b.category) ||
        a.title.localeCompare(b.title) ||
        a.market_id.localeCompare(b.market_id),
    );
    const updated = this.clock.iso();
    return paginate(
      items,
      q.limit,
      q.offset,
      {
        filters: {
          venue: q.venue ?? null,
          category: q.category ?? null,
          league: q.league ?? null,
          event_id: q.event_id ?? null,
          status: q.status ?? null,
        },
        updated_at: updated,
      },
      { updated_at: updated },
    );
  }

  categories(account: Account | undefined, q: PredictionMarketCategoriesQuery) {
    const data = categoriesOf(this.contracts(account, q));
    const updated = this.clock.iso();
    return {
      success: true as const,
      data,
      meta: {
        count: data.length,
        filters: { venue: q.venue ?? null, league: q.league ?? null, status: q.status ?? null },
        updated_at: updated,
      },
      updated_at: updated,
    };
  }
}

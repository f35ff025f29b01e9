import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy, type BookScope } from '../../common/auth/access-policy.js';
import { badRequest, notFound } from '../../common/http/api-error.js';
import { page } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { Catalog, foldName } from '../../config/catalog.js';
import { venueCosts } from '../../config/costs.js';
import type { FuturesMarket, FuturesPrice, FutureType } from '../../domain/futures.js';
import { shortHash } from '../../domain/normalise.js';
import { netEvPercent } from '../../math/costs.js';
import type { DevigMethod } from '../../math/devig.js';
import { kellyFraction } from '../../math/kelly.js';
import { probabilityToAmerican, roundAmerican, roundTo } from '../../math/odds.js';
import { deepLinkPath, deepLinksOf } from '../deep-links/deep-link-templates.js';
import type { FuturesEvQuery, FuturesFilters, FuturesLowHoldQuery, FuturesOddsQuery } from './dto/futures.query.js';
import { futuresEv, futuresHold, groupsOf, outcomeOf, sharpReference } from './futures-math.js';
import { FuturesStoreService } from '../stores/futures/futures-store.service.js';

/** The sharp references for futures, in order (as +EV on games). */
export const FUTURES_SHARP_BOOKS = ['pinnacle', 'circa', 'bookmaker'] as const;

const iso = (ms: number) => new Date(ms).toISOString();
const r4 = (x: number) => roundTo(x, 4);
const r6 = (x: number) => roundTo(x, 6);

/** Kinds listed first, in this order (then alphabetically). */
const KIND_ORDER = ['championship_winner', 'conference_winner', 'division_winner', 'mvp', 'win_total', 'make_playoffs'];

interface Scoped {
  books: BookScope;
  markets: FuturesMarket[];
}

/** `/futures`, `/futures/odds`, `/futures/ev`, `/futures/low_hold`: the futures markets as the caller may see them. */
@Injectable()
export class FuturesQueryService {
  constructor(
    private readonly futures: FuturesStoreService,
    private readonly policy: AccessPolicy,
    private readonly catalog: Catalog,
    private readonly clock: Clock,
  ) {}

  private readonly costs = venueCosts();

  /** EV% after the venue's costs (config/costs.json); null when its cost is unknown. */
  private netEv(fair: number, decimal: number, book: string): number | null {
    const cost = this.costs.ofBook(book, this.catalog);
    return cost ? r4(netEvPercent(fair, decimal, cost)) : null;
  }

  private get store() {
    return this.futures.store;
  }

  /** A market's prices its sources still confirm (stale prices have left the market). */
  private live(marketId: string): FuturesPrice[] {
    return this.store.livePricesOf(marketId, this.clock.now());
  }

  /**
   * The caller's books and the markets passing the market filters (sorted: league, kind, name). History markets
   * (replayed imports) only when asked for by `future_id`, and never for +EV or low-hold (`live`).
   */
  private scope(account: Account | undefined, q: FuturesFilters, live = false): Scoped {
    const books = this.policy.resolveBooks(account, q.sportsbook, q.add_sportsbook);
    const sports = q.sport?.map((s) => this.catalog.sportId(s) ?? s);
    const leagues = q.league?.map((l) => {
      const def = this.catalog.league(l);
      if (!def) throw badRequest(`Invalid parameter "league": unknown league "${l}"`, { parameter: 'league' });
      return def.id;
    });
    const types = q.future_type?.map((t) => t.toUpperCase() as FutureType);
    const ids = q.future_id ? new Set(q.future_id) : null;
    const text = q.q ? foldName(q.q) : null;
    const markets: FuturesMarket[] = [];
    for (const m of this.store.markets.values()) {
      if (m.history && (live || !ids?.has(m.id))) continue;
      if (sports && !sports.includes(m.sport)) continue;
      if (leagues && !leagues.includes(m.league)) continue;
      if (types && !types.includes(m.futureType)) continue;
      if (ids && !ids.has(m.id)) continue;
      if (text && !foldName(m.name).includes(text) && !this.live(m.id).some((p) => foldName(p.selection).includes(text))) continue;
      markets.push(m);
    }
    if (ids && !markets.length && ![...ids].some((id) => this.store.markets.has(id)))
      throw notFound(`No futures market ${[...ids].join(', ')}`);
    const rank = (k: string) => (KIND_ORDER.includes(k) ? KIND_ORDER.indexOf(k) : KIND_ORDER.length);
    markets.sort(
      (a, b) =>
        (a.league < b.league ? -1 : a.league > b.league ? 1 : 0) ||
        rank(a.kind) - rank(b.kind) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
        (a.id < b.id ? -1 : 1),
    );
    return { books, markets };
  }

  private filters(q: FuturesFilters, c: Scoped) {
    return {
      sport: q.sport ?? null,
      league: q.league ?? null,
      future_type: q.future_type?.map((t) => t.toUpperCase()) ?? null,
      future_id: q.future_id ?? null,
      q: q.q ?? null,
      sportsbook: c.books.all ? 'all' : c.books.books,
    };
  }

  /** Prices of a market among the caller's books. */
  private pricesIn(m: FuturesMarket, books: BookScope): FuturesPrice[] {
    return this.live(m.id).filter((p) => books.has(p.sportsbook));
  }

  markets(account: Account | undefined, q: FuturesFilters) {
    const c = this.scope(account, q);
    const items = [];
    for (const m of c.markets) {
      const prices = this.pricesIn(m, c.books);
      if (!prices.length) continue;
      const selections = new Set(prices.map((p) => `${foldName(p.selection)}|${p.selectionType}|${p.line ?? ''}`));
      items.push({
        market_id: m.id,
        display_name: m.name,
        sport: m.sport,
        league: m.league,
        future_type: m.futureType,
        kind: m.kind,
        selection_count: selections.size,
        books_available: [...new Set(prices.map((p) => p.sportsbook))].sort(),
        closes_at: iso(m.closesAt),
        last_update: iso(prices.reduce((a, p) => Math.max(a, p.changedAt), 0)),
      });
    }
    return page(
      items.slice(q.offset, q.offset + q.limit),
      { limit: q.limit, offset: q.offset, total: items.length },
      { filters: this.filters(q, c), updated_at: this.clock.iso() },
      { updated_at: this.clock.iso() },
    );
  }

  odds(account: Account | undefined, q: FuturesOddsQuery) {
    const c = this.scope(account, q);
    const text = q.q ? foldName(q.q) : null;
    const rows = [];
    for (const m of c.markets) {
      const all = this.live(m.id);
      const fair = new Map<string, number>();
      for (const g of groupsOf(m, all)) {
        const ref = sharpReference(g, FUTURES_SHARP_BOOKS, 'power');
        if (ref)
          for (const p of g.prices) {
            const f = ref.fair.get(outcomeOf(g, p));
            if (f !== undefined) fair.set(p.id, f);
          }
      }
      const prices = all.filter(
        (p) => c.books.has(p.sportsbook) && (!text || foldName(m.name).includes(text) || foldName(p.selection).includes(text)),
      );
      // Favourites first, then by book.
      prices.sort(
        (a, b) =>
          b.probability - a.probability ||
          (a.selection < b.selection ? -1 : a.selection > b.selection ? 1 : 0) ||
          (a.sportsbook < b.sportsbook ? -1 : 1),
      );
      for (const p of prices) {
        const f = fair.get(p.id);
        rows.push({
          id: p.id,
          selection: p.selection,
          selection_type: p.selectionType,
          sportsbook: p.sportsbook,
          sportsbook_name: this.catalog.book(p.sportsbook)?.display_name ?? p.sportsbook,
          odds_american: p.american,
          odds_decimal: p.decimal,
          probability: p.probability,
          line: p.line,
          future_type: m.futureType,
          future_market_id: m.id,
          future_market_name: m.name,
          sport: m.sport,
          league: m.league,
          event_start_time: iso(m.closesAt),
          timestamp: iso(p.changedAt),
          last_seen_at: iso(p.lastSeenAt),
          fair_probability: f === undefined ? null : r6(f),
          ev_percentage: f === undefined ? null : r4((f * p.decimal - 1) * 100),
          estimated_net_ev_percentage: f === undefined ? null : this.netEv(f, p.decimal, p.sportsbook),
          deep_link: deepLinkPath(p.sportsbook, p.id),
        });
      }
    }
    return page(
      rows.slice(q.offset, q.offset + q.limit),
      { limit: q.limit, offset: q.offset, total: rows.length },
      { filters: this.filters(q, c), updated_at: this.clock.iso() },
      { updated_at: this.clock.iso() },
    );
  }

  ev(account: Account | undefined, q: FuturesEvQuery) {
    const c = this.scope(account, q, true);
    const method = (q.devig_method ?? 'power') as DevigMethod;
    const items = [];
    for (const m of c.markets) {
      for (const g of groupsOf(m, this.live(m.id))) {
        const ref = sharpReference(g, FUTURES_SHARP_BOOKS, method);
        const outcomes = ref?.fair.size ?? 0;
        for (const e of futuresEv(g, { sharpBooks: FUTURES_SHARP_BOOKS, method, inScope: (b) => c.books.has(b), minEv: q.min_ev ?? 0 })) {
          items.push({
            id: shortHash(['fev', e.price.id, method]),
            future_market_id: m.id,
            future_market_name: m.name,
            future_type: m.futureType,
            sport: m.sport,
            league: m.league,
            selection: e.price.selection,
            selection_type: e.price.selectionType,
            line: e.price.line,
            sportsbook: e.price.sportsbook,
            odds_american: e.price.american,
            odds_decimal: e.price.decimal,
            fair_probability: r6(e.fairProbability),
            no_vig_odds: roundAmerican(probabilityToAmerican(e.fairProbability)),
            ev_percentage: r4(e.evPercent),
            estimated_net_ev_percentage: this.netEv(e.fairProbability, e.price.decimal, e.price.sportsbook),
            kelly_percent: r6(kellyFraction(e.fairProbability, e.price.decimal)),
            sharp_book: e.sharpBook,
            sharp_hold_percent: r4(e.sharpHoldPercent),
            sharp_outcomes: outcomes,
            devig_method: method,
            timestamp: iso(e.price.changedAt),
            deep_link: deepLinkPath(e.price.sportsbook, e.price.id),
          });
        }
      }
    }
    items.sort((a, b) => b.ev_percentage - a.ev_percentage || (a.id < b.id ? -1 : 1));
    const evs = items.map((i) => i.ev_percentage);
    const summary = {
      count: items.length,
      avg_ev: evs.length ? r4(evs.reduce((a, b) => a + b, 0) / evs.length) : 0,
      max_ev: evs.length ? Math.max(...evs) : 0,
    };
    return page(
      items.slice(q.offset, q.offset + q.limit),
      { limit: q.limit, offset: q.offset, total: items.length },
      { summary, filters: { ...this.filters(q, c), min_ev: q.min_ev ?? 0, devig_method: method }, updated_at: this.clock.iso() },
      { updated_at: this.clock.iso() },
    );
  }

  lowHold(account: Account | undefined, q: FuturesLowHoldQuery) {
    const c = this.scope(account, q, true);
    const maxHold = q.max_hold ?? 5;
    const items = [];
    for (const m of c.markets) {
      for (const g of groupsOf(m, this.live(m.id))) {
        const h = futuresHold(g, (b) => c.books.has(b));
        if (!h || h.holdPercent > maxHold) continue;
        items.push({
          id: shortHash(['flh', g.key]),
          future_market_id: m.id,
          future_market_name: m.name,
          future_type: m.futureType,
          sport: m.sport,
          league: m.league,
          line: g.line,
          hold_percentage: r4(h.holdPercent),
          field_book: h.fieldBook,
          sides: h.sides.map((s) => ({
            selection: s.price.selection,
            selection_type: s.price.selectionType,
            books: s.books,
            odds: {
              american: s.price.american,
              decimal: s.price.decimal,
              implied_probability: r6(1 / s.price.decimal),
              probability: r6(1 / s.price.decimal),
              fair_probability: r6(s.fairProbability),
            },
            deep_links: deepLinksOf(
              s.books.map((b) => ({
                book: b,
                id: g.prices.find((p) => p.sportsbook === b && outcomeOf(g, p) === s.outcome)?.id ?? s.price.id,
              })),
            ),
          })),
          all_books: h.books,
        });
      }
    }
    items.sort((a, b) => a.hold_percentage - b.hold_percentage || (a.id < b.id ? -1 : 1));
    return page(
      items.slice(q.offset, q.offset + q.limit),
      { limit: q.limit, offset: q.offset, total: items.length },
      { filters: { ...this.filters(q, c), max_hold: maxHold }, updated_at: this.clock.iso() },
      { updated_at: this.clock.iso() },
    );
  }
}

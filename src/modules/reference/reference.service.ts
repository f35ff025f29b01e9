import { Injectable } from '@nestjs/common';
import { Catalog, foldName, type BookDef, type LeagueDef, type TeamDef } from '../../config/catalog.js';
import { badRequest, notFound } from '../../common/http/api-error.js';
import { Clock } from '../../common/time/clock.js';
import type { OddsBoard } from '../board/odds-board.js';

export interface SportView {
  id: string;
  slug: string;
  numerical_id: number;
  name: string;
  active: boolean;
  event_count: number;
  live_count: number;
  leagues: string[];
}

export interface LeagueView {
  id: string;
  slug: string;
  /** null for a league registered on first sight. */
  numerical_id: number | null;
  name: string;
  label: string;
  /** False for a league a feed sent that the catalog does not list (registered on first sight). */
  in_catalog: boolean;
  sport: string;
  sport_id: string;
  active: boolean;
  event_count: number;
  live_count: number;
}

export interface SportsbookView {
  id: string;
  slug: string;
  numerical_id: number | null;
  name: string;
  display_name: string;
  has_live_odds: boolean;
  has_player_props: boolean;
  regions: string[];
  is_sharp: boolean;
  status: 'active' | 'inactive';
  active: boolean;
  event_count: number;
  last_update: string | null;
  requires_tier: string | null;
  unlisted: boolean;
  /**
   * False for a book a feed sent that the catalog does not describe: registered on first sight, unlisted, sharp
   * tier, class unknown (README, "Data sources", says how an operator promotes it).
   */
  in_catalog: boolean;
  features: string[];
}

const REGIONS = ['US', 'UK', 'EU', 'AU', 'GLOBAL'];

/** Reference lists (sports, leagues, sportsbooks, markets, teams) with live counts from the caller's board view. */
@Injectable()
export class ReferenceService {
  constructor(
    private readonly catalog: Catalog,
    private readonly clock: Clock,
  ) {}

  /** event_count / live_count per league from a board view. */
  private leagueCounts(board: OddsBoard): Map<string, { events: number; live: number }> {
    const out = new Map<string, { events: number; live: number }>();
    for (const e of board.events.values()) {
      if (board.rowCountOf(e.id) === 0) continue;
      const c = out.get(e.league) ?? { events: 0, live: 0 };
      c.events++;
      if (e.status === 'live') c.live++;
      out.set(e.league, c);
    }
    return out;
  }

  sports(board: OddsBoard, includeEmpty: boolean): SportView[] {
    const counts = this.leagueCounts(board);
    const out: SportView[] = [];
    for (const s of this.catalog.sports) {
      const leagues = this.catalog.leagues.filter((l) => l.sport === s.id);
      let events = 0;
      let live = 0;
      for (const l of leagues) {
        events += counts.get(l.id)?.events ?? 0;
        live += counts.get(l.id)?.live ?? 0;
      }
      if (!includeEmpty && events === 0) continue;
      out.push({
        id: s.id,
        slug: s.id,
        numerical_id: s.numerical_id,
        name: s.name,
        active: events > 0,
        event_count: events,
        live_count: live,
        leagues: leagues.filter((l) => includeEmpty || (counts.get(l.id)?.events ?? 0) > 0).map((l) => l.id),
      });
    }
    return out;
  }

  sport(board: OddsBoard, id: string): SportView {
    const def = this.catalog.sport(id);
    if (!def) throw notFound(`No sport with id "${id}"`);
    return this.sports(board, true).find((s) => s.id === def.id)!;
  }

  private leagueView(l: LeagueDef, counts: Map<string, { events: number; live: number }>): LeagueView {
    const c = counts.get(l.id) ?? { events: 0, live: 0 };
    return {
      id: l.id,
      slug: l.id,
      numerical_id: l.numerical_id,
      name: l.name,
      label: l.label,
      in_catalog: !l.registered,
      sport: l.sport,
      sport_id: l.sport,
      active: c.events > 0,
      event_count: c.events,
      live_count: c.live,
    };
  }

  leagues(board: OddsBoard, sports: string[] | undefined, includeEmpty: boolean): LeagueView[] {
    const wanted = sports?.map((s) => {
      const id = this.catalog.sportId(s);
      if (!id) throw badRequest(`Invalid parameter "sport": unknown sport "${s}"`, { parameter: 'sport' });
      return id;
    });
    const counts = this.leagueCounts(board);
    return this.catalog.leagues
      .filter((l) => !wanted || wanted.includes(l.sport))
      .map((l) => this.leagueView(l, counts))
      .filter((l) => includeEmpty || l.event_count > 0);
  }

  league(board: OddsBoard, id: string): LeagueView {
    const l = this.catalog.league(id);
    if (!l) throw notFound(`No league with id "${id}"`);
    return this.leagueView(l, this.leagueCounts(board));
  }

  private bookView(b: BookDef, board: OddsBoard, eventsByBook: Map<string, number>): SportsbookView {
    const events = eventsByBook.get(b.id) ?? 0;
    const last = board.bookLastUpdate.get(b.id);
    const features = ['odds'];
    if (b.has_live_odds) features.push('live');
    if (b.has_player_props) features.push('player_props');
    if (b.deep_link) features.push('deep_links');
    return {
      id: b.id,
      slug: b.id,
      numerical_id: b.numerical_id,
      name: b.id,
      display_name: b.display_name,
      has_live_odds: b.has_live_odds,
      has_player_props: b.has_player_props,
      regions: b.regions,
      is_sharp: b.is_sharp,
      status: events > 0 ? 'active' : 'inactive',
      active: events > 0,
      event_count: events,
      last_update: last && events > 0 ? new Date(last).toISOString() : null,
      requires_tier: b.requires_tier,
      unlisted: b.unlisted,
      in_catalog: !b.registered,
      features,
    };
  }

  private eventsByBook(board: OddsBoard): Map<string, number> {
    const out = new Map<string, number>();
    for (const e of board.events.values()) for (const b of board.booksOf(e.id)) out.set(b, (out.get(b) ?? 0) + 1);
    return out;
  }

  sportsbooks(
    board: OddsBoard,
    q: { region?: string; sharp?: boolean; catalog?: boolean; include_unlisted?: boolean; include_inactive?: boolean },
  ): SportsbookView[] {
    if (q.region && !REGIONS.includes(q.region.toUpperCase())) {
      throw badRequest(`Invalid parameter "region": must be one of ${REGIONS.join(', ')}`, { parameter: 'region' });
    }
    const counts = this.eventsByBook(board);
    return this.catalog.books
      .filter((b) => q.include_unlisted || !b.unlisted)
      .filter((b) => !q.region || b.regions.includes(q.region.toUpperCase()))
      .filter((b) => q.sharp === undefined || b.is_sharp === q.sharp)
      .map((b) => this.bookView(b, board, counts))
      .filter((b) => q.catalog || q.include_inactive || b.status === 'active');
  }

  sportsbook(board: OddsBoard, id: string): SportsbookView {
    const b = this.catalog.book(id);
    if (!b) throw notFound(`No sportsbook with id "${id}"`);
    return this.bookView(b, board, this.eventsByBook(board));
  }

  markets(board: OddsBoard, sport?: string) {
    const sportId = sport ? this.catalog.sportId(sport) : undefined;
    if (sport && !sportId) throw badRequest(`Invalid parameter "sport": unknown sport "${sport}"`, { parameter: 'sport' });
    const perMarket = new Map<string, { events: Set<string>; rows: number; sports: Set<string> }>();
    for (const m of board.keys('market')) {
      const agg = { events: new Set<string>(), rows: 0, sports: new Set<string>() };
      for (const r of board.slice('market', m)!.rows) {
        if (sportId && r.sport !== sportId) continue;
        agg.rows++;
        agg.events.add(r.eventId);
        agg.sports.add(r.sport);
      }
      perMarket.set(m, agg);
    }
    return this.catalog.markets
      .map((m) => {
        const agg = perMarket.get(m.id);
        return {
          id: m.id,
          numerical_id: m.numerical_id,
          name: m.name,
          description: m.description,
          hasLine: m.hasLine,
          category: m.category,
          examples: m.examples,
          event_count: agg?.events.size ?? 0,
          selection_count: agg?.rows ?? 0,
          sports: [...(agg?.sports ?? [])].sort(),
        };
      })
      .filter((m) => !sportId || m.sports.includes(sportId) || m.event_count > 0);
  }

  marketAliases(): Record<string, string[]> {
    return this.catalog.marketAliases;
  }

  teams(board: OddsBoard, q: { sport?: string; league?: string; q?: string }) {
    const sportId = q.sport ? this.catalog.sportId(q.sport) : undefined;
    if (q.sport && !sportId) throw badRequest(`Invalid parameter "sport": unknown sport "${q.sport}"`, { parameter: 'sport' });
    const league = q.league ? this.catalog.league(q.league) : undefined;
    if (q.league && !league) throw badRequest(`Invalid parameter "league": unknown league "${q.league}"`, { parameter: 'league' });
    const needle = q.q ? foldName(q.q) : '';
    const counts = new Map<string, { events: number; live: number }>();
    for (const e of board.events.values()) {
      if (board.rowCountOf(e.id) === 0) continue;
      for (const key of [e.homeKey, e.awayKey]) {
        const k = `${e.league}|${key}`;
        const c = counts.get(k) ?? { events: 0, live: 0 };
        c.events++;
        if (e.status === 'live') c.live++;
        counts.set(k, c);
      }
    }
    const teamCounts = (t: TeamDef) => {
      let events = 0;
      let live = 0;
      for (const lg of t.leagues) {
        const c = counts.get(`${lg}|${t.key}`);
        events += c?.events ?? 0;
        live += c?.live ?? 0;
      }
      return { events, live };
    };
    const teams = this.catalog.teams
      .filter((t) => !sportId || t.sport === sportId)
      .filter((t) => !league || t.leagues.includes(league.id))
      .filter((t) => !needle || foldName(t.name).includes(needle) || t.aliases.some((a) => foldName(a).includes(needle)))
      .map((t) => {
        const c = teamCounts(t);
        return {
          id: t.slug,
          numerical_id: t.numerical_id,
          name: t.name,
          abbreviation: t.abbreviation,
          sport: t.sport,
          leagues: t.leagues,
          aliases: t.aliases,
          city: t.city,
          mascot: t.mascot,
          conference: t.conference,
          division: t.division,
          event_count: c.events,
          live_count: c.live,
        };
      });
    const meta = {
      count: teams.length,
      total: teams.length,
      sport_filter: sportId ?? null,
      league_filter: league?.id ?? null,
      query: q.q ?? null,
      total_events: teams.reduce((s, t) => s + t.event_count, 0),
      total_live: teams.reduce((s, t) => s + t.live_count, 0),
      updated: this.clock.iso(),
    };
    return { teams, meta };
  }
}

import { Injectable } from '@nestjs/common';
import { Catalog, foldName } from '../../config/catalog.js';
import { badRequest, notFound } from '../../common/http/api-error.js';
import { localDateHour } from '../../domain/normalise.js';
import type { BoardEvent } from '../../domain/odds-row.js';
import type { OddsBoard } from '../board/odds-board.js';
import { Clock } from '../../common/time/clock.js';
import { gameStateObject } from '../game-state/game-state-object.js';
import { RefBlocks } from '../reference/ref-blocks.js';
import type { MarketSummary } from '../../common/client-profiles/rest-shapes.js';
import type { ListEventsQuery } from './dto/events.query.js';

export interface EventView {
  id: string;
  external_ids: Record<string, string>;
  sport: string;
  league: string;
  home_team: string;
  away_team: string;
  start_time: string;
  status: string;
  is_live: boolean;
  book_count: number;
  markets: string[];
  books: string[];
  [block: string]: unknown;
}

/** Events as the board derives them: status, liveness, books and markets. */
@Injectable()
export class EventsService {
  constructor(
    private readonly catalog: Catalog,
    private readonly refs: RefBlocks,
    private readonly clock: Clock,
  ) {}

  view(board: OddsBoard, e: BoardEvent): EventView {
    const books = board.booksOf(e.id);
    return {
      id: e.id,
      external_ids: e.externalIds,
      sport: e.sport,
      league: e.league,
      home_team: e.homeTeam,
      away_team: e.awayTeam,
      start_time: new Date(e.startTime).toISOString(),
      status: e.status,
      is_live: e.status === 'live',
      book_count: books.length,
      markets: board.marketsOf(e.id),
      books,
      // The game-state object while live (null otherwise): the same object /gamestate and the stream serve.
      game_state: gameStateObject(e, books.length, this.clock.now()),
      ...this.refs.forEvent(e),
    };
  }

  /**
   * The market types priced for an event (sorted by id), each with its catalog name, the distinct selections (a
   * selection at one line) any book quotes, and the books quoting it.
   */
  marketSummaries(board: OddsBoard, eventId: string): MarketSummary[] {
    const byMarket = new Map<string, { selections: Set<string>; books: Set<string> }>();
    for (const id of board.marketsOf(eventId)) byMarket.set(id, { selections: new Set(), books: new Set() });
    for (const r of board.sortedRowsOf(eventId)) {
      const m = byMarket.get(r.marketType);
      if (!m) continue;
      m.selections.add(`${r.selectionType}\u0001${r.selection}\u0001${r.line ?? ''}`);
      m.books.add(r.sportsbook);
    }
    return [...byMarket].map(([id, m]) => ({
      market_type: id,
      market_label: this.catalog.market(id)?.name ?? id,
      selection_count: m.selections.size,
      book_count: m.books.size,
      books: [...m.books].sort(),
    }));
  }

  /** Validates and resolves the list filters events, odds, opportunity lists and the stream share (ids and aliases). */
  resolveSports(input: string[] | undefined): Set<string> | undefined {
    if (!input?.length) return undefined;
    return new Set(
      input.map((s) => {
        const id = this.catalog.sportId(s);
        if (!id) throw badRequest(`Invalid parameter "sport": unknown sport "${s}"`, { parameter: 'sport' });
        return id;
      }),
    );
  }

  resolveLeagues(input: string[] | undefined): Set<string> | undefined {
    if (!input?.length) return undefined;
    return new Set(
      input.map((s) => {
        const l = this.catalog.league(s);
        if (!l) throw badRequest(`Invalid parameter "league": unknown league "${s}"`, { parameter: 'league' });
        return l.id;
      }),
    );
  }

  /** Market types and aliases (main, spread, total, props) as market type ids; an unknown one is 400. */
  resolveMarkets(input: string[] | undefined): Set<string> | undefined {
    if (!input?.length) return undefined;
    const out = new Set<string>();
    for (const m of input) {
      const ids = this.catalog.expandMarket(m);
      if (!ids) throw badRequest(`Invalid parameter "market": unknown market type or alias "${m}"`, { parameter: 'market' });
      for (const id of ids) out.add(id);
    }
    return out;
  }

  resolveBooks(input: string[] | undefined): string[] | undefined {
    if (!input?.length) return undefined;
    return input.map((b) => {
      const def = this.catalog.book(b);
      if (!def) throw badRequest(`Invalid parameter "sportsbook": unknown sportsbook "${b}"`, { parameter: 'sportsbook' });
      return def.id;
    });
  }

  /** True when a team text matches one of the event's teams (name, catalog aliases; partial). */
  matchesTeam(e: BoardEvent, needle: string): boolean {
    for (const name of [e.homeTeam, e.awayTeam]) {
      if (foldName(name).includes(needle)) return true;
      const t = name ? this.catalog.team(e.league, name) : undefined;
      if (t && (foldName(t.name).includes(needle) || t.aliases.some((a) => foldName(a).includes(needle)))) return true;
    }
    return false;
  }

  localDate(e: BoardEvent): string {
    return localDateHour(e.startTime, this.catalog.league(e.league)?.timezone ?? 'UTC').date;
  }

  /** The events matching a list query, sorted by start time then id. */
  filter(board: OddsBoard, q: Omit<ListEventsQuery, 'limit' | 'offset'>): BoardEvent[] {
    const sports = this.resolveSports(q.sport);
    const leagues = this.resolveLeagues(q.league);
    const books = this.resolveBooks(q.sportsbook);
    const team = q.team ? foldName(q.team) : '';
    const text = q.q ? foldName(q.q) : '';
    let candidates: Iterable<BoardEvent> = board.events.values();
    if (leagues) {
      const list: BoardEvent[] = [];
      for (const l of leagues) for (const id of board.eventIdsOfLeague(l) ?? []) list.push(board.events.get(id)!);
      candidates = list;
    }
    const out: BoardEvent[] = [];
    for (const e of candidates) {
      // Listed while priced (as the sport and league counts are); an ended game taken down by every book is no
      // longer listed, but /events/{id} answers it, status ended, until its grace period is over.
      if (board.rowCountOf(e.id) === 0) continue;
      if (sports && !sports.has(e.sport)) continue;
      if (q.live !== undefined && (e.status === 'live') !== q.live) continue;
      if (q.has_score !== undefined && (e.gameState !== null && typeof e.gameState.home_score === 'number') !== q.has_score) continue;
      if (books) {
        const have = board.booksOf(e.id);
        if (!books.some((b) => have.includes(b))) continue;
      }
      if (team && !this.matchesTeam(e, team)) continue;
      if (
        text &&
        !this.matchesTeam(e, text) &&
        !foldName(`${e.league} ${this.catalog.league(e.league)?.label ?? ''} ${e.sport}`).includes(text)
      )
        continue;
      if (q.date && this.localDate(e) !== q.date) continue;
      out.push(e);
    }
    out.sort((a, b) => a.startTime - b.startTime || (a.id < b.id ? -1 : 1));
    return out;
  }

  get(board: OddsBoard, id: string): BoardEvent {
    const e = board.events.get(id);
    if (!e) throw notFound(`No event with id "${id}"`);
    return e;
  }
}

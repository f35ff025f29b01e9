import { Catalog, type BookDef, type LeagueDef } from '../../config/catalog.js';
import { normalizePrice } from '../../math/odds.js';
import {
  baseEventId,
  groupKey,
  groupLine,
  HANDICAP_MARKETS,
  isQuarterLine,
  ladderKey,
  oddsRowId,
  unknownTeamKey,
  withGameNumber,
  compact,
  slugId,
  marketTypeId,
} from '../../domain/normalise.js';
import { isDrawSelection, readContract } from '../../domain/selections.js';
import { eventUpdateProblem, quoteProblem, splitsProblem } from '../../domain/edge-rules.js';
import { timeProblem } from '../../domain/time-range.js';
import { Interner } from '../../domain/interner.js';
import type { BoardEvent, ChangeSet, OddsRow, RemovedRow } from '../../domain/odds-row.js';
import type { EventUpdate, ProviderBatch, Quote, QuoteKey, SplitsInput } from '../../domain/types.js';
import type { OddsBoard } from '../board/odds-board.js';
import { GameStateStore } from '../stores/game-state/game-state-store.js';
import { dict } from '../../domain/dict.js';
import type { ResolvedSplits } from '../../domain/topics.js';

/** Why a quote was left out. Counted per batch and in metrics; never guessed around. */
export type RejectReason =
  | 'invalid_text'
  | 'invalid_status'
  | 'unknown_sportsbook'
  | 'unknown_league'
  | 'unknown_sport'
  | 'invalid_market'
  | 'lay_market'
  | 'invalid_price'
  | 'invalid_market_data'
  | 'missing_line'
  | 'unexpected_line'
  | 'selection_not_in_market'
  | 'invalid_time'
  | 'event_ended'
  | 'malformed_quote';

/** A player-prop selection on the player scoring (`To Score`, `Anytime Goalscorer`, `Not To Score`). */
const TO_SCORE = /\b(?:to[\s_]+score|anytime(?:[\s_]+(?:goal)?scorer)?|goalscorer|scorer)\b/i;

/**
 * A three-way (European) handicap: home, draw and away at a whole-goal handicap, no push. Not an Asian handicap
 * (whose 0 line refunds a draw) nor a two-way spread: a market of its own, display-only (the catalog does not
 * describe it, so it never enters a two-way group or detection).
 */
export const THREE_WAY_HANDICAP = 'three_way_handicap';

/** Market types feeds use for a three-way handicap. */
const THREE_WAY_HANDICAP_NAMES = new Set([THREE_WAY_HANDICAP, 'european_handicap', '3_way_handicap', 'handicap_3_way', 'handicap_result']);

/**
 * The indexes of the quotes of a batch that are three-way handicap prices: a three-way handicap market type, or a
 * handicap market (not an Asian one) in which the same book quotes a draw on the same game: its home and away rows
 * of that market are the three-way market's too (a retail book's 0 handicap home / draw / away is not an Asian 0).
 */
export function threeWayHandicaps(quotes: readonly Quote[]): Set<number> {
  const out = new Set<number>();
  const keyOf = (q: Quote) => [q.book, q.league, q.homeTeam, q.awayTeam, q.startTime, String(q.marketType).toLowerCase()].join('|');
  const withDraw = new Set<string>();
  quotes.forEach((q, i) => {
    const market = typeof q.marketType === 'string' ? q.marketType.toLowerCase() : '';
    if (THREE_WAY_HANDICAP_NAMES.has(market)) out.add(i);
    else if (HANDICAP_MARKETS.has(market) && market !== 'asian_handicap') {
      const st = typeof q.selectionType === 'string' ? q.selectionType.toLowerCase() : '';
      const draw = ['draw', 'tie', 'x'].includes(st) || (st !== 'home' && st !== 'away' && isDrawSelection(String(q.selection ?? '')));
      if (draw) withDraw.add(keyOf(q));
    }
  });
  if (withDraw.size)
    quotes.forEach((q, i) => {
      const market = typeof q.marketType === 'string' ? q.marketType.toLowerCase() : '';
      if (HANDICAP_MARKETS.has(market) && withDraw.has(keyOf(q))) out.add(i);
    });
  return out;
}

/** A traded amount a source sent: absent is null; anything but a finite number from 0 up is refused with the row. */
function amount(v: number | null | undefined, field: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
    throw new Rejection('invalid_market_data', `${field} must be a number from 0 up, got ${JSON.stringify(v)}`);
  return v;
}

/** A starting pitcher's name as sent (trimmed; empty is none). The text itself was checked with the quote's fields. */
function pitcher(v: string | null | undefined): string | null {
  if (typeof v !== 'string') return null;
  return v.trim() || null;
}

/** Records a refused item (a Rejection with its reason; anything else thrown is a malformed item). */
function refuse(into: Pick<ItemsReport, 'rejected' | 'rejections'>, index: number, err: unknown, what = 'item'): void {
  const r = err instanceof Rejection ? err : new Rejection('malformed_quote', `the ${what} is malformed (a field has the wrong type)`);
  into.rejected[r.reason] = (into.rejected[r.reason] ?? 0) + 1;
  if (into.rejections.length < MAX_REJECTIONS_LISTED) into.rejections.push({ index, reason: r.reason, message: r.message });
}

export class Rejection extends Error {
  constructor(
    readonly reason: RejectReason,
    message: string,
  ) {
    super(message);
  }
}

/** What happened to a batch's event updates or splits snapshots: each one refused is listed with its reason. */
export interface ItemsReport {
  received: number;
  accepted: number;
  rejected: Partial<Record<RejectReason, number>>;
  /** Index into the batch's `events` (or `splits`), reason and message of each refused one. */
  rejections: Array<{ index: number; reason: RejectReason; message: string }>;
}

export interface IngestReport {
  source: string;
  quotes: number;
  accepted: number;
  changed: number;
  unchanged: number;
  removed: number;
  rejected: Partial<Record<RejectReason, number>>;
  /** The rejections with their reasons (index into batch.quotes); every one for a batch of up to MAX_REJECTIONS_LISTED. */
  rejections: Array<{ index: number; reason: RejectReason; message: string }>;
  /** Leagues and books first seen in this batch and registered (`from`: the source's spelling). */
  registered?: { leagues: Array<{ id: string; sport: string; from: string }>; books: Array<{ id: string; from: string }> };
  /** Accepted rows of market types the catalog does not know, per type: kept and shown, never in detection. */
  displayOnly?: Record<string, number>;
  /** With `batch.reportIds`: the row id of each quote (by index), null for a rejected one (an import's manifest). */
  ids?: Array<string | null>;
  /** The batch's event updates (status, game state), when it has any. */
  events?: ItemsReport;
  /** The batch's splits snapshots, when it has any. */
  splits?: ItemsReport;
}

export interface PipelineResult {
  changeSet: ChangeSet;
  report: IngestReport;
  splits: ResolvedSplits[];
}

interface TeamRef {
  readonly key: string;
  readonly name: string;
}
const NO_TEAM: TeamRef = Object.freeze({ key: '', name: '' });
const NO_FIXTURES: ReadonlyArray<{ id: string; startTime: number }> = Object.freeze([]);

/** Time an event of the same teams may move and still be the same fixture (sources disagree by minutes). */
const SAME_FIXTURE_MS = 3 * 3600_000;
/** Approximate start times (futures, prediction-market close times) match within a day and a half. */
const APPROXIMATE_MS = 36 * 3600_000;
/**
 * How far a book's own event id is followed to an event whose start has moved (a delay, a postponement): a game
 * rescheduled within a week. An id seen again months apart (a replayed capture beside a live import, a book that
 * reuses ids) is another game.
 */
const FOLLOW_EXTERNAL_ID_MS = 7 * 24 * 3600_000;
/** Rejections listed per report (the admin channel takes at most 5000 quotes a call, so an import sees every one). */
const MAX_REJECTIONS_LISTED = 5000;

/** The selection types each outcome set admits. */
const ALLOWED_SELECTIONS: Record<string, readonly string[]> = dict({
  two_way: ['home', 'away'],
  three_way: ['home', 'away', 'draw'],
  over_under: ['over', 'under'],
  binary: ['yes', 'no'],
});

/** The quote's price in every format, or a Rejection. */
function priceOf(q: Quote): ReturnType<typeof normalizePrice> {
  try {
    return normalizePrice(q.price);
  } catch (err) {
    throw new Rejection('invalid_price', (err as Error).message.replace(/^normalizePrice: /, ''));
  }
}

/** The counts a report adds to a running total. */
export type IngestCounts = Pick<IngestReport, 'quotes' | 'accepted' | 'changed' | 'removed' | 'rejected'> & { unchanged?: number };

/** Adds a report's counts to `into` (the service's totals, a merged report). */
export function addCounts(into: IngestCounts, r: IngestReport): void {
  into.quotes += r.quotes;
  into.accepted += r.accepted;
  into.changed += r.changed;
  into.removed += r.removed;
  if (into.unchanged !== undefined) into.unchanged += r.unchanged;
  for (const [k, v] of Object.entries(r.rejected)) into.rejected[k as RejectReason] = (into.rejected[k as RejectReason] ?? 0) + (v ?? 0);
}

/** Adds a report's registrations and display-only counts to `into`. */
export function mergeRegistered(
  into: Pick<IngestReport, 'registered' | 'displayOnly'>,
  r: Pick<IngestReport, 'registered' | 'displayOnly'>,
): void {
  if (r.registered) {
    const reg = (into.registered ??= { leagues: [], books: [] });
    for (const l of r.registered.leagues) if (!reg.leagues.some((x) => x.id === l.id)) reg.leagues.push(l);
    for (const b of r.registered.books) if (!reg.books.some((x) => x.id === b.id)) reg.books.push(b);
  }
  if (r.displayOnly) {
    const d = (into.displayOnly ??= {});
    for (const [k, v] of Object.entries(r.displayOnly)) d[k] = (d[k] ?? 0) + v;
  }
}

/** One report for consecutive slices of a batch (rejection indexes point into the whole batch). */
export function mergeReports(reports: IngestReport[]): IngestReport {
  const out: IngestReport = {
    source: reports[0]?.source ?? '',
    quotes: 0,
    accepted: 0,
    changed: 0,
    unchanged: 0,
    removed: 0,
    rejected: {},
    rejections: [],
  };
  for (const r of reports) {
    for (const r2 of r.rejections)
      if (out.rejections.length < MAX_REJECTIONS_LISTED) out.rejections.push({ ...r2, index: out.quotes + r2.index });
    addCounts(out, r);
    mergeRegistered(out, r);
    if (r.events) out.events = r.events;
    if (r.splits) out.splits = r.splits;
  }
  return out;
}

/**
 * Normalises provider batches into board change sets: catalog ids, price formats, canonical events,
 * deterministic row ids, market groups; and rejects, with a reason, what does not fit.
 */
export class IngestionPipeline {
  /** pairKey (league|sorted team keys) -> events of that pairing */
  private readonly fixtures = new Map<string, Array<{ id: string; startTime: number }>>();
  private readonly pairOf = new Map<string, string>();
  /** One copy of every string the rows repeat (markets, periods, ladders, groups, selections...). */
  private readonly strings = new Interner();

  /**
   * @param gameStates the game-state store: each source's game-state report goes there, and the merged state onto
   * the board's event.
   */
  constructor(
    private readonly catalog: Catalog,
    private readonly board: OddsBoard,
    readonly gameStates = new GameStateStore(),
  ) {
    this.syncFixtures();
    board.onChange((cs) => {
      this.adoptCatalog(cs);
      for (const e of cs.events) this.registerFixture(e);
      for (const id of cs.eventsRemoved) this.forgetFixture({ id });
    });
  }

  /** Registers every event on the board (after the board was rebuilt from the database). */
  syncFixtures(): void {
    for (const e of this.board.events.values()) {
      this.adoptLeagueOf(e);
      this.registerFixture(e);
    }
    for (const b of this.board.keys('book'))
      if (!this.catalog.book(b)) this.catalog.adoptBook(Catalog.unknownBook(b, b, this.catalog.books.length + 1));
  }

  /**
   * Leagues and books registered elsewhere (the active worker, an import into the store) become known here too:
   * from the change set's registrations, else from the rows and events themselves (a resync, a restart).
   */
  private adoptCatalog(cs: ChangeSet): void {
    for (const l of cs.catalog?.leagues ?? []) this.catalog.adoptLeague(l);
    for (const b of cs.catalog?.books ?? []) this.catalog.adoptBook(b);
    for (const e of cs.events) this.adoptLeagueOf(e);
    for (const r of cs.upserted)
      if (!this.catalog.book(r.sportsbook))
        this.catalog.adoptBook(Catalog.unknownBook(r.sportsbook, r.sportsbook, this.catalog.books.length + 1));
  }

  private adoptLeagueOf(e: Pick<BoardEvent, 'league' | 'sport'>): void {
    if (this.catalog.league(e.league)) return;
    this.catalog.registerLeague(e.league, e.sport);
  }

  registerFixture(e: Pick<BoardEvent, 'id' | 'league' | 'homeKey' | 'awayKey' | 'startTime'>): void {
    const pk = this.pairKey(e.league, e.homeKey, e.awayKey);
    const list = this.fixtures.get(pk) ?? [];
    const known = list.find((f) => f.id === e.id);
    if (known) known.startTime = e.startTime;
    else list.push({ id: e.id, startTime: e.startTime });
    this.fixtures.set(pk, list);
    this.pairOf.set(e.id, pk);
  }

  /** Forgets an event that left the board, so its fixture slot is free again. */
  forgetFixture(e: Pick<BoardEvent, 'id'>): void {
    this.startReports.delete(e.id);
    const pk = this.pairOf.get(e.id);
    if (!pk) return;
    this.pairOf.delete(e.id);
    const list = this.fixtures.get(pk)?.filter((f) => f.id !== e.id);
    if (list?.length) this.fixtures.set(pk, list);
    else this.fixtures.delete(pk);
  }

  /** `league|a|b` with the two team keys in code-unit order, whichever side each is on. */
  private pairKey(league: string, a: string, b: string): string {
    return a <= b ? `${league}|${a}|${b}` : `${league}|${b}|${a}`;
  }

  private leagueOf(input: string): LeagueDef {
    const l = this.catalog.league(input);
    if (!l) throw new Rejection('unknown_league', `unknown league "${input}"`);
    return l;
  }

  /** Leagues and books registered while processing the current batch. */
  private newLeagues = new Map<string, { def: LeagueDef; from: string }>();
  private newBooks = new Map<string, { def: BookDef; from: string }>();

  /** The league of a quote; one the catalog lacks is registered under the quote's sport (or its key's sport prefix). */
  private leagueFor(q: Pick<Quote, 'league' | 'sport' | 'leagueName'>, register: boolean): LeagueDef {
    const input = String(q.league ?? '').trim();
    if (!input) throw new Rejection('unknown_league', 'league is empty');
    const sport = typeof q.sport === 'string' && q.sport.trim() ? q.sport.trim() : null;
    const known = this.catalog.league(input, sport && this.catalog.sport(sport) ? sport : undefined);
    if (known) return known;
    if (!register) throw new Rejection('unknown_league', `unknown league "${input}"`);
    const prefix = /^([a-z]+)_/.exec(slugId(input))?.[1];
    const sportId = sport ? this.catalog.sportId(sport) : prefix ? this.catalog.sportId(prefix) : undefined;
    if (sport && !sportId)
      throw new Rejection('unknown_sport', `unknown sport "${sport}": league "${input}" cannot be registered under it`);
    if (!sportId) throw new Rejection('unknown_league', `unknown league "${input}" and no sport given to register it under`);
    const r = this.catalog.registerLeague(input, sportId, q.leagueName ?? null);
    if (!r)
      throw new Rejection(
        'unknown_league',
        `unknown league "${input}" cannot be registered (no letters or digits, or too many new leagues)`,
      );
    if (r.isNew) this.newLeagues.set(r.def.id, { def: r.def, from: input });
    return r.def;
  }

  /** The book of a quote; one the catalog lacks is registered (unlisted, sharp tier). */
  private bookFor(input: string, register: boolean): BookDef {
    const raw = String(input ?? '').trim();
    if (!raw) throw new Rejection('unknown_sportsbook', 'sportsbook is empty');
    const known = this.catalog.book(raw);
    if (known) return known;
    if (!register) throw new Rejection('unknown_sportsbook', `unknown sportsbook "${raw}"`);
    const r = this.catalog.registerBook(raw);
    if (!r)
      throw new Rejection(
        'unknown_sportsbook',
        `unknown sportsbook "${raw}" cannot be registered (no letters or digits, or too many new books)`,
      );
    if (r.isNew) this.newBooks.set(r.def.id, { def: r.def, from: raw });
    return r.def;
  }

  /** Teams the catalog does not know, by their trimmed name: a feed repeats each spelling on every price. */
  private readonly unknownTeams = new Map<string, TeamRef>();

  /** The catalog's team (its key and name), else the name as given with a key made from it. Not to be changed. */
  team(league: LeagueDef, name: string): TeamRef {
    const trimmed = name.trim();
    if (!trimmed) return NO_TEAM;
    const t = this.catalog.team(league.id, trimmed);
    if (t) return t;
    let ref = this.unknownTeams.get(trimmed);
    if (!ref) {
      if (this.unknownTeams.size >= 50_000) this.unknownTeams.clear();
      ref = { key: unknownTeamKey(trimmed), name: trimmed };
      this.unknownTeams.set(trimmed, ref);
    }
    return ref;
  }

  /**
   * The canonical event id of a fixture: an existing event of the same league and teams that the quoting book
   * already knows by the same external event id (whatever its start), else one within the tolerance (nearest
   * start wins), else a new id; a second game of the same pairing in the same bucket (a doubleheader) gets `_g2`.
   * An event keeps the id of the start it was first seen with when its start moves.
   */
  resolveEventId(
    league: LeagueDef,
    home: TeamRef,
    away: TeamRef,
    startTime: number,
    opts: { gameNumber?: number; approximate?: boolean; book?: string; externalId?: string | null } = {},
  ): { id: string; isNew: boolean } {
    const candidates = this.fixtures.get(this.pairKey(league.id, home.key, away.key)) ?? NO_FIXTURES;
    if (opts.gameNumber && opts.gameNumber > 1) {
      // Game N of a doubleheader whose start moved into another bucket is still game N.
      const suffix = withGameNumber('', opts.gameNumber);
      const moved = candidates.find((c) => c.id.endsWith(suffix) && Math.abs(c.startTime - startTime) <= SAME_FIXTURE_MS);
      if (moved) return { id: moved.id, isNew: false };
      const id = withGameNumber(baseEventId(league.id, home.key, away.key, startTime, league.timezone), opts.gameNumber);
      return { id, isNew: !this.board.events.has(id) && !this.pending.has(id) };
    }
    if (opts.book && opts.externalId)
      for (const c of candidates) {
        const known = this.pending.get(c.id) ?? this.board.events.get(c.id);
        // Only a game still to be played follows its book's id (an ended or cancelled one keeps what it was).
        if (
          known?.externalIds[opts.book] === opts.externalId &&
          known.status !== 'ended' &&
          known.status !== 'cancelled' &&
          Math.abs(c.startTime - startTime) <= FOLLOW_EXTERNAL_ID_MS
        )
          return { id: c.id, isNew: false };
      }
    const tolerance = opts.approximate ? APPROXIMATE_MS : SAME_FIXTURE_MS;
    let best: { id: string; startTime: number } | undefined;
    for (const c of candidates) {
      const d = Math.abs(c.startTime - startTime);
      if (d <= tolerance && (!best || d < Math.abs(best.startTime - startTime))) best = c;
    }
    if (best) return { id: best.id, isNew: false };
    const base = baseEventId(league.id, home.key, away.key, startTime, league.timezone);
    let id = base;
    for (let g = 2; this.board.events.has(id) || this.pending.has(id); g++) id = withGameNumber(base, g);
    return { id, isNew: true };
  }

  /** Events created or changed in the batch being processed. */
  private pending = new Map<string, BoardEvent>();
  /** Each reporter's (book's, or event feed's) last start time of each event: a reporter changing its own moves the start. */
  private readonly startReports = new Map<string, Map<string, number>>();
  /** Events named by an explicit event update in the batch being processed. */
  private updated = new Set<string>();

  private event(
    league: LeagueDef,
    homeName: string,
    awayName: string,
    startTime: number,
    now: number,
    opts: { gameNumber?: number; approximate?: boolean; book?: string; externalId?: string | null; reporter?: string },
  ): BoardEvent {
    if (!startTime || timeProblem(startTime)) throw new Rejection('invalid_time', 'event start time is missing or invalid');
    const home = this.team(league, homeName);
    const away = this.team(league, awayName);
    const { id, isNew } = this.resolveEventId(league, home, away, startTime, opts);
    let e = this.pending.get(id);
    if (!e) {
      const existing = this.board.events.get(id);
      e = existing
        ? { ...existing, externalIds: { ...existing.externalIds } }
        : {
            id,
            sport: league.sport,
            league: league.id,
            homeTeam: home.name,
            awayTeam: away.name,
            homeKey: home.key,
            awayKey: away.key,
            startTime,
            status: 'upcoming',
            externalIds: {},
            gameState: null,
            firstSeenAt: now,
            updatedAt: now,
            endedAt: null,
          };
      this.pending.set(id, e);
      if (isNew) this.registerFixture(e);
      (e as BoardEvent & { __dirty?: boolean }).__dirty = isNew;
    }
    if (opts.book && opts.externalId && e.externalIds[opts.book] !== opts.externalId) {
      e.externalIds[opts.book] = opts.externalId;
      this.markDirty(e, now);
    }
    const reporter = opts.book ?? opts.reporter;
    if (reporter && !opts.approximate) this.reportStart(e, reporter, startTime, now);
    return e;
  }

  /**
   * A reporter's start time of an event. Sources disagree by minutes, so a first report only records what the
   * reporter says; when a reporter changes its own report (a delay, an earlier start, a rescheduled game) the event's
   * start moves to it, while the event is upcoming or postponed (a game under way or over keeps its start).
   */
  private reportStart(e: BoardEvent, reporter: string, startTime: number, now: number): void {
    let reports = this.startReports.get(e.id);
    if (!reports) this.startReports.set(e.id, (reports = new Map()));
    const before = reports.get(reporter);
    reports.set(reporter, startTime);
    if (before === undefined || before === startTime || startTime === e.startTime) return;
    if (e.status !== 'upcoming' && e.status !== 'postponed') return;
    e.startTime = startTime;
    this.registerFixture(e);
    this.markDirty(e, now);
  }

  private markDirty(e: BoardEvent, now: number): void {
    e.updatedAt = now;
    (e as BoardEvent & { __dirty?: boolean }).__dirty = true;
  }

  /** The side of a team-based selection in the canonical event, from its name; null when it names no team. */
  private sideOf(league: LeagueDef, e: BoardEvent, selection: string): 'home' | 'away' | null {
    const key = this.team(league, selection).key;
    if (!key) return null;
    if (key === e.homeKey && key !== e.awayKey) return 'home';
    if (key === e.awayKey && key !== e.homeKey) return 'away';
    return null;
  }

  /** Whether a text is the game's title: its two teams joined by `@`, `at`, `vs`, `v` or a dash, in either order. */
  private isGameTitle(league: LeagueDef, e: BoardEvent, text: string): boolean {
    const parts = text.split(/\s+(?:@|at|vs\.?|v\.?|versus|-|\u2013)\s+/i);
    if (parts.length !== 2 || !e.homeKey || !e.awayKey) return false;
    const keys = parts.map((p) => this.team(league, p).key);
    return (keys[0] === e.homeKey && keys[1] === e.awayKey) || (keys[0] === e.awayKey && keys[1] === e.homeKey);
  }

  /**
   * Builds the board row for one quote, or throws a Rejection. `register`: a league or book the catalog lacks is
   * registered on first sight (off for removals, which only name what exists).
   */
  normalise(q: Quote, now: number, register = false): OddsRow {
    const bad = quoteProblem(q);
    if (bad) throw new Rejection(bad.reason, bad.message);
    const quotedMarket = marketTypeId(String(q.marketType ?? ''));
    if (!/^[a-z0-9_]{1,64}$/.test(quotedMarket)) throw new Rejection('invalid_market', `invalid market type "${q.marketType}"`);
    if (quotedMarket.endsWith('_lay')) throw new Rejection('lay_market', 'exchange lay prices are not back prices');
    const price = priceOf(q);
    const book = this.bookFor(q.book, register);
    const league = this.leagueFor(q, register);
    const e = this.event(league, q.homeTeam, q.awayTeam, q.startTime, now, {
      gameNumber: q.gameNumber,
      approximate: q.approximateStart,
      book: book.id,
      externalId: q.externalEventId,
    });
    if (e.status === 'ended' || e.status === 'cancelled') throw new Rejection('event_ended', `event ${e.id} has ${e.status}`);
    const line = q.line === undefined || q.line === null || Number.isNaN(q.line) ? null : Number(q.line);
    if (line !== null && !Number.isFinite(line)) throw new Rejection('invalid_market', 'line is not a number');
    const { marketType, selectionType, subject } = this.classify(q, league, e, quotedMarket, line);
    const sided = this.checkFit(q, league, e, marketType, selectionType, line);

    const str = this.strings;
    const period = str.intern((q.period ?? 'game').toLowerCase());
    const gLine = groupLine(marketType, selectionType, line);
    const ladder = str.intern(ladderKey(e.id, marketType, period, subject));
    const playerName = str.intern(q.playerName ?? null);
    const id = oddsRowId({
      book: book.id,
      eventId: e.id,
      marketType,
      period,
      selectionType,
      selection: q.selection,
      line,
      playerName,
      sided,
    });
    const isLive = q.isLive ?? false;
    const sourceTime = q.sourceTime && Number.isFinite(q.sourceTime) ? q.sourceTime : null;
    // The row it replaces keeps its id string (the board's key): one copy per row, not one per update.
    const cur = this.board.rows.get(id);
    return {
      id: cur ? cur.id : id,
      sportsbook: book.id,
      eventId: e.id,
      sport: league.sport,
      league: league.id,
      marketType: str.intern(marketType),
      period,
      ladderKey: ladder,
      groupKey: str.intern(groupKey(ladder, gLine)),
      groupLine: gLine,
      selection: str.intern(q.selection),
      selectionType: str.intern(selectionType),
      line,
      playerName,
      statCategory: str.intern(q.statCategory ?? null),
      american: price.american,
      decimal: price.decimal,
      probability: price.probability,
      isLive,
      isActive: q.isActive ?? true,
      changedAt: now,
      oddsChangedAt: sourceTime ?? now,
      lastSeenAt: now,
      externalEventId: str.intern(q.externalEventId ?? null),
      marketId: str.intern(q.marketId ?? null),
      selectionId: q.selectionId ?? null,
      maxBet: q.maxBet ?? null,
      volume: amount(q.volume, 'volume'),
      volume24h: amount(q.volume24h, 'volume_24h'),
      openInterest: amount(q.openInterest, 'open_interest'),
      bid: q.bid ?? null,
      ask: q.ask ?? null,
      last: q.last ?? null,
      homePitcher: str.intern(pitcher(q.homePitcher)),
      awayPitcher: str.intern(pitcher(q.awayPitcher)),
    };
  }

  /**
   * The canonical market type, selection type and subject of a quote: prediction-market contracts read, quarter
   * lines as Asian handicaps, team selections named by their side in the canonical event.
   */
  private classify(
    q: Quote,
    league: LeagueDef,
    e: BoardEvent,
    quotedMarket: string,
    line: number | null,
  ): { marketType: string; selectionType: string; subject: string | null } {
    let marketType = quotedMarket;
    let selectionType = String(q.selectionType ?? '').toLowerCase() || 'other';
    let subject: string | null = q.playerName ? compact(q.playerName) : null;
    if (marketType === 'moneyline') ({ marketType, selectionType, subject } = this.readMoneyline(q, league, e, selectionType, subject));
    // "To Score" in an over/under player prop is the player's anytime-goal Yes (or No): that market, not a refusal.
    if (
      marketType.startsWith('player_') &&
      selectionType !== 'over' &&
      selectionType !== 'under' &&
      (TO_SCORE.test(q.selection) || TO_SCORE.test(selectionType))
    ) {
      const no = /\b(?:not|no)\b/i.test(q.selection) || selectionType === 'no' || selectionType.endsWith('_no');
      const player = (q.playerName ?? q.selection)
        .replace(TO_SCORE, ' ')
        .replace(/\b(?:not|no|yes)\b/gi, ' ')
        .replace(/[\s:\-\u2013]+/g, ' ');
      return { marketType: 'anytime_goal', selectionType: no ? 'no' : 'yes', subject: compact(player) || subject };
    }
    // Quarter lines settle half win / half loss: an Asian handicap, never an ordinary spread.
    if (line !== null && HANDICAP_MARKETS.has(marketType) && marketType !== 'asian_handicap' && isQuarterLine(line))
      marketType = 'asian_handicap';
    const teamMarket = marketType === 'moneyline' || HANDICAP_MARKETS.has(marketType);
    if (teamMarket && (selectionType === 'home' || selectionType === 'away' || selectionType === 'other')) {
      const side = this.sideOf(league, e, q.selection);
      if (side) selectionType = side;
      else if (
        selectionType !== 'other' &&
        this.team(league, q.homeTeam).key !== e.homeKey &&
        this.team(league, q.homeTeam).key === e.awayKey
      ) {
        // The source lists the teams the other way round: its home is our away.
        selectionType = selectionType === 'home' ? 'away' : 'home';
      }
    }
    if (marketType === 'team_total') subject = this.sideOf(league, e, q.selection) ?? subject;
    return { marketType, selectionType, subject };
  }

  /**
   * A moneyline quote: prediction-market contracts settle on what they name: a "Yes" on a team is that team's win,
   * on the tie the draw; a "No" is a Yes/No market of its own (a team's "No" is not the other team: the draw also
   * pays it).
   */
  private readMoneyline(
    q: Quote,
    league: LeagueDef,
    e: BoardEvent,
    selectionType: string,
    subject: string | null,
  ): { marketType: string; selectionType: string; subject: string | null } {
    const c = readContract(q.selection, selectionType);
    const named = (text: string, hint: string): 'home' | 'away' | 'draw' | null =>
      isDrawSelection(text)
        ? 'draw'
        : (this.sideOf(league, e, text) ?? (hint.startsWith('home') ? 'home' : hint.startsWith('away') ? 'away' : null));
    // A contract titled by the game ("Spain @ France: Yes") names both teams and so no outcome: the source's
    // home/away hint is not taken for it (it was read as the home side of games it is not on); it stays a Yes/No
    // market of its own, display-only.
    if (c.answer && this.isGameTitle(league, e, c.subject))
      return { marketType: 'binary', selectionType: c.answer, subject: compact(c.subject) || null };
    if (c.answer === 'yes') {
      const side = named(c.subject, selectionType);
      if (side) return { marketType: 'moneyline', selectionType: side, subject };
      return { marketType: 'binary', selectionType: 'yes', subject: compact(c.subject) || null };
    }
    if (c.answer === 'no')
      return { marketType: 'binary', selectionType: 'no', subject: named(c.subject, selectionType) ?? (compact(c.subject) || 'no') };
    if (
      ['draw', 'tie', 'x'].includes(selectionType) ||
      (selectionType !== 'home' && selectionType !== 'away' && isDrawSelection(q.selection))
    ) {
      // Tie/draw contracts in every spelling venues use: `Draw`, `Tie`, `X`, `Reg Time: Tie` (often typed `other`).
      return { marketType: 'moneyline', selectionType: 'draw', subject };
    }
    return { marketType: 'moneyline', selectionType, subject };
  }

  /**
   * Rejects a selection that does not fit its market's outcome set, a missing or unexpected line; returns whether
   * the market is sided (has a fixed outcome set).
   */
  private checkFit(q: Quote, league: LeagueDef, e: BoardEvent, marketType: string, selectionType: string, line: number | null): boolean {
    const outcomes = this.catalog.outcomeSet(marketType, league.sport);
    const fit = ALLOWED_SELECTIONS[outcomes];
    // A team market on a question with no opponent (a futures "moneyline" on who wins an award) has no two sides
    // to fit: it is kept as quoted and never forms a two- or three-way group.
    const headToHead = Boolean(e.homeKey && e.awayKey);
    const enforce = fit !== undefined && (headToHead || (outcomes !== 'two_way' && outcomes !== 'three_way'));
    if (enforce && !fit.includes(selectionType)) {
      const why = selectionType === 'draw' && outcomes === 'two_way' ? ` (${league.sport} ${marketType} has no draw)` : '';
      throw new Rejection(
        'selection_not_in_market',
        `selection "${q.selection}" (${selectionType}) does not fit a ${outcomes.replace('_', '-')} ${marketType} market${why}`,
      );
    }
    const needsLine = outcomes === 'over_under' || (outcomes === 'two_way' && HANDICAP_MARKETS.has(marketType));
    if (needsLine && line === null) throw new Rejection('missing_line', `${marketType} needs a line`);
    if (marketType === 'moneyline' && line !== null) throw new Rejection('unexpected_line', 'a moneyline has no line');
    return fit !== undefined;
  }

  /** The row id a quote key maps to (for removals), or null when it cannot be resolved. */
  private idOf(k: QuoteKey, now: number): string | null {
    try {
      const probe = this.normalise({ ...k, price: { decimal: 2 } }, now);
      return probe.id;
    } catch {
      return null;
    }
  }

  private applyEventUpdate(u: EventUpdate, now: number, source: string): void {
    const league = this.leagueOf(u.league);
    const e = this.event(league, u.homeTeam, u.awayTeam, u.startTime, now, {
      gameNumber: u.gameNumber,
      book: u.book,
      externalId: u.externalEventId,
      reporter: `feed:${source}`,
    });
    this.updated.add(e.id);
    if (u.status && u.status !== e.status) {
      e.status = u.status;
      if (u.status === 'ended' || u.status === 'cancelled') e.endedAt = now;
      this.markDirty(e, now);
    }
    if (u.gameState !== undefined) {
      const merged = u.gameState === null ? null : this.gameStates.report(e.id, e.sport, u.book ?? source, u.gameState, now);
      if (JSON.stringify(merged) !== JSON.stringify(e.gameState)) {
        e.gameState = merged;
        this.markDirty(e, now);
      }
    }
    if (e.status === 'ended' || e.status === 'cancelled') this.gameStates.forget(e.id);
  }

  /** Turns one provider batch into a change set against the current board (the caller applies it). */
  process(batch: ProviderBatch, now: number): PipelineResult {
    this.pending = new Map();
    this.newLeagues = new Map();
    this.newBooks = new Map();
    const report: IngestReport = {
      source: batch.source,
      quotes: batch.quotes.length,
      accepted: 0,
      changed: 0,
      unchanged: 0,
      removed: 0,
      rejected: {},
      rejections: [],
    };
    if (batch.events?.length) report.events = this.applyEventUpdates(batch.events, now, batch.source);
    const { upserts, displayOnly } = this.normaliseQuotes(batch.quotes, now, report, batch.reportIds);
    const { upserted, seen } = this.diffWithBoard(upserts, now, report);
    const { removed, eventsRemoved } = this.removals(batch, upserts, now);
    report.removed = removed.length;
    const splits: ResolvedSplits[] = [];
    if (batch.splits?.length) report.splits = this.resolveSplits(batch.splits, now, splits);
    const events = this.changedEvents(upserted, seen, splits);
    this.updated = new Set();
    this.pending = new Map();
    const confirmed = (batch.confirms ?? []).map((b) => this.catalog.book(b)?.id).filter((b): b is string => Boolean(b));
    const changeSet: ChangeSet = {
      version: this.board.version + 1,
      at: now,
      upserted,
      removed,
      events,
      eventsRemoved,
      seen,
      ...(confirmed.length ? { confirmed } : {}),
    };
    if (this.newLeagues.size || this.newBooks.size) {
      changeSet.catalog = {
        leagues: [...this.newLeagues.values()].map((l) => l.def),
        books: [...this.newBooks.values()].map((b) => b.def),
      };
      report.registered = {
        leagues: [...this.newLeagues.values()].map((l) => ({ id: l.def.id, sport: l.def.sport, from: l.from })),
        books: [...this.newBooks.values()].map((b) => ({ id: b.def.id, from: b.from })),
      };
    }
    if (Object.keys(displayOnly).length) report.displayOnly = displayOnly;
    return { changeSet, report, splits };
  }

  /** Applies the batch's event updates; each one refused (edge rules, unknown league) is reported, the rest applied. */
  private applyEventUpdates(updates: EventUpdate[], now: number, source: string): ItemsReport {
    const out: ItemsReport = { received: updates.length, accepted: 0, rejected: {}, rejections: [] };
    updates.forEach((u, i) => {
      try {
        const bad = eventUpdateProblem(u);
        if (bad) throw new Rejection(bad.reason, bad.message);
        this.applyEventUpdate(u, now, source);
        out.accepted++;
      } catch (err) {
        refuse(out, i, err, 'event update');
      }
    });
    return out;
  }

  /** The batch's quotes as board rows by id (the last quote of a row wins); rejections and display-only types counted. */
  private normaliseQuotes(
    quotes: Quote[],
    now: number,
    report: IngestReport,
    reportIds?: boolean,
  ): { upserts: Map<string, OddsRow>; displayOnly: Record<string, number> } {
    const displayOnly: Record<string, number> = dict();
    const upserts = new Map<string, OddsRow>();
    if (reportIds) report.ids = quotes.map(() => null);
    const threeWay = threeWayHandicaps(quotes);
    quotes.forEach((q, i) => {
      try {
        const row = this.normalise(threeWay.has(i) ? { ...q, marketType: THREE_WAY_HANDICAP } : q, now, true);
        upserts.set(row.id, row);
        if (report.ids) report.ids[i] = row.id;
        report.accepted++;
        if (!this.catalog.market(row.marketType)) displayOnly[row.marketType] = (displayOnly[row.marketType] ?? 0) + 1;
      } catch (err) {
        refuse(report, i, err, 'quote');
      }
    });
    return { upserts, displayOnly };
  }

  /**
   * Rows that changed (price, line, state) against the board, and rows seen unchanged. A row re-quoted live puts
   * its upcoming event live.
   */
  private diffWithBoard(upserts: Map<string, OddsRow>, now: number, report: IngestReport): { upserted: OddsRow[]; seen: string[] } {
    const upserted: OddsRow[] = [];
    const seen: string[] = [];
    for (const row of upserts.values()) {
      const prev = this.board.rows.get(row.id);
      if (prev && !row.isActive) {
        // A suspended market's price is frozen at its last value: what a book sends while it takes no bets is not
        // a price anyone can have.
        row.american = prev.american;
        row.decimal = prev.decimal;
        row.probability = prev.probability;
      }
      if (
        prev &&
        prev.american === row.american &&
        prev.decimal === row.decimal &&
        prev.line === row.line &&
        prev.isActive === row.isActive &&
        prev.isLive === row.isLive &&
        (prev.bid ?? null) === row.bid &&
        (prev.ask ?? null) === row.ask &&
        (prev.last ?? null) === row.last
      ) {
        seen.push(row.id);
        report.unchanged++;
        continue;
      }
      // odds_changed_at moves with the price, line or live state only (not with a suspension or a re-opening).
      if (prev && prev.decimal === row.decimal && prev.line === row.line && prev.isLive === row.isLive)
        row.oddsChangedAt = prev.oddsChangedAt;
      upserted.push(row);
      report.changed++;
      if (row.isLive) {
        const e = this.pending.get(row.eventId);
        if (e && e.status === 'upcoming') {
          e.status = 'live';
          this.markDirty(e, now);
        }
      }
    }
    return { upserted, seen };
  }

  /** Rows the batch withdraws (one by one, or a book's whole event) and events removed from the board. */
  private removals(batch: ProviderBatch, upserts: Map<string, OddsRow>, now: number): { removed: RemovedRow[]; eventsRemoved: string[] } {
    const removed: RemovedRow[] = [];
    const removedIds = new Set<string>();
    const remove = (id: string): void => {
      if (removedIds.has(id) || upserts.has(id)) return;
      const prev = this.board.rows.get(id);
      if (!prev) return;
      removedIds.add(id);
      removed.push({ id, sportsbook: prev.sportsbook, eventId: prev.eventId, removedAt: now });
    };
    for (const k of batch.removals ?? []) {
      const id = this.idOf(k, now);
      if (id) remove(id);
    }
    for (const id of batch.removeIds ?? []) remove(id);
    const eventsRemoved: string[] = [];
    for (const er of batch.eventRemovals ?? []) {
      if (!er.startTime || timeProblem(er.startTime)) continue; // names no event the board can hold
      let league: LeagueDef;
      try {
        league = this.leagueOf(er.league);
      } catch {
        continue;
      }
      const { id } = this.resolveEventId(league, this.team(league, er.homeTeam), this.team(league, er.awayTeam), er.startTime, {
        gameNumber: er.gameNumber,
      });
      if (!this.board.events.has(id)) continue;
      if (er.book) {
        for (const r of this.board.eventRows(id)) if (r.sportsbook === er.book) remove(r.id);
      } else {
        eventsRemoved.push(id);
        const ev = this.board.events.get(id)!;
        this.forgetFixture(ev);
        this.pending.delete(id);
      }
    }
    return { removed, eventsRemoved };
  }

  /** The batch's splits snapshots resolved to their events (into `into`); each one refused is reported. */
  private resolveSplits(inputs: SplitsInput[], now: number, into: ResolvedSplits[]): ItemsReport {
    const out: ItemsReport = { received: inputs.length, accepted: 0, rejected: {}, rejections: [] };
    inputs.forEach((s, i) => {
      try {
        const bad = splitsProblem(s);
        if (bad) throw new Rejection(bad.reason, bad.message);
        const league = this.leagueOf(s.league);
        const e = this.event(league, s.homeTeam, s.awayTeam, s.startTime, now, {});
        into.push({ ...s, eventId: e.id, sport: e.sport, homeTeamName: e.homeTeam, awayTeamName: e.awayTeam, league: league.id });
        out.accepted++;
      } catch (err) {
        refuse(out, i, err, 'splits snapshot');
      }
    });
    return out;
  }

  /** Events created or changed by the batch; a new event whose every quote was rejected is not created. */
  private changedEvents(upserted: OddsRow[], seen: string[], splits: ResolvedSplits[]): BoardEvent[] {
    const events: BoardEvent[] = [];
    const withRows = new Set(upserted.map((r) => r.eventId));
    for (const id of seen) withRows.add(this.board.rows.get(id)!.eventId);
    for (const s of splits) withRows.add(s.eventId);
    for (const e of this.pending.values()) {
      const flagged = e as BoardEvent & { __dirty?: boolean };
      if (!flagged.__dirty) continue;
      delete flagged.__dirty;
      if (!this.board.events.has(e.id) && !withRows.has(e.id) && !this.updated.has(e.id)) {
        this.forgetFixture(e);
        continue;
      }
      events.push(e);
    }
    return events;
  }
}

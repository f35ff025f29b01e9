import { dict } from '../domain/dict.js';
import { slugId, titleFromId } from '../domain/normalise.js';
import { readJson } from './paths.js';
import type { TierName } from './tiers.js';

export interface SportDef {
  id: string;
  numerical_id: number;
  name: string;
}
export interface LeagueDef {
  id: string;
  /** null for a league registered on first sight (numerical ids are assigned in the catalog, never invented). */
  numerical_id: number | null;
  name: string;
  label: string;
  sport: string;
  aliases: string[];
  timezone: string;
  country: string | null;
  /** True for a league a feed sent that config/catalog/leagues.json does not list (registered on first sight). */
  registered?: boolean;
}
export interface BookDef {
  id: string;
  numerical_id: number | null;
  display_name: string;
  /** `unknown`: a book registered on first sight, not yet described in config/catalog/sportsbooks.json. */
  class: 'us' | 'sharp' | 'international' | 'exchange' | 'prediction' | 'unknown';
  regions: string[];
  is_sharp: boolean;
  requires_tier: TierName | null;
  has_live_odds: boolean;
  has_player_props: boolean;
  unlisted: boolean;
  popularity: number;
  odds_api_keys: string[];
  deep_link: string | null;
  settlement: 'sportsbook' | 'exchange' | 'prediction';
  margin_profile: 'sharp' | 'soft' | 'exchange' | 'prediction';
  /** True for a book a feed sent that the catalog does not list (registered on first sight, unlisted, sharp tier). */
  registered?: boolean;
}

/** What one registration did: the definition, and whether it was new. */
export interface Registered<T> {
  def: T;
  isNew: boolean;
}

/** Most leagues / books registered on first sight in one process (a runaway feed cannot grow the catalog without end). */
export const MAX_REGISTERED_LEAGUES = 5000;
export const MAX_REGISTERED_BOOKS = 500;
export type OutcomeSet = 'two_way' | 'three_way' | 'over_under' | 'n_way' | 'binary';
export interface MarketDef {
  id: string;
  numerical_id: number;
  name: string;
  description: string;
  hasLine: boolean;
  examples: string[];
  category: 'main' | 'spread' | 'total' | 'props' | 'other';
  outcomes: OutcomeSet;
}
export interface TeamDef {
  id: string;
  slug: string;
  numerical_id: number;
  name: string;
  abbreviation: string;
  sport: string;
  leagues: string[];
  key: string;
  aliases: string[];
  city: string | null;
  mascot: string | null;
  conference: string | null;
  division: string | null;
  /** An https URL of the team's logo, when the catalog has one (none ship with it). */
  logo?: string | null;
  rating: number;
}
export interface PlayerDef {
  name: string;
  team: string;
  sport: string;
  league: string;
  position: string;
  props: Record<string, number>;
}

/** Lower-case, no accents, no punctuation, single spaces: the form aliases are compared in. */
export function foldName(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * The reference catalog (config/catalog/*.json) with its lookups. Loaded once; read-only.
 */
export class Catalog {
  readonly sports: SportDef[];
  readonly leagues: LeagueDef[];
  readonly books: BookDef[];
  readonly markets: MarketDef[];
  readonly marketAliases: Record<string, string[]>;
  readonly teams: TeamDef[];
  readonly players: PlayerDef[];

  private readonly sportById = new Map<string, SportDef>();
  private readonly leagueByAlias = new Map<string, LeagueDef>();
  private readonly bookById = new Map<string, BookDef>();
  private readonly bookByOddsApiKey = new Map<string, BookDef>();
  private readonly marketById = new Map<string, MarketDef>();
  private readonly teamById = new Map<string, TeamDef>();
  /** league id -> folded alias -> team */
  private readonly teamByAlias = new Map<string, Map<string, TeamDef>>();
  private readonly teamsByLeague = new Map<string, TeamDef[]>();
  private readonly sportAliases = new Map<string, string>([
    ['ice_hockey', 'hockey'],
    ['icehockey', 'hockey'],
    ['american_football', 'football'],
    ['americanfootball', 'football'],
    ['rugbyunion', 'rugby'],
    ['rugby_union', 'rugby'],
    ['rugbyleague', 'rugby_league'],
    ['tabletennis', 'table_tennis'],
    ['mixed_martial_arts', 'mma'],
    ['football_soccer', 'soccer'],
    ['e_sports', 'esports'],
    ['motorsport', 'motorsports'],
  ]);
  /** Folded id, aliases, name and label of each league -> the league (null where two leagues share the form). */
  private readonly leagueByFold = new Map<string, LeagueDef | null>();
  /** Compact id, display name and Odds API keys of each book -> the book (null where shared). */
  private readonly bookByCompact = new Map<string, BookDef | null>();
  private registeredLeagues = 0;
  /** Moves whenever a league or book is added or gains a name (a feed's first sighting, another instance's). */
  revision = 0;
  private registeredBooks = 0;

  constructor(data?: {
    sports: SportDef[];
    leagues: LeagueDef[];
    books: BookDef[];
    markets: { types: MarketDef[]; aliases: Record<string, string[]> };
    teams: TeamDef[];
    players: PlayerDef[];
  }) {
    const d = data ?? {
      sports: readJson<SportDef[]>('config', 'catalog', 'sports.json'),
      leagues: readJson<LeagueDef[]>('config', 'catalog', 'leagues.json'),
      books: readJson<BookDef[]>('config', 'catalog', 'sportsbooks.json'),
      markets: readJson<{ types: MarketDef[]; aliases: Record<string, string[]> }>('config', 'catalog', 'markets.json'),
      teams: readJson<TeamDef[]>('config', 'catalog', 'teams.json'),
      players: readJson<PlayerDef[]>('config', 'catalog', 'players.json'),
    };
    this.sports = d.sports;
    this.leagues = d.leagues.map((l) => ({ ...l, aliases: [...l.aliases] }));
    this.books = [...d.books].sort((a, b) => a.popularity - b.popularity);
    this.markets = d.markets.types;
    this.marketAliases = dict(d.markets.aliases);
    this.teams = d.teams;
    this.players = d.players;
    for (const s of this.sports) this.sportById.set(s.id, s);
    for (const l of this.leagues) this.indexLeague(l);
    for (const b of this.books) this.indexBook(b);
    for (const m of this.markets) this.marketById.set(m.id, m);
    for (const t of this.teams) {
      this.teamById.set(t.id, t);
      for (const lg of t.leagues) {
        let idx = this.teamByAlias.get(lg);
        if (!idx) this.teamByAlias.set(lg, (idx = new Map()));
        for (const a of [t.name, t.key, t.id, t.slug, ...t.aliases]) {
          const k = foldName(a);
          if (k && !idx.has(k)) idx.set(k, t);
        }
        const arr = this.teamsByLeague.get(lg) ?? [];
        arr.push(t);
        this.teamsByLeague.set(lg, arr);
      }
    }
  }

  sport(id: string): SportDef | undefined {
    const k = id.toLowerCase();
    const direct = this.sportById.get(this.sportAliases.get(k) ?? k);
    if (direct) return direct;
    const slug = slugId(id);
    return (
      this.sportById.get(this.sportAliases.get(slug) ?? slug) ??
      this.sportById.get(this.sportAliases.get(slug.replace(/_/g, '')) ?? slug.replace(/_/g, ''))
    );
  }

  /** Sport id for an input that may be an alias (ice_hockey -> hockey), or undefined. */
  sportId(input: string): string | undefined {
    return this.sport(input)?.id;
  }

  private indexLeague(l: LeagueDef): void {
    this.revision++;
    this.leagueByAlias.set(l.id, l);
    for (const a of l.aliases) if (!this.leagueByAlias.has(a.toLowerCase())) this.leagueByAlias.set(a.toLowerCase(), l);
    for (const form of [l.id, l.name, l.label, ...l.aliases]) {
      const f = foldName(form);
      if (!f) continue;
      const cur = this.leagueByFold.get(f);
      if (cur === undefined) this.leagueByFold.set(f, l);
      else if (cur !== null && cur.id !== l.id) this.leagueByFold.set(f, null);
    }
  }

  private indexBook(b: BookDef): void {
    this.revision++;
    this.bookById.set(b.id, b);
    for (const k of b.odds_api_keys) this.bookByOddsApiKey.set(k, b);
    for (const form of [b.id, b.display_name, ...b.odds_api_keys]) {
      const c = foldName(form).replace(/ /g, '');
      if (!c) continue;
      const cur = this.bookByCompact.get(c);
      if (cur === undefined) this.bookByCompact.set(c, b);
      else if (cur !== null && cur.id !== b.id) this.bookByCompact.set(c, null);
    }
  }

  /**
   * The league an input names: its id or an alias exactly; else any spelling of its id, name, label or an alias
   * (`World Cup`, `world_cup`, `Premier League`); else a `{country}_-_{name}` slug (the form The Odds API and the SDKs use) whose
   * country and name are a league's (`fifa_-_world_cup` -> fifa_world_cup; `spain_-_laliga` -> la_liga, Spain's,
   * while `scotland_-_premier_league` is not England's epl). With `sport`, only a league of that sport matches
   * beyond the exact forms.
   */
  league(idOrAlias: string, sport?: string): LeagueDef | undefined {
    const raw = idOrAlias.trim().toLowerCase();
    const exact = this.leagueByAlias.get(raw);
    if (exact) return exact;
    const sportId = sport ? this.sportId(sport) : undefined;
    const fits = (l: LeagueDef | null | undefined): LeagueDef | undefined => (l && (!sportId || l.sport === sportId) ? l : undefined);
    const folded = foldName(raw);
    if (!folded) return undefined;
    const byFold = fits(this.leagueByFold.get(folded));
    if (byFold) return byFold;
    const sep = /^(.+?)\s*_-_\s*(.+)$/.exec(raw) ?? /^(.+?)\s+-\s+(.+)$/.exec(raw);
    if (sep) {
      const country = foldName(sep[1]!);
      const name = foldName(sep[2]!);
      const joined = fits(this.leagueByFold.get(`${country} ${name}`));
      if (joined) return joined;
      const named = fits(this.leagueByFold.get(name));
      if (named && named.country && foldName(named.country) === country) return named;
    }
    // A sport-prefixed key (`soccer_epl`, `basketball_euroleague`) whose rest is a league of that sport.
    const prefixed = /^([a-z]+)_(.+)$/.exec(slugId(raw));
    if (prefixed) {
      const s = this.sport(prefixed[1]!);
      const rest = s ? this.leagueByFold.get(foldName(prefixed[2]!)) : undefined;
      if (s && rest && rest.sport === s.id && (!sportId || sportId === s.id)) return rest;
    }
    return undefined;
  }

  /**
   * A book by id, Odds API key, or any spelling of its id or name (`SX Bet`, `sx-bet`, `Hard Rock`). An id as the
   * board carries it is found as it is, before any spelling is folded (most calls, nothing allocated).
   */
  book(id: string): BookDef | undefined {
    const byId = this.bookById.get(id);
    if (byId) return byId;
    const k = id.trim().toLowerCase();
    const exact = this.bookById.get(k) ?? this.bookByOddsApiKey.get(k);
    if (exact) return exact;
    const c = foldName(k).replace(/ /g, '');
    return c ? (this.bookByCompact.get(c) ?? undefined) : undefined;
  }

  bookForOddsApiKey(key: string): BookDef | undefined {
    return this.bookByOddsApiKey.get(key.toLowerCase()) ?? this.book(key);
  }

  /**
   * The league an input names, registering it on first sight under a known sport (id from the slug, the input as
   * an alias, a name from `name` or the id). Undefined when the sport is unknown, the input has no letters or
   * digits, or the registration cap is reached.
   */
  registerLeague(input: string, sport: string, name?: string | null): Registered<LeagueDef> | undefined {
    const found = this.league(input, sport);
    if (found) return { def: found, isNew: false };
    const s = this.sport(sport);
    const id = slugId(input);
    if (!s || !id) return undefined;
    const byId = this.leagueByAlias.get(id);
    if (byId) {
      // The slug is a league already, of another sport: keep the two apart by the sport.
      if (byId.sport !== s.id) return this.registerLeague(`${s.id}_${id}`, s.id, name ?? null);
      return { def: byId, isNew: false };
    }
    if (this.registeredLeagues >= MAX_REGISTERED_LEAGUES) return undefined;
    const title = name?.trim() || titleFromId(id);
    const alias = input.trim().toLowerCase();
    const def: LeagueDef = {
      id,
      numerical_id: null,
      name: title,
      label: title,
      sport: s.id,
      aliases: alias && alias !== id ? [alias] : [],
      timezone: 'UTC',
      country: null,
      registered: true,
    };
    this.adoptLeague(def);
    return { def, isNew: true };
  }

  /** Adds a league registered elsewhere (another instance, the store) unless one of that id exists; returns the one kept. */
  adoptLeague(def: LeagueDef): LeagueDef {
    const cur = this.leagueByAlias.get(def.id);
    if (cur) {
      for (const a of def.aliases)
        if (!this.leagueByAlias.has(a)) {
          cur.aliases.push(a);
          this.indexLeague(cur);
        }
      return cur;
    }
    const copy: LeagueDef = { ...def, aliases: [...def.aliases], registered: true };
    this.leagues.push(copy);
    this.registeredLeagues++;
    this.indexLeague(copy);
    return copy;
  }

  /**
   * The book an input names, registering it on first sight as an unlisted book of the lowest tier that sees
   * every book (sharp): never in a tier's default set, never a sharp reference, class `unknown` until an
   * operator describes it in config/catalog/sportsbooks.json.
   */
  registerBook(input: string): Registered<BookDef> | undefined {
    const found = this.book(input);
    if (found) return { def: found, isNew: false };
    const id = slugId(input);
    if (!id || this.registeredBooks >= MAX_REGISTERED_BOOKS) return undefined;
    const display = /[A-Z\s]/.test(input.trim()) ? input.trim() : titleFromId(id);
    const def = Catalog.unknownBook(id, display, Math.max(0, ...this.books.map((b) => b.popularity)) + 1);
    return { def: this.adoptBook(def), isNew: true };
  }

  /** The definition a book registered on first sight gets. */
  static unknownBook(id: string, display: string, popularity: number): BookDef {
    return {
      id,
      numerical_id: null,
      display_name: display,
      class: 'unknown',
      regions: [],
      is_sharp: false,
      requires_tier: 'sharp',
      has_live_odds: false,
      has_player_props: false,
      unlisted: true,
      popularity,
      odds_api_keys: [],
      deep_link: null,
      settlement: 'sportsbook',
      margin_profile: 'soft',
      registered: true,
    };
  }

  /** Adds a book registered elsewhere unless one of that id exists; returns the one kept. */
  adoptBook(def: BookDef): BookDef {
    const cur = this.bookById.get(def.id);
    if (cur) return cur;
    const copy: BookDef = { ...def, regions: [...def.regions], odds_api_keys: [...def.odds_api_keys], registered: true };
    this.books.push(copy);
    this.registeredBooks++;
    this.indexBook(copy);
    return copy;
  }

  /**
   * Whether a book is verified: described in config/catalog/sportsbooks.json (any class but `unknown`). A book a
   * feed sent that the catalog lacks is unverified until an operator describes it there: never a sharp reference,
   * left out of the other books' consensus, and every opportunity resting on it carries UNVERIFIED_BOOK.
   */
  isVerified(id: string): boolean {
    const def = this.bookById.get(id);
    return def !== undefined && def.class !== 'unknown';
  }

  /** Books shown in the default catalog (not unlisted), most popular first. */
  listedBooks(): BookDef[] {
    return this.books.filter((b) => !b.unlisted);
  }

  market(id: string): MarketDef | undefined {
    return this.marketById.get(id);
  }

  /** Market ids for an input that is a market id or a category alias (main, spread, total, props, alts). */
  expandMarket(input: string): string[] | undefined {
    const k = input.toLowerCase();
    const alias = this.marketAliases[k];
    if (alias) return alias;
    if (this.marketById.has(k)) return [k];
    return undefined;
  }

  /** The outcome set of a market in a sport: soccer moneyline is three-way. */
  outcomeSet(marketType: string, sport: string): OutcomeSet {
    const m = this.marketById.get(marketType);
    if (!m) return 'n_way';
    if (marketType === 'moneyline' && sport === 'soccer') return 'three_way';
    return m.outcomes;
  }

  private readonly looseCache = new Map<string, TeamDef | null>();
  /** foldName of the names recently asked for: a feed repeats each team's spelling on every one of its prices. */
  private readonly folds = new Map<string, string>();

  private fold(name: string): string {
    let folded = this.folds.get(name);
    if (folded === undefined) {
      folded = foldName(name);
      if (this.folds.size >= 50_000) this.folds.clear();
      this.folds.set(name, folded);
    }
    return folded;
  }

  /**
   * The catalog team a feed's name means in a league: an exact alias first; otherwise the one team whose
   * nickname (or key) the name contains as a whole word ("DEN Nuggets", "Nuggets (DEN)"). Ambiguous or
   * unknown names give undefined; they are never guessed.
   */
  team(league: string, name: string): TeamDef | undefined {
    const lg = this.league(league)?.id ?? league;
    const folded = this.fold(name);
    const exact = this.teamByAlias.get(lg)?.get(folded);
    if (exact || !folded) return exact;
    const ck = `${lg}|${folded}`;
    const cached = this.looseCache.get(ck);
    if (cached !== undefined) return cached ?? undefined;
    const words = ` ${folded} `;
    let found: TeamDef | null = null;
    for (const { team, words: own } of this.wholeWordsOf(lg))
      if (own.some((w) => words.includes(w))) {
        if (found) {
          found = null;
          break;
        }
        found = team;
      }
    if (this.looseCache.size > 50_000) this.looseCache.clear();
    this.looseCache.set(ck, found);
    return found ?? undefined;
  }

  private readonly wholeWords = new Map<string, Array<{ team: TeamDef; words: string[] }>>();

  /** Each team of a league with the whole words that name it loosely (` nickname `, ` key `, 4 letters or more). */
  private wholeWordsOf(league: string): Array<{ team: TeamDef; words: string[] }> {
    let list = this.wholeWords.get(league);
    if (!list) {
      list = this.teamsOf(league).map((team) => {
        const nick = team.mascot ? foldName(team.mascot) : '';
        return { team, words: [nick, team.key].filter((w) => w.length >= 4).map((w) => ` ${w} `) };
      });
      this.wholeWords.set(league, list);
    }
    return list;
  }

  teamByIdOrSlug(id: string): TeamDef | undefined {
    return this.teamById.get(id) ?? this.teamById.get(id.replace(/-/g, '_'));
  }

  teamsOf(league: string): TeamDef[] {
    return this.teamsByLeague.get(league) ?? [];
  }
}

import { readJson } from './paths.js';
import type { TierName } from './tiers.js';

export interface SportDef { id: string; numerical_id: number; name: string }
export interface LeagueDef { id: string; numerical_id: number; name: string; label: string; sport: string; aliases: string[]; timezone: string; country: string | null }
export interface BookDef {
  id: string;
  numerical_id: number | null;
  display_name: string;
  class: 'us' | 'sharp' | 'international' | 'exchange' | 'prediction';
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
}
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
  rating: number;
}
export interface PlayerDef { name: string; team: string; sport: string; league: string; position: string; props: Record<string, number> }

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
  private readonly sportAliases = new Map<string, string>([['ice_hockey', 'hockey'], ['icehockey', 'hockey'], ['american_football', 'football'], ['americanfootball', 'football']]);

  constructor(data?: { sports: SportDef[]; leagues: LeagueDef[]; books: BookDef[]; markets: { types: MarketDef[]; aliases: Record<string, string[]> }; teams: TeamDef[]; players: PlayerDef[] }) {
    const d = data ?? {
      sports: readJson<SportDef[]>('config', 'catalog', 'sports.json'),
      leagues: readJson<LeagueDef[]>('config', 'catalog', 'leagues.json'),
      books: readJson<BookDef[]>('config', 'catalog', 'sportsbooks.json'),
      markets: readJson<{ types: MarketDef[]; aliases: Record<string, string[]> }>('config', 'catalog', 'markets.json'),
      teams: readJson<TeamDef[]>('config', 'catalog', 'teams.json'),
      players: readJson<PlayerDef[]>('config', 'catalog', 'players.json'),
    };
    this.sports = d.sports;
    this.leagues = d.leagues;
    this.books = [...d.books].sort((a, b) => a.popularity - b.popularity);
    this.markets = d.markets.types;
    this.marketAliases = d.markets.aliases;
    this.teams = d.teams;
    this.players = d.players;
    for (const s of this.sports) this.sportById.set(s.id, s);
    for (const l of this.leagues) {
      this.leagueByAlias.set(l.id, l);
      for (const a of l.aliases) this.leagueByAlias.set(a.toLowerCase(), l);
    }
    for (const b of this.books) {
      this.bookById.set(b.id, b);
      for (const k of b.odds_api_keys) this.bookByOddsApiKey.set(k, b);
    }
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
    return this.sportById.get(this.sportAliases.get(k) ?? k);
  }

  /** Sport id for an input that may be an alias (ice_hockey -> hockey), or undefined. */
  sportId(input: string): string | undefined {
    return this.sport(input)?.id;
  }

  league(idOrAlias: string): LeagueDef | undefined {
    return this.leagueByAlias.get(idOrAlias.toLowerCase());
  }

  book(id: string): BookDef | undefined {
    return this.bookById.get(id.toLowerCase());
  }

  bookForOddsApiKey(key: string): BookDef | undefined {
    return this.bookByOddsApiKey.get(key.toLowerCase()) ?? this.bookById.get(key.toLowerCase());
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
    if (this.marketAliases[k]) return this.marketAliases[k];
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

  /**
   * The catalog team a feed's name means in a league: an exact alias first; otherwise the one team whose
   * nickname (or key) the name contains as a whole word ("DEN Nuggets", "Nuggets (DEN)"). Ambiguous or
   * unknown names give undefined; they are never guessed.
   */
  team(league: string, name: string): TeamDef | undefined {
    const lg = this.league(league)?.id ?? league;
    const folded = foldName(name);
    const exact = this.teamByAlias.get(lg)?.get(folded);
    if (exact || !folded) return exact;
    const ck = `${lg}|${folded}`;
    const cached = this.looseCache.get(ck);
    if (cached !== undefined) return cached ?? undefined;
    const words = ` ${folded} `;
    const hits = this.teamsOf(lg).filter((t) => {
      const nick = t.mascot ? foldName(t.mascot) : '';
      return (nick.length >= 4 && words.includes(` ${nick} `)) || (t.key.length >= 4 && words.includes(` ${t.key} `));
    });
    const found = hits.length === 1 ? hits[0]! : null;
    if (this.looseCache.size > 50_000) this.looseCache.clear();
    this.looseCache.set(ck, found);
    return found ?? undefined;
  }

  teamByIdOrSlug(id: string): TeamDef | undefined {
    return this.teamById.get(id) ?? this.teamById.get(id.replace(/-/g, '_'));
  }

  teamsOf(league: string): TeamDef[] {
    return this.teamsByLeague.get(league) ?? [];
  }
}

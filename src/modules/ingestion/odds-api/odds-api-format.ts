import { parseTime } from '../../../common/time/time-param.js';
import type { Catalog } from '../../../config/catalog.js';
import type { Quote } from '../../../domain/types.js';
import type { ParsedFile, ParsedQuote, ParseError } from '../importers/parsed.js';
import { dict } from '../../../domain/dict.js';

/** The Odds API v4 market keys and the catalog market types they map to. */
export const ODDS_API_MARKETS: Record<string, { type: string; period?: string }> = dict({
  h2h: { type: 'moneyline' },
  spreads: { type: 'point_spread' },
  totals: { type: 'total_points' },
  alternate_spreads: { type: 'point_spread' },
  alternate_totals: { type: 'total_points' },
  team_totals: { type: 'team_total' },
  h2h_h1: { type: 'moneyline', period: '1h' },
  spreads_h1: { type: 'point_spread', period: '1h' },
  totals_h1: { type: 'total_points', period: '1h' },
  h2h_q1: { type: 'moneyline', period: '1q' },
  spreads_q1: { type: 'point_spread', period: '1q' },
  totals_q1: { type: 'total_points', period: '1q' },
  h2h_p1: { type: 'moneyline', period: 'p1' },
  totals_p1: { type: 'total_points', period: 'p1' },
  h2h_1st_5_innings: { type: 'moneyline', period: 'f5' },
  totals_1st_5_innings: { type: 'total_points', period: 'f5' },
  player_points: { type: 'player_points' },
  player_rebounds: { type: 'player_rebounds' },
  player_assists: { type: 'player_assists' },
  player_threes: { type: 'player_threes' },
  player_pass_yds: { type: 'player_pass_yards' },
  player_rush_yds: { type: 'player_rush_yards' },
  player_reception_yds: { type: 'player_receiving_yards' },
  player_shots_on_goal: { type: 'player_shots_on_goal' },
  player_goals: { type: 'player_goals' },
  player_points_hockey: { type: 'player_points' },
  batter_hits: { type: 'player_hits' },
  batter_total_bases: { type: 'player_total_bases' },
  pitcher_strikeouts: { type: 'player_strikeouts' },
});

interface V4Outcome {
  name?: unknown;
  price?: unknown;
  point?: unknown;
  description?: unknown;
}
interface V4Market {
  key?: unknown;
  last_update?: unknown;
  outcomes?: unknown;
}
interface V4Bookmaker {
  key?: unknown;
  title?: unknown;
  last_update?: unknown;
  markets?: unknown;
}
export interface V4Event {
  id?: unknown;
  sport_key?: unknown;
  sport_title?: unknown;
  commence_time?: unknown;
  home_team?: unknown;
  away_team?: unknown;
  bookmakers?: unknown;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
/** An RFC 3339 time read strictly (src/common/time/time-param.ts: a real calendar date, in the service's range), or null. */
const time = (v: unknown): number | null => {
  const s = str(v);
  return s ? (parseTime(s, { unixSeconds: false, dateAlone: false }).ms ?? null) : null;
};

export interface OddsApiParseOptions {
  /** 'decimal' or 'american'; 'auto' treats any price below 0 or of magnitude >= 100 with no fraction as American. */
  oddsFormat?: 'decimal' | 'american' | 'auto';
  /** Capture time: events starting before it are live. */
  now?: number;
}

/** What an outcome's quote takes from its event, bookmaker and market. */
interface OutcomeContext {
  book: string;
  league: { id: string; sport: string };
  /** Whether the catalog knows the league (else its title goes with the quote, for registration). */
  known: boolean;
  home: string;
  away: string;
  start: number;
  isLive: boolean;
  sourceTime: number | null;
  ev: V4Event;
}

/** One outcome as a quote, or why it cannot be one. Outcomes are matched to the teams by name, never by position. */
function outcomeQuote(
  o: V4Outcome,
  mapped: { type: string; period?: string },
  format: NonNullable<OddsApiParseOptions['oddsFormat']>,
  c: OutcomeContext,
): Quote | string {
  const name = str(o.name);
  const price = typeof o.price === 'number' && Number.isFinite(o.price) ? o.price : null;
  if (!name) return 'outcome name is missing';
  if (price === null) return 'outcome price is missing or not a number';
  const point =
    o.point === undefined || o.point === null ? null : typeof o.point === 'number' && Number.isFinite(o.point) ? o.point : Number.NaN;
  if (Number.isNaN(point)) return 'outcome point is not a number';
  const american = format === 'american' || (format === 'auto' && (price < 0 || (Math.abs(price) >= 100 && Number.isInteger(price))));
  let selectionType: string;
  let playerName: string | null = null;
  const lower = name.toLowerCase();
  if (mapped.type.startsWith('player_')) {
    playerName = str(o.description);
    if (!playerName) return 'player prop outcome without a description (the player)';
    if (lower !== 'over' && lower !== 'under') return `player prop outcome "${name}" is neither Over nor Under`;
    selectionType = lower;
  } else if (lower === 'over' || lower === 'under') selectionType = lower;
  else if (lower === 'draw' || lower === 'tie') selectionType = 'draw';
  else if (name === c.home) selectionType = 'home';
  else if (name === c.away) selectionType = 'away';
  else return `outcome "${name}" is neither team of ${c.away} @ ${c.home}`;
  if (mapped.type === 'team_total') playerName = str(o.description);
  return {
    book: c.book,
    league: c.league.id,
    sport: c.league.sport,
    leagueName: c.known ? null : str(c.ev.sport_title),
    homeTeam: c.home,
    awayTeam: c.away,
    startTime: c.start,
    marketType: mapped.type,
    period: mapped.period ?? 'game',
    selection: name,
    selectionType,
    line: point,
    playerName,
    statCategory: mapped.type.startsWith('player_') ? mapped.type.slice('player_'.length) : null,
    price: american ? { american: price } : { decimal: price },
    isLive: c.isLive,
    sourceTime: c.sourceTime,
    externalEventId: str(c.ev.id),
  };
}

/**
 * The Odds API v4 odds JSON (an array of events with bookmakers, markets and outcomes, or one such event)
 * to quotes. Outcome names are matched to the home and away teams by name, never by position; lay markets
 * and unknown bookmakers or market keys are reported and skipped.
 * `line` numbers in errors and quotes are 1-based positions of the outcome in the file's traversal order.
 */
export function parseOddsApiEvents(
  input: unknown,
  catalog: Catalog,
  opts: OddsApiParseOptions = {},
): ParsedFile & { unknownBooks: string[] } {
  const events = Array.isArray(input) ? (input as V4Event[]) : input && typeof input === 'object' ? [input as V4Event] : null;
  const errors: ParseError[] = [];
  const quotes: ParsedQuote[] = [];
  const unknownBooks = new Set<string>();
  let n = 0;
  let capturedAt: number | null = null;
  if (!events)
    return {
      format: 'odds_api_json',
      quotes,
      errors: [{ line: 1, reason: 'expected an array of events or one event object' }],
      records: 0,
      capturedAt,
      unknownBooks: [],
    };
  const format = opts.oddsFormat ?? 'auto';

  events.forEach((ev, ei) => {
    const where = `event ${ei + 1}${str(ev?.id) ? ` (${str(ev.id)})` : ''}`;
    const sportKey = str(ev?.sport_key);
    const home = str(ev?.home_team);
    const away = str(ev?.away_team);
    const start = time(ev?.commence_time);
    // A sport key the catalog lacks is passed on under its sport (its prefix: `soccer_brazil_campeonato`); the
    // pipeline registers it. A key whose sport is unknown is refused here.
    const known = sportKey ? catalog.league(sportKey) : undefined;
    const prefixSport = sportKey
      ? (catalog.sportId(sportKey.split('_')[0]!) ?? catalog.sportId(sportKey.split('_').slice(0, 2).join('_')))
      : undefined;
    const league = known ? { id: known.id, sport: known.sport } : prefixSport ? { id: sportKey!, sport: prefixSport } : undefined;
    const bookmakers = Array.isArray(ev?.bookmakers) ? (ev.bookmakers as V4Bookmaker[]) : [];
    // Outrights (`basketball_nba_championship_winner`, market key `outrights`, no teams): futures markets.
    if (sportKey && !home && !away && isOutrightEvent(sportKey, bookmakers)) {
      n = outrightQuotes(ev, sportKey, bookmakers, catalog, n, quotes, errors, (t) => {
        if (t !== null && (capturedAt === null || t > capturedAt)) capturedAt = t;
      });
      return;
    }
    const evProblem = !sportKey
      ? 'sport_key is missing'
      : !league
        ? `unknown sport_key "${sportKey}"`
        : !home || !away
          ? 'home_team or away_team is missing'
          : start === null
            ? 'commence_time is missing or invalid'
            : null;
    if (evProblem) {
      const outcomes = bookmakers.reduce(
        (s, b) =>
          s +
          (Array.isArray(b.markets)
            ? (b.markets as V4Market[]).reduce((t, m) => t + (Array.isArray(m.outcomes) ? m.outcomes.length : 0), 0)
            : 0),
        0,
      );
      n += Math.max(outcomes, 1);
      errors.push({ line: n, reason: `${where}: ${evProblem}` });
      return;
    }
    const isLive = opts.now !== undefined && start! <= opts.now;
    for (const bm of bookmakers) {
      const bookKey = str(bm.key)?.toLowerCase() ?? '';
      // A bookmaker key the catalog lacks is passed on as it is: the pipeline registers it (unlisted, sharp tier).
      const book = bookKey ? (catalog.bookForOddsApiKey(bookKey) ?? { id: bookKey }) : undefined;
      if (bookKey && !catalog.bookForOddsApiKey(bookKey)) unknownBooks.add(bookKey);
      const bookUpdate = time(bm.last_update);
      if (bookUpdate !== null && (capturedAt === null || bookUpdate > capturedAt)) capturedAt = bookUpdate;
      for (const m of Array.isArray(bm.markets) ? (bm.markets as V4Market[]) : []) {
        const key = str(m.key) ?? '';
        const outcomes = Array.isArray(m.outcomes) ? (m.outcomes as V4Outcome[]) : [];
        const mapped = ODDS_API_MARKETS[key];
        const mUpdate = time(m.last_update) ?? bookUpdate;
        for (const o of outcomes) {
          n++;
          const bad = (reason: string) =>
            errors.push({ line: n, reason: `${where}, ${bookKey || 'bookmaker ?'} ${key || 'market ?'}: ${reason}` });
          if (!book) {
            bad('bookmaker key is missing');
            continue;
          }
          if (key.endsWith('_lay')) {
            bad('lay prices are not back prices');
            continue;
          }
          if (!mapped) {
            bad(`unsupported market key "${key}"`);
            continue;
          }
          const quote = outcomeQuote(o, mapped, format, {
            book: book.id,
            league: league!,
            known: Boolean(known),
            home: home!,
            away: away!,
            start: start!,
            isLive,
            sourceTime: mUpdate,
            ev,
          });
          if (typeof quote === 'string') {
            bad(quote);
            continue;
          }
          quotes.push({ line: n, quote });
        }
      }
    }
  });
  return { format: 'odds_api_json', quotes, errors, records: n, capturedAt, unknownBooks: [...unknownBooks] };
}

/** Outright sport keys and the kind of question they ask. */
const OUTRIGHT_SUFFIX = /_(championship_winner|super_bowl_winner|world_series_winner|stanley_cup_winner|winner|championship|outrights?)$/;

function isOutrightEvent(sportKey: string, bookmakers: V4Bookmaker[]): boolean {
  return (
    OUTRIGHT_SUFFIX.test(sportKey) ||
    bookmakers.some((b) => Array.isArray(b.markets) && (b.markets as V4Market[]).some((m) => str(m.key) === 'outrights'))
  );
}

/**
 * The Odds API outrights (`has_outrights` sports: market key `outrights`, one outcome per runner, no teams) as
 * futures quotes tagged with their market: a championship (`..._championship_winner`, `..._super_bowl_winner`,
 * `..._world_series_winner`, `..._stanley_cup_winner`) is the league's championship market of the season the
 * event closes in, the same market the other sources' championship rows join; any other outright is a market
 * of its own sport key. Returns the running outcome count.
 */
function outrightQuotes(
  ev: V4Event,
  sportKey: string,
  bookmakers: V4Bookmaker[],
  catalog: Catalog,
  n: number,
  quotes: ParsedQuote[],
  errors: ParseError[],
  seen: (t: number | null) => void,
): number {
  const where = `event ${str(ev.id) ?? sportKey}`;
  const suffix = OUTRIGHT_SUFFIX.exec(sportKey)?.[1] ?? 'winner';
  const base = sportKey.replace(OUTRIGHT_SUFFIX, '');
  const league = catalog.league(sportKey) ?? catalog.league(base);
  const start = time(ev.commence_time);
  const title = str((ev as { sport_title?: unknown }).sport_title) ?? sportKey;
  const championship = /championship_winner|super_bowl_winner|world_series_winner|stanley_cup_winner|championship/.test(suffix);
  for (const bm of bookmakers) {
    const bookKey = str(bm.key)?.toLowerCase() ?? '';
    const book = catalog.bookForOddsApiKey(bookKey)?.id ?? bookKey;
    seen(time(bm.last_update));
    for (const m of Array.isArray(bm.markets) ? (bm.markets as V4Market[]) : []) {
      for (const o of Array.isArray(m.outcomes) ? (m.outcomes as V4Outcome[]) : []) {
        n++;
        const bad = (reason: string) => errors.push({ line: n, reason: `${where}, ${bookKey || 'bookmaker ?'} outrights: ${reason}` });
        if (!league) {
          bad(`no catalog league for outright sport_key "${sportKey}"`);
          continue;
        }
        if (start === null) {
          bad('commence_time is missing or invalid');
          continue;
        }
        if (!bookKey) {
          bad('bookmaker key is missing');
          continue;
        }
        if (str(m.key) !== 'outrights') {
          bad(`unsupported market key "${str(m.key) ?? ''}" on an outright`);
          continue;
        }
        const name = str(o.name);
        const price = typeof o.price === 'number' && Number.isFinite(o.price) ? o.price : null;
        if (!name || price === null) {
          bad('outcome name or price is missing');
          continue;
        }
        const season = new Date(start).getUTCFullYear();
        const kind = championship ? 'championship_winner' : 'tournament_winner';
        const market = championship ? `championship_winner_${season}` : `${sportKey.replace(/[^a-z0-9]+/g, '_')}_${season}`;
        const quote: Quote = {
          book,
          league: league.id,
          sport: league.sport,
          homeTeam: '',
          awayTeam: '',
          startTime: start,
          approximateStart: true,
          marketType: kind,
          selection: name,
          selectionType: 'other',
          line: null,
          price: price < 0 || (Math.abs(price) >= 100 && Number.isInteger(price)) ? { american: price } : { decimal: price },
          sourceTime: time(m.last_update) ?? time(bm.last_update),
          externalEventId: str(ev.id),
          future: {
            market,
            name: championship ? `${league.label || league.name} Championship winner ${season}` : title,
            type: league.sport === 'golf' || league.sport === 'tennis' ? 'PLAYER' : 'TEAM',
            kind,
          },
        };
        quotes.push({ line: n, quote });
      }
    }
  }
  return n;
}

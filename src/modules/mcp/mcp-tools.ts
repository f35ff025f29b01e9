import { z } from 'zod';
import { DEVIG_METHODS } from '../../math/devig.js';
import { ARB_SORTS } from '../arbitrage/dto/arbitrage.query.js';
import { EV_SORTS } from '../ev/dto/ev.query.js';
import { LOW_HOLD_SORTS } from '../low-hold/dto/low-hold.query.js';
import { MIDDLE_SORTS } from '../middles/dto/middles.query.js';
import { ODDS_FIELDS } from '../odds/odds-item.js';
import { SORT_FIELDS } from '../odds/odds-sort.js';
import { DATE_RANGES } from '../opportunity-lists/dto/opportunity-filters.query.js';
import { SPLITS_BOOKS, SPLITS_MARKETS } from '../stores/splits/splits-store.js';

type Item = Record<string, unknown>;

/**
 * One MCP tool: a REST route and the arguments it takes. The tool sends its arguments as the route's query
 * parameters (lists joined with commas) with the caller's key and returns what the route returns; the route's
 * own guards, validation and tier rules decide everything. Adding a tool is one entry in MCP_TOOLS.
 */
export interface McpToolDef {
  name: string;
  title: string;
  description: string;
  /**
   * The GET route, relative to /api/v1. A `{arg}` segment is filled from that argument (and the argument is not
   * sent as a query parameter); a `{arg?}` segment is left out when the argument is absent.
   */
  route: string;
  /** POST: the arguments are sent as the route's JSON body (GET, the default: as its query). */
  method?: 'POST';
  /** The arguments: every one validated and described (unknown arguments are refused). */
  input: z.ZodObject;
  /** What the route's `data` items are, for the text summary ("odds rows"). */
  noun: string;
  /** One line about an item, for the summary's first item. */
  highlight?: (item: Item) => string | undefined;
}

// ---- argument builders: one description per parameter, as the REST document words it ----

const ID = z.string().trim().min(1).max(200);
const list = (what: string, example: string) =>
  z
    .union([z.string().trim().min(1).max(2000), z.array(ID).min(1).max(100)])
    .describe(`${what}: one id, several comma-separated, or an array (e.g. "${example}")`);
const flag = (description: string) => z.boolean().describe(description);
const text = (description: string, max = 100) => z.string().trim().min(1).max(max).describe(description);
const americanOdds = (description: string) => z.number().int().min(-100000).max(100000).describe(description);
const oneOf = <T extends string>(values: readonly T[], description: string) =>
  z.enum(values as [T, ...T[]]).describe(`${description}; one of ${values.join(', ')}`);
const page = (def: number, max: number) => ({
  limit: z.number().int().min(1).max(max).describe(`Items per page (default ${def}, at most ${max})`),
  offset: z.number().int().min(0).max(5000).describe('Items to skip (default 0, at most 5000)'),
});

/** A tool's arguments: all optional but those named in `required`; unknown arguments are refused. */
function params(shape: Record<string, z.ZodType>, required: string[] = []): z.ZodObject {
  const entries = Object.entries(shape).map(([k, s]) => [k, required.includes(k) ? s : s.optional()] as const);
  return z.object(Object.fromEntries(entries)).strict();
}

const sport = list('Sport id(s)', 'basketball');
const league = list('League id(s) or aliases', 'nba');
const sportsbook = list(
  "Sportsbook id(s); omitted: the tier's default books. A book above the key's tier, or more books than the tier allows, is refused (tier_restricted)",
  'draftkings,fanduel',
);
const addSportsbook = list("Extra book(s) on top of the tier's default set", 'betmgm');
const market = list('Market type(s) or category aliases (main, spread, total, props, alts)', 'moneyline');
const event = list('Event id(s), as get_events returns them', 'nba_celtics_lakers_2026-11-22_b3');
const live = flag('true: live games only; false: pre-game only; omitted: both');
const team = text('Team name or alias (partial, case-insensitive)');
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
  .describe('Game date, YYYY-MM-DD (US Eastern for US leagues, UTC otherwise)');
const search = text('Text search over teams, league and sport (partial)');
const minOdds = americanOdds('Lowest American price (e.g. -200)');
const maxOdds = americanOdds('Highest American price (e.g. 300)');

/** The filters every opportunity list takes. */
const opportunityFilters = {
  sport,
  league,
  sportsbook,
  add_sportsbook: addSportsbook,
  market,
  event,
  team,
  live,
  max_odds_age: z
    .number()
    .min(0)
    .max(86_400)
    .describe('Only opportunities whose stalest price was confirmed at most this many seconds ago'),
  date_range: oneOf(DATE_RANGES, 'Start date window in US Eastern time (week = the next 7 days)'),
  include_flagged: flag('true: also list opportunities built on flagged venue markets (self-arbitrage, excess hold), with a warning'),
  ...page(50, 200),
};
const priceBounds = {
  min_odds: americanOdds('Lowest American price of every leg'),
  max_odds: americanOdds('Highest American price of every leg'),
};

const FUTURE_TYPES = ['TEAM', 'PLAYER', 'OVER_UNDER', 'YES_NO'] as const;
/** The filters every futures route takes (GET /futures, /futures/odds). */
const futuresFilters = (defaultLimit: number) => ({
  sport,
  league,
  future_type: z
    .union([z.enum(FUTURE_TYPES), z.array(z.enum(FUTURE_TYPES)).min(1)])
    .describe(`Market kind(s): ${FUTURE_TYPES.join(', ')} (one or an array)`),
  future_id: list('Futures market id(s): the market_id of get_futures', 'nba_championship_2026'),
  sportsbook,
  add_sportsbook: addSportsbook,
  q: text('Text in the market name or a selection (partial)'),
  ...page(defaultLimit, 200),
});

const ODDS_SORTS = SORT_FIELDS.flatMap((f) => [f, `-${f}`]);

// ---- summaries of one item ----

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const signed = (v: unknown): string => (typeof v === 'number' && v > 0 ? `+${v}` : str(v));
const eventName = (i: Item): string =>
  str(i.event_name) || (i.away_team && i.home_team ? `${str(i.away_team)} @ ${str(i.home_team)}` : str(i.event_id));
/** Over/under selections carry the total as it is (210.5); sides carry a signed handicap (-3.5, +3.5). */
const isTotal = (i: Item): boolean => /^(over|under)$/i.test(str(i.selection_type) || str(i.selection));
export const withLine = (i: Item): string =>
  i.line === null || i.line === undefined ? '' : ` ${isTotal(i) ? str(i.line) : signed(i.line)}`;

const oddsRow = (i: Item) =>
  `${eventName(i)}: ${str(i.market_type)} ${str(i.selection)}${withLine(i)} ${signed(i.odds_american)} at ${str(i.sportsbook)}`;
const legs = (ls: unknown): string =>
  Array.isArray(ls)
    ? (ls as Item[]).map((l) => `${str(l.selection)}${withLine(l)} ${signed(l.odds_american)} at ${str(l.sportsbook)}`).join(' / ')
    : '';

export const MCP_TOOLS: readonly McpToolDef[] = [
  {
    name: 'get_sports',
    title: 'Sports',
    description: 'Sports with their current event and live counts and their leagues.',
    route: '/sports',
    input: params({ include_empty: flag('Include sports with no current events (default false)') }),
    noun: 'sports',
    highlight: (i) => `${str(i.name)} (${str(i.event_count)} events, ${str(i.live_count)} live)`,
  },
  {
    name: 'get_leagues',
    title: 'Leagues',
    description: 'Leagues with their sport and current event and live counts.',
    route: '/leagues',
    input: params({ sport, include_empty: flag('Include leagues with no current events (default false)') }),
    noun: 'leagues',
    highlight: (i) => `${str(i.name)} (${str(i.sport)}, ${str(i.event_count)} events)`,
  },
  {
    name: 'get_sportsbooks',
    title: 'Sportsbooks',
    description: 'Sportsbooks with their regions, whether they are sharp, and the tier each requires.',
    route: '/sportsbooks',
    input: params({
      region: oneOf(['US', 'UK', 'EU', 'AU', 'GLOBAL'], 'Only books serving this region'),
      sharp: flag('true: sharp books only; false: the others'),
      catalog: flag('true: the configured catalog, whether or not a book has prices now (default false)'),
      include_unlisted: flag('Include unlisted books (default false)'),
      include_inactive: flag('Include books with no events now (default false)'),
    }),
    noun: 'sportsbooks',
    highlight: (i) => `${str(i.name)} (${str(i.id)})`,
  },
  {
    name: 'get_markets',
    title: 'Market types',
    description: 'Market types (moneyline, point_spread, total_points, props, ...) with whether they carry a line.',
    route: '/markets',
    input: params({ sport: text('Only markets offered in this sport (e.g. basketball)') }),
    noun: 'market types',
    highlight: (i) => `${str(i.id)} (${str(i.name)})`,
  },
  {
    name: 'get_account_info',
    title: 'Account',
    description: 'The calling key: its tier, rate limit, data delay, book limit and features. Use it to see which tools this key may call.',
    route: '/account',
    input: params({}),
    noun: 'account',
  },
  {
    name: 'get_events',
    title: 'Events',
    description:
      'Games with prices now: teams, start time, live status, the books and markets quoted. Event ids from here feed the other tools.',
    route: '/events',
    input: params({
      sport,
      league,
      sportsbook: list('Only events with prices from these books', 'draftkings'),
      live,
      has_score: flag('true: only events with a live score; false: only without'),
      team,
      date,
      q: search,
      ...page(50, 200),
    }),
    noun: 'events',
    highlight: (i) => `${eventName(i)} (${str(i.id)}, starts ${str(i.start_time)}${i.is_live ? ', live' : ''})`,
  },
  {
    name: 'get_odds',
    title: 'Odds',
    description:
      "Current prices, one row per book, market and selection, with every filter of GET /odds. Without `sportsbook` the tier's default books apply.",
    route: '/odds',
    input: params({
      sport,
      league,
      sportsbook,
      add_sportsbook: addSportsbook,
      market,
      event,
      live,
      team,
      date,
      q: search,
      min_odds: minOdds,
      max_odds: maxOdds,
      main: flag('true: main lines only'),
      sort: oneOf(ODDS_SORTS, 'Sort field ("-" prefix: descending)'),
      fields: z
        .union([z.string().trim().min(1).max(2000), z.array(z.enum(ODDS_FIELDS)).min(1)])
        .describe(`Only these fields of each row (comma-separated or an array) of: ${ODDS_FIELDS.join(', ')}`),
      group_by: oneOf(['event'] as const, 'Group rows by event (limit and offset then count events)'),
      cursor: text('Opaque cursor from meta.pagination.next_cursor (pages past offset 5000)', 2000),
      ...page(50, 500),
    }),
    noun: 'odds rows',
    highlight: oddsRow,
  },
  {
    name: 'get_odds_delta',
    title: 'Odds changed since a time',
    description:
      'Rows whose price, line, live or active state changed after `since`, and the ids removed since; use meta.server_time as the next `since`.',
    route: '/odds/delta',
    input: params(
      {
        since: z.iso.datetime({ offset: true }).describe('RFC 3339 time (required), e.g. 2026-11-22T18:00:00Z'),
        sport,
        league,
        sportsbook,
        add_sportsbook: addSportsbook,
        market,
        event,
        live,
        sort: oneOf(ODDS_SORTS, 'Sort field ("-" prefix: descending)'),
        fields: z
          .union([z.string().trim().min(1).max(2000), z.array(z.enum(ODDS_FIELDS)).min(1)])
          .describe('Only these fields of each row (comma-separated or an array), as get_odds'),
        ...page(50, 500),
      },
      ['since'],
    ),
    noun: 'changed odds rows',
    highlight: oddsRow,
  },
  {
    name: 'get_best_odds',
    title: 'Best price per selection',
    description: 'For each selection, the book with the best price among the books in scope (line shopping).',
    route: '/odds/best',
    input: params({
      sport,
      league,
      sportsbook: list("Books to compare; omitted: the tier's default books", 'draftkings,fanduel,betmgm'),
      add_sportsbook: addSportsbook,
      market,
      event,
      live,
      team,
      min_odds: minOdds,
      max_odds: maxOdds,
      is_main_line: flag('true: main lines only'),
      ...page(50, 200),
    }),
    noun: 'best prices',
    highlight: oddsRow,
  },
  {
    name: 'compare_odds',
    title: "One event's prices side by side",
    description: "One event's prices book by book (data maps each sportsbook id to its rows), to compare lines and prices across books.",
    route: '/odds/comparison',
    input: params(
      {
        event: text('Event id (required), as get_events returns it', 300),
        market: list('Market type(s) or aliases', 'moneyline,point_spread'),
        sportsbook,
        add_sportsbook: addSportsbook,
      },
      ['event'],
    ),
    noun: 'sportsbooks',
  },
  {
    name: 'find_low_hold',
    title: 'Low-hold markets',
    description: 'Markets whose best prices across the books in scope hold at most 5% (the cheapest markets to bet both sides of).',
    route: '/opportunities/low_hold',
    input: params({
      ...opportunityFilters,
      ...priceBounds,
      max_hold: z.number().min(-100).max(5).describe('Maximum hold in percent (default 5, at most 5)'),
      sort: oneOf(LOW_HOLD_SORTS, 'Sort ("-" reverses); default hold, lowest first'),
    }),
    noun: 'low-hold markets',
    highlight: (i) => `${str(i.hold_percentage)}% hold on ${eventName(i)} ${str(i.market_type)}${withLine(i)}`,
  },
  {
    name: 'find_arbitrage',
    title: 'Arbitrage',
    description:
      'Arbitrage opportunities: the best prices of every outcome at different books sum to less than 100%, with the stake split per leg.',
    route: '/opportunities/arbitrage',
    input: params({
      ...opportunityFilters,
      ...priceBounds,
      min_profit: z.number().min(0).max(100).describe('Minimum profit in percent (default 0.5; 1.0 = 1%)'),
      group: oneOf(['best'] as const, 'best: only the highest-profit arbitrage per event'),
      sort: oneOf(ARB_SORTS, 'Sort ("-" reverses); default profit, highest first'),
    }),
    noun: 'arbitrage opportunities',
    highlight: (i) => `${str(i.profit_percent)}% on ${eventName(i)} ${str(i.market_type)}: ${legs(i.legs)}`,
  },
  {
    name: 'get_closing_lines',
    title: 'Closing lines',
    description: "Each book's last pre-game prices of an event (captured when it went live), for closing-line value.",
    route: '/odds/closing',
    input: params(
      {
        event_id: text('Event id (required)', 300),
        sportsbook: list('Sportsbook id(s); omitted: every book captured', 'pinnacle,draftkings'),
      },
      ['event_id'],
    ),
    noun: 'closing lines',
  },
  {
    name: 'get_line_history',
    title: 'Line history of an event',
    description:
      "Every price change of an event's prices, one series per book, selection and line (each change: time, American and decimal price, open/suspended/removed): how each book's line moved. Narrow with market, selection (home, away, draw, over, under, or the name), line and a from/to window (RFC 3339 or Unix seconds).",
    route: '/odds/history',
    input: params(
      {
        event: text('Event id (required), as get_events returns it', 300),
        market,
        selection: list('Selection(s): home, away, draw, over, under, or the name', 'home'),
        line: z.union([z.number(), z.array(z.number()).min(1).max(20)]).describe("The selection's own line(s), e.g. -3.5"),
        sportsbook,
        from: text('Window start: RFC 3339 or Unix seconds (default: everything kept)', 40),
        to: text('Window end: RFC 3339 or Unix seconds (default: now)', 40),
        max_points: z.number().int().min(1).max(10_000).describe('Changes per series (default 1000, at most 10000)'),
        with_prior: flag('true: each series starts with its price in force at `from`'),
        ...page(50, 200),
      },
      ['event'],
    ),
    noun: 'price series',
    highlight: (i) =>
      `${str(i.sportsbook)} ${str(i.market_type)} ${str(i.selection)}${withLine(i)}: ${Array.isArray(i.points) ? i.points.length : 0} changes`,
  },
  {
    name: 'get_line_movement',
    title: 'Line movement and steam',
    description:
      "Per selection of an event: the best price's open, current, high and low, each book's moves, the first book to move and the steam moves (books following the same way within a window, with each one's lag in seconds).",
    route: '/odds/movement',
    input: params(
      {
        event: text('Event id (required), as get_events returns it', 300),
        market,
        selection: list('Selection(s): home, away, draw, over, under, or the name', 'home'),
        line: z.union([z.number(), z.array(z.number()).min(1).max(20)]).describe("The selection's own line(s), e.g. -3.5"),
        sportsbook,
        from: text('Window start: RFC 3339 or Unix seconds (default: everything kept)', 40),
        to: text('Window end: RFC 3339 or Unix seconds (default: now)', 40),
        steam_window: z.number().int().min(1).max(3600).describe('Seconds within which a move follows another (default 60)'),
        steam_min_followers: z.number().int().min(1).max(50).describe('Books that must follow for a steam move (default 2)'),
        ...page(50, 200),
      },
      ['event'],
    ),
    noun: 'selections',
    highlight: (i) => {
      const first = i.first_mover as Item | null;
      const steam = Array.isArray(i.steam) ? i.steam.length : 0;
      return `${str(i.market_type)} ${str(i.selection)}${withLine(i)}: ${str(i.moves)} moves${first ? `, first ${str(first.sportsbook)}` : ''}, ${steam} steam`;
    },
  },
  {
    name: 'get_futures',
    title: 'Futures markets',
    description:
      'Futures (outright) markets: championship, conference and division winners, awards, season win totals, yes/no propositions, with the books quoting each. Their market ids feed get_futures_odds and compare_futures_lines.',
    route: '/futures',
    input: params(futuresFilters(50)),
    noun: 'futures markets',
    highlight: (i) =>
      `${str(i.display_name)} (${str(i.market_id)}, ${Array.isArray(i.books_available) ? i.books_available.length : 0} books)`,
  },
  {
    name: 'get_futures_odds',
    title: 'Futures odds',
    description:
      "Every book's price on each selection of the futures markets matching the filters (future_id for given markets), with the fair probability and EV% where a sharp book prices the whole market.",
    route: '/futures/odds',
    input: params(futuresFilters(50)),
    noun: 'futures prices',
    highlight: (i) => `${str(i.future_market_name)}: ${str(i.selection)}${withLine(i)} ${signed(i.odds_american)} at ${str(i.sportsbook)}`,
  },
  {
    name: 'compare_futures_lines',
    title: 'Compare futures lines',
    description:
      "One futures market's selections across books (line shopping on outrights): the summary names the best and worst book and price per selection.",
    route: '/futures/odds',
    input: params(
      {
        future_id: text('Futures market id (required): the market_id from get_futures', 200),
        sportsbook: list("Books to compare; omitted: the tier's default books", 'draftkings,fanduel,betmgm'),
        add_sportsbook: addSportsbook,
        ...page(200, 200),
      },
      ['future_id'],
    ),
    noun: 'futures prices',
  },
  {
    name: 'find_ev_opportunities',
    title: '+EV bets',
    description:
      "Prices better than the fair price devigged from a sharp book's line (Pinnacle, Circa, BookMaker), with EV% and the Kelly stake.",
    route: '/opportunities/ev',
    input: params({
      ...opportunityFilters,
      ...priceBounds,
      min_ev: z.number().min(-100).max(1000).describe('Minimum EV in percent (default 0)'),
      max_ev: z.number().min(-100).max(1000).describe('Maximum EV in percent'),
      min_market_width: z.number().min(0).max(10000).describe('Minimum width of the sharp two-way market, in cents'),
      max_market_width: z.number().min(0).max(10000).describe('Maximum width of the sharp two-way market, in cents (narrow = sharper)'),
      sort: oneOf(EV_SORTS, 'Sort ("-" reverses); default ev, highest first'),
      devig_method: oneOf(DEVIG_METHODS, 'How the sharp line is devigged (default power)'),
    }),
    noun: '+EV opportunities',
    highlight: (i) =>
      `+${str(i.ev_percentage)}% ${str(i.selection)}${withLine(i)} ${signed(i.odds_american)} at ${str(i.sportsbook)} (${str(i.event_name) || str(i.game)})`,
  },
  {
    name: 'find_middles',
    title: 'Middles',
    description:
      'Two books with different lines on the same spread or total, leaving a window where both bets win; priced with the probability of landing in it.',
    route: '/opportunities/middles',
    input: params({
      ...opportunityFilters,
      min_size: z.number().min(0).max(1000).describe('Minimum middle size in points (default 0.5)'),
      sort: oneOf(MIDDLE_SORTS, 'Sort ("-" reverses); default quality, highest first'),
    }),
    noun: 'middles',
    highlight: (i) => `${str(i.middle_size)}-point middle on ${eventName(i)} ${str(i.market_type)} (EV ${str(i.expected_value)})`,
  },
  {
    name: 'get_game_state',
    title: 'Live game state',
    description: 'Live scores, period, clock and situation (possession, count, runners, ...) of the games in play, by sport and event id.',
    route: '/gamestate/{sport?}',
    input: params({
      sport: z
        .string()
        .regex(/^[A-Za-z_]{1,40}$/, 'sport must be a sport id such as basketball')
        .describe('One sport id (e.g. basketball); omitted: every sport'),
    }),
    noun: 'sports',
  },
  {
    name: 'get_splits',
    title: 'Betting splits',
    description:
      'Public betting splits (share of bets and of money per side) from DraftKings (recreational) and Circa (sharp-friendly), refreshed about every 5 minutes.',
    route: '/splits',
    input: params({
      sport,
      league,
      sportsbook: list(`Splits source(s): ${SPLITS_BOOKS.join(' (recreational), ')} (sharp-friendly)`, 'circa'),
      event,
      market: list(`Market(s): ${SPLITS_MARKETS.join(', ')}; keeps events with splits for one of them`, 'spread,total'),
      ...page(100, 200),
    }),
    noun: 'games with splits',
    highlight: (i) => `${eventName(i)} at ${str(i.sportsbook)}`,
  },
  {
    name: 'get_settlements',
    title: 'Settled +EV signals',
    description:
      "The service's own +EV signals settled: won, lost or push at the final score, or void when the game was postponed or cancelled; with the price taken, the line and the CLV. `data` is a page object: total_settlements, truncated, next_offset, settlements[].",
    route: '/settlements',
    input: params({
      hash_id: text('The +EV opportunity id (id of find_ev_opportunities)', 200),
      game_id: text('Event id', 200),
      market_type: text('Market type (e.g. point_spread)'),
      selection: text('Selection as the odds row names it (case-insensitive)'),
      player_id: text('Player id (sport_league_name, e.g. baseball_mlb_corbin_carroll)', 200),
      limit: z.number().int().min(1).max(1000).describe('Settlements per page (default 100, at most 1000)'),
      offset: z.number().int().min(0).max(100_000).describe('Settlements to skip (default 0)'),
    }),
    noun: 'settlements',
  },
  {
    name: 'get_players',
    title: 'Players',
    description:
      'Every player the sources quoted (player props, player futures and awards): id (sport_league_name, the player_id of +EV items and settlements), display name, first and last name and current team_id when known, leagues. Filter by league, team (id or name) and part of the name.',
    route: '/players',
    input: params({
      league,
      team: text("The player's current team: its team id or name", 200),
      q: text('Part of the player name (accents and case ignored)'),
      ...page(50, 200),
    }),
    noun: 'players',
    highlight: (i) => `${str(i.display_name)} (${str(i.id)}${i.team_id ? `, ${str(i.team_id)}` : ''})`,
  },
  {
    name: 'get_prediction_markets',
    title: 'Prediction-market and exchange contracts',
    description:
      'Every exchange and prediction-market contract (Kalshi, Polymarket, Novig, ...) as a market of its own: market_id "{venue}:{venue id}", outcomes with price, bid, ask and last trade (null when no quote rests), volume and open interest where known. A game contract has linked_event_id (the canonical event id of get_events); a futures or question contract has linked_event_id null.',
    route: '/prediction-markets',
    input: params({
      venue: list('Venue(s): exchange or prediction-market book ids', 'kalshi,polymarket'),
      category: list('Category id(s): game, or a futures kind such as championship_winner or mvp', 'game'),
      league,
      event_id: text('Linked canonical event id: the game contracts of one game', 200),
      status: oneOf(['open', 'suspended', 'closed'], 'Contract status'),
      ...page(50, 200),
    }),
    noun: 'contracts',
    highlight: (i) => `${str(i.title)} (${str(i.market_id)})`,
  },
  {
    name: 'price_parlay',
    title: 'Price a parlay',
    description:
      "A modelled fair price for a slip of 2 to 10 legs at one sportsbook: legs on different games multiply their devigged probabilities; legs on one game are joined by the sport's score model fitted to the game's main lines (favourite covering and the over go together). Not a sportsbook parlay quote. Legs that cannot all win give price null with reason mutually_exclusive.",
    route: '/parlay/price',
    method: 'POST',
    input: params(
      {
        legs: z
          .array(
            z
              .object({
                odds_id: ID.optional().describe('An odds row id (id of get_odds); or give event_id, market and selection'),
                event_id: ID.optional().describe('Event id'),
                market: ID.optional().describe('Market type, e.g. point_spread, total_points, moneyline'),
                selection: ID.optional().describe('Selection name or side (home, away, draw, over, under)'),
                line: z.number().optional().describe("The selection's line, when several are quoted"),
                sportsbook: ID.optional().describe("Sportsbook (default: the slip's)"),
              })
              .strict(),
          )
          .min(1)
          .max(20)
          .describe('The legs'),
        sportsbook: text("The slip's sportsbook, for legs that name none"),
      },
      ['legs'],
    ),
    noun: 'legs',
  },
];

/** A tool's route, with its path arguments filled in, and the names of the arguments the path used. */
export function resolveRoute(route: string, args: Record<string, unknown>): { path: string; used: Set<string> } {
  const used = new Set<string>();
  const segments: string[] = [];
  for (const seg of route.split('/').filter(Boolean)) {
    const m = /^\{(\w+)(\?)?\}$/.exec(seg);
    if (!m) {
      segments.push(seg);
      continue;
    }
    const name = m[1]!;
    const v = args[name];
    if (v === undefined || v === null || v === '') {
      if (m[2]) continue;
      throw new Error(`${name} is required`);
    }
    used.add(name);
    segments.push(encodeURIComponent(String(v)));
  }
  return { path: `/${segments.join('/')}`, used };
}

/** The route's path as its controller declares it, optional segments left out (for the access rule). */
export function routeTemplate(route: string): string {
  return `/${route
    .split('/')
    .filter((s) => s && !/^\{\w+\?\}$/.test(s))
    .join('/')}`;
}

/** Tool arguments as the route's query string: lists joined with commas, booleans and numbers as text. */
export function toQuery(args: Record<string, unknown>, skip: Set<string>): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) {
    if (skip.has(k) || v === undefined || v === null) continue;
    q.set(k, Array.isArray(v) ? v.map(String).join(',') : String(v));
  }
  return q;
}

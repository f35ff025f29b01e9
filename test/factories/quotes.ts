import type { Quote } from '../../src/domain/types.js';

/** The time the tests of opportunities run at, and the kick-off of their games (a day and six hours later). */
export const NOW = Date.parse('2026-11-22T12:00:00Z');
export const KICK = Date.parse('2026-11-23T18:00:00Z');

type Teams = readonly [home: string, away: string];

/** One book's quote on a game: the home side's moneyline at -110, unless `over` says otherwise. */
export function gameQuote(
  book: string,
  league: string,
  homeTeam: string,
  awayTeam: string,
  startTime: number,
  over: Partial<Quote> = {},
): Quote {
  return {
    book,
    league,
    homeTeam,
    awayTeam,
    startTime,
    marketType: 'moneyline',
    selection: homeTeam,
    selectionType: 'home',
    line: null,
    price: { american: -110 },
    ...over,
  };
}

export const CHIEFS_BILLS: Teams = ['Kansas City Chiefs', 'Buffalo Bills'];
export const EAGLES_COWBOYS: Teams = ['Philadelphia Eagles', 'Dallas Cowboys'];
export const PACKERS_BEARS: Teams = ['Green Bay Packers', 'Chicago Bears'];

/** An NFL price at KICK: one side of `teams`' moneyline at `american`, or what `over` says. */
export function nflSide(book: string, teams: Teams, side: 'home' | 'away', american: number, over: Partial<Quote> = {}): Quote {
  const selection = side === 'home' ? teams[0] : teams[1];
  return gameQuote(book, 'nfl', teams[0], teams[1], KICK, { selection, selectionType: side, price: { american }, ...over });
}

/** Both sides of a book's NFL moneyline. */
export const nflMoneyline = (book: string, teams: Teams, home: number, away: number, startTime = KICK): Quote[] => [
  nflSide(book, teams, 'home', home, { startTime }),
  nflSide(book, teams, 'away', away, { startTime }),
];

/** A book's Chiefs v Bills spread at -110 on both sides: the Chiefs at `line`, the Bills at -line. */
export const chiefsSpread = (book: string, line: number): Quote[] => [
  nflSide(book, CHIEFS_BILLS, 'home', -110, { marketType: 'point_spread', line }),
  nflSide(book, CHIEFS_BILLS, 'away', -110, { marketType: 'point_spread', line: -line }),
];

/** NFL, Kansas City Chiefs (home) v Buffalo Bills at KICK: the Chiefs' moneyline at -110, unless `over` says otherwise. */
export const chiefsBills = (book: string, over: Partial<Quote> = {}): Quote => gameQuote(book, 'nfl', ...CHIEFS_BILLS, KICK, over);

/** EPL, Arsenal (home) v Chelsea at KICK: Arsenal's moneyline at 2.00, unless `over` says otherwise. */
export const arsenalChelsea = (book: string, over: Partial<Quote> = {}): Quote =>
  gameQuote(book, 'epl', 'Arsenal', 'Chelsea', KICK, { price: { decimal: 2 }, ...over });

/** NBA, Denver Nuggets (home) v Los Angeles Lakers at KICK: the Nuggets' moneyline at -110, unless `over` says otherwise. */
export const nuggetsLakers = (book: string, over: Partial<Quote> = {}): Quote =>
  gameQuote(book, 'nba', 'Denver Nuggets', 'Los Angeles Lakers', KICK, over);

/** One opportunity of every type: an arbitrage, +EV against Pinnacle and a middle on Chiefs v Bills; a low-hold (4.76%) market on Packers v Bears. */
export function everyOpportunityType(): Quote[] {
  return [
    ...nflMoneyline('draftkings', CHIEFS_BILLS, 110, -130),
    ...nflMoneyline('fanduel', CHIEFS_BILLS, -125, 104),
    ...nflMoneyline('pinnacle', CHIEFS_BILLS, -105, -105),
    ...chiefsSpread('draftkings', -2.5),
    ...chiefsSpread('fanduel', -7.5),
    ...nflMoneyline('draftkings', PACKERS_BEARS, -110, -110),
    ...nflMoneyline('fanduel', PACKERS_BEARS, -110, -110),
  ];
}

/**
 * A board whose opportunities are known in advance:
 *  - Chiefs v Bills moneyline: DraftKings home +110 (2.10) and FanDuel away +104 (2.04) are an arbitrage
 *    among the hobby books: 1/2.10 + 1/2.04 = 0.476190 + 0.490196 = 0.966386, implied_total 96.6386 %,
 *    profit 100/0.966386 - 100 = 3.4783 %, stakes 49.2754 / 50.7246. Pinnacle -105/-105 makes both +EV
 *    (fair 0.5 each: +5.0 % and +2.0 %). `alsoOnChiefsBills` adds other books' prices of that moneyline.
 *  - Chiefs v Bills spread: DraftKings' main line -2.5, FanDuel's -7.5: a 5-point middle over 3 and 7.
 *  - Eagles v Cowboys moneyline (a day later): Pinnacle away +125 (2.25) with DraftKings home -105 (1.9524) is an
 *    arbitrage only with a sharp-tier book: 0.512190 + 0.444444 = 0.956635, profit 4.5331 %: sharp keys see
 *    it, hobby and pro keys do not.
 *  - With `quietGame`, Packers v Bears an hour after that: every book -110/-110, no opportunity at all.
 */
export function knownOpportunities(opts: { alsoOnChiefsBills?: Quote[]; quietGame?: boolean } = {}): Quote[] {
  const later = KICK + 24 * 3600_000;
  return [
    ...nflMoneyline('draftkings', CHIEFS_BILLS, 110, -130),
    ...nflMoneyline('fanduel', CHIEFS_BILLS, -125, 104),
    ...nflMoneyline('pinnacle', CHIEFS_BILLS, -105, -105),
    ...(opts.alsoOnChiefsBills ?? []),
    ...chiefsSpread('draftkings', -2.5),
    ...chiefsSpread('fanduel', -7.5),
    ...nflMoneyline('draftkings', EAGLES_COWBOYS, -105, -130, later),
    ...nflMoneyline('fanduel', EAGLES_COWBOYS, -120, -110, later),
    ...nflMoneyline('pinnacle', EAGLES_COWBOYS, -145, 125, later),
    ...(opts.quietGame
      ? [
          ...nflMoneyline('draftkings', PACKERS_BEARS, -110, -110, later + 3600_000),
          ...nflMoneyline('fanduel', PACKERS_BEARS, -110, -110, later + 3600_000),
          ...nflMoneyline('pinnacle', PACKERS_BEARS, -110, -110, later + 3600_000),
        ]
      : []),
  ];
}

/** The Boston Celtics' team block as the catalog describes them (`home` of an item on a Celtics home game). */
export const CELTICS_TEAM = {
  id: 'boston_celtics',
  numerical_id: 3,
  name: 'Boston Celtics',
  abbreviation: 'BOS',
  city: 'Boston',
  mascot: 'Celtics',
  conference: 'Eastern',
  division: 'Atlantic',
} as const;

/** NHL, Boston Bruins (home) v New York Rangers at KICK: one side of the moneyline at `american`, or what `over` says. */
export const bruinsRangers = (book: string, side: 'home' | 'away', american: number, over: Partial<Quote> = {}): Quote =>
  gameQuote(book, 'nhl', 'Boston Bruins', 'New York Rangers', KICK, {
    selection: side === 'home' ? 'Boston Bruins' : 'New York Rangers',
    selectionType: side,
    price: { american },
    ...over,
  });

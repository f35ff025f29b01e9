import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../config/catalog.js';
import type { Quote } from '../../domain/types.js';
import { parseSampleCsv } from './importers/sample-csv.js';
import { applyFutures, splitFutures } from './futures-intake.js';
import { isFutureQuote, resolveFuture } from './futures-mapping.js';
import { FuturesStore } from '../stores/futures/futures-store.js';

const catalog = new Catalog();
const NOW = Date.parse('2026-07-13T02:00:00Z');
const SAMPLE = new URL('../../../test/fixtures/mlb_odds_snapshot.csv', import.meta.url).pathname;
const q = (over: Partial<Quote>): Quote => ({
  book: 'draftkings',
  league: 'mlb',
  homeTeam: '',
  awayTeam: '',
  startTime: Date.parse('2026-10-31T00:00:00Z'),
  marketType: 'outright',
  selection: 'X',
  selectionType: 'other',
  line: null,
  price: { american: 500 },
  ...over,
});

describe('which quotes are futures', () => {
  it('a futures market type, no opponent, or the same team on both sides; a game is not', () => {
    expect(isFutureQuote(q({ marketType: 'championship_winner', homeTeam: 'MLB Futures' }))).toBe(true);
    expect(isFutureQuote(q({ marketType: 'moneyline', homeTeam: 'AL MVP 2026', selection: 'Yordan Alvarez (HOU)' }))).toBe(true);
    expect(isFutureQuote(q({ homeTeam: 'Esmerlyn Valdez', awayTeam: 'Esmerlyn Valdez' }))).toBe(true);
    expect(
      isFutureQuote(
        q({
          marketType: 'moneyline',
          homeTeam: 'San Francisco Giants',
          awayTeam: 'Colorado Rockies',
          selection: 'San Francisco Giants',
          selectionType: 'home',
        }),
      ),
    ).toBe(false);
  });
});

describe('futures markets from source rows', () => {
  it('a championship is one market per league and season at every book', () => {
    const a = resolveFuture(
      q({
        book: 'fanduel',
        marketType: 'championship_winner',
        homeTeam: 'MLB Futures',
        externalEventId: 'mlb__mlbfutures_2026-10-30_b3',
        selection: 'Los Angeles Dodgers',
      }),
      catalog,
      NOW,
    );
    const b = resolveFuture(
      q({
        book: 'betmgm',
        marketType: 'championship_winner',
        homeTeam: '2026 MLB: Futures',
        externalEventId: 'mlb__2026mlb_2026-11-05_b3',
        selection: 'Los Angeles Dodgers',
        startTime: Date.parse('2026-11-05T23:00:00Z'),
      }),
      catalog,
      NOW,
    );
    expect(a.market.id).toBe('mlb_championship_winner_2026');
    expect(b.market.id).toBe(a.market.id);
    expect(a.market).toMatchObject({
      name: 'MLB Championship winner 2026',
      futureType: 'TEAM',
      kind: 'championship_winner',
      sport: 'baseball',
    });
    expect(a.price.id).not.toBe(b.price.id);
  });

  it('an award is a PLAYER market; a book posting each contender as its own "event" is gathered into one market', () => {
    expect(
      resolveFuture(
        q({
          book: 'fanduel',
          marketType: 'mvp',
          homeTeam: 'MLB Player Awards',
          externalEventId: 'mlb__mlbplayerawards_2027-01-19_b2',
          selection: 'Shohei Ohtani',
        }),
        catalog,
        NOW,
      ).market.futureType,
    ).toBe('PLAYER');
    const angels = resolveFuture(
      q({
        book: 'saba',
        marketType: 'futures',
        homeTeam: 'Los Angeles Angels',
        externalEventId: 'mlb__angels_2026-07-14_b3',
        selection: 'LA Angels',
      }),
      catalog,
      NOW,
    );
    const astros = resolveFuture(
      q({
        book: 'saba',
        marketType: 'futures',
        homeTeam: 'Houston Astros',
        externalEventId: 'mlb__astros_2026-07-14_b3',
        selection: 'HOU Astros',
      }),
      catalog,
      NOW,
    );
    expect(angels.market.id).toBe(astros.market.id);
  });

  it('prediction-market contracts: one Yes/No per runner, the runner from the team field, the question as the market', () => {
    const r = resolveFuture(
      q({
        book: 'kalshi',
        homeTeam: 'CCOU Craig Counsell',
        externalEventId: 'kalshi_fut_kxcoachoutmlb_26dec01',
        selection: 'Which Pro Baseball managers will be out before Dec 1, 2026?: Yes',
        selectionType: 'outright',
      }),
      catalog,
      NOW,
    );
    expect(r.price).toMatchObject({ selection: 'Craig Counsell: Yes', selectionType: 'yes', externalId: 'kxcoachoutmlb' });
    expect(r.market).toMatchObject({ futureType: 'YES_NO', name: 'Which Pro Baseball managers will be out before Dec 1, 2026?' });
    const s = resolveFuture(
      q({
        book: 'kalshi',
        homeTeam: 'MVARGAS20 Miguel Vargas',
        externalEventId: 'kalshi_fut_kxmlballstar_26al',
        selection: 'Will Miguel Vargas be selected to the 2026 AL All-Star Team?: Yes',
        selectionType: 'outright',
      }),
      catalog,
      NOW,
    );
    expect(s.market.name).toBe('Will ... be selected to the 2026 AL All-Star Team?');
    expect(s.price.selection).toBe('Miguel Vargas: Yes');
  });

  it('an unknown book or league, or a price that is none, is refused with its reason', () => {
    expect(() => resolveFuture(q({ book: 'nobook' }), catalog, NOW)).toThrow('unknown sportsbook');
    expect(() => resolveFuture(q({ league: 'nowhere_league' }), catalog, NOW)).toThrow('unknown league');
    expect(() => resolveFuture(q({ price: { decimal: 0.5 } }), catalog, NOW)).toThrow();
  });
});

describe('the sample CSV', () => {
  const parsed = parseSampleCsv(readFileSync(SAMPLE, 'utf8'), catalog);
  const split = splitFutures({ source: 'test', quotes: parsed.quotes.map((p) => p.quote) });

  it('leaves only real games (two different teams) for the board: 207 rows of 4 games', () => {
    expect(split.games.quotes).toHaveLength(207);
    for (const g of split.games.quotes) expect(g.awayTeam.trim().toLowerCase()).not.toBe(g.homeTeam.trim().toLowerCase());
    expect(split.futures).toHaveLength(parsed.quotes.length - 207);
  });

  it('every futures row is accepted and keeps a price of its own (no two rows on one id)', () => {
    const store = new FuturesStore();
    const r = applyFutures(store, catalog, split.futures, NOW);
    expect(r.rejections).toEqual([]);
    expect(r.accepted).toBe(split.futures.length);
    expect(r.changed).toBe(split.futures.length);
    expect(store.prices.size).toBe(split.futures.length);
    // Applying the same rows again changes nothing.
    expect(applyFutures(store, catalog, split.futures, NOW + 1000).changed).toBe(0);
  });
});

describe('The Odds API outrights', () => {
  it("an outright event (market key outrights, no teams) becomes the league's championship market of its season", async () => {
    const { parseOddsApiEvents } = await import('../ingestion/odds-api/odds-api-format.js');
    const parsed = parseOddsApiEvents(
      [
        {
          id: 'e912304de2b2ce35b473ce2ecd3d1502',
          sport_key: 'basketball_nba_championship_winner',
          sport_title: 'NBA Championship Winner',
          commence_time: '2027-06-20T00:00:00Z',
          home_team: null,
          away_team: null,
          bookmakers: [
            {
              key: 'draftkings',
              last_update: '2026-11-22T11:59:00Z',
              markets: [
                {
                  key: 'outrights',
                  outcomes: [
                    { name: 'Boston Celtics', price: 5.5 },
                    { name: 'Denver Nuggets', price: 7 },
                  ],
                },
              ],
            },
          ],
        },
      ],
      catalog,
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.quotes).toHaveLength(2);
    const split = splitFutures({ source: 'odds_api', quotes: parsed.quotes.map((p) => p.quote) });
    expect(split.games.quotes).toHaveLength(0);
    const store = new FuturesStore();
    expect(applyFutures(store, catalog, split.futures, NOW).accepted).toBe(2);
    expect(store.markets.get('nba_championship_winner_2027')).toMatchObject({
      name: 'NBA Championship winner 2027',
      futureType: 'TEAM',
      kind: 'championship_winner',
    });
    expect(store.pricesOf('nba_championship_winner_2027').map((p) => [p.sportsbook, p.selection, p.decimal])).toEqual([
      ['draftkings', 'Boston Celtics', 5.5],
      ['draftkings', 'Denver Nuggets', 7],
    ]);
  });
});

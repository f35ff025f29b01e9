import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../config/catalog.js';
import type { Quote } from '../../domain/types.js';
import { resolveFuture } from './futures-mapping.js';
import { futureSightings, gameSightings, teamIdOf } from './player-sightings.js';

const catalog = new Catalog();
const at = Date.parse('2026-07-13T02:00:00Z');
const prop = (over: Partial<Quote>): Quote => ({
  book: 'draftkings',
  league: 'MLB',
  homeTeam: 'New York Yankees',
  awayTeam: 'Boston Red Sox',
  startTime: at + 3600_000,
  marketType: 'player_hits',
  selection: 'Over',
  selectionType: 'over',
  line: 0.5,
  playerName: 'Aaron Judge',
  price: { american: -120 },
  ...over,
});

describe('player sightings', () => {
  it("a team's id is the catalog's, else its name as a slug", () => {
    expect(teamIdOf(catalog, 'mlb', 'NY Yankees')).toBe('new_york_yankees');
    expect(teamIdOf(catalog, 'mlb', 'Springfield Isotopes')).toBe('springfield_isotopes');
    expect(teamIdOf(catalog, 'mlb', ' ')).toBeNull();
  });

  it('game quotes: the props the board took, with the team the source names, at the source time', () => {
    const out = gameSightings(
      [
        prop({ playerTeam: 'Yankees', sourceTime: at - 5000 }),
        prop({ playerName: 'Rafael Devers' }),
        prop({ playerName: null }),
        prop({ playerName: 'Refused' }),
      ],
      new Set([3]),
      catalog,
      at,
    );
    expect(out).toEqual([
      { sport: 'baseball', league: 'mlb', name: 'Aaron Judge', at: at - 5000, teamId: 'new_york_yankees', teamName: 'New York Yankees' },
      { sport: 'baseball', league: 'mlb', name: 'Rafael Devers', at },
    ]);
  });

  it('futures: runners of player markets, a team in brackets read as the team; team markets name no player', () => {
    const award = (selection: string, marketType = 'mvp'): Quote => ({
      book: 'ladbrokes',
      league: 'mlb',
      homeTeam: 'AL MVP 2026',
      awayTeam: '',
      startTime: at + 90 * 86_400_000,
      marketType,
      selection,
      selectionType: 'outright',
      price: { american: 5500 },
      externalEventId: 'mlb__almvp_2026-09-27_b2',
    });
    const items = [award('Shea Langeliers (Athletics)'), award('New York Yankees', 'championship_winner')].map((quote) => ({
      quote,
      future: resolveFuture(quote, catalog, at),
    }));
    expect(futureSightings(items, catalog)).toEqual([
      { sport: 'baseball', league: 'mlb', name: 'Shea Langeliers', at, teamId: 'athletics', teamName: 'Athletics' },
    ]);
  });
});

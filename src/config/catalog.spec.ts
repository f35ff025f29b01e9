import { describe, expect, it } from '@jest/globals';
import { Catalog } from './catalog.js';

describe('Catalog: slug forms ({country}_-_{name}) and short forms', () => {
  const c = new Catalog();
  it.each([
    ['fifa_-_world_cup', 'fifa_world_cup'],
    ['FIFA World Cup', 'fifa_world_cup'],
    ['world_cup', 'fifa_world_cup'],
    ['england_-_premier_league', 'epl'],
    ['England - Premier League', 'epl'],
    ['premier_league', 'epl'],
    ['spain_-_laliga', 'la_liga'],
    ['usa_-_major_league_soccer', 'mls'],
    ['uefa_-_champions_league', 'ucl'],
    ['soccer_epl', 'epl'],
    ['basketball_euroleague', 'euroleague'],
    ['NBA', 'nba'],
  ])('%j resolves to %s', (input, id) => {
    expect(c.league(input)?.id).toBe(id);
  });

  it('a slug of another country is not the catalog league of the same name', () => {
    expect(c.league('scotland_-_premier_league')).toBeUndefined();
    expect(c.league('brazil_-_serie_a')).toBeUndefined();
  });

  it('beyond exact forms, a league must be of the sport given', () => {
    expect(c.league('Barclays_Premier_League', 'soccer')?.id).toBe('epl');
    expect(c.league('Barclays_Premier_League', 'hockey')).toBeUndefined();
    expect(c.league('epl', 'hockey')?.id).toBe('epl');
  });

  it.each([
    ['SX Bet', 'sx_bet'],
    ['sx-bet', 'sx_bet'],
    ['Hard Rock Bet', 'hardrock'],
    ['williamhill_us', 'caesars'],
    ['1xBet', 'onexbet'],
    ['Unibet (SE)', 'unibet_se'],
    ['unibet_se', 'unibet_se'],
    ['unibet', 'unibet'],
  ])('book %j is %s', (input, id) => {
    expect(c.book(input)?.id).toBe(id);
    // The id itself (found before any spelling is folded) is the same book as every spelling of it.
    expect(c.book(id)).toBe(c.book(input));
  });

  it('an id that is not a book is none, found as it is or folded', () => {
    expect(c.book('no_such_book')).toBeUndefined();
    expect(c.book(' No_Such_Book ')).toBeUndefined();
  });
});

describe('Catalog: registration on first sight', () => {
  it('registers an unknown league under a known sport once, with the slug id and the source spelling as alias', () => {
    const c = new Catalog();
    const first = c.registerLeague('brazil_-_serie_a', 'soccer');
    expect(first).toMatchObject({
      isNew: true,
      def: {
        id: 'brazil_serie_a',
        sport: 'soccer',
        aliases: ['brazil_-_serie_a'],
        numerical_id: null,
        registered: true,
        name: 'Brazil Serie A',
      },
    });
    expect(c.registerLeague('Brazil Série A', 'football_soccer')).toMatchObject({ isNew: false, def: { id: 'brazil_serie_a' } });
    expect(c.league('brazil_-_serie_a')?.id).toBe('brazil_serie_a');
    expect(c.leagues.filter((l) => l.id === 'brazil_serie_a')).toHaveLength(1);
    expect(c.registerLeague('curling_cup', 'quidditch')).toBeUndefined();
  });

  it('a slug that is already a league of another sport is kept apart under its sport', () => {
    const c = new Catalog();
    expect(c.registerLeague('nba', 'soccer')?.def.id).toBe('nba');
    expect(c.registerLeague('mlb_awards_extra', 'hockey')?.def).toMatchObject({ id: 'mlb_awards_extra', sport: 'hockey' });
  });

  it('registers an unknown book as an unlisted, sharp-tier book of unknown class, never a sharp reference', () => {
    const c = new Catalog();
    const r = c.registerBook('Underdog');
    expect(r).toMatchObject({
      isNew: true,
      def: {
        id: 'underdog',
        display_name: 'Underdog',
        unlisted: true,
        requires_tier: 'sharp',
        is_sharp: false,
        class: 'unknown',
        registered: true,
      },
    });
    expect(c.registerBook('underdog')?.isNew).toBe(false);
    expect(c.listedBooks().some((b) => b.id === 'underdog')).toBe(false);
    expect(c.registerBook('!!!')).toBeUndefined();
  });

  it("the catalog keeps the public product's current books with their tiers", () => {
    const c = new Catalog();
    for (const id of [
      'sx_bet',
      'sportzino',
      'betano',
      'betsson',
      'bwin',
      'hardrock',
      'unibet_be',
      'unibet_ca',
      'unibet_de',
      'unibet_dk',
      'unibet_ro',
      'unibet_se',
      'onexbet',
      'sbobet',
      'bookmaker',
      'betfair',
    ]) {
      expect(c.book(id)?.id).toBe(id);
    }
    expect(c.book('sx_bet')).toMatchObject({ class: 'exchange', requires_tier: null });
    expect(c.book('onexbet')?.requires_tier).toBe('sharp');
    expect(c.book('sbobet')).toMatchObject({ requires_tier: 'sharp', is_sharp: true });
    expect(c.listedBooks()).toHaveLength(26);
    expect(c.listedBooks().filter((b) => b.requires_tier !== 'sharp')).toHaveLength(23);
  });
});

describe('Catalog: team names', () => {
  it('a name answers the same team however often it is asked, in any case or accents, and after 50,000 other names', () => {
    const c = new Catalog();
    const celtics = c.team('nba', 'Boston Celtics');
    expect(celtics?.key).toBe('celtics');
    expect(c.team('nba', 'BOSTON CELTICS')).toBe(celtics);
    expect(c.team('nba', 'Bostón Céltics')).toBe(celtics);
    expect(c.team('nba', 'Celtics (BOS)')).toBe(celtics);
    expect(c.team('nba', 'Celtics')).toBe(celtics);
    // Names no team has (as a careless feed sends them) are remembered too; the kept forms are bounded.
    let found = 0;
    for (let i = 0; i < 51_000; i++) if (c.team('nba', `Team ${i}`)) found++;
    expect(found).toBe(0);
    expect(c.team('nba', 'Boston Celtics')).toBe(celtics);
    expect(c.team('nba', 'BOSTON CELTICS')).toBe(celtics);
    expect(c.team('nhl', 'Boston Celtics')).toBeUndefined();
    expect(c.team('nhl', 'Boston Bruins')?.key).toBe('bruins');
  });
});

describe('Catalog: a team named loosely', () => {
  const c = new Catalog();
  it.each([
    ['Nuggets (DEN)', 'nuggets'],
    ['DEN Nuggets', 'nuggets'],
    ['the mighty celtics', 'celtics'],
  ])('%j is the one team whose nickname it holds as a whole word: %s', (name, key) => {
    expect(c.team('nba', name)?.key).toBe(key);
  });
  it.each([['Celtics v Lakers'], ['Nuggetsx'], ['Nug'], ['Denver Nuggets Suns']])('%j names no single team', (name) => {
    expect(c.team('nba', name)).toBeUndefined();
  });
});

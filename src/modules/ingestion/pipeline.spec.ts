import { beforeEach, describe, expect, it } from '@jest/globals';
import { Catalog } from '../../config/catalog.js';
import type { Quote } from '../../domain/types.js';
import { OddsBoard } from '../board/odds-board.js';
import { IngestionPipeline } from './pipeline.js';

const catalog = new Catalog();
const T0 = Date.parse('2026-11-22T12:00:00Z');
const TIP = Date.parse('2026-11-23T00:40:00Z'); // 19:40 Eastern on the 22nd

function q(over: Partial<Quote>): Quote {
  return {
    book: 'draftkings',
    league: 'nba',
    homeTeam: 'Denver Nuggets',
    awayTeam: 'Phoenix Suns',
    startTime: TIP,
    marketType: 'moneyline',
    selection: 'Denver Nuggets',
    selectionType: 'home',
    line: null,
    price: { american: -150 },
    ...over,
  };
}

/**
 * A fresh board and the pipeline feeding it before each test of a describe block (with `catalog()`'s catalog),
 * and `ingest`: one batch processed and its change set applied to the board.
 */
function onAFreshBoard(catalogOf: () => Catalog = () => catalog) {
  const s = {} as { board: OddsBoard; pipe: IngestionPipeline; catalog: Catalog };
  beforeEach(() => {
    s.catalog = catalogOf();
    s.board = new OddsBoard();
    s.pipe = new IngestionPipeline(s.catalog, s.board);
  });
  const ingest = (quotes: Quote[], now = T0, extra: Record<string, unknown> = {}) => {
    const r = s.pipe.process({ source: 'test', quotes, ...extra }, now);
    s.board.applyChangeSet(r.changeSet);
    return r;
  };
  return { s, ingest };
}

describe('IngestionPipeline', () => {
  const { s, ingest } = onAFreshBoard();

  it('puts the same game from two books under different spellings on one event', () => {
    ingest([
      q({}),
      q({
        book: 'fanduel',
        homeTeam: 'DEN Nuggets',
        awayTeam: 'PHX Suns',
        selection: 'DEN Nuggets',
        startTime: TIP + 5 * 60_000,
        externalEventId: 'fd-1',
      }),
      q({
        book: 'pinnacle',
        homeTeam: 'Denver',
        awayTeam: 'Phoenix',
        selection: 'Phoenix',
        selectionType: 'away',
        price: { decimal: 2.4 },
        externalEventId: 'pin-9',
      }),
    ]);
    expect([...s.board.events.keys()]).toEqual(['nba_nuggets_suns_2026-11-22_b3']);
    const e = s.board.events.get('nba_nuggets_suns_2026-11-22_b3')!;
    expect(e).toMatchObject({ homeTeam: 'Denver Nuggets', awayTeam: 'Phoenix Suns', sport: 'basketball', status: 'upcoming' });
    expect(e.externalIds).toEqual({ fanduel: 'fd-1', pinnacle: 'pin-9' });
    expect(s.board.booksOf(e.id)).toEqual(['draftkings', 'fanduel', 'pinnacle']);
  });

  it('gives a doubleheader two events', () => {
    const first = Date.parse('2026-07-01T17:05:00Z');
    ingest([
      q({ league: 'mlb', homeTeam: 'New York Yankees', awayTeam: 'Boston Red Sox', selection: 'New York Yankees', startTime: first }),
      q({
        league: 'mlb',
        homeTeam: 'New York Yankees',
        awayTeam: 'Boston Red Sox',
        selection: 'New York Yankees',
        startTime: first + 6 * 3600_000,
      }),
      q({
        book: 'fanduel',
        league: 'mlb',
        homeTeam: 'Yankees',
        awayTeam: 'Red Sox',
        selection: 'Yankees',
        startTime: first + 6 * 3600_000 + 120_000,
      }),
    ]);
    expect([...s.board.events.keys()].sort()).toEqual(['mlb_redsox_yankees_2026-07-01_b2', 'mlb_redsox_yankees_2026-07-01_b3']);
    expect(s.board.booksOf('mlb_redsox_yankees_2026-07-01_b3')).toEqual(['draftkings', 'fanduel']);
  });

  it('gives two games of the same teams in the same bucket _g2', () => {
    const first = Date.parse('2026-07-01T16:05:00Z'); // 12:05 Eastern
    ingest([
      q({ league: 'mlb', homeTeam: 'New York Yankees', awayTeam: 'Boston Red Sox', selection: 'New York Yankees', startTime: first }),
      q({
        league: 'mlb',
        homeTeam: 'New York Yankees',
        awayTeam: 'Boston Red Sox',
        selection: 'New York Yankees',
        startTime: first + 4 * 3600_000,
      }),
    ]);
    expect([...s.board.events.keys()].sort()).toEqual(['mlb_redsox_yankees_2026-07-01_b2', 'mlb_redsox_yankees_2026-07-01_b2_g2']);
  });

  it('keeps a deterministic row id: a re-posted price updates the same row', () => {
    ingest([q({})]);
    const [id] = [...s.board.rows.keys()];
    ingest([q({ price: { american: -160 } })], T0 + 1000);
    expect([...s.board.rows.keys()]).toEqual([id]);
    expect(s.board.rows.get(id!)).toMatchObject({ american: -160, changedAt: T0 + 1000 });
  });

  it('matches a team selection to the canonical side even when a source swaps home and away', () => {
    ingest([q({})]);
    ingest([
      q({
        book: 'fanduel',
        homeTeam: 'Phoenix Suns',
        awayTeam: 'Denver Nuggets',
        selection: 'Phoenix Suns',
        selectionType: 'home',
        price: { american: 130 },
      }),
    ]);
    const fd = [...s.board.rows.values()].find((r) => r.sportsbook === 'fanduel')!;
    expect(fd.eventId).toBe('nba_nuggets_suns_2026-11-22_b3');
    expect(fd.selectionType).toBe('away');
  });

  it('converts every price format and keeps them consistent', () => {
    ingest([
      q({ price: { american: 150 } }),
      q({ book: 'fanduel', price: { decimal: 2.5 } }),
      q({ book: 'kalshi', price: { contract_price: 0.4 } }),
    ]);
    for (const r of s.board.rows.values()) {
      expect(r.decimal).toBeCloseTo(2.5, 4);
      expect(r.american).toBe(150);
      expect(r.probability).toBeCloseTo(0.4, 6);
    }
  });

  it('pairs spread sides by the home-side line and marks the main line', () => {
    ingest([
      q({ marketType: 'point_spread', selection: 'Denver Nuggets', line: -4.5, price: { american: -110 } }),
      q({ marketType: 'point_spread', selection: 'Phoenix Suns', selectionType: 'away', line: 4.5, price: { american: -110 } }),
      q({ book: 'fanduel', marketType: 'point_spread', selection: 'Denver Nuggets', line: -4.5, price: { american: -112 } }),
      q({ book: 'fanduel', marketType: 'point_spread', selection: 'Denver Nuggets', line: -6.5, price: { american: 130 } }),
    ]);
    const rows = [...s.board.rows.values()];
    const main = rows.filter((r) => r.groupLine === -4.5);
    expect(main).toHaveLength(3);
    expect(new Set(main.map((r) => r.groupKey)).size).toBe(1);
    expect(main.every((r) => s.board.isMainLine(r))).toBe(true);
    expect(s.board.isMainLine(rows.find((r) => r.line === -6.5)!)).toBe(false);
  });

  it.each([
    [{ book: '***' }, 'unknown_sportsbook'],
    [{ league: 'martian_league' }, 'unknown_league'],
    [{ league: 'handball_bundesliga', sport: 'handball' }, 'unknown_sport'],
    [{ homeTeam: 'Denver\u0000Nuggets' }, 'invalid_text'],
    [{ selection: 'Denver Nuggets\ud800' }, 'invalid_text'],
    [{ awayTeam: 'Phoenix Suns \ufffd' }, 'invalid_text'],
    [{ playerName: 'x'.repeat(10_000) }, 'invalid_text'],
    [{ price: { american: 50 } }, 'invalid_price'],
    [{ price: { decimal: 0.9 } }, 'invalid_price'],
    [{ price: { american: -110, decimal: 1.9 } }, 'invalid_price'],
    [{ price: {} }, 'invalid_price'],
    [{ marketType: 'point_spread' }, 'missing_line'],
    [{ line: -3.5 }, 'unexpected_line'],
    [{ selection: 'Draw', selectionType: 'draw' }, 'selection_not_in_market'],
    [{ marketType: 'total_points', selection: 'Denver Nuggets', line: 220.5 }, 'selection_not_in_market'],
    [{ marketType: 'moneyline_lay' }, 'lay_market'],
    [{ marketType: '!!!' }, 'invalid_market'],
    [{ startTime: Number.NaN }, 'invalid_time'],
  ] as const)('rejects %j as %s and counts it', (over, reason) => {
    const r = ingest([q(over as Partial<Quote>), q({ book: 'fanduel' })]);
    expect(r.report.rejected).toEqual({ [reason]: 1 });
    expect(r.report.rejections[0]).toMatchObject({ index: 0, reason });
    expect(r.report.accepted).toBe(1);
    expect(s.board.size).toBe(1);
  });

  it('does not create an event when every quote for it was rejected', () => {
    ingest([q({ homeTeam: 'Boston Celtics', awayTeam: 'Miami Heat', selection: 'Boston Celtics', price: { american: 10 } })]);
    expect(s.board.events.size).toBe(0);
  });

  it('treats soccer moneylines as three-way and keeps a two-way draw out of basketball', () => {
    const kick = Date.parse('2026-11-22T15:00:00Z');
    const r = ingest([
      q({
        league: 'epl',
        homeTeam: 'Arsenal',
        awayTeam: 'Chelsea',
        selection: 'Draw',
        selectionType: 'draw',
        startTime: kick,
        price: { decimal: 3.4 },
      }),
      q({ selection: 'Draw', selectionType: 'draw' }),
    ]);
    expect(r.report.accepted).toBe(1);
    expect(r.report.rejected.selection_not_in_market).toBe(1);
  });

  it('files Asian quarter lines under asian_handicap, never point_spread', () => {
    const kick = Date.parse('2026-11-22T15:00:00Z');
    ingest([
      q({
        league: 'epl',
        homeTeam: 'Arsenal',
        awayTeam: 'Chelsea',
        selection: 'Arsenal',
        startTime: kick,
        marketType: 'point_spread',
        line: -0.25,
      }),
    ]);
    expect([...s.board.rows.values()][0]!.marketType).toBe('asian_handicap');
  });

  it('keeps a prediction-market "No" contract out of the moneyline group', () => {
    ingest([
      q({ book: 'kalshi', selection: 'Denver Nuggets No', selectionType: 'home_no', price: { contract_price: 0.45 } }),
      q({ book: 'kalshi', selection: 'Phoenix Suns', selectionType: 'away_yes', price: { contract_price: 0.44 } }),
    ]);
    const rows = [...s.board.rows.values()];
    expect(rows.find((r) => r.selectionType === 'no')!.marketType).toBe('binary');
    expect(rows.find((r) => r.selectionType === 'away')!.marketType).toBe('moneyline');
    expect(new Set(rows.map((r) => r.groupKey)).size).toBe(2);
  });

  it('records unchanged prices as seen, not as changes', () => {
    ingest([q({})]);
    const r = ingest([q({})], T0 + 5000);
    expect(r.report).toMatchObject({ changed: 0, unchanged: 1 });
    expect(r.changeSet.upserted).toEqual([]);
    expect(s.board.seenAt([...s.board.rows.values()][0]!)).toBe(T0 + 5000);
    expect([...s.board.rows.values()][0]!.changedAt).toBe(T0);
  });

  it('a suspension keeps the last price; while suspended a new price is not taken; the reopening brings the new one', () => {
    ingest([q({ sourceTime: T0 - 60_000 })]);
    const row = () => [...s.board.rows.values()][0]!;
    // Suspended with another price: the row turns inactive at -150, its price time unchanged (the price did not move).
    let r = ingest([q({ isActive: false, price: { american: 400 }, sourceTime: T0 + 900 })], T0 + 1000);
    expect(r.report).toMatchObject({ changed: 1, unchanged: 0 });
    expect(row()).toMatchObject({ isActive: false, american: -150, changedAt: T0 + 1000, oddsChangedAt: T0 - 60_000 });
    // Still suspended, yet another price: nothing changed, only confirmed.
    r = ingest([q({ isActive: false, price: { american: 250 } })], T0 + 2000);
    expect(r.report).toMatchObject({ changed: 0, unchanged: 1 });
    expect(row()).toMatchObject({ isActive: false, american: -150, changedAt: T0 + 1000 });
    expect(s.board.seenAt(row())).toBe(T0 + 2000);
    // Reopened at a new price: the price and its time move.
    r = ingest([q({ price: { american: -170 } })], T0 + 3000);
    expect(r.report).toMatchObject({ changed: 1, unchanged: 0 });
    expect(row()).toMatchObject({ isActive: true, american: -170, changedAt: T0 + 3000, oddsChangedAt: T0 + 3000 });
    // A row first seen suspended keeps the price it came with.
    ingest([q({ selection: 'Phoenix Suns', selectionType: 'away', isActive: false, price: { american: 130 } })], T0 + 4000);
    expect([...s.board.rows.values()].find((x) => x.selectionType === 'away')).toMatchObject({ isActive: false, american: 130 });
  });

  it('removes a withdrawn rung and a finished event', () => {
    ingest([q({}), q({ marketType: 'total_points', selection: 'Over', selectionType: 'over', line: 229.5 })]);
    const r = ingest([], T0 + 1000, {
      removals: [{ ...q({ marketType: 'total_points', selection: 'Over', selectionType: 'over', line: 229.5 }) }],
    });
    expect(r.changeSet.removed).toHaveLength(1);
    expect(s.board.size).toBe(1);
    ingest([], T0 + 2000, { eventRemovals: [{ league: 'nba', homeTeam: 'Denver Nuggets', awayTeam: 'Phoenix Suns', startTime: TIP }] });
    expect(s.board.size).toBe(0);
    expect(s.board.events.size).toBe(0);
  });

  it('marks an event live when a book flips a price live, and applies game state and status', () => {
    ingest([q({})]);
    ingest([q({ isLive: true, price: { american: -200 } })], T0 + 1000);
    expect(s.board.events.get('nba_nuggets_suns_2026-11-22_b3')!.status).toBe('live');
    ingest([], T0 + 2000, {
      events: [
        {
          league: 'nba',
          homeTeam: 'Denver Nuggets',
          awayTeam: 'Phoenix Suns',
          startTime: TIP,
          status: 'live',
          gameState: { home_score: 10, away_score: 8, game_period: 'Q1' },
        },
      ],
    });
    expect(s.board.events.get('nba_nuggets_suns_2026-11-22_b3')!.gameState).toEqual({
      home_score: 10,
      away_score: 8,
      game_period: 'Q1',
      primary_book: 'test',
      source_count: 1,
      updated_at: new Date(T0 + 2000).toISOString(),
      reported_at: new Date(T0 + 2000).toISOString(),
    });
  });
});

describe('IngestionPipeline: start times that move', () => {
  const { s, ingest } = onAFreshBoard();
  const ID = 'nba_nuggets_suns_2026-11-22_b3';
  const H = 3600_000;

  it("a book that moves its own start moves the event's start; the event keeps its id, no second event", () => {
    ingest([q({}), q({ book: 'fanduel', startTime: TIP + 5 * 60_000 })]);
    // FanDuel's first report 5 minutes later is a disagreement, not a move: the start stays TIP.
    expect(s.board.events.get(ID)!.startTime).toBe(TIP);
    // DraftKings delays the game by 1 h 30 (19:40 -> 21:10 Eastern, the next 6-hour bucket: b3 still, but the id would
    // not change anyway): one event, start moved, the row on it.
    const r = ingest([q({ startTime: TIP + 1.5 * H, price: { american: -155 } })], T0 + 60_000);
    expect([...s.board.events.keys()]).toEqual([ID]);
    expect(s.board.events.get(ID)!.startTime).toBe(TIP + 1.5 * H);
    expect(r.changeSet.events.map((e) => [e.id, e.startTime])).toEqual([[ID, TIP + 1.5 * H]]);
    // FanDuel still sends its old time (unchanged report): the start stays where DraftKings moved it.
    ingest([q({ book: 'fanduel', startTime: TIP + 5 * 60_000, price: { american: -160 } })], T0 + 120_000);
    expect(s.board.events.get(ID)!.startTime).toBe(TIP + 1.5 * H);
    expect([...s.board.events.keys()]).toEqual([ID]);
  });

  it('moves across the date bucket keep the first id; a quote at the new time finds it', () => {
    ingest([q({})]);
    // 19:40 Eastern on the 22nd -> 22:10 -> 00:40 on the 23rd (two delays of 2 h 30, each within the same-fixture
    // tolerance of the start before it): the id of the new time would be nba_nuggets_suns_2026-11-23_b0; it stays ID.
    ingest([q({ startTime: TIP + 2.5 * H })], T0 + 60_000);
    ingest([q({ startTime: TIP + 5 * H })], T0 + 120_000);
    expect([...s.board.events.keys()]).toEqual([ID]);
    expect(s.board.events.get(ID)!.startTime).toBe(TIP + 5 * H);
    ingest([q({ book: 'pinnacle', startTime: TIP + 5 * H })], T0 + 180_000);
    expect([...s.board.events.keys()]).toEqual([ID]);
    expect(s.board.booksOf(ID)).toEqual(['draftkings', 'pinnacle']);
  });

  it('a book quoting by its own event id follows a game moved beyond the same-fixture tolerance (postponed a day)', () => {
    ingest([q({ externalEventId: 'dk-77' })]);
    ingest([q({ externalEventId: 'dk-77', startTime: TIP + 24 * H })], T0 + 60_000);
    expect([...s.board.events.keys()]).toEqual([ID]);
    expect(s.board.events.get(ID)!.startTime).toBe(TIP + 24 * H);
    // Without an id, a game a day later is another game (a series): a new event.
    ingest([q({ book: 'fanduel', startTime: TIP + 48 * H })], T0 + 120_000);
    expect(s.board.events.size).toBe(2);
  });

  it("a book's own event id seen again months apart, or on an ended game, is another game", () => {
    ingest([q({ externalEventId: 'dk-77' })]);
    // The same id 120 days later (a replayed capture beside a live import, a reused id): a new event, the first kept.
    ingest([q({ externalEventId: 'dk-77', startTime: TIP + 120 * 24 * H })], T0 + 60_000);
    expect(s.board.events.size).toBe(2);
    expect(s.board.events.get(ID)!.startTime).toBe(TIP);
    // An ended game is not followed, even a day later: the quote starts a game of its own.
    s.board.events.get(ID)!.status = 'ended';
    ingest([q({ externalEventId: 'dk-77', startTime: TIP + 24 * H })], T0 + 120_000);
    expect(s.board.events.size).toBe(3);
    expect(s.board.events.get(ID)!.startTime).toBe(TIP);
  });

  it("an event feed's status update moves the start the same way; a game under way keeps its start", () => {
    const upd = (startTime: number, status: 'upcoming' | 'live' = 'upcoming') => ({
      league: 'nba',
      homeTeam: 'Denver Nuggets',
      awayTeam: 'Phoenix Suns',
      startTime,
      status,
    });
    ingest([q({})], T0, { events: [upd(TIP)] });
    ingest([], T0 + 60_000, { events: [upd(TIP + H)] });
    expect(s.board.events.get(ID)!.startTime).toBe(TIP + H);
    ingest([], TIP + H, { events: [upd(TIP + H, 'live')] });
    ingest([], TIP + H + 60_000, { events: [upd(TIP + 2 * H, 'live')] });
    expect(s.board.events.get(ID)!.startTime).toBe(TIP + H);
  });
});

describe('IngestionPipeline on real feeds: open catalog, draws, Yes/No contracts', () => {
  const { s, ingest } = onAFreshBoard(() => new Catalog());
  const KICK = Date.parse('2026-06-20T19:00:00Z');
  const wc = (over: Partial<Quote>): Quote => ({
    book: 'kalshi',
    league: 'fifa_-_world_cup',
    sport: 'soccer',
    homeTeam: 'Mexico',
    awayTeam: 'South Africa',
    startTime: KICK,
    marketType: 'moneyline',
    selection: 'Mexico',
    selectionType: 'home',
    line: null,
    price: { probability: 0.5 },
    ...over,
  });

  it('a slug league resolves to the catalog league; an unknown one is registered once under its sport and reported', () => {
    const a = ingest([wc({}), wc({ league: 'brazil_-_serie_a', homeTeam: 'Flamengo', awayTeam: 'Palmeiras', selection: 'Flamengo' })]);
    expect(a.report.accepted).toBe(2);
    expect([...s.board.rows.values()].map((r) => r.league).sort()).toEqual(['brazil_serie_a', 'fifa_world_cup']);
    expect(a.report.registered).toEqual({ leagues: [{ id: 'brazil_serie_a', sport: 'soccer', from: 'brazil_-_serie_a' }], books: [] });
    expect(a.changeSet.catalog?.leagues.map((l) => l.id)).toEqual(['brazil_serie_a']);
    const b = ingest([
      wc({ league: 'Brazil Série A', homeTeam: 'Flamengo', awayTeam: 'Palmeiras', selection: 'Palmeiras', selectionType: 'away' }),
    ]);
    expect(b.report.registered).toBeUndefined();
    expect(s.board.events.size).toBe(2);
  });

  it('an unknown book is registered (unlisted, sharp tier) and its rows kept', () => {
    const r = ingest([wc({ book: 'underdog', price: { american: 120 } })]);
    expect(r.report.accepted).toBe(1);
    expect(r.report.registered?.books).toEqual([{ id: 'underdog', from: 'underdog' }]);
    expect(s.catalog.book('underdog')).toMatchObject({ unlisted: true, requires_tier: 'sharp' });
  });

  it('another instance (or a restart) learns registrations from the change sets and the board', () => {
    const r = s.pipe.process(
      {
        source: 'test',
        quotes: [wc({ book: 'underdog', league: 'brazil_-_serie_a', homeTeam: 'Flamengo', awayTeam: 'Palmeiras', selection: 'Flamengo' })],
      },
      T0,
    );
    const replicaCatalog = new Catalog();
    const replica = new OddsBoard();
    new IngestionPipeline(replicaCatalog, replica);
    replica.applyChangeSet(JSON.parse(JSON.stringify(r.changeSet)));
    expect(replicaCatalog.league('brazil_-_serie_a')?.id).toBe('brazil_serie_a');
    expect(replicaCatalog.book('underdog')?.requires_tier).toBe('sharp');
    // A restart: only the rows and events, no registrations.
    const restarted = new OddsBoard();
    const restartedCatalog = new Catalog();
    restarted.load([...replica.events.values()], [...replica.rows.values()], T0);
    new IngestionPipeline(restartedCatalog, restarted);
    expect(restartedCatalog.league('brazil_serie_a')?.sport).toBe('soccer');
    expect(restartedCatalog.book('underdog')?.unlisted).toBe(true);
  });

  it.each([
    ['Tie', 'other'],
    ['Reg Time: Tie', 'other'],
    ['Draw', 'draw'],
    ['X', 'other'],
    ['Draw', 'tie'],
    ['Reg Time: Tie: Yes', 'yes'],
  ])('%j (%s) on a soccer moneyline is the draw of the three-way market', (selection, selectionType) => {
    const r = ingest([wc({ selection, selectionType })]);
    expect(r.report.accepted).toBe(1);
    expect(r.changeSet.upserted[0]).toMatchObject({ marketType: 'moneyline', selectionType: 'draw' });
  });

  it('a tie contract on a sport without draws is refused with its reason, not turned into a side', () => {
    const r = ingest([q({ selection: 'Reg Time: Tie', selectionType: 'other' })]);
    expect(r.report.rejections[0]).toMatchObject({ reason: 'selection_not_in_market', message: expect.stringMatching(/has no draw/) });
  });

  it('a team\'s "Yes" is its win; its "No" is a Yes/No market of its own, never the other team', () => {
    const r = ingest([
      wc({ selection: 'Mexico: Yes', selectionType: 'other' }),
      wc({ selection: 'Mexico: No', selectionType: 'away' }),
      wc({ selection: 'South Africa', selectionType: 'away_yes' }),
      wc({ selection: 'South Africa', selectionType: 'away_no' }),
    ]);
    expect(r.report.accepted).toBe(4);
    const got = r.changeSet.upserted.map((x) => [x.selection, x.marketType, x.selectionType, x.ladderKey.split('|')[3]]);
    expect(got).toEqual([
      ['Mexico: Yes', 'moneyline', 'home', ''],
      ['Mexico: No', 'binary', 'no', 'home'],
      ['South Africa', 'moneyline', 'away', ''],
      ['South Africa', 'binary', 'no', 'away'],
    ]);
  });

  it.each([['@'], ['vs'], ['v'], ['-'], ['\u2013']])(
    'a contract titled by the game with %j between the teams names no side: a Yes/No market of its own',
    (sep) => {
      const r = ingest([wc({ selection: `Mexico ${sep} South Africa: Yes`, selectionType: 'home_yes' })]);
      expect(r.report.accepted).toBe(1);
      expect(r.changeSet.upserted[0]).toMatchObject({ marketType: 'binary', selectionType: 'yes' });
    },
  );

  it('a futures "moneyline" naming a player (no opponent) is kept as quoted, outside any two-way group', () => {
    const r = ingest([
      q({
        league: 'mlb',
        homeTeam: 'AL MVP 2026',
        awayTeam: '',
        marketType: 'moneyline',
        selection: 'Yordan Alvarez (HOU)',
        selectionType: 'other',
        startTime: TIP,
      }),
    ]);
    expect(r.report.accepted).toBe(1);
    expect(r.changeSet.upserted[0]).toMatchObject({ marketType: 'moneyline', selectionType: 'other' });
  });

  it('an unknown market type is kept as display-only and counted as such', () => {
    const r = ingest([
      q({ marketType: 'player_goals_and_assists', selection: 'Over', selectionType: 'over', line: 1.5, playerName: 'Nikola Jokic' }),
    ]);
    expect(r.report.accepted).toBe(1);
    expect(r.report.displayOnly).toEqual({ player_goals_and_assists: 1 });
    expect(s.catalog.outcomeSet('player_goals_and_assists', 'basketball')).toBe('n_way');
  });
});

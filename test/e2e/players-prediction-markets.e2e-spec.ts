import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { admin } from '../../src/cli/commands.js';
import { runImport } from '../../src/cli/import.js';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

const SAMPLE = new URL('../fixtures/mlb_odds_snapshot.csv', import.meta.url).pathname;
const quiet = () => undefined;
/** Just after the sample's capture (its latest timestamp is 2026-07-13T01:45:58Z). */
const AT_CAPTURE = Date.parse('2026-07-13T02:00:00Z');
const H = 3600_000;

type J = Record<string, any>;

/** A player prop at one book on the Yankees v Red Sox game of the next day. */
function prop(book: string, player: string, over: Partial<Quote> = {}): Quote {
  return {
    book,
    league: 'mlb',
    homeTeam: 'New York Yankees',
    awayTeam: 'Boston Red Sox',
    startTime: AT_CAPTURE + 20 * H,
    marketType: 'player_hits',
    selection: 'Over',
    selectionType: 'over',
    line: 0.5,
    playerName: player,
    statCategory: 'hits',
    price: { american: -120 },
    ...over,
  };
}

describe('players and prediction markets over HTTP (the MLB sample imported)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'odds-players-pm-'));
  const config = testConfig({ DATA_DIR: dataDir });
  const clock = new ManualClock(AT_CAPTURE);
  let t: TestApp;
  let server: { pid: number; host: string; port: number; admin_token: string; started_at: string };
  const get = async (path: string, key: string = KEYS.sharp) => {
    const r = await t.call(path, { key });
    expect([path, r.status]).toEqual([path, 200]);
    return r.json as J;
  };
  /** Every item of a paged list, page by page. */
  const all = async (path: string, key?: string) => {
    const out: J[] = [];
    for (let offset = 0; ;) {
      const r = await get(`${path}${path.includes('?') ? '&' : '?'}limit=200&offset=${offset}`, key);
      out.push(...(r.data as J[]));
      if (r.pagination.next_offset === null) return out;
      offset = r.pagination.next_offset as number;
    }
  };
  const status = async (path: string, key: string = KEYS.sharp) => (await t.call(path, { key })).status;

  beforeAll(async () => {
    t = await startTestApp({ config, clock });
    const address = t.app.getHttpServer().address() as { port: number };
    server = { pid: process.pid, host: '127.0.0.1', port: address.port, admin_token: t.adminToken, started_at: '' };
    const s = await runImport(SAMPLE, config, { replay: false, server, admin }, quiet);
    expect(s.reasons).toEqual({});
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('/prediction-markets', () => {
    it("lists the sample's Kalshi and Polymarket contracts: the game contract linked to its event, futures never", async () => {
      const markets = await all('/prediction-markets');
      const venues = new Set(markets.map((m) => m.venue));
      expect([...venues].sort()).toEqual(['kalshi', 'polymarket']);
      for (const m of markets) {
        expect(m.market_id).toBe(`${m.venue}:${m.source_ids.market_id}`);
        expect(m.sportsbook_ref).toMatchObject({ id: m.venue });
        expect('linked_event_id' in m).toBe(true);
        if (m.category !== 'game') expect([m.market_id, m.linked_event_id]).toEqual([m.market_id, null]);
        for (const o of m.outcomes as J[]) {
          expect(Object.keys(o.price).sort()).toEqual(['american', 'decimal', 'probability']);
          // No quote rests in the sample (it has no bid/ask/last columns): explicit nulls, never absent keys.
          expect([o.bid, o.ask, o.last]).toEqual([null, null, null]);
        }
      }
      // Polymarket's Rays @ Red Sox moneyline is the sample's one game contract at a venue.
      const games = markets.filter((m) => m.category === 'game');
      expect(games.map((m) => m.market_id)).toEqual(['polymarket:mlb_rays_redsox_2026-07-12_b3-moneyline']);
      const event = await get('/events/mlb_rays_redsox_2026-07-12_b3', KEYS.sharp);
      expect(games[0]).toMatchObject({ linked_event_id: event.data.id, futures_market_id: null, league: 'mlb', status: 'open' });
      expect(games[0]!.outcomes.map((o: J) => [o.name, o.price.american])).toEqual([
        ['Boston Red Sox', -120],
        ['Tampa Bay Rays', 120],
      ]);
      // Kalshi's contracts are its futures and questions: a Yes/No question per runner is a contract of its own.
      const kalshi = markets.filter((m) => m.venue === 'kalshi');
      expect(kalshi.length).toBeGreaterThan(50);
      const vargas = kalshi.filter((m) => /Miguel Vargas/.test(m.title) && /All-Star/.test(m.title));
      expect(vargas).toHaveLength(1);
      expect(vargas[0]!.outcomes.map((o: J) => [o.name, o.price.probability])).toEqual([['Yes', 0.980392]]);
      expect(markets.filter((m) => m.venue === 'polymarket' && m.category !== 'game').length).toBeGreaterThan(10);
    });

    it('categories count the markets per venue', async () => {
      const markets = await all('/prediction-markets');
      const cats = (await get('/prediction-markets/categories')).data as J[];
      expect(cats.reduce((a, c) => a + c.market_count, 0)).toBe(markets.length);
      for (const c of cats) {
        expect(c.books.reduce((a: number, b: J) => a + b.market_count, 0)).toBe(c.market_count);
        for (const b of c.books as J[]) expect(b.market_count).toBe(markets.filter((m) => m.category === c.id && m.venue === b.id).length);
      }
      expect(cats.find((c) => c.id === 'game')!.books).toEqual([{ id: 'polymarket', label: 'Polymarket', market_count: 1 }]);
      const kalshiOnly = (await get('/prediction-markets/categories?venue=kalshi')).data as J[];
      expect(kalshiOnly.every((c) => c.books.every((b: J) => b.id === 'kalshi'))).toBe(true);
    });

    it('filters by venue, category, league, linked event and status; pages', async () => {
      const markets = await all('/prediction-markets');
      expect((await all('/prediction-markets?venue=polymarket')).every((m) => m.venue === 'polymarket')).toBe(true);
      const linked = await all('/prediction-markets?event_id=mlb_rays_redsox_2026-07-12_b3');
      expect(linked.map((m) => m.market_id)).toEqual(['polymarket:mlb_rays_redsox_2026-07-12_b3-moneyline']);
      expect(await all('/prediction-markets?category=game')).toEqual(linked);
      expect(await all('/prediction-markets?league=nba')).toEqual([]);
      expect((await all('/prediction-markets?league=mlb')).length).toBe(markets.length);
      expect((await all('/prediction-markets?status=open')).length).toBe(markets.filter((m) => m.status === 'open').length);
      const p1 = await get('/prediction-markets?limit=2');
      const p2 = await get('/prediction-markets?limit=2&offset=2');
      expect([...p1.data, ...p2.data].map((m: J) => m.market_id)).toEqual(markets.slice(0, 4).map((m) => m.market_id));
      expect(p1.meta.total).toBe(markets.length);
    });

    it('refuses bad filters with a 400, and the free tier with a 403', async () => {
      for (const bad of [
        'venue=draftkings',
        'venue=nowhere',
        'status=pending',
        'league=nope',
        'limit=0',
        'offset=-1',
        'event_id=',
        'unknown=1',
      ])
        expect([bad, await status(`/prediction-markets?${bad}`)]).toEqual([bad, 400]);
      expect(await status('/prediction-markets/categories?venue=fanduel')).toBe(400);
      expect(await status('/prediction-markets?limit=1', KEYS.hobby)).toBe(200);
      const free = await t.call('/prediction-markets', { key: KEYS.free });
      expect(free.status).toBe(403);
      expect(free.json.error).toMatchObject({ code: 'tier_restricted', required_tier: 'hobby' });
    });

    it("a file's bid, ask and last columns reach the contract's outcomes (an empty cell is a null)", async () => {
      const header = readFileSync(SAMPLE, 'utf8').split('\n')[0]!.trim();
      const start = '2026-07-13T23:05:00Z';
      const row = (id: string, sel: string, side: string, american: number, quotes: string) =>
        `${id},kalshi,KXMLBGAME-26JUL13NYYBOS,baseball,mlb,Boston Red Sox,New York Yankees,moneyline,${sel},${side},${american},,,,${start},False,2026-07-13T01:45:00Z,${quotes}`;
      const file = join(dataDir, 'kalshi-quotes.csv');
      writeFileSync(
        file,
        [
          `${header},bid,ask,last`,
          row('k1', 'Boston Red Sox', 'home', -122, '0.54,0.56,0.55'),
          row('k2', 'New York Yankees', 'away', 117, ',,'),
          row('k3', 'Boston Red Sox', 'home', -122, '1.5,,'),
        ].join('\n'),
      );
      const s = await runImport(file, config, { replay: false, server, admin }, quiet);
      expect(s.imported).toBe(2);
      expect(s.errors).toEqual([{ line: 4, reason: 'bid must be a contract price from 0 to 1' }]);
      const game = (await all('/prediction-markets?venue=kalshi&category=game'))[0]!;
      expect(game.market_id).toBe('kalshi:KXMLBGAME-26JUL13NYYBOS-moneyline');
      expect(game.linked_event_id).toMatch(/^mlb_/);
      expect(game.outcomes.map((o: J) => [o.name, o.bid, o.ask, o.last])).toEqual([
        ['Boston Red Sox', 0.54, 0.56, 0.55],
        ['New York Yankees', null, null, null],
      ]);
    });
  });

  describe('/players', () => {
    const ingest = (quotes: Quote[], source = 'test-props') => {
      const r = t.app.get(IngestionService).ingest({ source, quotes }, clock.now());
      expect(r.rejected).toEqual({});
    };

    it("lists the sample's award runners and props with stable ids; optional keys absent when unknown", async () => {
      // Every tier: a free key lists them.
      expect(await status('/players?limit=1', KEYS.free)).toBe(200);
      const players = await all('/players');
      const byId = new Map(players.map((p) => [p.id, p]));
      // FanDuel's MVP runners and Bookmaker's props.
      expect(byId.get('baseball_mlb_shea_langeliers')).toEqual({
        id: 'baseball_mlb_shea_langeliers',
        display_name: 'Shea Langeliers',
        first_name: 'Shea',
        last_name: 'Langeliers',
        leagues: ['mlb'],
        team_id: 'athletics',
      });
      // Ladbrokes' "Shea Langeliers (Athletics)" is the same player, of the Athletics.
      expect(players.filter((p) => p.display_name.includes('Langeliers'))).toHaveLength(1);
      expect(byId.get('baseball_mlb_luis_arraez')).toMatchObject({ display_name: 'Luis Arraez', leagues: ['mlb'] });
      for (const p of players) {
        expect(Object.keys(p).every((k) => ['id', 'display_name', 'first_name', 'last_name', 'leagues', 'team_id'].includes(k))).toBe(true);
        for (const k of ['first_name', 'last_name', 'team_id']) if (k in p) expect(typeof p[k]).toBe('string');
      }
    });

    it('one player across two sources; the team the latest quote names is kept', async () => {
      ingest([prop('draftkings', 'José Ramírez', { playerTeam: 'Cleveland Guardians', sourceTime: AT_CAPTURE - 60_000 })], 'source-a');
      ingest([prop('fanduel', 'Jose Ramirez', { playerTeam: 'New York Yankees', sourceTime: AT_CAPTURE - 30_000 })], 'source-b');
      // An older quote naming his former team does not move him back.
      ingest([prop('betmgm', 'JOSE RAMIREZ', { playerTeam: 'Cleveland Guardians', sourceTime: AT_CAPTURE - 120_000 })], 'source-c');
      ingest([prop('caesars', 'Ichiro')], 'source-d');
      const ramirez = (await get('/players?q=ramirez')).data as J[];
      expect(ramirez).toEqual([
        {
          id: 'baseball_mlb_jose_ramirez',
          display_name: 'José Ramírez',
          first_name: 'José',
          last_name: 'Ramírez',
          leagues: ['mlb'],
          team_id: 'new_york_yankees',
        },
      ]);
      expect((await get('/players?q=ichiro')).data).toEqual([{ id: 'baseball_mlb_ichiro', display_name: 'Ichiro', leagues: ['mlb'] }]);
      // By team id or name (the sample's "Name (Yankees)" runners are Yankees too).
      const yankees = await all('/players?team=new_york_yankees');
      expect(yankees.map((p) => p.id)).toContain('baseball_mlb_jose_ramirez');
      expect(yankees.every((p) => p.team_id === 'new_york_yankees')).toBe(true);
      expect(await all('/players?team=New%20York%20Yankees')).toEqual(yankees);
      expect((await all('/players?team=cleveland_guardians')).map((p) => p.id)).not.toContain('baseball_mlb_jose_ramirez');
      // A later quote moves him.
      clock.advance(60_000);
      ingest([prop('draftkings', 'Jose Ramirez', { playerTeam: 'Cleveland Guardians', price: { american: -125 } })], 'source-a');
      expect((await get('/players?q=ram%C3%ADrez')).data[0].team_id).toBe('cleveland_guardians');
    });

    it('filters by league and name, pages, and refuses bad filters with a 400', async () => {
      const players = await all('/players');
      expect(players.length).toBeGreaterThan(20);
      expect(players.map((p) => p.display_name)).toEqual([...players.map((p) => p.display_name)].sort());
      expect((await all('/players?league=mlb')).length).toBe(players.length);
      expect(await all('/players?league=nba')).toEqual([]);
      expect((await all('/players?q=LANGEL')).map((p) => p.id)).toEqual(['baseball_mlb_shea_langeliers']);
      const p1 = await get('/players?limit=3');
      const p2 = await get('/players?limit=3&offset=3');
      expect([...p1.data, ...p2.data]).toEqual(players.slice(0, 6));
      expect(p1.pagination).toMatchObject({ limit: 3, offset: 0, has_more: true, next_offset: 3 });
      for (const bad of ['league=nope', 'q=!!', 'q=', 'team=', 'limit=0', 'limit=abc', 'offset=-1', 'sport=mlb'])
        expect([bad, await status(`/players?${bad}`)]).toEqual([bad, 400]);
      expect(await status('/players?q=%00abc')).toBe(400);
    });
  });
});

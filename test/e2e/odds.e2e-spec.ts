import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, H } from '../factories/market.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T18:00:00Z');
const BOOKS = ['draftkings', 'fanduel', 'betmgm', 'caesars', 'thescorebet', 'bet365', 'betrivers', 'pinnacle', 'circa'];
const GAMES = [
  { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 2 * H },
  { league: 'nba', home: 'Denver Nuggets', away: 'Phoenix Suns', start: NOW - H, live: true },
  { league: 'nhl', home: 'Toronto Maple Leafs', away: 'Montreal Canadiens', start: NOW + 26 * H },
  { league: 'epl', home: 'Arsenal', away: 'Chelsea', start: NOW + 50 * H },
];

type Row = Record<string, any>;

describe('odds endpoints (end to end)', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  let all: Row[] = [];
  const get = (path: string, key: string = KEYS.sharp) => t.call(path, { key });

  beforeAll(async () => {
    t = await startTestApp({ clock });
    const r = t.app.get(IngestionService).ingest({ source: 'test', quotes: buildMarket(GAMES, BOOKS, NOW) }, NOW, { backfill: true });
    expect(r.rejected).toEqual({});
    const res = await get('/odds?limit=500');
    all = res.json.data;
    expect(res.json.meta.total).toBe(all.length);
  });
  afterAll(async () => {
    await t.close();
  });

  const ids = (rows: Row[]) => rows.map((r) => r.id).sort();

  describe('GET /odds', () => {
    it('returns full Odds items with prices consistent across formats', () => {
      expect(all.length).toBeGreaterThan(200);
      for (const o of all) {
        expect(o).toMatchObject({
          id: expect.stringMatching(/^[0-9a-f]{16}$/),
          sportsbook: expect.any(String),
          event_id: expect.any(String),
          market_type: expect.any(String),
        });
        const dec = o.odds_american > 0 ? 1 + o.odds_american / 100 : 1 + 100 / Math.abs(o.odds_american);
        expect(Math.abs(dec - o.odds_decimal)).toBeLessThan(0.01);
        expect(o.probability).toBeCloseTo(1 / o.odds_decimal, 4);
        expect(o.odds_probability).toBe(o.probability);
        expect(o.is_main_line && o.is_alternate_line).toBe(false);
      }
      const dk = all.find(
        (o) =>
          o.sportsbook === 'draftkings' && o.market_type === 'moneyline' && o.home_team === 'Boston Celtics' && o.selection_type === 'home',
      )!;
      expect(dk).toMatchObject({
        sportsbook_name: 'DraftKings',
        league: 'nba',
        sport: 'basketball',
        away_team: 'Los Angeles Lakers',
        event_start_time: new Date(NOW + 2 * H).toISOString(),
        is_live: false,
        is_active: true,
        line: null,
        is_main_line: true,
      });
      expect(dk.sportsbook_ref).toEqual({ id: 'draftkings', numerical_id: 12, label: 'DraftKings' });
      expect(dk.market_ref).toMatchObject({ id: 'moneyline', numerical_id: 878 });
      expect(dk.home).toMatchObject({ id: 'boston_celtics', abbreviation: 'BOS' });
    });

    it('marks main and alternate lines from the consensus ladder', () => {
      const spreads = all.filter(
        (o) => o.market_type === 'point_spread' && o.home_team === 'Boston Celtics' && o.selection_type === 'home',
      );
      expect(spreads.filter((o) => o.line === -3.5).every((o) => o.is_main_line)).toBe(true);
      expect(spreads.filter((o) => o.line === -5.5).every((o) => o.is_alternate_line)).toBe(true);
    });

    it.each<[string, (o: Row) => boolean]>([
      ['sport=hockey', (o) => o.sport === 'hockey'],
      ['league=nba,soccer_epl', (o) => o.league === 'nba' || o.league === 'epl'],
      ['sportsbook=pinnacle,circa', (o) => ['pinnacle', 'circa'].includes(o.sportsbook)],
      ['market=moneyline', (o) => o.market_type === 'moneyline'],
      ['market=spread', (o) => o.market_type === 'point_spread'],
      ['market=main', (o) => ['moneyline', 'point_spread', 'total_points'].includes(o.market_type)],
      ['live=true', (o) => o.is_live === true],
      ['live=false', (o) => o.is_live === false],
      ['team=canadiens', (o) => o.away_team === 'Montreal Canadiens'],
      ['team=LAL', (o) => o.away_team === 'Los Angeles Lakers'],
      ['q=premier', (o) => o.league === 'epl'],
      ['date=2026-11-23', (o) => o.league === 'nhl'],
      ['min_odds=-110&max_odds=150', (o) => o.odds_american >= -110 && o.odds_american <= 150],
      ['main=true', (o) => o.is_main_line === true],
      ['is_main_line=true', (o) => o.is_main_line === true],
      ['is_main_line=true&main=true', (o) => o.is_main_line === true],
    ])('filter %s matches the board', async (qs, pred) => {
      const r = await get(`/odds?limit=500&${qs}`);
      expect(r.status).toBe(200);
      const expected = all.filter(pred);
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(r.json.data)).toEqual(ids(expected));
      expect(r.json.meta.total).toBe(expected.length);
    });

    it('filters by event (and its alias event_id)', async () => {
      const ev = all[0]!.event_id;
      const a = await get(`/odds?limit=500&event=${ev}`);
      const b = await get(`/odds?limit=500&event_id=${ev}`);
      expect(ids(a.json.data)).toEqual(ids(all.filter((o) => o.event_id === ev)));
      expect(ids(b.json.data)).toEqual(ids(a.json.data));
    });

    it.each(['odds_american', 'odds_decimal', 'probability', 'timestamp', 'event_start_time', 'sportsbook', 'sport', 'league'])(
      'sorts by %s both ways',
      async (field) => {
        for (const dir of ['', '-']) {
          const r = await get(`/odds?limit=500&sort=${dir}${field}`);
          const v = r.json.data.map((o: Row) => (field.endsWith('time') || field === 'timestamp' ? Date.parse(o[field]) : o[field]));
          const sorted = [...v].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          expect(v).toEqual(dir ? sorted.reverse() : sorted);
        }
      },
    );

    it('projects fields', async () => {
      const r = await get('/odds?limit=5&fields=id,odds_decimal,home');
      expect(r.json.data.every((o: Row) => Object.keys(o).sort().join() === 'home,id,odds_decimal')).toBe(true);
    });

    it('groups by event', async () => {
      const r = await get('/odds?group_by=event&limit=2');
      expect(r.json.data).toHaveLength(2);
      expect(r.json.meta).toMatchObject({ group_by: 'event', total: 4 });
      const g = r.json.data[0];
      expect(g.odds.every((o: Row) => o.event_id === g.event_id)).toBe(true);
      expect(g.odds).toHaveLength(all.filter((o) => o.event_id === g.event_id).length);
    });

    it('pages with offset and with an opaque cursor, without gaps or repeats', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 100; i++) {
        const r: any = await get(`/odds?limit=37${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...r.json.data.map((o: Row) => o.id));
        cursor = r.json.meta.pagination.next_cursor;
        if (!cursor) break;
      }
      expect(seen).toEqual(all.map((o) => o.id));
      const p2 = await get('/odds?limit=37&offset=37');
      expect(p2.json.data.map((o: Row) => o.id)).toEqual(all.slice(37, 74).map((o) => o.id));
      expect(p2.json.pagination).toMatchObject({ limit: 37, offset: 37, has_more: true, next_offset: 74 });
      const c = await get('/odds?limit=20&sort=-odds_decimal');
      const c2 = await get(`/odds?limit=20&sort=-odds_decimal&cursor=${c.json.meta.pagination.next_cursor}`);
      const o40 = await get('/odds?limit=40&sort=-odds_decimal');
      expect([...c.json.data, ...c2.json.data].map((o: Row) => o.id)).toEqual(o40.json.data.map((o: Row) => o.id));
    });

    it.each([
      ['limit=501', 'invalid_request'],
      ['limit=0', 'invalid_request'],
      ['limit=x', 'invalid_request'],
      ['offset=5001', 'offset_too_large'],
      ['sort=nonsense', 'invalid_request'],
      ['fields=id,password', 'invalid_request'],
      ['group_by=book', 'invalid_request'],
      ['market=lacrosse_thing', 'invalid_request'],
      ['league=moonball', 'invalid_request'],
      ['min_odds=abc', 'invalid_request'],
      ['min_odds=200&max_odds=-200', 'invalid_request'],
      ['cursor=!!!', 'invalid_request'],
      ['live=sometimes', 'invalid_request'],
      ['sportsbook=nobook', 'invalid_request'],
    ])('refuses %s with 400 %s', async (qs, code) => {
      const r = await get(`/odds?${qs}`);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe(code);
    });
  });

  describe('tier book rules', () => {
    it('free: DraftKings and FanDuel by default', async () => {
      const r = await get('/odds?limit=500', await t.newKey('free'));
      expect(new Set(r.json.data.map((o: Row) => o.sportsbook))).toEqual(new Set(['draftkings', 'fanduel']));
      expect(r.headers.get('x-data-delay')).toBe('60');
    });
    it('hobby and pro: the 5 and 15 most popular open books by default', async () => {
      const h = await get('/odds?limit=500', KEYS.hobby);
      expect(new Set(h.json.data.map((o: Row) => o.sportsbook))).toEqual(
        new Set(['draftkings', 'fanduel', 'betmgm', 'caesars', 'thescorebet']),
      );
      expect(h.json.meta.books_available).toEqual(['draftkings', 'fanduel', 'betmgm', 'caesars', 'thescorebet']);
      const p = await get('/odds?limit=500', KEYS.pro);
      expect(new Set(p.json.data.map((o: Row) => o.sportsbook))).toEqual(
        new Set(['draftkings', 'fanduel', 'betmgm', 'caesars', 'thescorebet', 'bet365', 'betrivers']),
      );
      expect(p.json.meta.books_available).toHaveLength(15);
    });
    it('sharp: every book', async () => {
      expect(new Set(all.map((o) => o.sportsbook))).toEqual(new Set(BOOKS));
    });
    it('sharp: meta.books_available names the books /sportsbooks lists (unlisted books only once they have prices)', async () => {
      const r = await get('/odds?limit=1');
      const listed = await get('/sportsbooks?catalog=true');
      expect(listed.status).toBe(200);
      expect([...r.json.meta.books_available].sort()).toEqual(listed.json.data.map((b: { id: string }) => b.id).sort());
    });
    it('a book above the tier is 403 naming the book', async () => {
      const r = await get('/odds?sportsbook=pinnacle', KEYS.pro);
      expect(r.status).toBe(403);
      expect(r.json.error.code).toBe('tier_restricted');
      expect(r.json.error.message).toMatch(/Pinnacle/);
      expect(r.json.required_tier).toBe('sharp');
      expect((await get('/odds?add_sportsbook=circa', KEYS.hobby)).status).toBe(403);
    });
    it('more books than the tier allows is 403 saying the maximum', async () => {
      const free = await t.newKey('free');
      const r = await get('/odds?sportsbook=draftkings,fanduel,betmgm', free);
      expect(r.status).toBe(403);
      expect(r.json.error.message).toMatch(/at most 2/);
      expect(r.json.max_books).toBe(2);
      expect((await get('/odds?add_sportsbook=betmgm', free)).status).toBe(403);
      expect((await get('/odds?sportsbook=draftkings,fanduel,betmgm,caesars,thescorebet,bet365', KEYS.hobby)).json.max_books).toBe(5);
    });
    it('within the limits a tier may pick its books', async () => {
      const r = await get('/odds?sportsbook=betmgm,caesars&limit=500', await t.newKey('free'));
      expect(r.status).toBe(200);
      expect(new Set(r.json.data.map((o: Row) => o.sportsbook))).toEqual(new Set(['betmgm', 'caesars']));
      const add = await get('/odds?add_sportsbook=bet365&limit=500', KEYS.hobby);
      expect(add.status).toBe(403);
    });
  });

  describe('GET /odds/best', () => {
    it('gives the highest price per selection among the books in scope', async () => {
      const r = await get('/odds/best?limit=200&sportsbook=draftkings,fanduel,betmgm', KEYS.pro);
      expect(r.status).toBe(200);
      const scope = all.filter((o) => ['draftkings', 'fanduel', 'betmgm'].includes(o.sportsbook));
      const bySel = new Map<string, Row[]>();
      for (const o of scope) {
        const k = `${o.event_id}|${o.market_type}|${o.selection_type}|${o.line}`;
        bySel.set(k, [...(bySel.get(k) ?? []), o]);
      }
      expect(r.json.meta.total).toBe(bySel.size);
      for (const b of r.json.data) {
        const group = bySel.get(`${b.event_id}|${b.market_type}|${b.selection_type}|${b.line}`)!;
        expect(b.odds_decimal).toBe(Math.max(...group.map((o) => o.odds_decimal)));
        expect(b.books_compared).toBe(group.length);
      }
    });
    it('filters by event and main line', async () => {
      const ev = GAMES[0]!;
      const r = await get(`/odds/best?event=${all.find((o) => o.home_team === ev.home)!.event_id}&is_main_line=true`);
      expect(r.json.data.every((o: Row) => o.is_main_line && o.home_team === ev.home)).toBe(true);
      expect(r.json.data.length).toBeGreaterThan(0);
      // `main` is accepted as its alias (one name per thing: is_main_line), on /odds too.
      const alias = await get(`/odds/best?event=${all.find((o) => o.home_team === ev.home)!.event_id}&main=true`);
      expect(alias.json.data).toEqual(r.json.data);
    });
    it('refuses main and is_main_line that disagree', async () => {
      for (const path of ['/odds', '/odds/best']) {
        const r = await get(`${path}?main=true&is_main_line=false`);
        expect(r.status).toBe(400);
        expect(r.json.error.message).toMatch(/"main" is an alias of "is_main_line"/);
      }
    });
  });

  describe('GET /odds/comparison', () => {
    it('needs the event', async () => {
      const r = await get('/odds/comparison');
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('invalid_request');
    });
    it("keys the event's rows by sportsbook", async () => {
      const ev = all[0]!.event_id;
      const r = await get(`/odds/comparison?event=${ev}&market=moneyline`);
      expect(Object.keys(r.json.data).sort()).toEqual([...BOOKS].sort());
      for (const [book, rows] of Object.entries(r.json.data as Record<string, Row[]>)) {
        expect(rows.every((o) => o.sportsbook === book && o.event_id === ev && o.market_type === 'moneyline')).toBe(true);
      }
      expect((await get('/odds/comparison?event_id=nope_x_y_2026-01-01_b0')).status).toBe(404);
    });
  });

  describe('POST /odds/batch', () => {
    let freeKey = '';
    beforeAll(async () => {
      freeKey = await t.newKey('free');
    });
    const post = (body: unknown, key?: string) => t.call('/odds/batch', { key: key ?? freeKey, method: 'POST', body });
    it('maps each event to its rows and lists unknown ids', async () => {
      const evs = [...new Set(all.map((o) => o.event_id))];
      const r = await post({ event_ids: [evs[0], 'unknown_a_b_2026-01-01_b0'], market: 'moneyline' });
      expect(r.status).toBe(200);
      expect(Object.keys(r.json.data)).toEqual([evs[0]]);
      expect(
        r.json.data[evs[0]!].every((o: Row) => ['draftkings', 'fanduel'].includes(o.sportsbook) && o.market_type === 'moneyline'),
      ).toBe(true);
      expect(r.json.meta).toMatchObject({ requested: 2, found: 1, missing: ['unknown_a_b_2026-01-01_b0'], max_batch: 5 });
    });
    it.each([
      ['free', 5],
      ['hobby', 20],
      ['pro', 50],
      ['sharp', 100],
      ['enterprise', 100],
    ] as const)('%s: %i events allowed, one more is 400 naming the limit', async (tier, n) => {
      const idsN = Array.from({ length: n }, (_, i) => `e${i}`);
      expect((await post({ event_ids: idsN }, KEYS[tier])).status).toBe(200);
      const over = await post({ event_ids: [...idsN, 'one_more'] }, KEYS[tier]);
      expect(over.status).toBe(400);
      expect(over.json.error.code).toBe('invalid_request');
      expect(over.json.error.message).toContain(`allows ${n} events`);
    });
    it.each([
      [{}, /event_ids/],
      [{ event_ids: [] }, /at least one/],
      [{ event_ids: 'abc' }, null],
      [{ event_ids: [1, 2] }, /event_ids/],
      [{ event_ids: ['a'], sportsbook: 7 }, /sportsbook/],
      [{ event_ids: ['a'], extra: true }, /Unknown parameter "extra"/],
    ])('validates the body %j', async (body, msg) => {
      const r = await post(body);
      if (msg === null) {
        expect(r.status).toBe(200);
        return;
      }
      expect(r.status).toBe(400);
      expect(r.json.error.message).toMatch(msg);
    });
    it('refuses malformed JSON', async () => {
      const r = await t.call('/odds/batch', {
        key: await t.newKey('free'),
        method: 'POST',
        rawBody: '{"event_ids": [',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(r.status).toBe(400);
    });
  });

  describe('GET /odds/delta and the free tier delay', () => {
    it('needs a valid since', async () => {
      expect((await get('/odds/delta')).json.error.code).toBe('invalid_request');
      expect((await get('/odds/delta?since=yesterday')).status).toBe(400);
    });

    it('returns what changed and what was removed since a time, and chains with server_time', async () => {
      const ingestion = t.app.get(IngestionService);
      const base = await get(`/odds/delta?since=${new Date(NOW).toISOString()}`);
      expect(base.json.data).toEqual([]);
      expect(base.json.meta.server_time).toBe(new Date(NOW).toISOString());
      clock.advance(5_000);
      const game = GAMES[0]!;
      ingestion.ingest({
        source: 'test',
        quotes: [
          {
            book: 'fanduel',
            league: 'nba',
            homeTeam: game.home,
            awayTeam: game.away,
            startTime: game.start,
            marketType: 'moneyline',
            selection: game.home,
            selectionType: 'home',
            price: { american: -999 },
          },
        ],
        removals: [
          {
            book: 'betmgm',
            league: 'nba',
            homeTeam: game.home,
            awayTeam: game.away,
            startTime: game.start,
            marketType: 'total_points',
            selection: 'Over',
            selectionType: 'over',
            line: 220.5,
          },
        ],
      });
      const d = await get(`/odds/delta?since=${base.json.meta.server_time}`);
      expect(d.json.data.map((o: Row) => [o.sportsbook, o.odds_american])).toEqual([['fanduel', -999]]);
      expect(d.json.removed).toHaveLength(1);
      expect(d.json.removed[0]).toMatchObject({ sportsbook: 'betmgm', removed_at: new Date(NOW + 5000).toISOString() });
      expect(d.json.meta.books_changed).toEqual(['fanduel']);
      const next = await get(`/odds/delta?since=${d.json.meta.server_time}`);
      expect(next.json.data).toEqual([]);
      expect(next.json.removed).toBeUndefined();
      expect((await get(`/odds/delta?since=${new Date(NOW - 3600_000).toISOString()}`)).json.since_clamped).toBe(true);
    });

    it('a price changed now is invisible to a free key until 60 s later, and visible at once to a pro key', async () => {
      const ingestion = t.app.get(IngestionService);
      const free = await t.newKey('free');
      const game = GAMES[0]!;
      clock.advance(1_000);
      ingestion.ingest({
        source: 'test',
        quotes: [
          {
            book: 'draftkings',
            league: 'nba',
            homeTeam: game.home,
            awayTeam: game.away,
            startTime: game.start,
            marketType: 'moneyline',
            selection: game.away,
            selectionType: 'away',
            price: { american: 777 },
          },
        ],
      });
      const price = async (key: string) => {
        const r = await get(`/odds?sportsbook=draftkings&market=moneyline&team=lakers&limit=10`, key);
        return r.json.data.find((o: Row) => o.selection_type === 'away').odds_american;
      };
      expect(await price(KEYS.pro)).toBe(777);
      const before = await price(free);
      expect(before).not.toBe(777);
      clock.advance(59_000);
      expect(await price(free)).toBe(before);
      clock.advance(1_000);
      expect(await price(free)).toBe(777);
    });
  });

  describe('GET /events/{id}/odds', () => {
    it('equals /odds?event=ID and 404s an unknown event', async () => {
      const ev = all[0]!.event_id;
      const a = await get(`/events/${ev}/odds?limit=500`);
      const b = await get(`/odds?event=${ev}&limit=500`);
      expect(a.json.data.map((o: Row) => o.id)).toEqual(b.json.data.map((o: Row) => o.id));
      expect((await get('/events/nope_a_b_2026-01-01_b0/odds')).status).toBe(404);
    });
  });

  describe('GET /metrics', () => {
    it('reports the board, the opportunities and request latency in Prometheus text', async () => {
      const res = await fetch(`${t.url}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      const value = (name: string) =>
        Number(
          text
            .split('\n')
            .find((l) => l.startsWith(`${name} `))
            ?.split(' ')[1],
        );
      const total = (await get('/odds?limit=1')).json.meta.total;
      expect(value('board_rows')).toBe(total);
      expect(value('board_events')).toBe(GAMES.length);
      expect(value('worker_active')).toBe(1);
      expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/odds",status="200"\} \d+/);
    });
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { LineHistoryStore } from '../../src/modules/stores/line-history/line-history.store.js';
import { isolationEnv, KEYS, SERVICES, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

/**
 * The line history over HTTP: price moves injected through POST /admin/ingest on a manual clock, read back from
 * GET /odds/history and /odds/movement (each figure worked by hand below), under the tier rules of the odds routes
 * (books, the free delay), across a restart on the same store, and every bad parameter refused with the error body.
 */

const T0 = Date.parse('2026-11-22T12:00:00Z');
const START = Date.parse('2026-11-23T01:00:00Z');
const GAME = { league: 'nba', homeTeam: 'Boston Celtics', awayTeam: 'Los Angeles Lakers', startTime: START };
const home = (book: string, decimal: number): Quote => ({
  ...GAME,
  book,
  marketType: 'moneyline',
  selection: GAME.homeTeam,
  selectionType: 'home',
  line: null,
  price: { decimal },
});
const away = (book: string, decimal: number): Quote => ({ ...home(book, decimal), selection: GAME.awayTeam, selectionType: 'away' });
const spread = (book: string, line: number, decimal: number): Quote => ({
  ...GAME,
  book,
  marketType: 'point_spread',
  selection: GAME.homeTeam,
  selectionType: 'home',
  line,
  price: { decimal },
});

/**
 * The moves (home moneyline, decimal), seconds after T0:
 *   0: pinnacle 2.00, draftkings 2.05, fanduel 2.02, betmgm 2.10 (away 1.85 everywhere), draftkings spread -3.5 at 1.91
 *  10: pinnacle 1.95      30: draftkings 1.98      50: fanduel 1.96      200: betmgm 2.04      300: pinnacle 1.97
 * 305: draftkings 2.00, and draftkings withdraws its -3.5 spread
 */
const MOVES: Array<[number, Quote[]]> = [
  [
    0,
    [
      home('pinnacle', 2.0),
      home('draftkings', 2.05),
      home('fanduel', 2.02),
      home('betmgm', 2.1),
      ...['pinnacle', 'draftkings', 'fanduel', 'betmgm'].map((b) => away(b, 1.85)),
      spread('draftkings', -3.5, 1.91),
    ],
  ],
  [10, [home('pinnacle', 1.95)]],
  [30, [home('draftkings', 1.98)]],
  [50, [home('fanduel', 1.96)]],
  [200, [home('betmgm', 2.04)]],
  [300, [home('pinnacle', 1.97)]],
  [305, [home('draftkings', 2.0)]],
];
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

describe('line history: /odds/history and /odds/movement', () => {
  const shared = SERVICES ? isolationEnv() : { DATA_DIR: mkdtempSync(join(tmpdir(), 'odds-line-history-')), EMBEDDED_IN_MEMORY: 'false' };
  const config = testConfig(shared);
  let t: TestApp;
  let clock: ManualClock;
  let eventId: string;
  const admin = () => ({ 'X-Admin-Token': t.adminToken });
  const ingest = async (quotes: Quote[], removeIds?: string[]) => {
    const r = await t.call('/admin/ingest', {
      method: 'POST',
      body: { source: 'import', quotes, remove_ids: removeIds },
      headers: admin(),
    });
    expect(r.status).toBe(200);
  };

  beforeAll(async () => {
    clock = new ManualClock(T0);
    t = await startTestApp({ clock, config });
    for (const [s, quotes] of MOVES) {
      await clock.set(T0 + s * 1000);
      await ingest(quotes);
      if (s === 305) {
        const spreadId = (await t.call('/odds?market=point_spread&sportsbook=draftkings', { key: KEYS.sharp })).json.data[0].id as string;
        await ingest([], [spreadId]);
      }
    }
    await clock.set(T0 + 310_000);
    eventId = (await t.call('/events?league=nba', { key: KEYS.sharp })).json.data[0].id as string;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const history = (q: string, key: string = KEYS.sharp) => t.call(`/odds/history?event=${eventId}&${q}`, { key });
  const movement = (q: string, key: string = KEYS.sharp) => t.call(`/odds/movement?event=${eventId}&${q}`, { key });
  const series = (body: any, book: string) =>
    (body.data as any[]).filter((x) => x.sportsbook === book).map((x) => x.points.map((p: any) => [p.at, p.odds_decimal, p.status]));

  it('history: one series per book and selection, every change kept (a change, not a snapshot)', async () => {
    const r = await history('market=moneyline&selection=home&sportsbook=pinnacle,draftkings,fanduel,betmgm');
    expect(r.status).toBe(200);
    // Four books' home moneyline: 4 series, in book order.
    expect(r.json.data.map((x: any) => [x.sportsbook, x.selection, x.selection_type, x.line])).toEqual([
      ['betmgm', 'Boston Celtics', 'home', null],
      ['draftkings', 'Boston Celtics', 'home', null],
      ['fanduel', 'Boston Celtics', 'home', null],
      ['pinnacle', 'Boston Celtics', 'home', null],
    ]);
    expect(series(r.json, 'pinnacle')).toEqual([
      [
        [at(0), 2, 'open'],
        [at(10), 1.95, 'open'],
        [at(300), 1.97, 'open'],
      ],
    ]);
    expect(series(r.json, 'draftkings')).toEqual([
      [
        [at(0), 2.05, 'open'],
        [at(30), 1.98, 'open'],
        [at(305), 2, 'open'],
      ],
    ]);
    // American prices as the board showed them: 2.00 is +100, 1.95 is -105 (-100/0.95 = -105.26).
    expect(r.json.data[3].points.map((p: any) => p.odds_american)).toEqual([100, -105, -103]);
    expect(r.json.meta).toEqual(
      expect.objectContaining({
        count: 4,
        total: 4,
        event_id: eventId,
        points: 3 + 3 + 2 + 2,
        delay_seconds: 0,
        retention_days: SERVICES ? 90 : 14,
      }),
    );
    expect(r.json.meta.to).toBe(at(310));
  });

  it('history: a withdrawn line ends with a removed point; the time window and max_points cut the series', async () => {
    const sp = await history('market=point_spread&line=-3.5&sportsbook=draftkings');
    expect(series(sp.json, 'draftkings')).toEqual([
      [
        [at(0), 1.91, 'open'],
        [at(305), null, 'removed'],
      ],
    ]);
    const w = await history(`market=moneyline&selection=home&sportsbook=pinnacle&from=${at(5)}&to=${at(299)}`);
    expect(series(w.json, 'pinnacle')).toEqual([[[at(10), 1.95, 'open']]]);
    // Unix seconds work too; a window with nothing in it lists no series.
    const none = await history(`sportsbook=pinnacle&from=${(T0 + 400_000) / 1000}`);
    expect([none.status, none.json.data, none.json.meta.total]).toEqual([200, [], 0]);
    const cut = await history('market=moneyline&selection=home&sportsbook=pinnacle&max_points=2');
    expect(cut.json.data[0].points.length).toBe(2);
    expect([cut.json.data[0].truncated, cut.json.data[0].next_from]).toEqual([true, at(300)]);
  });

  it('history with_prior: each series starts with the price in force at the window start', async () => {
    // Window 20-250 s: pinnacle changed at 10 (1.95) and next at 300; betmgm at 0 (2.10) and next at 200.
    const q = `market=moneyline&selection=home&sportsbook=pinnacle,betmgm&from=${at(20)}&to=${at(250)}`;
    const plain = await history(q);
    expect(plain.json.data.map((x: any) => [x.sportsbook, x.points.length])).toEqual([['betmgm', 1]]);
    const prior = await history(`${q}&with_prior=true`);
    expect(series(prior.json, 'pinnacle')).toEqual([[[at(10), 1.95, 'open']]]);
    expect(series(prior.json, 'betmgm')).toEqual([
      [
        [at(0), 2.1, 'open'],
        [at(200), 2.04, 'open'],
      ],
    ]);
    // A line withdrawn before the window is not listed: nothing was quoted then.
    const gone = await history(`market=point_spread&sportsbook=draftkings&from=${at(306)}&with_prior=true`);
    expect(gone.json.data).toEqual([]);
    expect((await history('with_prior=maybe')).status).toBe(400);
  });

  it('history pages over series', async () => {
    const p1 = await history('market=moneyline&sportsbook=pinnacle,draftkings,fanduel,betmgm&limit=3');
    // 4 books x 2 sides = 8 series; pages of 3.
    expect([p1.json.data.length, p1.json.pagination]).toEqual([3, { limit: 3, offset: 0, has_more: true, next_offset: 3 }]);
    const p3 = await history('market=moneyline&sportsbook=pinnacle,draftkings,fanduel,betmgm&limit=3&offset=6');
    expect([p3.json.data.length, p3.json.pagination.has_more, p3.json.meta.total]).toEqual([2, false, 8]);
  });

  it('movement: open, current, high, low, moves, first mover and steam, as worked by hand', async () => {
    const r = await movement('market=moneyline&selection=home&sportsbook=pinnacle,draftkings,fanduel,betmgm');
    expect(r.status).toBe(200);
    expect(r.json.data.length).toBe(1);
    const m = r.json.data[0];
    // Best price: 2.10 (betmgm) from 0; at 200 betmgm 2.04 -> max(1.95, 1.98, 1.96, 2.04) = 2.04; pinnacle 1.97 (300)
    // and draftkings 2.00 (305) leave it there. Open 2.10, high 2.10, low 2.04, current 2.04.
    const mark = (x: any) => [x.sportsbook, x.odds_decimal, x.at];
    expect([mark(m.open), mark(m.high), mark(m.low), mark(m.current)]).toEqual([
      ['betmgm', 2.1, at(0)],
      ['betmgm', 2.1, at(0)],
      ['betmgm', 2.04, at(200)],
      ['betmgm', 2.04, at(200)],
    ]);
    // Moves: pinnacle 2 (10, 300), draftkings 2 (30, 305), fanduel 1 (50), betmgm 1 (200): 6; first pinnacle at 10.
    expect([m.moves, m.books_moved]).toEqual([6, 4]);
    expect([m.first_mover.sportsbook, m.first_mover.at, m.first_mover.from_decimal, m.first_mover.to_decimal]).toEqual([
      'pinnacle',
      at(10),
      2,
      1.95,
    ]);
    expect([m.first_mover.from_american, m.first_mover.to_american]).toEqual([100, -105]);
    // Steam (60 s, 2 followers): pinnacle shortens at 10, draftkings follows at 30 (20 s), fanduel at 50 (40 s).
    expect(m.steam).toEqual([
      {
        at: at(10),
        direction: 'shortening',
        leader: { sportsbook: 'pinnacle', at: at(10), from_american: 100, to_american: -105, from_decimal: 2, to_decimal: 1.95 },
        followers: [
          expect.objectContaining({ sportsbook: 'draftkings', at: at(30), lag_seconds: 20, from_decimal: 2.05, to_decimal: 1.98 }),
          expect.objectContaining({ sportsbook: 'fanduel', at: at(50), lag_seconds: 40, from_decimal: 2.02, to_decimal: 1.96 }),
        ],
        max_lag_seconds: 40,
      },
    ]);
    const pin = m.books.find((b: any) => b.sportsbook === 'pinnacle');
    expect([mark(pin.open), mark(pin.current), pin.high.odds_decimal, pin.low.odds_decimal, pin.moves, pin.quoting]).toEqual([
      ['pinnacle', 2, at(0)],
      ['pinnacle', 1.97, at(300)],
      2,
      1.95,
      2,
      true,
    ]);
    // A 20 s window with one follower enough: only draftkings (20 s) follows pinnacle's shortening at 10 (fanduel's at
    // 50 is 40 s after it); and pinnacle's drift at 300 (1.95 -> 1.97) is followed by draftkings' at 305 (1.98 -> 2.00).
    const narrow = await movement(
      'market=moneyline&selection=home&sportsbook=pinnacle,draftkings,fanduel,betmgm&steam_window=20&steam_min_followers=1',
    );
    expect(
      narrow.json.data[0].steam.map((x: any) => [
        x.leader.sportsbook,
        x.direction,
        x.followers.map((f: any) => [f.sportsbook, f.lag_seconds]),
      ]),
    ).toEqual([
      ['pinnacle', 'shortening', [['draftkings', 20]]],
      ['pinnacle', 'drifting', [['draftkings', 5]]],
    ]);
    expect(narrow.json.meta).toEqual(expect.objectContaining({ steam_window: 20, steam_min_followers: 1, total: 1 }));
  });

  it('movement in a window: the price in force at its start is the open', async () => {
    // From 20 s: pinnacle stood at 1.95 (since 10); its only move is 1.95 -> 1.97 at 300.
    const r = await movement(`market=moneyline&selection=home&sportsbook=pinnacle&from=${at(20)}`);
    const pin = r.json.data[0].books[0];
    expect([pin.open.odds_decimal, pin.open.at, pin.moves, pin.first_move_at]).toEqual([1.95, at(10), 1, at(300)]);
  });

  it('tiers: the free key gets its default books and sees nothing newer than its 60 s delay; book limits as on /odds', async () => {
    // At 310 s the free window ends at 250 s: draftkings' change at 305 is not shown yet.
    const free = await history('market=moneyline&selection=home', KEYS.free);
    expect(free.status).toBe(200);
    expect(free.headers.get('x-data-delay')).toBe('60');
    expect(free.json.data.map((x: any) => x.sportsbook)).toEqual(['draftkings', 'fanduel']);
    expect(series(free.json, 'draftkings')).toEqual([
      [
        [at(0), 2.05, 'open'],
        [at(30), 1.98, 'open'],
      ],
    ]);
    expect([free.json.meta.to, free.json.meta.delay_seconds]).toEqual([at(250), 60]);
    // A `to` later than the delay allows is cut to it.
    expect((await history(`market=moneyline&selection=home&to=${at(400)}`, KEYS.free)).json.meta.to).toBe(at(250));
    const freeMove = await movement('market=moneyline&selection=home', KEYS.free);
    expect(freeMove.json.data[0].books.map((b: any) => [b.sportsbook, b.moves, b.current.odds_decimal])).toEqual([
      ['draftkings', 1, 1.98],
      ['fanduel', 1, 1.96],
    ]);
    // A sharp book is above the free tier; three books are more than its two.
    const sharpBook = await history('sportsbook=pinnacle', KEYS.free);
    expect([sharpBook.status, sharpBook.json.error.code, sharpBook.json.required_tier]).toEqual([403, 'tier_restricted', 'sharp']);
    const three = await history('sportsbook=draftkings,fanduel,betmgm', KEYS.free);
    expect([three.status, three.json.error.code, three.json.max_books]).toEqual([403, 'tier_restricted', 2]);
    expect((await movement('sportsbook=pinnacle', KEYS.pro)).status).toBe(403);
    // A minute later the free key sees the 305 change.
    await clock.set(T0 + 366_000);
    const later = await history('market=moneyline&selection=home&sportsbook=draftkings', KEYS.free);
    expect(series(later.json, 'draftkings')[0]!.at(-1)).toEqual([at(305), 2, 'open']);
  });

  it('every bad parameter is a 400 with the error body; an unknown event is 404', async () => {
    const bad: Array<[string, string]> = [
      ['/odds/history', 'invalid_request'],
      [`/odds/history?event=${eventId}&from=yesterday`, 'invalid_request'],
      [`/odds/history?event=${eventId}&from=${at(100)}&to=${at(50)}`, 'invalid_request'],
      [`/odds/history?event=${eventId}&to=2026-02-30T00:00:00Z`, 'invalid_request'],
      [`/odds/history?event=${eventId}&line=abc`, 'invalid_request'],
      [`/odds/history?event=${eventId}&line=1e9`, 'invalid_request'],
      [`/odds/history?event=${eventId}&limit=0`, 'invalid_request'],
      [`/odds/history?event=${eventId}&limit=201`, 'invalid_request'],
      [`/odds/history?event=${eventId}&offset=5001`, 'offset_too_large'],
      [`/odds/history?event=${eventId}&max_points=0`, 'invalid_request'],
      [`/odds/history?event=${eventId}&max_points=10001`, 'invalid_request'],
      [`/odds/history?event=${eventId}&market=nosuchmarket`, 'invalid_request'],
      [`/odds/history?event=${eventId}&sportsbook=nosuchbook`, 'invalid_request'],
      [`/odds/history?event=${eventId}&selection=${'x'.repeat(201)}`, 'invalid_request'],
      [`/odds/history?event=${eventId}&event_id=other`, 'invalid_request'],
      [`/odds/history?event=${eventId}&colour=red`, 'invalid_request'],
      [`/odds/history?event=${'e'.repeat(301)}`, 'invalid_request'],
      [`/odds/movement?event=${eventId}&steam_window=0`, 'invalid_request'],
      [`/odds/movement?event=${eventId}&steam_window=3601`, 'invalid_request'],
      [`/odds/movement?event=${eventId}&steam_min_followers=x`, 'invalid_request'],
      [`/odds/movement?event=${eventId}&from=1e99`, 'invalid_request'],
      ['/odds/movement?event_id=', 'invalid_request'],
    ];
    for (const [path, code] of bad) {
      const r = await t.call(path, { key: KEYS.sharp });
      expect({ path, status: r.status, code: r.json?.error?.code }).toEqual({ path, status: 400, code });
      expect(typeof r.json.error.message).toBe('string');
      expect(typeof r.json.error.docs).toBe('string');
    }
    const unknown = await t.call('/odds/history?event=nba_nobody_noone_2026-11-22_b1', { key: KEYS.sharp });
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'not_found']);
    expect((await t.call(`/odds/history?event=${eventId}`)).status).toBe(401);
  });

  it('the history survives a restart on the same store', async () => {
    await t.close({ keepStore: true });
    clock = new ManualClock(T0 + 400_000);
    t = await startTestApp({ clock, config });
    const r = await history('market=moneyline&selection=home&sportsbook=pinnacle');
    expect(series(r.json, 'pinnacle')).toEqual([
      [
        [at(0), 2, 'open'],
        [at(10), 1.95, 'open'],
        [at(300), 1.97, 'open'],
      ],
    ]);
    // New changes after the restart join the same series.
    await ingest([home('pinnacle', 1.99)]);
    const after = await history('market=moneyline&selection=home&sportsbook=pinnacle');
    expect(series(after.json, 'pinnacle')[0]!.at(-1)).toEqual([at(400), 1.99, 'open']);
  }, 120_000);

  it('the retention job deletes changes older than the retention, then the series left without one', async () => {
    const store = t.app.get(LineHistoryStore);
    const before = await store.size();
    // The retention reaches past every change but pinnacle's at 400 s: 16 of the 17 changes go (10 home and 4 away
    // moneyline changes, the spread's 2, before the restart), and 8 of the 9 series (all but pinnacle's home).
    // (Run as of then: moving the test clock by months would run every always-on timer that many times.)
    expect(before).toEqual(expect.objectContaining({ changes: 17, series: 9 }));
    expect(await store.purge(T0 + store.retentionDays * 86_400_000 + 399_000)).toEqual({ changes: 16, series: 8 });
    const r = await history('sportsbook=pinnacle,draftkings,fanduel,betmgm&from=0');
    expect(r.json.data.map((x: any) => [x.sportsbook, x.selection_type, x.points.length])).toEqual([['pinnacle', 'home', 1]]);
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { admin } from '../../src/cli/commands.js';
import { runImport } from '../../src/cli/import.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { Catalog } from '../../src/config/catalog.js';
import { BoardService } from '../../src/modules/board/board.service.js';
import { FuturesStoreService } from '../../src/modules/stores/futures/futures-store.service.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { parseOddsApiEvents } from '../../src/modules/ingestion/odds-api/odds-api-format.js';
import { parseOddsApiScores } from '../../src/modules/ingestion/odds-api/odds-api-scores.js';
import { isolationEnv, KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

/**
 * The edge rules of every kind of item a source sends (src/domain/edge-rules.ts), tried on each kind from each
 * entry point: prices for the board, futures prices, event updates (status, game state) and splits snapshots,
 * through the admin channel, the CSV importer and The Odds API's mapping. A hostile item (a NUL or other control
 * character in any text field, a time neither Date nor PostgreSQL holds, a number that is not finite) is refused
 * on its own with its reason in the report; every clean item of the same batch is kept, written (still there after
 * a restart on the same store), and every read route answers 200. Embedded store and, with TEST_DATABASE_URL,
 * PostgreSQL.
 */
const NOW = Date.parse('2026-11-22T12:00:00Z');
type J = Record<string, any>;

/** Text the store cannot hold or that is not text: NUL, C0 controls, DEL, a lone surrogate, undecodable bytes. */
const BAD_TEXT = ['a\u0000b', '\u0000', 'a\u0001b', 'a\u001bb', 'a\u007fb', 'a\ud800b', 'a\ufffdb'];
/** Times Date or timestamptz cannot hold, or no item can have: past Date's range, absurd, year 0, before 1970. */
const BAD_TIMES = [8640000000000001, 1e300, -62167219200000, Date.UTC(1969, 11, 31), -1];
/** JSON text whose numbers read as Infinity (JSON.parse('1e400')). */
const INFINITE = '1e400';

const YEAR0_ISO = '0000-06-01T00:00:00Z';

describe('every kind of item is refused per item at the edge, the rest of the batch kept', () => {
  const shared = process.env.TEST_DATABASE_URL
    ? isolationEnv()
    : { DATA_DIR: mkdtempSync(join(tmpdir(), 'odds-edge-')), EMBEDDED_IN_MEMORY: 'false' };
  const config = testConfig({ ...shared, ENTERPRISE_REQUESTS_PER_MINUTE: '1000000' });
  const files = mkdtempSync(join(tmpdir(), 'odds-edge-files-'));
  let t: TestApp;
  const ingest = async (body: J | string) => {
    const r = await t.call('/admin/ingest', {
      method: 'POST',
      headers: { 'X-Admin-Token': t.adminToken, 'Content-Type': 'application/json' },
      ...(typeof body === 'string' ? { rawBody: body } : { body }),
    });
    expect(r.status).toBe(200);
    return r.json.data as J;
  };
  const get = async (path: string, key: string = KEYS.enterprise) => {
    const r = await t.call(path, { key });
    expect(`${path} ${r.status}`).toBe(`${path} 200`);
    return r.json as J;
  };
  /** Every read route of every kind of item answers 200 on every tier that may read it (fresh keys: own budgets). */
  const readsAnswer = async () => {
    for (const tier of ['free', 'hobby', 'pro', 'sharp', 'enterprise'] as const) {
      const key = await t.newKey(tier);
      await get('/futures?limit=200', key);
      await get('/odds?league=nba&limit=200', key);
      await get('/events?league=nba', key);
      if (tier === 'sharp' || tier === 'enterprise') {
        await get('/futures/ev?min_ev=-100', key);
        await get('/futures/low_hold?max_hold=100', key);
      }
    }
    await get('/gamestate');
    await get('/splits?league=nba');
  };

  // ---- the items: one clean of each kind per game or selection, and their hostile variants ----
  const fut = (selection: string, extra: J = {}): J => ({
    book: 'draftkings',
    league: 'nba',
    homeTeam: '',
    awayTeam: '',
    startTime: Date.parse('2027-06-20T00:00:00Z'),
    marketType: 'championship_winner',
    selection,
    selectionType: 'other',
    price: { american: 450 },
    ...extra,
  });
  const game = { home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 30 * 60_000 };
  const ml = (book: string, extra: J = {}): J => ({
    book,
    league: 'nba',
    homeTeam: game.home,
    awayTeam: game.away,
    startTime: game.start,
    marketType: 'moneyline',
    selection: game.home,
    selectionType: 'home',
    price: { american: -120 },
    ...extra,
  });
  const QUOTE_TEXT = [
    'book',
    'league',
    'homeTeam',
    'marketType',
    'selection',
    'selectionType',
    'externalEventId',
    'marketId',
    'selectionId',
  ];
  const FUTURE_TEXT = ['selection', 'externalEventId', 'marketId', 'selectionId', 'playerName', 'statCategory', 'period'];
  const TAG = { market: 'championship', name: 'NBA Championship', type: 'TEAM', kind: 'championship_winner' };

  /** Each hostile variant of a quote: every text field with every bad text, every time field with every bad time. */
  function hostile(base: (extra: J) => J, textFields: string[], tag = false): J[] {
    const out: J[] = [];
    for (const f of textFields) for (const v of BAD_TEXT) out.push(base({ [f]: v }));
    if (tag)
      for (const f of ['market', 'name', 'kind', 'externalId']) for (const v of BAD_TEXT) out.push(base({ future: { ...TAG, [f]: v } }));
    for (const v of BAD_TIMES) out.push(base({ startTime: v }), base({ sourceTime: v }));
    out.push(
      base({ line: 'x' }),
      base({ price: { american: 'x' } }),
      base({ isLive: 5 }),
      base({ isActive: 'no' }),
      base({ gameNumber: 1e300 }),
      base({ maxBet: 'lots' }),
    );
    if (tag) out.push(base({ future: { ...TAG, type: 'BOGUS' } }), base({ future: { ...TAG, market: '' } }));
    return out;
  }

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW), config });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the reproduction: a futures batch with a NUL externalId beside clean rows keeps the clean rows durably', async () => {
    const r = await ingest({
      source: 'repro',
      quotes: [
        fut('Boston Celtics'),
        fut('Los Angeles Lakers', { externalEventId: 'nba_\u0000x' }),
        fut('Denver Nuggets', { future: { ...TAG, externalId: 'kx\u0000' } }),
        fut('Miami Heat', { startTime: 8640000000000001 }),
        fut('Utah Jazz', { startTime: 1e300 }),
        fut('Chicago Bulls'),
      ],
    });
    expect(r.durable).toBe(true);
    expect(r.accepted).toBe(2);
    expect(r.rejections.map((x: J) => [x.index, x.reason])).toEqual([
      [1, 'invalid_text'],
      [2, 'invalid_text'],
      [3, 'invalid_time'],
      [4, 'invalid_time'],
    ]);
    expect(r.rejections[0].message).toMatch(/^externalEventId contains a NUL character/);
    expect(r.rejections[1].message).toMatch(/^future\.externalId contains a NUL character/);
    expect(r.rejections[2].message).toMatch(/^startTime is outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z/);
    const list = (await get('/futures?league=nba&limit=200')).data as J[];
    expect(list.map((m) => m.market_id)).toEqual(['nba_championship_winner_2027']);
    await readsAnswer();
  });

  it('futures quotes: every hostile variant refused with its reason, the clean ones kept', async () => {
    const clean = ['Phoenix Suns', 'New York Knicks', 'Dallas Mavericks'].map((s) => fut(s));
    const bad = hostile((x) => fut('Golden State Warriors', x), FUTURE_TEXT, true);
    const r = await ingest({ source: 'hostile-futures', quotes: [...clean, ...bad] });
    expect(r.accepted).toBe(clean.length);
    expect(r.rejections).toHaveLength(bad.length);
    expect(r.rejections.map((x: J) => x.index)).toEqual(bad.map((_, i) => clean.length + i));
    for (const x of r.rejections)
      expect(['invalid_text', 'invalid_time', 'invalid_market_data', 'invalid_price', 'malformed_quote']).toContain(x.reason);
    expect(r.durable).toBe(true);
    // Non-finite numbers (a JSON 1e400 reads as Infinity) in the price, the line and the times.
    const raw = JSON.stringify({
      source: 'hostile-futures',
      quotes: [
        fut('Orlando Magic'),
        fut('Golden State Warriors', { startTime: 'S' }),
        fut('Golden State Warriors', { sourceTime: 'T' }),
        fut('Golden State Warriors', { price: { american: 'P' } }),
        fut('Golden State Warriors', { price: { decimal: 'P' } }),
      ],
    })
      .replace('"S"', INFINITE)
      .replace('"T"', INFINITE)
      .replace('"P"', INFINITE)
      .replace('"P"', `-${INFINITE}`);
    const r2 = await ingest(raw);
    expect(r2.accepted).toBe(1);
    expect(r2.rejections.map((x: J) => x.reason)).toEqual(['invalid_time', 'invalid_time', 'invalid_price', 'invalid_price']);
    await readsAnswer();
    const books = (await get('/futures?league=nba&limit=200')).data[0];
    expect(books.selection_count).toBe(2 + clean.length + 1);
  });

  it('board quotes: every hostile variant refused with its reason, the clean ones kept', async () => {
    const clean = ['draftkings', 'fanduel'].map((b) => ml(b));
    const bad = hostile((x) => ml('betmgm', x), [...QUOTE_TEXT, 'awayTeam', 'period', 'playerName', 'statCategory', 'homePitcher']);
    const r = await ingest({ source: 'hostile-board', quotes: [...clean, ...bad] });
    expect(r.accepted).toBe(clean.length);
    expect(r.rejections.map((x: J) => x.index)).toEqual(bad.map((_, i) => clean.length + i));
    expect(r.durable).toBe(true);
    const rows = (await get('/odds?league=nba&market=moneyline&limit=200')).data as J[];
    expect([...new Set(rows.map((o) => o.sportsbook))].sort()).toEqual(['draftkings', 'fanduel']);
    await readsAnswer();
  });

  it('event updates (status, game state): each hostile one refused with its reason in `events`, the clean one applied', async () => {
    const upd = (extra: J = {}): J => ({
      league: 'nba',
      homeTeam: game.home,
      awayTeam: game.away,
      startTime: game.start,
      book: 'draftkings',
      status: 'live',
      gameState: { home_score: 10, away_score: 8, game_period: 'Q1', game_clock: '5:00' },
      ...extra,
    });
    const gs = (x: J) => upd({ gameState: { home_score: 10, away_score: 8, game_period: 'Q1', ...x } });
    const bad: J[] = [
      ...BAD_TEXT.flatMap((v) => [
        upd({ homeTeam: v }),
        upd({ externalEventId: v }),
        upd({ book: v }),
        gs({ game_period: v }),
        gs({ game_clock: v }),
        gs({ [v]: 1 }),
      ]),
      ...BAD_TIMES.map((v) => upd({ startTime: v })),
      upd({ status: 'bogus' }),
      upd({ status: 5 }),
      gs({ home_score: -1 }),
      gs({ home_score: 1.5 }),
      gs({ home_score: '3' }),
      gs({ away_score: null }),
      upd({ gameState: 'x' }),
      upd({ gameState: [1] }),
      upd({ league: 'no_such_league' }),
    ];
    const clean = upd();
    const r = await ingest({ source: 'hostile-events', quotes: [ml('draftkings', { isLive: true })], events: [...bad, clean] });
    expect(r.events.received).toBe(bad.length + 1);
    expect(r.events.accepted).toBe(1);
    expect(r.events.rejections.map((x: J) => x.index)).toEqual(bad.map((_, i) => i));
    for (const x of r.events.rejections) expect(typeof x.message).toBe('string');
    const reasons = new Set(r.events.rejections.map((x: J) => x.reason));
    expect([...reasons].sort()).toEqual(['invalid_market_data', 'invalid_status', 'invalid_text', 'invalid_time', 'unknown_league']);
    // Infinity in a game state.
    const r2 = await ingest(
      JSON.stringify({ source: 'hostile-events', quotes: [], events: [gs({ extra: 'I' })] }).replace('"I"', INFINITE),
    );
    expect(r2.events.rejections.map((x: J) => x.reason)).toEqual(['invalid_market_data']);
    const state = (await get('/gamestate')).data as J;
    const games = Object.values(state.basketball ?? {}) as J[];
    expect(games.map((g) => [g.home_score, g.away_score, g.game_period])).toEqual([[10, 8, 'Q1']]);
    await readsAnswer();
  });

  it('splits snapshots: each hostile one refused with its reason in `splits`, the clean one kept', async () => {
    const sp = (extra: J = {}): J => ({
      book: 'draftkings',
      league: 'nba',
      homeTeam: game.home,
      awayTeam: game.away,
      startTime: game.start,
      fetchedAt: NOW,
      moneyline: { away_odds: 100, home_odds: -120, handle_pct: { away: 0.4, home: 0.6 }, bets_pct: { away: 0.45, home: 0.55 } },
      ...extra,
    });
    const bad: J[] = [
      ...BAD_TEXT.flatMap((v) => [sp({ homeTeam: v }), sp({ book: v }), sp({ league: v }), sp({ [v]: 1 })]),
      ...BAD_TIMES.flatMap((v) => [sp({ startTime: v }), sp({ fetchedAt: v })]),
      sp({ moneyline: { away_odds: 100, home_odds: -120, handle_pct: { away: 1.4, home: -0.4 }, bets_pct: { away: 0.5, home: 0.5 } } }),
      sp({ total: { line: 220.5, handle_pct: { over: 'x', under: 0.5 }, bets_pct: { over: 0.5, under: 0.5 } } }),
      sp({ league: 'no_such_league' }),
    ];
    const r = await ingest({ source: 'hostile-splits', quotes: [], splits: [...bad, sp()] });
    expect(r.splits.received).toBe(bad.length + 1);
    expect(r.splits.accepted).toBe(1);
    expect(r.splits.rejections.map((x: J) => x.index)).toEqual(bad.map((_, i) => i));
    const r2 = await ingest(
      JSON.stringify({ source: 'hostile-splits', quotes: [], splits: [sp({ fetchedAt: 'I' })] }).replace('"I"', INFINITE),
    );
    expect(r2.splits.rejections.map((x: J) => x.reason)).toEqual(['invalid_time']);
    const splits = (await get('/splits?league=nba')).data as J[];
    expect(splits.map((s) => [s.sportsbook, s.moneyline?.handle_pct?.home])).toEqual([['draftkings', 0.6]]);
    await readsAnswer();
  });

  it('the CSV importer: futures rows with control characters or impossible times are refused with their line', async () => {
    const header =
      'id,sportsbook,event_id,sport,league,home_team,away_team,market_type,selection,selection_type,odds_american,odds_decimal,odds_probability,line,event_start_time,is_live,timestamp';
    const row = (id: string, o: { home?: string; sel?: string; ev?: string; start?: string; ts?: string } = {}) =>
      [
        id,
        'draftkings',
        o.ev ?? 'nba__celtics_2027-06-20_b3',
        'basketball',
        'nba',
        o.home ?? 'Boston Celtics',
        '',
        'futures',
        o.sel ?? 'Boston Celtics',
        'outright',
        '400',
        '5',
        '0.2',
        '',
        o.start ?? '2027-06-20T00:00:00Z',
        'False',
        o.ts ?? '2026-11-22T11:00:00Z',
      ].join(',');
    const lines = [
      header,
      row('1'),
      row('2', { sel: 'Celtics\u0000' }),
      row('3', { ev: 'nba_\u0001' }),
      row('4', { start: YEAR0_ISO }),
      row('5', { start: '2027-02-30T00:00:00Z' }),
      row('6', { start: '2027-06-20T25:00:00Z' }),
      row('7', { ts: '2026-02-30T00:00:00Z' }),
      row('8', { home: 'Denver Nuggets', sel: 'Denver Nuggets', ev: 'nba__nuggets_2027-06-20_b3' }),
    ];
    const path = join(files, 'futures.csv');
    writeFileSync(path, lines.join('\n') + '\n');
    const address = t.app.getHttpServer().address() as { port: number };
    const server = { pid: process.pid, host: '127.0.0.1', port: address.port, admin_token: t.adminToken, started_at: '' };
    const s = await runImport(path, config, { replay: true, server, admin }, () => undefined);
    expect(s.imported).toBe(2);
    expect(s.errors.map((x) => x.line).sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7, 8]);
    await readsAnswer();
  });

  it("The Odds API's mapping: outrights and games with impossible times or control characters never reach a store", async () => {
    const catalog = t.app.get(Catalog);
    const outright = (id: string, commence: string, name: string) => ({
      id,
      sport_key: 'basketball_nba_championship_winner',
      sport_title: 'NBA Championship Winner',
      commence_time: commence,
      bookmakers: [
        { key: 'fanduel', last_update: '2026-11-22T11:00:00Z', markets: [{ key: 'outrights', outcomes: [{ name, price: 5.5 }] }] },
      ],
    });
    const h2h = (id: string, commence: string, home: string) => ({
      id,
      sport_key: 'basketball_nba',
      commence_time: commence,
      home_team: home,
      away_team: 'Utah Jazz',
      bookmakers: [
        {
          key: 'fanduel',
          last_update: '2026-11-22T11:00:00Z',
          markets: [
            {
              key: 'h2h',
              outcomes: [
                { name: home, price: 1.8 },
                { name: 'Utah Jazz', price: 2.1 },
              ],
            },
          ],
        },
      ],
    });
    const parsed = parseOddsApiEvents(
      [
        outright('o1', '2027-06-20T00:00:00Z', 'Sacramento Kings'),
        outright('o2', YEAR0_ISO, 'Detroit Pistons'),
        outright('o3', '2027-02-30T00:00:00Z', 'Indiana Pacers'),
        outright('o4', '2027-06-20T00:00:00Z', 'Toronto\u0000Raptors'),
        h2h('g1', '2026-11-22T23:00:00Z', 'Portland Trail Blazers'),
        h2h('g2', '0000-01-01T00:00:00Z', 'Houston Rockets'),
        h2h('g3', '2026-11-22T23:00:00Z', 'Memphis\u0000Grizzlies'),
      ],
      catalog,
      { now: NOW },
    );
    // The times no store holds are refused by the mapping itself; the text by the pipeline's edge.
    expect(parsed.errors.map((e) => e.reason)).toEqual([
      expect.stringMatching(/o2.*commence_time is missing or invalid/),
      expect.stringMatching(/o3.*commence_time is missing or invalid/),
      expect.stringMatching(/g2.*commence_time is missing or invalid/),
    ]);
    const r = t.app.get(IngestionService).ingest({ source: 'odds_api', quotes: parsed.quotes.map((q) => q.quote) }, NOW);
    expect(r.accepted).toBe(3); // one outright, two h2h prices
    expect(r.rejections.map((x) => x.reason)).toEqual(['invalid_text', 'invalid_text', 'invalid_text']);
    const scores = parseOddsApiScores([
      {
        id: 's1',
        sport_key: 'basketball_nba',
        commence_time: '0000-01-01T00:00:00Z',
        home_team: 'A',
        away_team: 'B',
        completed: false,
        scores: null,
      },
      {
        id: 's2',
        sport_key: 'basketball_nba',
        commence_time: '2026-02-30T00:00:00Z',
        home_team: 'A',
        away_team: 'B',
        completed: false,
        scores: null,
      },
    ]);
    expect(scores).toEqual([]);
    expect(await t.app.get(FuturesStoreService).flushed()).toBe(true);
    await readsAnswer();
  });

  it('after a restart on the same store, every clean item is there and every read answers 200', async () => {
    await t.app.get(BoardService).writer.flush({ force: true });
    expect(await t.app.get(FuturesStoreService).flushed()).toBe(true);
    const before = {
      futures: (await get('/futures?league=nba&limit=200')).data,
      odds: (await get('/odds?league=nba&limit=200')).data.map((o: J) => o.id).sort(),
    };
    await t.close({ keepStore: true });
    t = await startTestApp({ clock: new ManualClock(NOW + 60_000), config });
    const after = {
      futures: (await get('/futures?league=nba&limit=200')).data,
      odds: (await get('/odds?league=nba&limit=200')).data.map((o: J) => o.id).sort(),
    };
    expect(after.odds).toEqual(before.odds);
    expect(after.futures.map((m: J) => [m.market_id, m.selection_count])).toEqual(
      before.futures.map((m: J) => [m.market_id, m.selection_count]),
    );
    expect(before.futures.length).toBeGreaterThan(0);
    await readsAnswer();
  });
});

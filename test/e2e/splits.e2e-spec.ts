import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SchedulerRegistry } from '@nestjs/schedule';
import { ManualClock } from '../../src/common/time/clock.js';
import type { SplitsInput } from '../../src/domain/types.js';
import { Jobs } from '../../src/modules/cluster/jobs.service.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { SplitsStoreService } from '../../src/modules/stores/splits/splits-store.service.js';
import { buildMarket, H, type GameSpec } from '../factories/market.js';
import { KEYS, startTestApp, testConfig, type CallResult, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T18:00:00Z');
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const CELTICS: GameSpec = { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 2 * H };
const LEAFS: GameSpec = { league: 'nhl', home: 'Toronto Maple Leafs', away: 'Montreal Canadiens', start: NOW + 3 * H };
const NUGGETS: GameSpec = { league: 'nba', home: 'Denver Nuggets', away: 'Phoenix Suns', start: NOW + 4 * H };

type Market = 'spread' | 'total' | 'moneyline';

/** Splits of one game at one book; `k` moves the shares so that consecutive deliveries differ. */
function splitsOf(g: GameSpec, book: string, fetchedAt: number, k = 0, markets: Market[] = ['spread', 'total', 'moneyline']): SplitsInput {
  const share = (base: number) => Math.round((base + 0.01 * k) * 100) / 100;
  const rest = (base: number) => Math.round((1 - share(base)) * 100) / 100;
  const s: SplitsInput = { book, league: g.league, homeTeam: g.home, awayTeam: g.away, startTime: g.start, fetchedAt };
  if (markets.includes('spread')) {
    s.spread = {
      away_line: 4.5,
      home_line: -4.5,
      handle_pct: { away: rest(0.6), home: share(0.6) },
      bets_pct: { away: rest(0.55), home: share(0.55) },
    };
  }
  if (markets.includes('total')) {
    s.total = { line: 221.5, handle_pct: { over: share(0.7), under: rest(0.7) }, bets_pct: { over: share(0.65), under: rest(0.65) } };
  }
  if (markets.includes('moneyline')) {
    s.moneyline = {
      away_odds: 150,
      home_odds: -175,
      handle_pct: { away: rest(0.62), home: share(0.62) },
      bets_pct: { away: rest(0.58), home: share(0.58) },
    };
  }
  return s;
}

/** Every (game, book) of the main suite: both books on the NBA games, one market each on the NHL game. */
function allSplits(at: number, k = 0): SplitsInput[] {
  return [
    splitsOf(CELTICS, 'draftkings', at, k),
    splitsOf(CELTICS, 'circa', at, k),
    splitsOf(NUGGETS, 'draftkings', at, k),
    splitsOf(NUGGETS, 'circa', at, k),
    splitsOf(LEAFS, 'draftkings', at, k, ['moneyline']),
    splitsOf(LEAFS, 'circa', at, k, ['total']),
  ];
}

function expectError(r: CallResult, status: number, code: string, parameter?: string, message?: RegExp): void {
  expect(r.status).toBe(status);
  expect(r.json.error.code).toBe(code);
  if (parameter) expect(r.json.error.parameter).toBe(parameter);
  if (message) expect(r.json.error.message).toMatch(message);
}

async function eventIds(t: TestApp): Promise<Record<string, string>> {
  const r = await t.call('/events?limit=200', { key: KEYS.sharp });
  expect(r.status).toBe(200);
  return Object.fromEntries(r.json.data.map((e: { id: string; home_team: string }) => [e.home_team, e.id]));
}

const keysOf = (r: CallResult) => r.json.data.map((s: { event_id: string; sportsbook: string }) => `${s.event_id}/${s.sportsbook}`);

describe('betting splits (end to end)', () => {
  const clock = new ManualClock(NOW);
  let t: TestApp;
  let ingestion: IngestionService;
  let splits: SplitsStoreService;
  let celtics: string;
  let leafs: string;
  let nuggets: string;
  const sharp = KEYS.sharp;

  beforeAll(async () => {
    t = await startTestApp({ clock });
    ingestion = t.app.get(IngestionService);
    splits = t.app.get(SplitsStoreService);
    const report = ingestion.ingest({
      source: 'test',
      quotes: buildMarket([CELTICS, LEAFS, NUGGETS], ['draftkings', 'fanduel'], NOW),
      splits: allSplits(NOW),
    });
    expect(report.rejected).toEqual({});
    const ids = await eventIds(t);
    celtics = ids['Boston Celtics']!;
    leafs = ids['Toronto Maple Leafs']!;
    nuggets = ids['Denver Nuggets']!;
    expect([celtics, leafs, nuggets].every(Boolean)).toBe(true);
  });
  afterAll(async () => {
    await t.close();
  });

  it('registers no intervals when schedulers are off (tests drive time)', () => {
    expect(
      t.app
        .get(SchedulerRegistry)
        .getIntervals()
        .filter((n) => n.startsWith('splits:')),
    ).toEqual([]);
  });

  describe('GET /splits', () => {
    it('needs a key', async () => {
      expectError(await t.call('/splits'), 401, 'unauthorized');
    });

    it('one entry per (event, book), by start time, event id, book, with the contract fields', async () => {
      const r = await t.call('/splits', { key: sharp });
      expect(r.status).toBe(200);
      expect(keysOf(r)).toEqual([
        `${celtics}/circa`,
        `${celtics}/draftkings`,
        `${leafs}/circa`,
        `${leafs}/draftkings`,
        `${nuggets}/circa`,
        `${nuggets}/draftkings`,
      ]);
      expect(r.json.data[1]).toEqual({
        event_id: celtics,
        sport: 'basketball',
        league: 'nba',
        sportsbook: 'draftkings',
        away_team: 'Los Angeles Lakers',
        home_team: 'Boston Celtics',
        spread: {
          away_line: 4.5,
          home_line: -4.5,
          away_odds: 4.5,
          home_odds: -4.5,
          handle_pct: { away: 0.4, home: 0.6 },
          bets_pct: { away: 0.45, home: 0.55 },
        },
        total: { line: 221.5, handle_pct: { over: 0.7, under: 0.3 }, bets_pct: { over: 0.65, under: 0.35 } },
        moneyline: { away_odds: 150, home_odds: -175, handle_pct: { away: 0.38, home: 0.62 }, bets_pct: { away: 0.42, home: 0.58 } },
        fetched_at: iso(NOW),
      });
      expect(r.json.data[2]).toMatchObject({
        event_id: leafs,
        sportsbook: 'circa',
        sport: 'hockey',
        spread: null,
        moneyline: null,
        total: { line: 221.5 },
      });
      const pg = { limit: 100, offset: 0, count: 6, total: 6, has_more: false, next_offset: null };
      expect(r.json).toMatchObject({ success: true, pagination: pg, meta: { count: 6, total: 6, pagination: pg }, updated_at: iso(NOW) });
      expect(r.headers.get('x-data-delay')).toBe('0');
    });

    it('filters by sport and league (ids or aliases)', async () => {
      expect(keysOf(await t.call('/splits?sport=hockey', { key: sharp }))).toEqual([`${leafs}/circa`, `${leafs}/draftkings`]);
      expect(keysOf(await t.call('/splits?league=basketball_nba', { key: sharp }))).toHaveLength(4);
      expect(keysOf(await t.call('/splits?league=NHL,nba&sport=basketball', { key: sharp }))).toHaveLength(4);
      expect(keysOf(await t.call('/splits?sport=football', { key: sharp }))).toEqual([]);
    });

    it('filters by sportsbook (case-insensitive, comma-separated)', async () => {
      const r = await t.call('/splits?sportsbook=Circa', { key: sharp });
      expect(r.json.data.map((s: { sportsbook: string }) => s.sportsbook)).toEqual(['circa', 'circa', 'circa']);
      expect(keysOf(await t.call('/splits?sportsbook=circa,draftkings', { key: sharp }))).toHaveLength(6);
    });

    it('filters by event, with event_id as an alias', async () => {
      expect(keysOf(await t.call(`/splits?event=${celtics}`, { key: sharp }))).toEqual([`${celtics}/circa`, `${celtics}/draftkings`]);
      expect(keysOf(await t.call(`/splits?event_id=${nuggets}`, { key: sharp }))).toEqual([`${nuggets}/circa`, `${nuggets}/draftkings`]);
      expect(keysOf(await t.call(`/splits?event=${celtics},${leafs}&sportsbook=draftkings`, { key: sharp }))).toEqual([
        `${celtics}/draftkings`,
        `${leafs}/draftkings`,
      ]);
      expect(keysOf(await t.call('/splits?event=nba_nobody_nowhere_2026-11-22_b3', { key: sharp }))).toEqual([]);
    });

    it('filters by market: entries with splits for at least one of the named markets', async () => {
      expect(keysOf(await t.call('/splits?market=spread', { key: sharp }))).toEqual([
        `${celtics}/circa`,
        `${celtics}/draftkings`,
        `${nuggets}/circa`,
        `${nuggets}/draftkings`,
      ]);
      expect(keysOf(await t.call('/splits?market=total', { key: sharp }))).toEqual([
        `${celtics}/circa`,
        `${celtics}/draftkings`,
        `${leafs}/circa`,
        `${nuggets}/circa`,
        `${nuggets}/draftkings`,
      ]);
      expect(keysOf(await t.call('/splits?market=moneyline', { key: sharp }))).toEqual([
        `${celtics}/circa`,
        `${celtics}/draftkings`,
        `${leafs}/draftkings`,
        `${nuggets}/circa`,
        `${nuggets}/draftkings`,
      ]);
      expect(keysOf(await t.call('/splits?market=spread,MONEYLINE', { key: sharp }))).toHaveLength(5);
      expect(keysOf(await t.call('/splits?market=spread&market=total', { key: sharp }))).toHaveLength(5);
    });

    it('pages with limit and offset', async () => {
      const r = await t.call('/splits?limit=2&offset=1', { key: sharp });
      expect(keysOf(r)).toEqual([`${celtics}/draftkings`, `${leafs}/circa`]);
      expect(r.json.pagination).toEqual({ limit: 2, offset: 1, count: 2, total: 6, has_more: true, next_offset: 3 });
      const last = await t.call('/splits?limit=200&offset=5', { key: sharp });
      expect(last.json.pagination).toEqual({ limit: 200, offset: 5, count: 1, total: 6, has_more: false, next_offset: null });
      expect((await t.call('/splits?offset=5000', { key: sharp })).json.data).toEqual([]);
    });

    it.each([
      ['sport=quidditch', 'invalid_request', 'sport', /unknown sport/],
      ['league=xfl2', 'invalid_request', 'league', /unknown league/],
      ['sportsbook=nosuchbook', 'invalid_request', 'sportsbook', /unknown sportsbook "nosuchbook"/],
      ['sportsbook=fanduel', 'invalid_request', 'sportsbook', /fanduel publishes no splits/],
      ['sportsbook=circa,pinnacle', 'invalid_request', 'sportsbook', /pinnacle publishes no splits/],
      ['market=point_spread', 'invalid_request', 'market', /spread, total, moneyline/],
      ['market=spread,props', 'invalid_request', 'market', /spread, total, moneyline/],
      ['limit=0', 'invalid_request', 'limit', /at least 1/],
      ['limit=201', 'invalid_request', 'limit', /greater than 200/],
      ['limit=ten', 'invalid_request', 'limit', /integer/],
      ['offset=-1', 'invalid_request', 'offset', /negative/],
      ['offset=5001', 'offset_too_large', 'offset', /5000/],
      ['colour=blue', 'invalid_request', 'colour', /Unknown parameter/],
    ])('400 for %s', async (query, code, parameter, message) => {
      expectError(await t.call(`/splits?${query}`, { key: sharp }), 400, code, parameter, message);
    });

    it('the sink keeps only the splits books and never replaces fresher numbers with older ones', async () => {
      ingestion.ingest({
        source: 'test',
        quotes: [],
        splits: [splitsOf(CELTICS, 'fanduel', NOW, 5), { ...splitsOf(CELTICS, 'draftkings', NOW - MIN, 9) }],
      });
      const r = await t.call(`/splits?event=${celtics}`, { key: sharp });
      expect(r.json.data.map((s: { sportsbook: string }) => s.sportsbook)).toEqual(['circa', 'draftkings']);
      expect(r.json.data[1].fetched_at).toBe(iso(NOW));
      expect(r.json.data[1].moneyline.bets_pct.home).toBe(0.58);
      // A delivery with no usable market is ignored.
      ingestion.ingest({ source: 'test', quotes: [], splits: [splitsOf(CELTICS, 'draftkings', NOW + 1, 3, [])] });
      expect((await t.call(`/splits?event=${celtics}&sportsbook=draftkings`, { key: sharp })).json.data[0].fetched_at).toBe(iso(NOW));
    });
  });

  describe('free tier delay on /splits', () => {
    it('free keys see the splits as they stood 60 s ago', async () => {
      const free = await t.newKey('free');
      let r = await t.call('/splits', { key: free });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-data-delay')).toBe('60');
      expect(r.json.data).toEqual([]);
      clock.advance(59_999);
      expect((await t.call('/splits', { key: free })).json.data).toEqual([]);
      clock.advance(1);
      r = await t.call('/splits', { key: free });
      expect(keysOf(r)).toHaveLength(6);
      // A new delivery reaches real-time keys at once and free keys 60 s later.
      ingestion.ingest({ source: 'test', quotes: [], splits: [splitsOf(CELTICS, 'circa', clock.now(), 10)] });
      const dk = `/splits?event=${celtics}&sportsbook=circa`;
      expect((await t.call(dk, { key: sharp })).json.data[0].spread.handle_pct.home).toBe(0.7);
      expect((await t.call(dk, { key: KEYS.hobby })).json.data[0].spread.handle_pct.home).toBe(0.7);
      expect((await t.call(dk, { key: free })).json.data[0].spread.handle_pct.home).toBe(0.6);
      clock.advance(MIN);
      expect((await t.call(dk, { key: free })).json.data[0].spread.handle_pct.home).toBe(0.7);
    });

    it("a provider's initial snapshot (a market that existed before we watched it) reaches free keys at once", async () => {
      const free = await t.newKey('free');
      clock.advance(MIN); // nothing else waiting in the delayed view
      ingestion.ingest({ source: 'test', quotes: [], splits: [splitsOf(NUGGETS, 'draftkings', clock.now(), 20)] }, clock.now(), {
        backfill: true,
      });
      const path = `/splits?event=${nuggets}&sportsbook=draftkings`;
      expect((await t.call(path, { key: sharp })).json.data[0].spread.handle_pct.home).toBe(0.8);
      expect((await t.call(path, { key: free })).json.data[0].spread.handle_pct.home).toBe(0.8);
    });
  });

  describe('snapshots and GET /splits/history', () => {
    let firstCapture: number;
    const CAPTURES = 6;

    beforeAll(async () => {
      // Six captures 5 minutes apart; the shares move before each one.
      firstCapture = clock.now();
      for (let k = 0; k < CAPTURES; k++) {
        ingestion.ingest({ source: 'test', quotes: [], splits: allSplits(clock.now(), k) });
        expect(await splits.captureSnapshot(clock.now())).toBe(6);
        clock.advance(5 * MIN);
      }
    });

    it('needs a key', async () => {
      expectError(await t.call(`/splits/history?event_id=${celtics}`), 401, 'unauthorized');
    });

    it('captures every (event, book) every 5 minutes; consecutive captures differ as the splits moved', async () => {
      const r = await t.call(`/splits/history?event_id=${celtics}`, { key: sharp });
      expect(r.status).toBe(200);
      expect(r.json.data).toHaveLength(CAPTURES * 2);
      const ts = r.json.data.map((e: { ts: string }) => e.ts);
      expect(ts).toEqual([...ts].sort());
      const dk = r.json.data.filter((e: { book: string }) => e.book === 'draftkings');
      expect(dk).toHaveLength(CAPTURES);
      for (let i = 1; i < dk.length; i++) {
        expect(dk[i].timestamp - dk[i - 1].timestamp).toBe(300);
        expect(dk[i].spread.handle_pct.home).not.toBe(dk[i - 1].spread.handle_pct.home);
      }
      expect(dk[0]).toEqual({
        book: 'draftkings',
        ts: iso(firstCapture),
        timestamp: firstCapture / 1000,
        spread: { away_line: 4.5, home_line: -4.5, handle_pct: { away: 0.4, home: 0.6 }, bets_pct: { away: 0.45, home: 0.55 } },
        total: { line: 221.5, handle_pct: { over: 0.7, under: 0.3 }, bets_pct: { over: 0.65, under: 0.35 } },
        moneyline: { away_odds: 150, home_odds: -175, handle_pct: { away: 0.38, home: 0.62 }, bets_pct: { away: 0.42, home: 0.58 } },
      });
      expect(dk[1].spread.handle_pct.home).toBe(0.61);
      expect(r.json.meta).toEqual({
        event_id: celtics,
        total: CAPTURES * 2,
        count: CAPTURES * 2,
        limit: 100,
        truncated: false,
        books: ['circa', 'draftkings'],
        oldest: iso(firstCapture),
        newest: iso(firstCapture + (CAPTURES - 1) * 5 * MIN),
        updated_at: iso(clock.now()),
      });
      const leafsHistory = await t.call(`/splits/history?event_id=${leafs}`, { key: sharp });
      expect(leafsHistory.json.data[0]).toMatchObject({ book: 'circa', spread: null, moneyline: null });
    });

    it('without sportsbook: the most recent `limit` snapshots, oldest first, and meta says so', async () => {
      const r = await t.call(`/splits/history?event_id=${celtics}&limit=3`, { key: sharp });
      expect(r.json.data.map((e: { ts: string; book: string }) => `${e.ts} ${e.book}`)).toEqual([
        `${iso(firstCapture + 4 * 5 * MIN)} draftkings`,
        `${iso(firstCapture + 5 * 5 * MIN)} circa`,
        `${iso(firstCapture + 5 * 5 * MIN)} draftkings`,
      ]);
      expect(r.json.meta).toMatchObject({
        total: CAPTURES * 2,
        count: 3,
        limit: 3,
        truncated: true,
        books: ['circa', 'draftkings'],
        oldest: iso(firstCapture + 20 * MIN),
        newest: iso(firstCapture + 25 * MIN),
      });
    });

    it('with sportsbook: only that book, and limit is ignored (every match returned)', async () => {
      const r = await t.call(`/splits/history?event_id=${celtics}&sportsbook=circa&limit=2`, { key: sharp });
      expect(r.json.data).toHaveLength(CAPTURES);
      expect(new Set(r.json.data.map((e: { book: string }) => e.book))).toEqual(new Set(['circa']));
      expect(r.json.meta).toMatchObject({ total: CAPTURES, count: CAPTURES, limit: null, truncated: false, books: ['circa'] });
      const both = await t.call(`/splits/history?event_id=${celtics}&sportsbook=DraftKings,circa&limit=1`, { key: sharp });
      expect(both.json.data).toHaveLength(CAPTURES * 2);
      const leafsDk = await t.call(`/splits/history?event_id=${leafs}&sportsbook=draftkings`, { key: sharp });
      expect(leafsDk.json.meta.books).toEqual(['draftkings']);
    });

    it('trims to start_time / end_time (inclusive; RFC 3339 or Unix seconds)', async () => {
      const from = firstCapture + 5 * MIN;
      const to = firstCapture + 15 * MIN;
      const byIso = await t.call(`/splits/history?event_id=${celtics}&start_time=${iso(from)}&end_time=${iso(to)}`, { key: sharp });
      expect(byIso.json.data).toHaveLength(3 * 2);
      expect(byIso.json.meta).toMatchObject({ total: 6, oldest: iso(from), newest: iso(to) });
      const byUnix = await t.call(`/splits/history?event_id=${celtics}&start_time=${from / 1000}&end_time=${to / 1000}`, { key: sharp });
      expect(byUnix.json.data).toEqual(byIso.json.data);
      const offset = await t.call(
        `/splits/history?event_id=${celtics}&start_time=${encodeURIComponent(iso(from).replace('Z', '+00:00'))}`,
        { key: sharp },
      );
      expect(offset.json.meta.total).toBe(5 * 2);
      const onlyEnd = await t.call(`/splits/history?event_id=${celtics}&end_time=${(firstCapture + 1000) / 1000}&sportsbook=draftkings`, {
        key: sharp,
      });
      expect(onlyEnd.json.data.map((e: { ts: string }) => e.ts)).toEqual([iso(firstCapture)]);
      const same = await t.call(`/splits/history?event_id=${celtics}&start_time=${to / 1000}&end_time=${to / 1000}`, { key: sharp });
      expect(same.json.meta.total).toBe(2);
      const window = await t.call(`/splits/history?event_id=${celtics}&start_time=${iso(from)}&limit=2`, { key: sharp });
      expect(window.json.meta).toMatchObject({ total: 10, count: 2, truncated: true, newest: iso(firstCapture + 25 * MIN) });
    });

    it('accepts event as an alias of event_id', async () => {
      const a = await t.call(`/splits/history?event=${nuggets}`, { key: sharp });
      expect(a.status).toBe(200);
      expect(a.json.meta.event_id).toBe(nuggets);
      expect(a.json.data).toHaveLength(CAPTURES * 2);
      expect((await t.call(`/splits/history?event=${nuggets}&event_id=${nuggets}`, { key: sharp })).status).toBe(200);
    });

    it('an event with no snapshots is 200 with empty data', async () => {
      const r = await t.call('/splits/history?event_id=nba_nobody_nowhere_2026-11-22_b3', { key: sharp });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({
        success: true,
        data: [],
        meta: {
          event_id: 'nba_nobody_nowhere_2026-11-22_b3',
          total: 0,
          count: 0,
          limit: 100,
          truncated: false,
          books: [],
          oldest: null,
          newest: null,
          updated_at: iso(clock.now()),
        },
        updated_at: iso(clock.now()),
      });
      const future = await t.call(`/splits/history?event_id=${celtics}&start_time=${iso(clock.now() + H)}`, { key: sharp });
      expect(future.json.data).toEqual([]);
    });

    it.each([
      ['', 'event_id', /Missing required parameter "event_id"/],
      ['event_id=', 'event_id', /Missing required parameter "event_id"/],
      ['sportsbook=circa', 'event_id', /Missing required parameter "event_id"/],
      ['event_id=E&event=F', 'event_id', /different events/],
      ['event_id=E&sportsbook=nosuchbook', 'sportsbook', /unknown sportsbook/],
      ['event_id=E&sportsbook=fanduel', 'sportsbook', /publishes no splits/],
      ['event_id=E&start_time=yesterday', 'start_time', /is not an RFC 3339 time .* or Unix seconds$/],
      ['event_id=E&start_time=2026-02-30T00:00:00Z', 'start_time', /not a calendar date \(2026-02 has 28 days\)/],
      ['event_id=E&end_time=1e9', 'end_time', /RFC 3339/],
      ['event_id=E&end_time=2026-11-22T25:00:00Z', 'end_time', /has no time of day 25:00:00/],
      ['event_id=E&start_time=1795370400&end_time=1795370399', 'start_time', /after end_time/],
      ['event_id=E&limit=0', 'limit', /at least 1/],
      ['event_id=E&limit=201', 'limit', /greater than 200/],
      ['event_id=E&limit=abc', 'limit', /integer/],
      ['event_id=E&sportsbook=circa&limit=500', 'limit', /greater than 200/],
      ['event_id=E&offset=10', 'offset', /Unknown parameter/],
    ])('400 invalid_request for "%s"', async (query, parameter, message) => {
      expectError(await t.call(`/splits/history?${query}`, { key: sharp }), 400, 'invalid_request', parameter, message);
    });

    it('free keys do not see snapshots captured in the last 60 s', async () => {
      const free = await t.newKey('free');
      const captured = clock.now();
      ingestion.ingest({ source: 'test', quotes: [], splits: allSplits(captured, 20) });
      await splits.captureSnapshot(captured);
      const path = `/splits/history?event_id=${celtics}&sportsbook=draftkings`;
      const real = await t.call(path, { key: sharp });
      expect(real.json.meta).toMatchObject({ total: CAPTURES + 1, newest: iso(captured) });
      let r = await t.call(path, { key: free });
      expect(r.headers.get('x-data-delay')).toBe('60');
      expect(r.json.meta).toMatchObject({ total: CAPTURES, newest: iso(captured - 5 * MIN) });
      clock.advance(59_999);
      expect((await t.call(path, { key: free })).json.meta.total).toBe(CAPTURES);
      clock.advance(1);
      r = await t.call(path, { key: free });
      expect(r.json.meta).toMatchObject({ total: CAPTURES + 1, newest: iso(captured) });
      const endLater = await t.call(`${path}&end_time=${iso(clock.now() + H)}`, { key: free });
      expect(endLater.json.meta.total).toBe(CAPTURES + 1);
    });

    it('splits of an event that left the board leave /splits; its history stays', async () => {
      const free = await t.newKey('free');
      ingestion.ingest({
        source: 'test',
        quotes: [],
        eventRemovals: [{ league: LEAFS.league, homeTeam: LEAFS.home, awayTeam: LEAFS.away, startTime: LEAFS.start }],
      });
      expect(keysOf(await t.call('/splits', { key: sharp })).filter((k: string) => k.startsWith(leafs))).toEqual([]);
      expect(keysOf(await t.call('/splits', { key: free })).filter((k: string) => k.startsWith(leafs))).toHaveLength(2);
      clock.advance(MIN);
      expect(keysOf(await t.call('/splits', { key: free })).filter((k: string) => k.startsWith(leafs))).toEqual([]);
      const h = await t.call(`/splits/history?event_id=${leafs}`, { key: sharp });
      expect(h.json.meta.total).toBe((CAPTURES + 1) * 2);
      // The next capture no longer includes it.
      expect(await splits.captureSnapshot(clock.now())).toBe(4);
    });
  });
});

describe('splits retention and schedules', () => {
  const clock = new ManualClock(NOW);
  let t: TestApp;
  let splits: SplitsStoreService;
  let eventId: string;

  beforeAll(async () => {
    t = await startTestApp({ clock, env: { SCHEDULERS: 'true' } });
    splits = t.app.get(SplitsStoreService);
    t.app.get(IngestionService).ingest({
      source: 'test',
      quotes: buildMarket([CELTICS], ['draftkings'], NOW),
      splits: [splitsOf(CELTICS, 'draftkings', NOW), splitsOf(CELTICS, 'circa', NOW)],
    });
    eventId = (await eventIds(t))['Boston Celtics']!;
  });
  afterAll(async () => {
    await t.close();
  });

  it('registers the 5-minute capture and the hourly purge when schedulers run', () => {
    const intervals = t.app.get(SchedulerRegistry).getIntervals();
    expect(intervals).toEqual(expect.arrayContaining(['splits:capture', 'splits:purge']));
  });

  const path = () => `/splits/history?event_id=${eventId}&sportsbook=draftkings`;
  const captured = async (): Promise<string[]> => (await t.call(path(), { key: KEYS.sharp })).json.data.map((e: { ts: string }) => e.ts);

  it('the capture job writes a snapshot every 5 minutes of the clock', async () => {
    await clock.advance(5 * MIN - 1);
    expect(await captured()).toEqual([]);
    await clock.advance(1);
    expect(await captured()).toEqual([iso(NOW + 5 * MIN)]);
    await clock.advance(10 * MIN);
    expect(await captured()).toEqual([5, 10, 15].map((m) => iso(NOW + m * MIN)));
  });

  it('the hourly purge job deletes snapshots older than 48 hours and keeps newer ones', async () => {
    // From here on the snapshots are written by hand, at chosen times.
    t.app.get(Jobs).cancel('splits:capture');
    for (const at of [NOW + 24 * H, NOW + 48 * H]) expect(await splits.captureSnapshot(at)).toBe(2);
    const kept = [5, 10, 15].map((m) => iso(NOW + m * MIN)).concat([iso(NOW + 24 * H), iso(NOW + 48 * H)]);
    // Purges ran at every hour up to 48 h: nothing was 48 hours old yet.
    await clock.set(NOW + 48 * H);
    expect(await captured()).toEqual(kept);
    // The purge at 49 h deletes what was captured before 1 h.
    await clock.set(NOW + 49 * H);
    expect(await captured()).toEqual(kept.slice(3));
    await clock.advance(24 * H);
    expect(await captured()).toEqual([iso(NOW + 48 * H)]);
    expect(await splits.purge(clock.now())).toBe(0);
  });
});

describe('splits across a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'odds-splits-'));
  const config = testConfig({ DATA_DIR: dataDir, EMBEDDED_IN_MEMORY: 'false' });
  let second: TestApp | undefined;
  afterAll(async () => {
    await second?.close();
  });

  it('a second app on the same store serves the latest captured splits and the history', async () => {
    const clock = new ManualClock(NOW);
    const first = await startTestApp({ config, clock });
    const ingestion = first.app.get(IngestionService);
    ingestion.ingest({
      source: 'test',
      quotes: buildMarket([CELTICS, NUGGETS], ['draftkings'], NOW),
      splits: [splitsOf(CELTICS, 'draftkings', NOW, 0), splitsOf(CELTICS, 'circa', NOW, 0)],
    });
    const ids = await eventIds(first);
    const celtics = ids['Boston Celtics']!;
    const splits = first.app.get(SplitsStoreService);
    await splits.captureSnapshot(clock.now());
    clock.advance(5 * MIN);
    ingestion.ingest({
      source: 'test',
      quotes: [],
      splits: [splitsOf(CELTICS, 'draftkings', clock.now(), 3), splitsOf(CELTICS, 'circa', clock.now(), 4)],
    });
    await splits.captureSnapshot(clock.now());
    const before = await first.call('/splits', { key: KEYS.sharp });
    expect(keysOf(before)).toEqual([`${celtics}/circa`, `${celtics}/draftkings`]);
    // Closed without dropping the store (TestApp.close drops the schema on PostgreSQL).
    await first.app.close();

    clock.advance(MIN);
    second = await startTestApp({ config, clock });
    const after = await second.call('/splits', { key: KEYS.sharp });
    expect(after.status).toBe(200);
    expect(after.json.data).toEqual(before.json.data);
    expect(after.json.data[0].spread.handle_pct.home).toBe(0.64);
    expect(after.json.data[1].spread.handle_pct.home).toBe(0.63);
    // The loaded splits are old enough for the free tier's view at once.
    const free = await second.call('/splits', { key: await second.newKey('free') });
    expect(free.json.data).toEqual(before.json.data);
    const h = await second.call(`/splits/history?event_id=${celtics}`, { key: KEYS.sharp });
    expect(h.json.meta).toMatchObject({ total: 4, books: ['circa', 'draftkings'], oldest: iso(NOW), newest: iso(NOW + 5 * MIN) });
    // Captures carry on from the loaded splits.
    expect(await second.app.get(SplitsStoreService).captureSnapshot(clock.now())).toBe(2);
  });
});

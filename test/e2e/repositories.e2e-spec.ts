import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { ManualClock } from '../../src/common/time/clock.js';
import { createDataSource, runMigrations } from '../../src/database/data-source.js';
import type { BoardEvent, OddsRow } from '../../src/domain/odds-row.js';
import { AccountEntity } from '../../src/modules/accounts/account.entity.js';
import { ApiKeyEntity } from '../../src/modules/accounts/api-key.entity.js';
import { ApiKeysRepository } from '../../src/modules/accounts/api-keys.repository.js';
import { BoardWriter } from '../../src/modules/board/board-writer.js';
import { BoardRepository } from '../../src/modules/board/board.repository.js';
import { OddsEntity } from '../../src/modules/board/board.entities.js';
import { readCompact, selectList } from '../../src/database/rows.js';
import { testConfig } from '../support/test-app.js';
import { SplitsRepository } from '../../src/modules/stores/splits/splits.repository.js';
import type { CurrentSplits } from '../../src/modules/stores/splits/splits-store.js';
import { FuturesRepository } from '../../src/modules/stores/futures/futures.repository.js';
import type { FuturesMarket, FuturesPrice } from '../../src/domain/futures.js';

/**
 * Each repository's write and read paths against the migrated schema: every field written comes back equal
 * (values chosen so that no field holds its column's default or null unless a null is the point), so a
 * renamed or dropped column, or a field one side forgets, fails here.
 */
const T = Date.parse('2026-11-22T12:00:00.000Z');

let ds: DataSource;
beforeAll(async () => {
  ds = createDataSource(testConfig());
  await ds.initialize();
  await runMigrations(ds);
});
afterAll(async () => {
  const schema = (ds.options as { schema?: string }).schema;
  if (schema && schema !== 'public') await ds.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await ds.destroy();
});

const event: BoardEvent = {
  id: 'nba_boston_celtics_los_angeles_lakers_2026-11-22_b1',
  sport: 'basketball',
  league: 'nba',
  homeTeam: 'Boston Celtics',
  awayTeam: 'Los Angeles Lakers',
  homeKey: 'boston_celtics',
  awayKey: 'los_angeles_lakers',
  startTime: T + 3_600_000,
  status: 'live',
  externalIds: { odds_api: 'abc123', simulator: 'sim-7' },
  gameState: { home_score: 54, away_score: 51, game_period: 'Q3', game_clock: '07:12', possession: 'home' },
  firstSeenAt: T - 86_400_000,
  updatedAt: T + 1_000,
  endedAt: T + 2_000,
};

const full: OddsRow = {
  id: '0123456789abcdef',
  sportsbook: 'draftkings',
  eventId: event.id,
  sport: 'basketball',
  league: 'nba',
  marketType: 'player_points',
  period: '1h',
  ladderKey: 'ladder-key',
  groupKey: 'group-key',
  groupLine: 24.5,
  selection: 'Jayson Tatum Over',
  selectionType: 'over',
  line: 24.5,
  playerName: 'Jayson Tatum',
  statCategory: 'points',
  american: -115,
  decimal: 1.869565,
  probability: 0.534884,
  isLive: true,
  isActive: false,
  changedAt: T + 10,
  oddsChangedAt: T + 20,
  lastSeenAt: T + 30,
  externalEventId: 'ext-ev-1',
  marketId: 'mkt-9',
  selectionId: 'sel-3',
  maxBet: 2500.5,
  volume: 125000.5,
  volume24h: 8200,
  openInterest: 40000,
  bid: 0.54,
  ask: 0.56,
  last: 0.55,
  homePitcher: 'Gerrit Cole',
  awayPitcher: 'Chris Sale',
};

const bare: OddsRow = {
  ...full,
  id: 'fedcba9876543210',
  marketType: 'moneyline',
  period: 'full',
  groupLine: null,
  selection: 'Boston Celtics',
  selectionType: 'home',
  line: null,
  playerName: null,
  statCategory: null,
  american: 150,
  decimal: 2.5,
  probability: 0.4,
  isLive: false,
  isActive: true,
  externalEventId: null,
  marketId: null,
  selectionId: null,
  maxBet: null,
  volume: null,
  volume24h: null,
  openInterest: null,
  bid: null,
  ask: null,
  last: null,
  homePitcher: null,
  awayPitcher: null,
};

describe('BoardRepository', () => {
  const repo = () => new BoardRepository(ds);
  const empty = { rows: [], removed: [], history: [], events: [], eventsRemoved: [] };

  it('loads back every field of the events and prices it wrote (nulls included)', async () => {
    const pending: BoardEvent = {
      ...event,
      id: 'nfl_a_b_2026-11-23_b1',
      status: 'upcoming',
      externalIds: {},
      gameState: null,
      endedAt: null,
    };
    await repo().write({ ...empty, events: [event, pending], rows: [full, bare], history: [{ row: full, at: T + 10 }] });
    const loaded = await repo().load();
    expect(loaded.events.sort((a, b) => a.id.localeCompare(b.id))).toEqual([event, pending].sort((a, b) => a.id.localeCompare(b.id)));
    expect(loaded.rows.sort((a, b) => a.id.localeCompare(b.id))).toEqual([bare, full].sort((a, b) => a.id.localeCompare(b.id)));
  });

  it('the compact read (pages of JSON, one storage block each here) gives exactly what the row query gives, across pages', async () => {
    const more = Array.from({ length: 60 }, (_, i) => ({ ...(i % 2 ? full : bare), id: `compact-${i}`, changedAt: T + i }));
    await repo().write({ ...empty, events: [event], rows: more });
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const rows = await ds.query<OddsEntity[]>(`SELECT ${selectList(ds, OddsEntity)} FROM odds`);
    const compact = await readCompact(ds, OddsEntity, 1);
    expect(compact.length).toBe(rows.length);
    expect(compact.length).toBeGreaterThanOrEqual(60);
    // Several storage blocks, so several pages.
    const [size] = await ds.query<Array<{ blocks: number }>>(`SELECT (pg_relation_size('odds') / 8192)::int AS blocks`);
    expect(size!.blocks).toBeGreaterThan(1);
    expect(compact.map((r) => ({ ...r })).sort(byId)).toEqual(rows.map((r) => ({ ...r })).sort(byId));
    // Mapped row by row as the pages come: the same rows, in the caller's shape.
    const ids = await readCompact(ds, OddsEntity, 1, (r) => `${r.id}:${r.oddsAmerican}`);
    expect(ids.sort()).toEqual(rows.map((r) => `${r.id}:${r.oddsAmerican}`).sort());
    // Gone again without a trace (no removal entry): the tests after this one see the table as it was.
    await ds.query(`DELETE FROM odds WHERE id LIKE 'compact-%'`);
  });

  it('a vacuum lets updated rows reuse the space of their old versions: sightings no longer grow the table', async () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ ...full, id: `vacuum-${i}` }));
    await repo().write({ ...empty, events: [event], rows: many });
    const blocks = async () => (await ds.query<Array<{ n: number }>>(`SELECT (pg_relation_size('odds') / 8192)::int AS n`))[0]!.n;
    const sight = async (from: number) => {
      for (let k = 0; k < 6; k++)
        await repo().touch(
          many.map((r) => r.id),
          T + from + k,
        );
    };
    await repo().vacuum();
    const start = await blocks();
    await sight(100); // six versions of each row: the table grows
    const grown = await blocks();
    expect(grown).toBeGreaterThan(start);
    await repo().vacuum();
    await sight(200); // six more, in the space the vacuum freed
    expect(await blocks()).toBe(grown);
    await ds.query(`DELETE FROM odds WHERE id LIKE 'vacuum-%'`);
  });

  it('an upsert replaces the price; touch moves last_seen_at forward only', async () => {
    const moved: OddsRow = {
      ...full,
      american: -120,
      decimal: 1.833333,
      probability: 0.545455,
      changedAt: T + 40,
      oddsChangedAt: T + 40,
      lastSeenAt: T + 40,
    };
    await repo().write({ ...empty, rows: [moved] });
    await repo().touch([moved.id, bare.id], T + 35);
    const rows = new Map((await repo().load()).rows.map((r) => [r.id, r]));
    expect(rows.get(moved.id)).toEqual(moved);
    expect(rows.get(bare.id)).toEqual({ ...bare, lastSeenAt: T + 35 });
  });

  it('removals and history set the watermark; purge deletes what is older than the retention', async () => {
    await repo().write({
      ...empty,
      removed: [{ id: bare.id, sportsbook: bare.sportsbook, eventId: bare.eventId, removedAt: T + 5_000 }],
      history: [{ row: full, at: T + 4_000 }],
    });
    expect((await repo().load()).rows.map((r) => r.id)).toEqual([full.id]);
    expect(await repo().persistedThrough()).toBe(T + 5_000);
    expect(await repo().purge(T + 4_500)).toEqual({ history: 2, removals: 0 });
    expect(await repo().purge(T + 6_000)).toEqual({ history: 0, removals: 1 });
  });

  it('an event removed takes its prices with it', async () => {
    await repo().write({ ...empty, eventsRemoved: [event.id] });
    const loaded = await repo().load();
    expect(loaded.events.map((e) => e.id)).toEqual(['nfl_a_b_2026-11-23_b1']);
    expect(loaded.rows).toEqual([]);
  });
});

describe('BoardRepository through the board writer', () => {
  const repo = () => new BoardRepository(ds);
  const empty = { rows: [], removed: [], history: [], events: [], eventsRemoved: [] };
  beforeAll(() => Logger.overrideLogger(false));

  const stored = async (ids: string[]) => {
    const byId = new Map((await repo().load()).rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  };
  const historyOf = async (ids: string[]) =>
    (
      (await ds.query(
        `SELECT odds_id, odds_american, odds_decimal, line, is_live, is_active, recorded_at FROM odds_history WHERE odds_id = ANY($1::text[]) ORDER BY odds_id, recorded_at`,
        [ids],
      )) as Array<{
        odds_id: string;
        odds_american: number;
        odds_decimal: number;
        line: number | null;
        is_live: boolean;
        is_active: boolean;
        recorded_at: Date | string;
      }>
    ).map((h) => [h.odds_id, h.odds_american, h.odds_decimal, h.line, h.is_live, h.is_active, new Date(h.recorded_at).getTime()]);

  it('an upsert of an existing row sets every column to the new values; within one write the last row given for an id wins', async () => {
    const first: OddsRow = { ...full, id: 'upsert-every-column' };
    await repo().write({ ...empty, rows: [first] });
    expect(await stored([first.id])).toEqual([first]);
    // Every field but the id differs from what was stored (nulls become values and values nulls).
    // From the bare row: its nulls replace the full row's values, and the rest is set apart.
    const next: OddsRow = {
      ...bare,
      id: first.id,
      sportsbook: 'fanduel',
      eventId: 'nhl_a_b_2026-11-24_b2',
      sport: 'hockey',
      league: 'nhl',
      marketType: 'total_goals',
      period: 'p1',
      ladderKey: 'ladder-key-2',
      groupKey: 'group-key-2',
      selection: 'Under',
      selectionType: 'under',
      american: 105,
      decimal: 2.05,
      probability: 0.487805,
      isLive: false,
      isActive: true,
      changedAt: T + 1_000,
      oddsChangedAt: T + 2_000,
      lastSeenAt: T + 3_000,
    };
    for (const [k, v] of Object.entries(next)) if (k !== 'id') expect([k, v]).not.toEqual([k, first[k as keyof OddsRow]]);
    const stale: OddsRow = { ...next, american: 999, decimal: 10.99 };
    await repo().write({ ...empty, rows: [stale, next] });
    expect(await stored([first.id])).toEqual([next]);
    // And back: values where the previous write had nulls.
    await repo().write({ ...empty, rows: [first] });
    expect(await stored([first.id])).toEqual([first]);
  });

  it('a batch with rows the database refuses stores every other row and its history; the refused ones are quarantined', async () => {
    const writer = new BoardWriter(repo(), new ManualClock(T + 60_000));
    const ok = (i: number): OddsRow => ({
      ...bare,
      id: `refusal-${String(i).padStart(2, '0')}`,
      selection: `Selection ${i} with a tab\there, a backslash \\ and a new\nline`,
      american: 100 + i,
      decimal: 2 + i / 100,
      changedAt: T + i,
    });
    const rows = Array.from({ length: 30 }, (_, i) => ok(i));
    // A NUL character (22021), an integer out of its column's range (22003), a time that is not one (22007).
    rows[7] = { ...rows[7]!, selection: 'bad\u0000row' };
    rows[13] = { ...rows[13]!, american: 2 ** 31 };
    rows[19] = { ...rows[19]!, changedAt: Number.NaN };
    writer.enqueue({ version: 1, at: T + 50_000, upserted: rows, removed: [], events: [], eventsRemoved: [], seen: [] });
    await writer.flush();
    expect(writer.healthy).toBe(true);
    expect(writer.pending).toBe(0);
    const refused = new Set([7, 13, 19].map((i) => rows[i]!.id));
    const kept = rows.filter((r) => !refused.has(r.id));
    expect(await stored(rows.map((r) => r.id))).toEqual(rows.map((r) => (refused.has(r.id) ? null : r)));
    // The history holds prices only: the out-of-range price is refused there too, the other two are stored.
    const withHistory = rows.filter((r) => r.id !== rows[13]!.id);
    expect(await historyOf(rows.map((r) => r.id))).toEqual(
      withHistory.map((r) => [r.id, r.american, r.decimal, r.line, r.isLive, r.isActive, T + 50_000]),
    );
    expect(writer.quarantine.map((q) => [q.kind, q.id, q.code]).sort()).toEqual(
      [
        ['rows', rows[7]!.id, '22021'],
        ['rows', rows[13]!.id, '22003'],
        ['rows', rows[19]!.id, '22007'],
        ['history', rows[13]!.id, '22003'],
      ].sort(),
    );
    expect(writer.quarantinedByKind).toMatchObject({ rows: 3, history: 1 });
    // Later writes are not blocked: every stored row moves, the refused one comes back fixed.
    const later = [...kept, { ...rows[7]!, selection: 'fixed' }].map((r) => ({ ...r, american: r.american + 1, lastSeenAt: T + 70_000 }));
    writer.enqueue({ version: 2, at: T + 70_000, upserted: later, removed: [], events: [], eventsRemoved: [], seen: [] });
    await writer.flush();
    expect(writer.quarantined).toBe(4);
    expect(await stored(later.map((r) => r.id))).toEqual(later);
  });
});

describe('SplitsRepository', () => {
  const split = (book: string, capturedHandle: number): CurrentSplits => ({
    eventId: event.id,
    sportsbook: book,
    sport: 'basketball',
    league: 'nba',
    homeTeam: 'Boston Celtics',
    awayTeam: 'Los Angeles Lakers',
    startTime: T + 3_600_000,
    fetchedAt: T - 30_000,
    spread: {
      away_line: 3.5,
      home_line: -3.5,
      handle_pct: { away: 100 - capturedHandle, home: capturedHandle },
      bets_pct: { away: 45, home: 55 },
    },
    total: { line: 221.5, handle_pct: { over: 61, under: 39 }, bets_pct: { over: 58, under: 42 } },
    moneyline: { away_odds: 140, home_odds: -160, handle_pct: { away: 30, home: 70 }, bets_pct: { away: 35, home: 65 } },
  });

  it('loads back every field of a capture, the latest per (event, book), and the history in order', async () => {
    const repo = new SplitsRepository(ds);
    const dk1 = split('draftkings', 60);
    const circa = { ...split('circa', 52), spread: undefined, moneyline: undefined };
    const dk2 = split('draftkings', 64);
    expect(await repo.insert([dk1, circa], T)).toBe(2);
    expect(await repo.insert([dk2], T + 300_000)).toBe(1);
    const { spread: _none, moneyline: _none2, ...circaStored } = circa;
    const latest = (await repo.latest(T - 1)).sort((a, b) => a.sportsbook.localeCompare(b.sportsbook));
    expect(latest).toEqual([
      { ...circaStored, capturedAt: T },
      { ...dk2, capturedAt: T + 300_000 },
    ]);
    const all = await repo.history({ eventId: event.id, to: T + 300_000, limit: null });
    expect(all).toEqual({
      total: 3,
      books: ['circa', 'draftkings'],
      rows: [
        { ...circaStored, capturedAt: T },
        { ...dk1, capturedAt: T },
        { ...dk2, capturedAt: T + 300_000 },
      ],
    });
    const recent = await repo.history({ eventId: event.id, books: ['draftkings'], from: T, to: T + 300_000, limit: 1 });
    expect(recent).toEqual({ total: 2, books: ['draftkings'], rows: [{ ...dk2, capturedAt: T + 300_000 }] });
    expect(await repo.purge(T + 1)).toBe(2);
    expect((await repo.latest(0)).map((s) => s.capturedAt)).toEqual([T + 300_000]);
  });
});

describe('FuturesRepository', () => {
  it('loads back every field of the markets and prices it wrote; a price moved, confirmed or withdrawn reads as the last write left it', async () => {
    const repo = new FuturesRepository(ds);
    const market: FuturesMarket = {
      id: 'nba_championship_2027',
      name: 'NBA Championship 2026-27',
      sport: 'basketball',
      league: 'nba',
      futureType: 'TEAM',
      kind: 'championship',
      closesAt: T + 200 * 86_400_000,
      history: true,
    };
    // An exchange price with every field, a sportsbook's with only what a sportsbook sends, a third to withdraw.
    const exchange: FuturesPrice = {
      id: 'fp-kalshi-celtics',
      marketId: market.id,
      sportsbook: 'kalshi',
      selection: 'Boston Celtics',
      selectionType: 'other',
      line: 0.5,
      american: 456,
      decimal: 5.56,
      probability: 0.179856,
      externalId: 'KXNBA-27-BOS',
      changedAt: T - 60_000,
      lastSeenAt: T - 1_000,
      source: 'kalshi-ws',
      bid: 0.17,
      ask: 0.19,
      last: 0.18,
      volume: 125_000.5,
      openInterest: 40_321,
    };
    const book: FuturesPrice = {
      id: 'fp-dk-lakers',
      marketId: market.id,
      sportsbook: 'draftkings',
      selection: 'Los Angeles Lakers',
      selectionType: 'other',
      line: null,
      american: 1200,
      decimal: 13,
      probability: 0.076923,
      externalId: null,
      changedAt: T - 120_000,
      lastSeenAt: T - 120_000,
    };
    const gone: FuturesPrice = { ...book, id: 'fp-dk-knicks', selection: 'New York Knicks', american: 900, decimal: 10, probability: 0.1 };
    await repo.save({ markets: [market], prices: [exchange, book, gone], seen: [], at: T });
    const moved: FuturesPrice = { ...exchange, american: 400, decimal: 5, probability: 0.2, changedAt: T, lastSeenAt: T, bid: 0.19 };
    await repo.save({ markets: [], prices: [moved], seen: [book.id], removedPrices: [gone.id], at: T + 5_000 });
    const loaded = await repo.load();
    expect(loaded.markets).toEqual([market]);
    expect(loaded.prices.sort((a, b) => a.id.localeCompare(b.id))).toEqual([{ ...book, lastSeenAt: T + 5_000 }, moved]);
    expect(loaded.at).toBe(T + 5_000);
  });
});

describe('ApiKeysRepository', () => {
  it('reads back every field of an account and of a key it stored; updates and last use land', async () => {
    const repo = new ApiKeysRepository(ds);
    const account = Object.assign(new AccountEntity(), {
      id: 'acct_0123456789abcdef',
      name: 'desk',
      tier: 'pro',
      arbitrageEnabled: false,
      maxKeys: 3,
      createdAt: new Date(T),
      updatedAt: new Date(T + 1),
    });
    await repo.insertAccount(account);
    expect({ ...(await repo.findAccount(account.id)) }).toEqual({ ...account });
    const key = Object.assign(new ApiKeyEntity(), {
      id: 'key_0123456789abcdef',
      keyHash: 'a'.repeat(64),
      keyPrefix: 'sk_live_abcd',
      name: 'desk key',
      accountId: account.id,
      isActive: false,
      source: 'api',
      createdAt: new Date(T),
      updatedAt: new Date(T + 1),
      lastUsedAt: new Date(T + 2),
      revokedAt: new Date(T + 3),
      expiresAt: new Date(T + 4),
    });
    await repo.insert(key);
    const { account: owner, ...stored } = (await repo.findByHash(key.keyHash))!;
    expect({ ...stored }).toEqual({ ...key });
    expect({ ...owner }).toEqual({ ...account });
    expect(await repo.update(key.id, { isActive: true, revokedAt: null, name: null, expiresAt: null })).toBe(true);
    expect(await repo.updateAccount(account.id, { tier: 'sharp', maxKeys: null })).toBe(true);
    await repo.touch([{ id: key.id, at: new Date(T + 10) }]);
    const [after] = await repo.listForAccount(account.id);
    const { account: owner2, ...stored2 } = after!;
    expect({ ...stored2 }).toEqual({ ...key, isActive: true, revokedAt: null, name: null, expiresAt: null, lastUsedAt: new Date(T + 10) });
    expect({ ...owner2 }).toEqual({ ...account, tier: 'sharp', maxKeys: null });
    expect(await repo.count()).toBe(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { SystemClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, H } from '../factories/market.js';
import { TcpProxy, until, viaProxy } from '../support/tcp-proxy.js';
import { isolationEnv, KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

const DB = process.env.TEST_DATABASE_URL!;
const REDIS = process.env.TEST_REDIS_URL!;

describe('faults: the service rides out Redis and PostgreSQL outages (connections cut through a proxy)', () => {
  let t: TestApp;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let schema = '';
  const now = Date.now();

  beforeAll(async () => {
    const pgUrl = new URL(DB);
    const redisUrl = new URL(REDIS);
    pgProxy = await new TcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432)).start();
    redisProxy = await new TcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379)).start();
    const env = isolationEnv();
    schema = env.DATABASE_SCHEMA!;
    t = await startTestApp({
      clock: new SystemClock(),
      config: testConfig({
        ...env,
        DATABASE_URL: viaProxy(DB, pgProxy),
        REDIS_URL: viaProxy(REDIS, redisProxy),
        PERSIST_INTERVAL_MS: '200',
        SCHEDULERS: 'true',
      }),
    });
    t.app.get(IngestionService).ingest({
      source: 'test',
      quotes: buildMarket(
        [{ league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: now + 6 * H }],
        ['draftkings', 'fanduel'],
        now,
      ),
    });
  });
  afterAll(async () => {
    redisProxy.restore();
    pgProxy.restore();
    await t.close();
    await pgProxy.stop();
    await redisProxy.stop();
  });

  it('Redis lost: health degraded, the API keeps serving, rate limits fall back to this instance, then it recovers by itself', async () => {
    expect((await t.call('/account', { key: KEYS.pro })).status).toBe(200);
    redisProxy.cut();
    await until(async () => (await t.call('/health')).json.checks.redis.status === 'degraded');
    const h = await t.call('/health');
    expect(h.status).toBe(200);
    expect(h.json.status).toBe('degraded');
    expect((await t.call('/odds?limit=5', { key: KEYS.pro })).status).toBe(200);
    const free = await t.newKey('free');
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++) statuses.push((await t.call('/account', { key: free })).status);
    expect(statuses.slice(0, 12).every((s) => s === 200)).toBe(true);
    expect(statuses[12]).toBe(429);
    redisProxy.restore();
    await until(async () => (await t.call('/health')).json.checks.redis.status === 'ok', 20_000);
    expect((await t.call('/health')).json.status).toBe('ok');
  });

  it('PostgreSQL lost: health 503 down, reads served from memory, prices buffered and written when it returns', async () => {
    expect((await t.call('/odds?limit=5', { key: KEYS.sharp })).status).toBe(200);
    pgProxy.cut();
    await until(async () => (await t.call('/health')).status === 503);
    expect((await t.call('/health')).json.status).toBe('down');
    const r = await t.call('/odds?limit=500&team=celtics', { key: KEYS.sharp });
    expect(r.status).toBe(200);
    expect(r.json.data.length).toBeGreaterThan(0);
    // Prices arriving during the outage.
    const later = Date.now();
    const quotes = buildMarket(
      [{ league: 'nhl', home: 'Toronto Maple Leafs', away: 'Montreal Canadiens', start: later + 8 * H }],
      ['betmgm', 'caesars'],
      later,
    );
    t.app.get(IngestionService).ingest({ source: 'test', quotes });
    await new Promise((res) => setTimeout(res, 1000));
    pgProxy.restore();
    await until(async () => (await t.call('/health')).status === 200, 20_000);
    // Every price ingested during the outage is in the database now.
    const direct = new pg.Client({ connectionString: DB });
    await direct.connect();
    try {
      await until(async () => {
        const res = await direct.query(`SELECT count(*)::int AS n FROM "${schema}".odds WHERE event_id LIKE 'nhl_canadiens_mapleleafs%'`);
        return res.rows[0].n === quotes.length;
      }, 15_000);
    } finally {
      await direct.end();
    }
  });

  it('an acknowledged import is already in the database', async () => {
    const q = buildMarket([{ league: 'nfl', home: 'Buffalo Bills', away: 'Miami Dolphins', start: now + 30 * H }], ['draftkings'], now);
    const r = await t.call('/admin/ingest', {
      method: 'POST',
      body: { source: 'import', quotes: q },
      headers: { 'X-Admin-Token': t.adminToken },
    });
    expect(r.json.data).toMatchObject({ accepted: q.length, durable: true });
    const direct = new pg.Client({ connectionString: DB });
    await direct.connect();
    const res = await direct.query(`SELECT count(*)::int AS n FROM "${schema}".odds WHERE event_id LIKE 'nfl_bills_dolphins%'`);
    await direct.end();
    expect(res.rows[0].n).toBe(q.length);
  });
});

describe('leader election: one active worker, a standby takes over', () => {
  it('within 10 seconds of the active one stopping', async () => {
    const env = isolationEnv();
    const a = await startTestApp({ clock: new SystemClock(), config: testConfig({ ...env, ROLE: 'worker' }) });
    const b = await startTestApp({ clock: new SystemClock(), config: testConfig({ ...env, ROLE: 'worker' }) });
    const { Leadership } = await import('../../src/modules/cluster/leadership.service.js');
    const la = a.app.get(Leadership);
    const lb = b.app.get(Leadership);
    await until(() => la.isLeader || lb.isLeader, 10_000);
    expect(la.isLeader && lb.isLeader).toBe(false);
    const [active, standby, standbyLeadership] = la.isLeader ? [a, b, lb] : [b, a, la];
    const stoppedAt = Date.now();
    await active.app.close();
    await until(() => standbyLeadership.isLeader, 10_000);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    await standby.close();
  });
});

describe('a silently dead leader: its connections stall (nothing passes, nothing is closed)', () => {
  it('a standby takes over within 15 s, and the old leader stands down once it can reach the database again', async () => {
    const pgUrl = new URL(DB);
    const proxy = await new TcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432)).start();
    const env = isolationEnv();
    const { Leadership } = await import('../../src/modules/cluster/leadership.service.js');
    // The leader reaches PostgreSQL through the proxy, the standby directly (only the leader's host dies).
    const a = await startTestApp({
      clock: new SystemClock(),
      config: testConfig({ ...env, ROLE: 'worker', DATABASE_URL: viaProxy(DB, proxy) }),
    });
    const la = a.app.get(Leadership);
    await until(() => la.isLeader, 10_000);
    const b = await startTestApp({ clock: new SystemClock(), config: testConfig({ ...env, ROLE: 'worker' }) });
    const lb = b.app.get(Leadership);
    try {
      await new Promise((r) => setTimeout(r, 2 * 2000)); // the standby has polled (and been refused) at least once
      expect(lb.isLeader).toBe(false);

      const stalledAt = Date.now();
      proxy.stall();
      await until(() => lb.isLeader, 15_000, 50);
      expect(Date.now() - stalledAt).toBeLessThan(15_000);

      proxy.resume();
      await until(() => !la.isLeader, 15_000);
      expect(lb.isLeader).toBe(true);
    } finally {
      proxy.resume();
      await a.close({ keepStore: true });
      await b.close();
      await proxy.stop();
    }
  });
});

describe('a leader that dies before writing what it published', () => {
  it('the standby that takes over writes those prices, so the database holds the board', async () => {
    const pgUrl = new URL(DB);
    const proxy = await new TcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432)).start();
    const env = isolationEnv();
    const { Leadership } = await import('../../src/modules/cluster/leadership.service.js');
    const { BoardService } = await import('../../src/modules/board/board.service.js');
    const a = await startTestApp({
      clock: new SystemClock(),
      config: testConfig({ ...env, ROLE: 'worker', DATABASE_URL: viaProxy(DB, proxy), PERSIST_INTERVAL_MS: '200' }),
    });
    const la = a.app.get(Leadership);
    await until(() => la.isLeader, 10_000);
    const b = await startTestApp({ clock: new SystemClock(), config: testConfig({ ...env, ROLE: 'worker', PERSIST_INTERVAL_MS: '200' }) });
    const lb = b.app.get(Leadership);
    const db = new pg.Client({ connectionString: DB });
    await db.connect();
    try {
      // The leader's host dies: nothing it sends reaches the database any more, but its prices reach the standby.
      proxy.stall();
      const quotes = buildMarket(
        [{ league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: Date.now() + 6 * H }],
        ['draftkings', 'fanduel'],
        Date.now(),
      );
      a.app.get(IngestionService).ingest({ source: 'test', quotes });
      const published = a.app.get(BoardService).board.rows.size;
      expect(published).toBeGreaterThan(0);
      await until(() => b.app.get(BoardService).board.rows.size === published, 10_000);

      await until(() => lb.isLeader, 15_000, 50);
      const stored = async () => Number((await db.query(`select count(*)::int as n from "${env.DATABASE_SCHEMA}".odds`)).rows[0].n);
      await until(async () => (await stored()) === published, 10_000);
      const prices = (await db.query(`select id, odds_american from "${env.DATABASE_SCHEMA}".odds`)).rows
        .map((r: { id: string; odds_american: number }) => `${r.id}:${r.odds_american}`)
        .sort();
      const board = [...b.app.get(BoardService).board.rows.values()].map((r) => `${r.id}:${r.american}`).sort();
      expect(prices).toEqual(board);
    } finally {
      proxy.resume();
      await db.end();
      await a.close({ keepStore: true });
      await b.close();
      await proxy.stop();
    }
  });
});

describe('a replica cut off from Redis', () => {
  it("keeps serving during the outage and holds exactly the worker's board once Redis is back", async () => {
    const env = isolationEnv();
    const proxy = await new TcpProxy(new URL(REDIS).hostname, Number(new URL(REDIS).port || 6379)).start();
    const common = { ...env, SCHEDULERS: 'true', PERSIST_INTERVAL_MS: '200' };
    const worker = await startTestApp({ clock: new SystemClock(), config: testConfig({ ...common, ROLE: 'worker' }) });
    const replica = await startTestApp({
      clock: new SystemClock(),
      config: testConfig({ ...common, ROLE: 'api', REDIS_URL: viaProxy(REDIS, proxy) }),
    });
    const replicaUp = Date.now();
    const { BoardService, FIRST_RESYNC_MS } = await import('../../src/modules/board/board.service.js');
    const W = worker.app.get(BoardService);
    const R = replica.app.get(BoardService);
    const same = () =>
      W.board.size === R.board.size && [...W.board.rows.values()].every((r) => R.board.rows.get(r.id)?.american === r.american);
    try {
      const t0 = Date.now();
      const nba = { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: t0 + 6 * H };
      const first = buildMarket([nba], ['draftkings', 'fanduel', 'betmgm'], t0);
      worker.app.get(IngestionService).ingest({ source: 'test', quotes: first });
      await until(same, 10_000);
      // Past the replica's start-up resyncs (the one FIRST_RESYNC_MS after start would otherwise hide a broken
      // reconnect path).
      await new Promise((r) => setTimeout(r, Math.max(1500, replicaUp + FIRST_RESYNC_MS + 500 - Date.now())));

      proxy.cut();
      await until(async () => (await replica.call('/health')).json.checks.redis.status === 'degraded', 10_000);
      // Missed while cut off: a new game, a moved price and a withdrawn one.
      const t1 = Date.now();
      const nhl = buildMarket(
        [{ league: 'nhl', home: 'Toronto Maple Leafs', away: 'Montreal Canadiens', start: t1 + 8 * H }],
        ['caesars'],
        t1,
      );
      const moved = { ...first[0]!, price: { american: 333 } };
      worker.app.get(IngestionService).ingest({ source: 'test', quotes: [...nhl, moved], removals: [first[1]!] }, t1);
      const during = await replica.call('/odds?limit=5', { key: KEYS.sharp });
      expect(during.status).toBe(200);
      expect(same()).toBe(false);

      proxy.restore();
      // Caught up on reconnecting (well before the minutely resync would have done it): the reconnect backs
      // off up to 2 s, then the replica reads the store now and after the worker's next write cycle.
      await until(same, 15_000);
      expect(R.board.size).toBe(W.board.size);
    } finally {
      proxy.restore();
      await replica.close({ keepStore: true });
      await worker.close();
      await proxy.stop();
    }
  });
});

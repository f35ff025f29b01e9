import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EventBus } from '../../src/common/bus/event-bus.js';
import { Clock, ManualClock } from '../../src/common/time/clock.js';
import type { ChangeSet, OddsRow } from '../../src/domain/odds-row.js';
import { BoardRepository } from '../../src/modules/board/board.repository.js';
import { BoardService, CATCH_UP_JOB, CATCH_UP_MAX_MS } from '../../src/modules/board/board.service.js';
import { Jobs } from '../../src/modules/cluster/jobs.service.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, celticsMoneyline, H } from '../factories/market.js';
import { SseRecorder } from '../support/sse.js';
import { until } from '../support/tcp-proxy.js';
import { isolationEnv, KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';
import { ODDS_TOPIC } from '../../src/domain/topics.js';

/** Two instances on one PostgreSQL schema and one Redis: what one ingests and detects reaches the other's streams. */
describe('two instances share events through Redis', () => {
  const NOW = Date.parse('2026-11-22T12:00:00Z');
  let a: TestApp;
  let b: TestApp;
  const recorders: SseRecorder[] = [];

  beforeAll(async () => {
    const shared = isolationEnv();
    a = await startTestApp({ clock: new ManualClock(NOW), config: testConfig(shared) });
    b = await startTestApp({ clock: new ManualClock(NOW), config: testConfig(shared) });
  });
  afterAll(async () => {
    for (const r of recorders) r.close();
    await b.close();
    await a.close();
  });

  it('shares one rate-limit budget exactly: the limit + 1st request across both instances is the first 429', async () => {
    const key = await a.newKey('free');
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++) statuses.push((await (i % 2 ? b : a).call('/account', { key })).status);
    expect(statuses.slice(0, 12)).toEqual(Array(12).fill(200));
    expect(statuses[12]).toBe(429);
    const other = await b.call('/account', { key });
    expect(other.status).toBe(429);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('a revoked key stops working on the other instance at once', async () => {
    const created = await a.call('/admin/keys', { method: 'POST', body: { tier: 'pro' }, headers: { 'X-Admin-Token': a.adminToken } });
    const { key, id } = created.json.data;
    expect((await b.call('/account', { key })).status).toBe(200);
    await a.call(`/admin/keys/${id}/revoke`, { method: 'POST', headers: { 'X-Admin-Token': a.adminToken } });
    // The bus message takes a Redis round trip; B never re-reads the key on its own (its clock does not move).
    await until(async () => (await b.call('/account', { key })).status === 401, 2000);
  });

  it("a price ingested on A reaches B's board, its detection and its stream", async () => {
    const s = new SseRecorder(`${b.url}/api/v1/stream?channel=all&api_key=${KEYS.sharp}`);
    recorders.push(s);
    await s.seen('snapshot:complete');
    const games = [{ league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 6 * H }];
    a.app.get(IngestionService).ingest({ source: 'test', quotes: buildMarket(games, ['draftkings', 'fanduel', 'pinnacle'], NOW) }, NOW);
    const up = await s.next('odds:update');
    expect(up.data.odds[0].league).toBe('nba');
    const arb = celticsMoneyline('draftkings', 115, NOW);
    // DraftKings moves its Lakers price too, so its own market stays sound (+115 against its own Lakers price near
    // +100 would sum below 100%: a book crossing itself is left out of detection).
    const lakers = celticsMoneyline('draftkings', -116, NOW, 'away');
    a.app.get(IngestionService).ingest({ source: 'test', quotes: [arb, lakers] }, NOW + 1000);
    const det = await s.seen('arb:detected');
    expect(det.data[0].legs.map((l: any) => l.sportsbook)).toContain('draftkings');
    const onB = await b.call('/opportunities/arbitrage?min_profit=0', { key: KEYS.sharp });
    expect(onB.json.data.map((x: any) => x.id)).toContain(det.data[0].id);
    const onA = await a.call('/opportunities/arbitrage?min_profit=0', { key: KEYS.sharp });
    expect(onA.json.data.find((x: any) => x.id === det.data[0].id).detected_at).toBe(det.data[0].detected_at);
  });

  it('a replica that missed messages catches up from the store, and never drops what the store has not received yet', async () => {
    const A = a.app.get(BoardService);
    const B = b.app.get(BoardService);
    await A.writer.flush();
    const through = await b.app.get(BoardRepository, { strict: false }).persistedThrough();
    expect(through).toBeGreaterThan(0);
    const rows = [...B.board.rows.values()];
    const [lost, ...rest] = rows;
    const template = rest[0]!;
    // B missed three things: the removal of a price (still on B, stored before the watermark), a price it never
    // received (in the store, not on B), and it holds a price the writer has not stored yet (after the watermark).
    const removedElsewhere: OddsRow = { ...template, id: 'ffffffffffff0001', changedAt: through - 1000 };
    const notYetStored: OddsRow = { ...template, id: 'ffffffffffff0002', changedAt: through + 1 };
    B.board.applyChangeSet({
      version: B.board.version + 1,
      at: through,
      upserted: [removedElsewhere, notYetStored],
      removed: [{ id: lost!.id, sportsbook: lost!.sportsbook, eventId: lost!.eventId, removedAt: through }],
      events: [],
      eventsRemoved: [],
      seen: [],
    });
    expect(B.board.rows.has(lost!.id)).toBe(false);

    // A minute later the writer is still behind (it can be, after a database outage): still not a removal.
    await (b.app.get(Clock) as ManualClock).advance(60_000);
    await B.resync();
    expect(B.board.rows.get(lost!.id)?.american).toBe(lost!.american);
    expect(B.board.rows.has(removedElsewhere.id)).toBe(false);
    expect(B.board.rows.has(notYetStored.id)).toBe(true);
    expect([...B.board.rows.keys()].filter((id) => id !== notYetStored.id).sort()).toEqual([...A.board.rows.keys()].sort());
  });

  it('a resync never brings back a price the bus said was removed, even while the store still has it', async () => {
    const A = a.app.get(BoardService);
    const B = b.app.get(BoardService);
    await A.writer.flush();
    const x = [...A.board.rows.values()].find((r) => B.board.rows.has(r.id))!;
    const gone = { id: x.id, sportsbook: x.sportsbook, eventId: x.eventId, removedAt: x.changedAt + 5000 };
    // B missed the price itself; then the removal reaches it over the bus before A has written it.
    B.board.applyChangeSet({
      version: B.board.version + 1,
      at: x.changedAt,
      upserted: [],
      removed: [gone],
      events: [],
      eventsRemoved: [],
      seen: [],
    });
    const heard = new Promise<void>((resolve) => {
      const off = b.app.get(EventBus).subscribe<ChangeSet>(ODDS_TOPIC, (cs, remote) => {
        if (!remote || !cs.removed.some((rm) => rm.id === x.id)) return;
        off();
        // B's own handler applies it in a microtask queued before this one resolves.
        queueMicrotask(resolve);
      });
    });
    A.apply({
      version: A.board.version + 1,
      at: x.changedAt + 5000,
      upserted: [],
      removed: [gone],
      events: [],
      eventsRemoved: [],
      seen: [],
    });
    await heard;
    expect(B.tombstoneCount).toBeGreaterThan(0);
    expect((await b.app.get(BoardRepository, { strict: false }).load()).rows.some((r: OddsRow) => r.id === x.id)).toBe(true);
    await B.resync();
    expect(B.board.rows.has(x.id)).toBe(false);
    // Once the store has the removal, the tombstone is no longer needed.
    await A.writer.flush();
    await B.resync();
    expect(B.board.rows.has(x.id)).toBe(false);
    expect(B.tombstoneCount).toBe(0);
  });
});

describe('a replica waiting for a lagging store', () => {
  it('retries its catch-up ever more slowly (up to a minute apart), and starts afresh once the store has caught up', async () => {
    const NOW = Date.parse('2026-11-22T12:00:00Z');
    const shared = { ...isolationEnv(), PERSIST_INTERVAL_MS: '100' };
    const a = await startTestApp({ clock: new ManualClock(NOW), config: testConfig(shared) });
    const game = { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 6 * H };
    a.app.get(IngestionService).ingest({ source: 'test', quotes: buildMarket([game], ['draftkings'], NOW) });
    await a.app.get(BoardService).writer.flush({ force: true });
    // B starts from the store A wrote: it has heard nothing on the bus yet.
    const clock = new ManualClock(NOW);
    const b = await startTestApp({ clock, config: testConfig({ ...shared, ROLE: 'api' }) });
    try {
      const B = b.app.get(BoardService);
      const jobs = b.app.get(Jobs);
      const through = await b.app.get(BoardRepository, { strict: false }).persistedThrough();
      let resyncs = 0;
      const resync = B.resync.bind(B);
      B.resync = () => {
        resyncs++;
        return resync();
      };
      const cycle = B.writeCycleMs;
      expect(cycle).toBe(2 * 100 + 500);
      // A change set the store will not hold for an hour: each retry waits twice as long as the one before.
      B.catchUp(through + 3600_000);
      const waits = [1, 2, 4, 8, 16, 32, 64].map((n) => Math.min(CATCH_UP_MAX_MS, n * cycle)).concat([CATCH_UP_MAX_MS, CATCH_UP_MAX_MS]);
      expect(waits.slice(-3)).toEqual([44_800, 60_000, 60_000]);
      for (const [i, wait] of waits.entries()) {
        expect(jobs.next(CATCH_UP_JOB)).toBe(clock.now() + wait);
        await clock.advance(wait - 1);
        expect(resyncs).toBe(i);
        await clock.advance(1);
        expect(resyncs).toBe(i + 1);
      }
      // The store catches up (A writes a change made an hour later); the next retry finds it whole and stops.
      a.app.get(IngestionService).ingest({ source: 'test', quotes: buildMarket([game], ['fanduel'], NOW) }, through + 3600_000);
      await a.app.get(BoardService).writer.flush({ force: true });
      await clock.advance(CATCH_UP_MAX_MS);
      expect(resyncs).toBe(waits.length + 1);
      expect(jobs.next(CATCH_UP_JOB)).toBeNull();
      // The next catch-up waits the shortest time again.
      B.catchUp(through);
      expect(jobs.next(CATCH_UP_JOB)).toBe(clock.now() + cycle);
      await clock.advance(cycle);
      expect(resyncs).toBe(waits.length + 2);
      expect(jobs.next(CATCH_UP_JOB)).toBeNull();
    } finally {
      await b.close({ keepStore: true });
      await a.close();
    }
  });
});

import { beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { InProcessBus } from '../../common/bus/in-process-bus.js';
import { Sequencer } from '../../common/bus/sequencer.js';
import type { RedisService } from '../../common/redis/redis.service.js';
import { ManualClock } from '../../common/time/clock.js';
import { Catalog } from '../../config/catalog.js';
import type { AppConfig } from '../../config/env.js';
import { loadTiers } from '../../config/tiers.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import { Jobs } from '../cluster/jobs.service.js';
import type { Leadership } from '../cluster/leadership.service.js';
import { boardEvent, changeSet, oddsRow, removal, T0 } from './board.fixtures.js';
import type { BoardRepository } from './board.repository.js';
import { BoardService, CATCH_UP_JOB, CATCH_UP_MAX_MS, FIRST_RESYNC_MS, RESYNC_SLICE } from './board.service.js';
import type { ChangeSet } from '../../domain/odds-row.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';

beforeAll(() => Logger.overrideLogger(false));

/** The store as a replica reads it: what the active worker wrote, and the time it is complete through. */
class FakeStore {
  through = 0;
  events: BoardEvent[] = [];
  rows: OddsRow[] = [];
  reads = 0;
  async persistedThrough(): Promise<number> {
    return this.through;
  }
  async load(): Promise<{ events: BoardEvent[]; rows: OddsRow[] }> {
    this.reads++;
    if (this.failLoads-- > 0) throw new Error('connect ECONNREFUSED');
    return { events: [...this.events], rows: [...this.rows] };
  }
  writes: Array<{
    rows: OddsRow[];
    removed: Array<{ id: string; removedAt: number }>;
    history: Array<{ row: OddsRow; at: number }>;
    events: BoardEvent[];
  }> = [];
  failLoads = 0;
  async write(batch: FakeStore['writes'][number]): Promise<void> {
    this.writes.push(batch);
  }
  async touch(): Promise<void> {}
  async purge(): Promise<{ history: number; removals: number }> {
    return { history: 0, removals: 0 };
  }
}

const PERSIST_MS = 100;
const WRITE_CYCLE = PERSIST_MS * 2 + 500;

function replica(opts: { leader?: boolean; schedulers?: boolean } = {}) {
  const clock = new ManualClock(T0);
  const store = new FakeStore();
  const leadership = { isLeader: opts.leader ?? false, onChange: () => () => undefined };
  const config = {
    schedulers: opts.schedulers ?? false,
    persistIntervalMs: PERSIST_MS,
    endedEventGraceSeconds: 3600,
    historyRetentionHours: 24,
    providers: [],
  } as unknown as AppConfig;
  const tiers = loadTiers();
  const jobs = new Jobs(clock, new SchedulerRegistry(), leadership as unknown as Leadership, config);
  const service = new BoardService(
    clock,
    new InProcessBus(),
    jobs,
    config,
    tiers,
    store as unknown as BoardRepository,
    new AccessPolicy(tiers, new Catalog()),
    new Sequencer(),
    leadership as unknown as Leadership,
    { enabled: false } as RedisService,
    new MetricsService(),
  );
  return { clock, store, service, jobs, leadership };
}

const ev = boardEvent('ev1');

describe('a replica resyncing from the store', () => {
  it('takes newer prices from the store, and removes a price only when the store is complete past its last change', async () => {
    const { store, service } = replica();
    const kept = oddsRow('kept', { changedAt: T0 });
    const stale = oddsRow('stale', { american: -105, changedAt: T0 });
    const goneLongAgo = oddsRow('gone', { changedAt: T0 });
    const notYetWritten = oddsRow('fresh', { changedAt: T0 + 5_000 });
    service.board.applyChangeSet(changeSet(1, T0, { events: [ev], upserted: [kept, stale, goneLongAgo, notYetWritten] }));
    const moved = { ...stale, american: -125, changedAt: T0 + 2_000 };
    const missed = oddsRow('missed', { changedAt: T0 + 1_000 });
    store.events = [ev];
    store.rows = [kept, moved, missed];
    store.through = T0 + 3_000;
    expect(await service.resync()).toEqual({ changed: 3, through: T0 + 3_000 });
    expect([...service.board.rows.keys()].sort()).toEqual(['fresh', 'kept', 'missed', 'stale']);
    expect(service.board.rows.get('stale')?.american).toBe(-125);
    // The same store again: nothing to do.
    expect(await service.resync()).toEqual({ changed: 0, through: T0 + 3_000 });
  });

  it('an event missing from the store leaves only once the store is complete past its last update', async () => {
    const { store, service } = replica();
    const early = boardEvent('early', { updatedAt: T0 });
    const late = boardEvent('late', { updatedAt: T0 + 10_000 });
    service.board.applyChangeSet(changeSet(1, T0, { events: [early, late] }));
    store.through = T0 + 5_000;
    await service.resync();
    expect([...service.board.events.keys()]).toEqual(['late']);
  });

  it('never brings back a price the bus said was removed while the store still holds it; the tombstone goes once the store has the removal', async () => {
    const { store, service } = replica();
    const r = oddsRow('r1', { changedAt: T0 });
    store.events = [ev];
    store.rows = [r];
    store.through = T0;
    service.applyReplica(changeSet(1, T0, { events: [ev], upserted: [r], seq: 1 }));
    service.applyReplica(changeSet(2, T0 + 5_000, { removed: [removal(r, T0 + 5_000)], seq: 2 }));
    expect(service.tombstoneCount).toBe(1);
    await service.resync();
    expect(service.board.rows.has('r1')).toBe(false);
    // The writer stores the removal: the store no longer has the row and is complete past the removal.
    store.rows = [];
    store.through = T0 + 6_000;
    await service.resync();
    expect(service.board.rows.has('r1')).toBe(false);
    expect(service.tombstoneCount).toBe(0);
  });

  it('drops a change set it has already seen (the same sequence number, or an older one)', () => {
    const { service } = replica();
    service.applyReplica(changeSet(1, T0, { events: [ev], upserted: [oddsRow('a', { american: -110 })], seq: 10 }));
    service.applyReplica(changeSet(2, T0 + 1, { upserted: [oddsRow('a', { american: -150 })], seq: 10 }));
    service.applyReplica(changeSet(3, T0 + 2, { upserted: [oddsRow('a', { american: -160 })], seq: 9 }));
    expect(service.board.rows.get('a')?.american).toBe(-110);
  });
});

describe('a resync that brings many rows', () => {
  it('applies them in slices of RESYNC_SLICE rows, and keeps a newer price the bus delivered between two slices', async () => {
    const { store, service } = replica();
    expect(RESYNC_SLICE).toBe(2_000);
    store.events = [ev];
    store.rows = Array.from({ length: 5_000 }, (_, i) => oddsRow(`r${i}`, { american: -110, changedAt: T0 }));
    store.through = T0;
    const sizes: number[] = [];
    const newer = oddsRow('r4999', { american: -200, changedAt: T0 + 10_000 });
    service.board.onChange((cs: ChangeSet) => {
      sizes.push(cs.upserted.length);
      // Between the first slice and the second, the bus brings a newer price of a row of the last slice.
      if (sizes.length === 1) setImmediate(() => service.applyReplica(changeSet(99, T0 + 10_000, { upserted: [newer], seq: 1 })));
    });
    // 5,000 rows in slices of 2,000: 2,000 + 2,000 + 1,000, less the one the bus made newer (not overwritten).
    expect(await service.resync()).toEqual({ changed: 4_999, through: T0 });
    expect(sizes).toEqual([2_000, 1, 2_000, 999]);
    expect(service.board.size).toBe(5_000);
    expect(service.board.rows.get('r4999')?.american).toBe(-200);
  });
});

describe('readiness of a replica (caughtUp)', () => {
  it('is caught up once a catch-up covered its first change set from the bus', async () => {
    const { clock, store, service } = replica({ schedulers: true });
    store.through = T0;
    expect(service.caughtUp).toBe(false);
    service.applyReplica(changeSet(1, T0 + 5_000, { events: [ev], seq: 1 }));
    await clock.advance(WRITE_CYCLE);
    // The store is not yet complete through the change set: still catching up.
    expect(service.caughtUp).toBe(false);
    store.through = T0 + 5_000;
    await clock.advance(2 * WRITE_CYCLE);
    expect(service.caughtUp).toBe(true);
  });

  it('is caught up after its first resync when no active worker publishes anything', async () => {
    const { clock, service } = replica({ schedulers: true });
    await service.onApplicationBootstrap();
    expect(service.caughtUp).toBe(false);
    await clock.advance(FIRST_RESYNC_MS);
    expect(service.caughtUp).toBe(true);
  });

  it('the active worker is always caught up', () => {
    expect(replica({ leader: true, schedulers: true }).service.caughtUp).toBe(true);
  });
});

describe('catching up with a lagging store', () => {
  it('the first change set from the bus schedules a resync one write cycle later; retries back off to a minute; a complete store stops them', async () => {
    const { clock, store, service, jobs } = replica();
    store.through = T0;
    service.applyReplica(changeSet(1, T0 + 60_000, { events: [ev], seq: 1 }));
    const waits = [1, 2, 4, 8, 16, 32, 64, 128].map((n) => Math.min(CATCH_UP_MAX_MS, n * WRITE_CYCLE));
    expect(waits).toEqual([700, 1_400, 2_800, 5_600, 11_200, 22_400, 44_800, 60_000]);
    for (const [i, wait] of waits.entries()) {
      expect(jobs.next(CATCH_UP_JOB)).toBe(clock.now() + wait);
      await clock.advance(wait - 1);
      expect(store.reads).toBe(i);
      await clock.advance(1);
      expect(store.reads).toBe(i + 1);
    }
    store.through = T0 + 60_000;
    await clock.advance(CATCH_UP_MAX_MS);
    expect(jobs.next(CATCH_UP_JOB)).toBeNull();
    // The next catch-up starts from the shortest wait again.
    service.catchUp(T0 + 60_000);
    expect(jobs.next(CATCH_UP_JOB)).toBe(clock.now() + WRITE_CYCLE);
  });

  it('the active worker never catches up (it is the one writing the store)', () => {
    const { service, jobs } = replica({ leader: true });
    service.catchUp(T0 + 60_000);
    expect(jobs.next(CATCH_UP_JOB)).toBeNull();
  });
});

describe('board views and maintenance', () => {
  it('a free key sees the board as it was 60 s ago', () => {
    const { clock, service } = replica({ leader: true });
    service.apply(changeSet(1, T0, { events: [ev], upserted: [oddsRow('a')] }));
    const free = { keyId: 'k', accountId: 'acct_k', name: null, tier: 'free' as const, arbitrageEnabled: true };
    expect(service.viewFor(free).rows.has('a')).toBe(false);
    expect(service.viewFor({ ...free, tier: 'pro' }).rows.has('a')).toBe(true);
    clock.advance(60_000);
    expect(service.viewFor(free).rows.has('a')).toBe(true);
  });

  it('ended events leave after the grace period; events left without prices after 10 minutes', () => {
    const { clock, service } = replica({ leader: true });
    const ended = boardEvent('ended', { status: 'ended', endedAt: T0, updatedAt: T0 });
    const empty = boardEvent('empty', { updatedAt: T0 });
    const priced = boardEvent('priced', { updatedAt: T0 });
    service.apply(changeSet(1, T0, { events: [ended, empty, priced], upserted: [oddsRow('p', { eventId: 'priced' })] }));
    clock.set(T0 + 600_000);
    service.maintain();
    expect([...service.board.events.keys()].sort()).toEqual(['ended', 'priced']);
    clock.set(T0 + 3_600_000);
    service.maintain();
    expect([...service.board.events.keys()]).toEqual(['priced']);
  });
});

describe('a standby taking over from an active worker that died before writing', () => {
  it('writes the prices the store lacks or holds older, at their own change times, and the removals it heard', async () => {
    const { store, service } = replica();
    const onlyOnBus = oddsRow('bus-only', { changedAt: T0 + 1_000 });
    const stored = oddsRow('moved', { american: -110, changedAt: T0 });
    const moved = { ...stored, american: -130, changedAt: T0 + 2_000 };
    const same = oddsRow('same', { changedAt: T0 });
    const removedOnBus = oddsRow('removed', { changedAt: T0 });
    const untouched = oddsRow('store-only', { changedAt: T0 });
    service.applyReplica(changeSet(1, T0, { events: [ev], upserted: [stored, same, removedOnBus], seq: 1 }));
    service.applyReplica(changeSet(2, T0 + 3_000, { upserted: [onlyOnBus, moved], removed: [removal(removedOnBus, T0 + 3_000)], seq: 2 }));
    // The dead worker had written the first change set only (and a row this replica never heard of).
    store.events = [ev];
    store.rows = [stored, same, removedOnBus, untouched];

    expect(await service.persistWhatTheStoreLacks()).toBe(3);
    await service.writer.flush({ force: true });
    const written = store.writes.flatMap((w) => w.rows.map((r) => `${r.id}@${r.changedAt - T0}:${r.american}`)).sort();
    expect(written).toEqual([`bus-only@1000:${onlyOnBus.american}`, 'moved@2000:-130']);
    expect(store.writes.flatMap((w) => w.history.map((h) => `${h.row.id}@${h.at - T0}`)).sort()).toEqual(['bus-only@1000', 'moved@2000']);
    expect(store.writes.flatMap((w) => w.removed.map((r) => `${r.id}@${r.removedAt - T0}`))).toEqual(['removed@3000']);
    // Nothing left to write the second time.
    store.rows = [moved, same, untouched, onlyOnBus];
    expect(await service.persistWhatTheStoreLacks()).toBe(0);
  });

  it('retries after a write cycle when the store cannot be read at the take-over', async () => {
    const { store, service, clock, leadership } = replica();
    service.applyReplica(changeSet(1, T0, { events: [ev], upserted: [oddsRow('a', { changedAt: T0 })], seq: 1 }));
    leadership.isLeader = true;
    store.failLoads = 1;
    expect(await service.persistWhatTheStoreLacks()).toBe(0);
    expect(store.writes).toHaveLength(0);
    await clock.advance(WRITE_CYCLE);
    await service.writer.flush({ force: true });
    expect(store.writes.flatMap((w) => w.rows.map((r) => r.id))).toEqual(['a']);
  });
});

import { describe, expect, it } from '@jest/globals';
import type { EventBus } from '../../common/bus/event-bus.js';
import type { OddsRow } from '../../domain/odds-row.js';
import { oddsRow } from '../board/board.fixtures.js';
import { refOf } from './detection.engine.js';
import type { Detector, OpportunityRecord } from './detector.js';
import { assembleSnapshot, LifecyclePublisher, MemorySnapshotStore } from './lifecycle-publisher.js';
import type { LifecycleMessage, WireFlags } from './lifecycle-wire.js';
import { OpportunityReplica } from './opportunity-replica.js';
import { OpportunityRegistry } from './registry.js';
import { type OpportunityEvent, LIFECYCLE_TOPIC, SNAPSHOT_READY_TOPIC } from '../../domain/topics.js';

interface ToyRecord extends OpportunityRecord {
  row: OddsRow;
  value: number;
}

const row = (id: string, book: string, eventId: string, price: number): OddsRow =>
  oddsRow(id, { sportsbook: book, eventId, decimal: price });

/** A record found at `at` (by default at its value). */
const rec = (id: string, source: string, value: number, r: OddsRow, at = value): ToyRecord => ({
  kind: 'toy',
  id,
  source,
  eventId: r.eventId,
  marketType: 'moneyline',
  detectedAt: at,
  updatedAt: at,
  guards: { flagged: [], offConsensus: [], unverified: [] },
  row: r,
  value,
});

const detector = {
  kind: 'toy',
  rows: (r: ToyRecord) => [r.row],
  signature: (r: ToyRecord) => r.value,
} as unknown as Detector;

/** A worker (a registry and the publisher on a recording bus) and a replica following it. */
function setUp() {
  const sent: Array<{ topic: string; payload: unknown }> = [];
  const bus = {
    instanceId: 'worker-1',
    publish: (topic: string, payload: unknown) => sent.push({ topic, payload: JSON.parse(JSON.stringify(payload)) }),
  } as unknown as EventBus;
  const store = new MemorySnapshotStore();
  const workerReg = new OpportunityRegistry<OpportunityRecord>();
  const workerFlags = new Map<string, WireFlags[number][1]>();
  const publisher = new LifecyclePublisher(bus, store, {
    registries: () => [{ detector, scope: 'all', live: workerReg }],
    flags: () => [...workerFlags].filter((e): e is [string, NonNullable<(typeof e)[1]>] => e[1] !== null),
    seq: () => 7,
    now: () => 1000,
  });
  publisher.begin();

  const replicaReg = new OpportunityRegistry<OpportunityRecord>();
  const events: OpportunityEvent[] = [];
  const flagCalls: Array<{ flags: WireFlags; replaceAll: boolean }> = [];
  let requests = 0;
  const replica = new OpportunityReplica(
    {
      registry: (kind, scope) => (kind === 'toy' && scope === 'all' ? replicaReg : undefined),
      registries: () => [{ kind: 'toy', scope: 'all', registry: replicaReg }],
      ref: (_kind, r) => refOf(detector, r),
      signature: (_kind, r) => detector.signature(r),
      setFlags: (flags, replaceAll) => flagCalls.push({ flags, replaceAll }),
      emit: (evt) => events.push(evt),
    },
    { request: () => requests++, load: async () => assembleSnapshot(await store.read()), retryLater: () => undefined },
  );

  /** The worker evaluates one source and publishes; returns its message (not delivered yet). */
  const evaluate = (source: string, found: ToyRecord[], flags: WireFlags = [], at = 1000): LifecycleMessage => {
    const diff = workerReg.replaceSource(source, found);
    for (const [g, f] of flags) workerFlags.set(g, f);
    publisher.publish(7, at, [{ detector, scope: 'all', diff }], flags);
    return sent.filter((m) => m.topic === LIFECYCLE_TOPIC).at(-1)!.payload as LifecycleMessage;
  };
  /** The worker answers a resync request; the replica reads the snapshot when the ready note comes. */
  const answer = async () => {
    await publisher.answer();
    expect(sent.at(-1)!.topic).toBe(SNAPSHOT_READY_TOPIC);
    await replica.onSnapshotReady();
  };
  const ids = (reg: OpportunityRegistry<OpportunityRecord>) => [...reg.values()].map((r) => r.id).sort();
  const byId = (reg: OpportunityRegistry<OpportunityRecord>) => Object.fromEntries([...reg.values()].map((r) => [r.id, r]));
  return { replica, evaluate, answer, workerReg, replicaReg, events, flagCalls, ids, byId, requests: () => requests, publisher, store };
}

const r1 = row('r1', 'draftkings', 'e1', 2.1);
const r2 = row('r2', 'fanduel', 'e1', 2.05);
const r3 = row('r3', 'pinnacle', 'e2', 1.9);

describe('opportunity replica', () => {
  it('starts from a snapshot, skips what it holds, then applies detected, updated and expired as the worker found them', async () => {
    const t = setUp();
    t.evaluate('g1', [rec('a', 'g1', 1, r1)]);
    t.replica.start();
    expect(t.requests()).toBe(1);
    // Published after the request, before the snapshot: kept, and skipped since the snapshot holds it.
    const m2 = t.evaluate('g1', [rec('a', 'g1', 1, r1), rec('b', 'g1', 1, r2)]);
    t.replica.onMessage(m2);
    expect(t.replicaReg.size).toBe(0);
    await t.answer();
    expect(t.replica.synced).toBe(true);
    expect(t.ids(t.replicaReg)).toEqual(['a', 'b']);
    expect(t.byId(t.replicaReg)).toEqual(t.byId(t.workerReg));
    expect(t.events.map((e) => e.detected.map((r) => r.id))).toEqual([['a', 'b']]);

    // a moves, b goes, c appears elsewhere.
    t.replica.onMessage(t.evaluate('g1', [rec('a', 'g1', 2, r1)]));
    t.replica.onMessage(t.evaluate('g2', [rec('c', 'g2', 3, r3)]));
    expect(t.byId(t.replicaReg)).toEqual(t.byId(t.workerReg));
    expect(t.ids(t.replicaReg)).toEqual(['a', 'c']);
    expect((t.replicaReg.get('a') as ToyRecord).value).toBe(2);
    const [upd, det] = t.events.slice(1);
    expect(upd!.updated.map((r) => r.id)).toEqual(['a']);
    // The expiry ref is built from the record the replica held: its event and books.
    expect(upd!.expired).toEqual([
      { id: 'b', eventId: 'e1', sport: 'basketball', league: 'nba', marketType: 'moneyline', books: ['fanduel'], live: false },
    ]);
    expect(det!.detected.map((r) => r.id)).toEqual(['c']);
    expect(t.replicaReg.idsOf('g1')).toEqual(new Set(['a']));
    expect(t.replicaReg.idsOf('g2')).toEqual(new Set(['c']));
    expect(t.requests()).toBe(1);
  });

  it('resyncs on a skipped message and converges on the worker, announcing the differences', async () => {
    const t = setUp();
    t.replica.start();
    await t.answer();
    t.replica.onMessage(t.evaluate('g1', [rec('a', 'g1', 1, r1), rec('b', 'g1', 1, r2)]));
    t.evaluate('g1', [rec('b', 'g1', 2, r2)]); // lost: a expired, b moved
    const m3 = t.evaluate('g2', [rec('c', 'g2', 3, r3)], [
      ['g2', [{ book: 'pinnacle', flag: 'self_arbitrage', impliedTotal: 0.97, limit: 0.98 }]],
    ] as WireFlags);
    t.replica.onMessage(m3);
    expect(t.requests()).toBe(2);
    expect(t.ids(t.replicaReg)).toEqual(['a', 'b']); // nothing applied past the gap
    t.events.length = 0;
    await t.answer();
    expect(t.replica.synced).toBe(true);
    expect(t.byId(t.replicaReg)).toEqual(t.byId(t.workerReg));
    expect(t.events).toHaveLength(1);
    expect(t.events[0]!.expired.map((r) => r.id)).toEqual(['a']);
    expect(t.events[0]!.updated.map((r) => r.id)).toEqual(['b']);
    expect(t.events[0]!.detected.map((r) => r.id)).toEqual(['c']);
    // Flags come whole with the snapshot.
    expect(t.flagCalls.at(-1)).toEqual({
      replaceAll: true,
      flags: [['g2', [{ book: 'pinnacle', flag: 'self_arbitrage', impliedTotal: 0.97, limit: 0.98 }]]],
    });

    // And it carries on from there.
    t.replica.onMessage(t.evaluate('g2', []));
    expect(t.ids(t.replicaReg)).toEqual(['b']);
    expect(t.requests()).toBe(2);
  });

  it("resyncs when the worker's term changes (a takeover), and on request (bus gap, reconnect)", async () => {
    const t = setUp();
    t.replica.start();
    await t.answer();
    t.replica.onMessage(t.evaluate('g1', [rec('a', 'g1', 1, r1)]));
    t.publisher.begin(); // another term: numbers start again
    t.replica.onMessage(t.evaluate('g1', [rec('a', 'g1', 1, r1), rec('b', 'g1', 1, r2)]));
    expect(t.requests()).toBe(2);
    await t.answer();
    expect(t.ids(t.replicaReg)).toEqual(['a', 'b']);
    t.replica.resync();
    expect(t.requests()).toBe(3);
    expect(t.replica.synced).toBe(false);
    await t.answer();
    expect(t.replica.synced).toBe(true);
  });

  it('does not load a snapshot older than the messages it kept (some between them are missing): waits for a fresher one', async () => {
    const t = setUp();
    t.evaluate('g1', [rec('a', 'g1', 1, r1)]);
    await t.publisher.answer(); // a periodic snapshot, at message 1
    t.replica.start();
    t.evaluate('g1', [rec('a', 'g1', 1, r1), rec('b', 'g1', 1, r2)]); // message 2: missed
    t.replica.onMessage(t.evaluate('g2', [rec('c', 'g2', 3, r3)])); // message 3: kept
    await t.replica.onSnapshotReady();
    expect(t.replica.synced).toBe(false);
    expect(t.replicaReg.size).toBe(0);
    await t.answer();
    expect(t.replica.synced).toBe(true);
    expect(t.byId(t.replicaReg)).toEqual(t.byId(t.workerReg));
  });

  it('gets records re-found unchanged as ids only: takes their new updatedAt, announces nothing, holds what the worker holds', async () => {
    const t = setUp();
    t.replica.start();
    await t.answer();
    t.replica.onMessage(t.evaluate('g1', [rec('a', 'g1', 1, r1, 1000), rec('b', 'g1', 1, r2, 1000)], [], 1000));
    t.events.length = 0;
    // Re-evaluated at 2000 with nothing moved: no record travels, no price either.
    const same = t.evaluate('g1', [rec('a', 'g1', 1, r1, 2000), rec('b', 'g1', 1, r2, 2000)], [], 2000);
    expect(same.changes).toEqual([{ kind: 'toy', scope: 'all', detected: [], updated: [], kept: ['a', 'b'], expired: [] }]);
    expect(same.rows).toEqual([]);
    t.replica.onMessage(same);
    expect(t.events).toEqual([]);
    expect(t.byId(t.replicaReg)).toEqual(t.byId(t.workerReg));
    expect(t.replicaReg.get('a')!.updatedAt).toBe(2000);
    expect(t.replicaReg.get('a')!.detectedAt).toBe(1000);
    // b moves, a does not: only b travels whole, and only b is announced.
    const moved = t.evaluate('g1', [rec('a', 'g1', 1, r1, 3000), rec('b', 'g1', 5, r2, 3000)], [], 3000);
    expect(moved.changes[0]!.updated.map((w) => w.id)).toEqual(['b']);
    expect(moved.changes[0]!.kept).toEqual(['a']);
    expect(moved.rows.map((r) => r.id)).toEqual(['r2']);
    t.replica.onMessage(moved);
    expect(t.events.map((e) => [e.detected.length, e.updated.map((r) => r.id), e.expired.length])).toEqual([[0, ['b'], 0]]);
    expect(t.byId(t.replicaReg)).toEqual(t.byId(t.workerReg));
    expect(t.requests()).toBe(1);
  });

  it('sends whole a record re-found unchanged but confirmed at another time than the message', async () => {
    const t = setUp();
    t.evaluate('g1', [rec('a', 'g1', 1, r1, 1000)], [], 1000);
    const msg = t.evaluate('g1', [rec('a', 'g1', 1, r1, 1500)], [], 2000);
    expect(msg.changes[0]!.kept).toBeUndefined();
    expect(msg.changes[0]!.updated).toEqual([expect.objectContaining({ id: 'a', updatedAt: 1500 })]);
  });

  it('resyncs when told a record it does not hold was re-found unchanged (it drifted), and converges', async () => {
    const t = setUp();
    t.replica.start();
    await t.answer();
    t.replica.onMessage(t.evaluate('g1', [rec('a', 'g1', 1, r1, 1000), rec('b', 'g1', 1, r2, 1000)], [], 1000));
    t.replicaReg.applyRemote([], ['a']); // lost here somehow
    t.replica.onMessage(t.evaluate('g1', [rec('a', 'g1', 1, r1, 2000), rec('b', 'g1', 1, r2, 2000)], [], 2000));
    expect(t.replica.stats.unknownKept).toBe(1);
    expect(t.requests()).toBe(2);
    expect(t.replica.synced).toBe(false);
    expect(t.replicaReg.get('b')!.updatedAt).toBe(1000); // nothing of it applied
    await t.answer();
    expect(t.replica.synced).toBe(true);
    expect(t.byId(t.replicaReg)).toEqual(t.byId(t.workerReg));
    expect(t.ids(t.replicaReg)).toEqual(['a', 'b']);
  });

  it('ignores snapshots it did not ask for, and everything once stopped', async () => {
    const t = setUp();
    t.replica.start();
    await t.answer();
    t.evaluate('g1', [rec('a', 'g1', 1, r1)]);
    await t.answer(); // another replica's request
    expect(t.replicaReg.size).toBe(0);
    t.replica.stop();
    t.replica.onMessage(t.evaluate('g1', []));
    expect(t.requests()).toBe(1);
  });
});

describe('the snapshot store, refreshed incrementally', () => {
  it('the first refresh of a term writes every record; the next ones only those changed since, and the replica loads the same state', async () => {
    const t = setUp();
    t.evaluate('g1', [rec('a', 'g1', 1, r1), rec('b', 'g1', 1, r2)]);
    t.evaluate('g2', [rec('c', 'g2', 3, r3)]);
    await t.publisher.answer();
    expect(t.publisher.stats).toMatchObject({ snapshots: 1, fullSnapshots: 1, lastSnapshotEntries: 3 });
    // g1 again: a moves, b goes; g2 is not evaluated, so c is not written again.
    t.evaluate('g1', [rec('a', 'g1', 2, r1)]);
    await t.publisher.answer();
    // a written, b dropped: 2 entries, where a full refresh would have written a and c.
    expect(t.publisher.stats).toMatchObject({ snapshots: 2, fullSnapshots: 1, lastSnapshotEntries: 2 });
    expect([...t.store.entries.keys()].sort()).toEqual(['toy|all|a', 'toy|all|c']);
    t.replica.start();
    await t.answer();
    expect(t.byId(t.replicaReg)).toEqual(t.byId(t.workerReg));
    expect((t.replicaReg.get('a') as ToyRecord).value).toBe(2);
  });

  it('writes everything again when the store lost the snapshot (a Redis restart) or a write failed', async () => {
    const t = setUp();
    t.evaluate('g1', [rec('a', 'g1', 1, r1), rec('b', 'g1', 1, r2)]);
    await t.publisher.answer();
    t.store.clear();
    await t.publisher.answer();
    expect(t.publisher.stats).toMatchObject({ fullSnapshots: 2, lastSnapshotEntries: 2 });
    const write = t.store.write.bind(t.store);
    t.store.write = async () => {
      throw new Error('connection lost');
    };
    t.evaluate('g1', [rec('a', 'g1', 5, r1), rec('b', 'g1', 1, r2)]);
    await expect(t.publisher.answer()).rejects.toThrow('connection lost');
    t.store.write = write;
    await t.publisher.answer();
    expect(t.publisher.stats).toMatchObject({ fullSnapshots: 3, lastSnapshotEntries: 2 });
    t.replica.start();
    await t.answer();
    expect((t.replicaReg.get('a') as ToyRecord).value).toBe(5);
  });

  it('a torn store (fewer entries than its meta counts) reads as no snapshot', async () => {
    const t = setUp();
    t.evaluate('g1', [rec('a', 'g1', 1, r1), rec('b', 'g1', 1, r2)]);
    await t.publisher.answer();
    expect(assembleSnapshot(await t.store.read())?.registries[0]?.records).toHaveLength(2);
    t.store.entries.delete('toy|all|b');
    expect(assembleSnapshot(await t.store.read())).toBeNull();
  });

  it("joins the entries' row tables into one: each record points at its own rows", async () => {
    const t = setUp();
    t.evaluate('g1', [rec('a', 'g1', 1, r1), rec('b', 'g1', 1, r2)]);
    await t.publisher.answer();
    const snap = assembleSnapshot(await t.store.read())!;
    expect(snap.rows.map((r) => r.id).sort()).toEqual(['r1', 'r2']);
    const refs = snap.registries[0]!.records.map((w) => [w.id, snap.rows[(w.row as { $r: number }).$r]!.id]);
    expect(refs.sort()).toEqual([
      ['a', 'r1'],
      ['b', 'r2'],
    ]);
  });
});

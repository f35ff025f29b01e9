import { beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { ManualClock } from '../../common/time/clock.js';
import { BoardWriter, isDataError, MAX_BUFFERED_HISTORY, type BoardStore } from './board-writer.js';
import type { HistoryEntry } from './board.repository.js';
import { boardEvent, changeSet, oddsRow, removal, T0 } from './board.fixtures.js';
import type { BoardEvent, OddsRow, RemovedRow } from '../../domain/odds-row.js';

beforeAll(() => Logger.overrideLogger(false));

type Batch = { rows: OddsRow[]; removed: RemovedRow[]; history: HistoryEntry[]; events: BoardEvent[]; eventsRemoved: string[] };

/** A store in memory that can be made unreachable, or to refuse given row ids for their data (SQLSTATE 22021). */
class FakeStore implements BoardStore {
  writes: Batch[] = [];
  touches: Array<{ ids: string[]; at: number }> = [];
  down = false;
  refuse = new Set<string>();
  rows = new Map<string, OddsRow>();
  history: HistoryEntry[] = [];

  async write(batch: Batch): Promise<void> {
    if (this.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    if (batch.rows.some((r) => this.refuse.has(r.id)) || batch.history.some((h) => this.refuse.has(h.row.id))) {
      throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    }
    this.writes.push(batch);
    for (const r of batch.rows) this.rows.set(r.id, r);
    for (const r of batch.removed) this.rows.delete(r.id);
    for (const h of batch.history) this.history.push(h);
  }

  async touch(ids: string[], at: number): Promise<void> {
    if (this.down) throw new Error('connect ECONNREFUSED');
    this.touches.push({ ids: [...ids].sort(), at });
  }
}

function setup() {
  const store = new FakeStore();
  const clock = new ManualClock(T0);
  return { store, clock, writer: new BoardWriter(store, clock) };
}

describe('BoardWriter', () => {
  it('writes the latest state of each row once per flush, with every change in the history', async () => {
    const { store, writer } = setup();
    writer.enqueue(changeSet(1, T0, { events: [boardEvent('ev1')], upserted: [oddsRow('a', { american: -110 }), oddsRow('b')] }));
    writer.enqueue(changeSet(2, T0 + 1000, { upserted: [oddsRow('a', { american: -120 })] }));
    expect(writer.pending).toBe(2 + 3 + 1);
    await writer.flush();
    expect(store.writes).toHaveLength(1);
    expect(store.writes[0]!.rows.map((r) => [r.id, r.american])).toEqual([
      ['a', -120],
      ['b', -110],
    ]);
    expect(store.writes[0]!.history.map((h) => [h.row.id, h.row.american, h.at])).toEqual([
      ['a', -110, T0],
      ['b', -110, T0],
      ['a', -120, T0 + 1000],
    ]);
    expect(store.writes[0]!.events.map((e) => e.id)).toEqual(['ev1']);
    expect(writer.pending).toBe(0);
    await writer.flush();
    expect(store.writes).toHaveLength(1);
  });

  it('a removal cancels a pending upsert of the row; an event removal takes its pending rows; seen ids are touched per time', async () => {
    const { store, writer } = setup();
    const a = oddsRow('a');
    writer.enqueue(changeSet(1, T0, { upserted: [a, oddsRow('b', { eventId: 'ev2' })], events: [boardEvent('ev2')] }));
    writer.enqueue(changeSet(2, T0 + 1, { removed: [removal(a, T0 + 1)], eventsRemoved: ['ev2'], seen: ['c', 'd'] }));
    writer.enqueue(changeSet(3, T0 + 2, { seen: ['e'] }));
    await writer.flush();
    const w = store.writes[0]!;
    expect([w.rows, w.removed.map((r) => r.id), w.events, w.eventsRemoved]).toEqual([[], ['a'], [], ['ev2']]);
    expect(store.touches).toEqual([
      { ids: ['c', 'd'], at: T0 + 1 },
      { ids: ['e'], at: T0 + 2 },
    ]);
  });

  it('buffers everything while the database is unreachable, and writes it when it returns, newer state winning', async () => {
    const { store, writer } = setup();
    store.down = true;
    writer.enqueue(changeSet(1, T0, { upserted: [oddsRow('a', { american: -110 })], seen: ['s'] }));
    await writer.flush();
    expect(writer.healthy).toBe(false);
    expect(writer.pending).toBe(2);
    // Arrives while the database is away: newer than what failed.
    writer.enqueue(changeSet(2, T0 + 1000, { upserted: [oddsRow('a', { american: -130 })] }));
    store.down = false;
    await writer.flush();
    expect(writer.healthy).toBe(true);
    expect(store.rows.get('a')?.american).toBe(-130);
    expect(store.history.map((h) => h.row.american)).toEqual([-110, -130]);
    expect(store.touches).toEqual([{ ids: ['s'], at: T0 }]);
    expect(writer.lossReport()).toBeNull();
  });

  it('history is bounded while the database is away: past MAX_BUFFERED_HISTORY the oldest entries are dropped and counted', async () => {
    const { store, writer } = setup();
    store.down = true;
    // One row changed MAX + 3 times: one current price, MAX + 3 history entries, of which the 3 oldest go.
    const prices = Array.from({ length: MAX_BUFFERED_HISTORY + 3 }, (_, i) => oddsRow('a', { decimal: 1.5 + i / 1e7 }));
    for (let i = 0; i < prices.length; i += 100_000) writer.enqueue(changeSet(i + 1, T0 + i, { upserted: prices.slice(i, i + 100_000) }));
    expect([writer.pending, writer.droppedHistory]).toEqual([1 + MAX_BUFFERED_HISTORY, 3]);
    await writer.flush();
    store.down = false;
    await writer.drain();
    expect(store.history).toHaveLength(MAX_BUFFERED_HISTORY);
    // The newest kept, in order, after a failed write put them back.
    expect(store.history[0]!.row).toBe(prices[3]);
    expect(store.history[MAX_BUFFERED_HISTORY - 1]!.row).toBe(prices[prices.length - 1]);
  });

  it('a batch refused for its data is bisected: everything else is stored, the refused item quarantined with the time', async () => {
    const { store, writer, clock } = setup();
    const rows = Array.from({ length: 9 }, (_, i) => oddsRow(`r${i}`));
    store.refuse.add('r6');
    writer.enqueue(changeSet(1, T0, { upserted: rows }));
    clock.advance(5_000);
    await writer.flush();
    expect(writer.healthy).toBe(true);
    expect([...store.rows.keys()].sort()).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r7', 'r8']);
    expect(writer.quarantinedByKind).toEqual({ rows: 1, removed: 0, history: 1, events: 0, eventsRemoved: 0 });
    const quarantined = writer.quarantine.map((q) => `${q.kind} ${q.id} ${q.code} ${q.at}`).sort();
    expect(quarantined).toEqual([`history r6 22021 ${T0 + 5_000}`, `rows r6 22021 ${T0 + 5_000}`]);
    expect(writer.pending).toBe(0);
    expect(isDataError({ code: '23505' })).toBe(true);
    expect(isDataError({ code: '08006' })).toBe(false);
  });

  it('while paused, only a forced flush writes; drain writes until nothing is left', async () => {
    const { store, writer } = setup();
    writer.pause();
    writer.enqueue(changeSet(1, T0, { upserted: [oddsRow('a')] }));
    await writer.flush();
    expect(store.writes).toHaveLength(0);
    await writer.flush({ force: true });
    expect(store.writes).toHaveLength(1);
    writer.resume();
    writer.enqueue(changeSet(2, T0 + 1, { upserted: [oddsRow('b')] }));
    await writer.drain();
    expect(store.rows.has('b')).toBe(true);
  });
});

describe('BoardWriter with a bound per transaction (the embedded store)', () => {
  it('writes a large flush in parts of at most maxBatch of each kind; event removals and confirmations with the last part', async () => {
    const store = new FakeStore();
    const writer = new BoardWriter(store, new ManualClock(T0), 2);
    const rows = ['a', 'b', 'c', 'd', 'e'].map((id) => oddsRow(id, { eventId: 'ev1' }));
    writer.enqueue(changeSet(1, T0, { events: [boardEvent('ev1'), boardEvent('ev2')], upserted: rows }));
    writer.enqueue(changeSet(2, T0 + 1, { upserted: [oddsRow('x', { eventId: 'ev2' })], seen: ['a'] }));
    writer.enqueue(changeSet(3, T0 + 2, { eventsRemoved: ['ev2'] }));
    await writer.flush();
    // 5 prices (x left with its event) and 6 history entries, 2 at a time: 3 transactions.
    expect(store.writes.map((w) => [w.rows.map((r) => r.id), w.history.length, w.events.map((e) => e.id), w.eventsRemoved])).toEqual([
      [['a', 'b'], 2, ['ev1'], []],
      [['c', 'd'], 2, [], []],
      [['e'], 2, [], ['ev2']],
    ]);
    expect(store.touches).toEqual([{ ids: ['a'], at: T0 + 1 }]);
    expect(writer.pending).toBe(0);
  });

  it('a part that fails keeps the rest buffered; the next flush writes it, with nothing written twice', async () => {
    const store = new FakeStore();
    const writer = new BoardWriter(store, new ManualClock(T0), 2);
    writer.enqueue(changeSet(1, T0, { events: [boardEvent('ev1')], upserted: ['a', 'b', 'c'].map((id) => oddsRow(id)) }));
    const write = store.write.bind(store);
    let calls = 0;
    store.write = async (b) => {
      if (++calls === 2) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return write(b);
    };
    await writer.flush();
    expect(writer.healthy).toBe(false);
    expect(store.writes.map((w) => w.rows.map((r) => r.id))).toEqual([['a', 'b']]);
    await writer.flush();
    expect(writer.healthy).toBe(true);
    expect(store.writes.map((w) => w.rows.map((r) => r.id))).toEqual([['a', 'b'], ['c']]);
    expect(store.history.map((h) => h.row.id).sort()).toEqual(['a', 'b', 'c']);
  });
});

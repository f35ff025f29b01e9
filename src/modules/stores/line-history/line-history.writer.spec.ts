import { beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { changeSet, oddsRow, removal, T0 } from '../../board/board.fixtures.js';
import type { ChangeRow, SeriesKey } from './line-history.repository.js';
import { LineHistoryWriter, MAX_BUFFERED_CHANGES, priceE4, type LineHistorySink } from './line-history.writer.js';

beforeAll(() => Logger.overrideLogger(false));

/** The store in memory: series numbered from 1 in order of creation; can be made unreachable or to refuse given rows' text. */
class FakeSink implements LineHistorySink {
  series = new Map<string, SeriesKey & { id: number; firstAt: number }>();
  changes: ChangeRow[] = [];
  statements = { series: 0, changes: 0 };
  down = false;
  refuse = new Set<string>();

  async ensureSeries(keys: ReadonlyArray<SeriesKey & { firstAt: number }>): Promise<Map<string, number>> {
    if (this.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    if (keys.some((k) => this.refuse.has(k.oddsId))) throw Object.assign(new Error('invalid byte sequence 0x00'), { code: '22021' });
    this.statements.series++;
    for (const k of keys) if (!this.series.has(k.oddsId)) this.series.set(k.oddsId, { ...k, id: this.series.size + 1 });
    return new Map(keys.map((k) => [k.oddsId, this.series.get(k.oddsId)!.id]));
  }

  async seriesIds(ids: readonly string[]): Promise<Map<string, number>> {
    return new Map(ids.filter((id) => this.series.has(id)).map((id) => [id, this.series.get(id)!.id]));
  }

  async insertChanges(changes: readonly ChangeRow[]): Promise<void> {
    if (this.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    this.statements.changes++;
    this.changes.push(...changes);
  }
}

const row = (id: string, decimal: number, patch = {}) => oddsRow(id, { decimal, american: Math.round(-100 / (decimal - 1)), ...patch });

describe('LineHistoryWriter', () => {
  it('stores each change once per batch: one series statement for rows first seen, one changes statement', async () => {
    const sink = new FakeSink();
    const w = new LineHistoryWriter(sink);
    w.enqueue(changeSet(1, T0, { upserted: [row('a', 1.9), row('b', 1.95)] }));
    w.enqueue(changeSet(2, T0 + 1000, { upserted: [row('a', 1.87)] }));
    expect([w.pending, w.holds('ev1'), w.holds('ev2')]).toEqual([3, true, false]);
    await w.flush();
    expect(sink.statements).toEqual({ series: 1, changes: 1 });
    expect(sink.changes.map((c) => [c.seriesId, c.at, c.priceE4])).toEqual([
      [1, T0, 19_000],
      [2, T0, 19_500],
      [1, T0 + 1000, 18_700],
    ]);
    expect([w.pending, w.holds('ev1'), w.stats.stored]).toEqual([0, false, 3]);
    // Known series: the next batch needs no series statement.
    w.enqueue(changeSet(3, T0 + 2000, { upserted: [row('b', 1.93)] }));
    await w.flush();
    expect(sink.statements).toEqual({ series: 1, changes: 2 });
  });

  it('keeps the state: suspended, live, and a withdrawal as a change without a price', async () => {
    const sink = new FakeSink();
    const w = new LineHistoryWriter(sink);
    const a = row('a', 1.9);
    w.enqueue(changeSet(1, T0, { upserted: [a] }));
    w.enqueue(changeSet(2, T0 + 10, { upserted: [{ ...a, isActive: false }] }));
    w.enqueue(changeSet(3, T0 + 20, { upserted: [{ ...a, isLive: true }] }));
    w.enqueue(changeSet(4, T0 + 30, { removed: [removal(a, T0 + 30)] }));
    await w.flush();
    expect(sink.changes.map((c) => [c.at - T0, c.priceE4, c.american, c.isLive, c.isActive])).toEqual([
      [0, 19_000, -111, false, true],
      [10, 19_000, -111, false, false],
      [20, 19_000, -111, true, true],
      [30, null, null, false, false],
    ]);
  });

  it('a withdrawal of a row never stored is nothing to record; one stored before (another batch, a restart) is found', async () => {
    const sink = new FakeSink();
    const w = new LineHistoryWriter(sink);
    w.enqueue(changeSet(1, T0, { removed: [removal(row('ghost', 1.9), T0)] }));
    await w.flush();
    expect(sink.changes).toEqual([]);
    // A series stored by an earlier process: the writer knows no id, the store does.
    await sink.ensureSeries([
      {
        oddsId: 'old',
        eventId: 'ev1',
        sportsbook: 'dk',
        marketType: 'moneyline',
        period: 'full',
        selection: 'x',
        selectionType: 'home',
        line: null,
        playerName: null,
        firstAt: T0,
      },
    ]);
    w.enqueue(changeSet(2, T0 + 5, { removed: [removal(row('old', 1.9), T0 + 5)] }));
    await w.flush();
    expect(sink.changes.map((c) => [c.seriesId, c.priceE4])).toEqual([[1, null]]);
  });

  it('two changes of a row at one instant: the later state is stored', async () => {
    const sink = new FakeSink();
    const w = new LineHistoryWriter(sink);
    w.enqueue(changeSet(1, T0, { upserted: [row('a', 1.9)] }));
    w.enqueue(changeSet(2, T0, { upserted: [row('a', 1.8)] }));
    await w.flush();
    expect(sink.changes.map((c) => c.priceE4)).toEqual([18_000]);
  });

  it('while paused, only a forced flush writes; drain writes until nothing is left', async () => {
    const sink = new FakeSink();
    const w = new LineHistoryWriter(sink);
    w.pause();
    w.enqueue(changeSet(1, T0, { upserted: [row('a', 1.9)] }));
    await w.flush();
    expect([sink.statements, w.pending, w.holds('ev1')]).toEqual([{ series: 0, changes: 0 }, 1, true]);
    await w.flush({ force: true });
    expect([sink.changes.map((c) => c.priceE4), w.pending]).toEqual([[19_000], 0]);
    w.enqueue(changeSet(2, T0 + 1, { upserted: [row('a', 1.85)] }));
    await w.drain();
    expect(sink.changes.map((c) => c.priceE4)).toEqual([19_000, 18_500]);
    w.resume();
    w.enqueue(changeSet(3, T0 + 2, { upserted: [row('a', 1.8)] }));
    await w.flush();
    expect([sink.changes.map((c) => c.priceE4), w.pending]).toEqual([[19_000, 18_500, 18_000], 0]);
  });

  it('keeps everything while the database is unreachable and writes it when it returns', async () => {
    const sink = new FakeSink();
    const w = new LineHistoryWriter(sink);
    sink.down = true;
    w.enqueue(changeSet(1, T0, { upserted: [row('a', 1.9)] }));
    await w.flush();
    expect([w.healthy, w.pending, w.holds('ev1'), w.stats.writeFailures]).toEqual([false, 1, true, 1]);
    w.enqueue(changeSet(2, T0 + 1, { upserted: [row('a', 1.85)] }));
    sink.down = false;
    await w.flush();
    expect([w.healthy, w.pending, w.holds('ev1')]).toEqual([true, 0, false]);
    expect(sink.changes.map((c) => c.priceE4)).toEqual([19_000, 18_500]);
  });

  it('a row the database refuses for its data is dropped and counted; the others are stored', async () => {
    const sink = new FakeSink();
    const w = new LineHistoryWriter(sink);
    sink.refuse.add('bad');
    w.enqueue(changeSet(1, T0, { upserted: [row('a', 1.9), row('bad', 1.9), row('c', 2.1)] }));
    await w.flush();
    expect([w.healthy, w.pending, w.stats.refused, sink.changes.length]).toEqual([true, 0, 1, 2]);
  });

  it('the buffer is bounded: past the limit the oldest changes are dropped and counted', () => {
    const w = new LineHistoryWriter(new FakeSink());
    const many = new Array<ReturnType<typeof row>>(MAX_BUFFERED_CHANGES + 5).fill(row('a', 1.9));
    w.enqueue(changeSet(1, T0, { upserted: many }));
    expect([w.pending, w.stats.dropped]).toEqual([MAX_BUFFERED_CHANGES, 5]);
  });

  it('prices are stored exactly: decimal x 10^4', () => {
    // 1.9091 (-110 rounded to 4 decimals) -> 19091; 101.0 -> 1010000; 1.0001 -> 10001.
    expect([priceE4(1.9091), priceE4(101), priceE4(1.0001)]).toEqual([19_091, 1_010_000, 10_001]);
  });
});

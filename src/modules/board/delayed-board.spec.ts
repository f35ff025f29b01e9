import { describe, expect, it } from '@jest/globals';
import { changeSet, boardEvent, oddsRow, removal, T0 } from './board.fixtures.js';
import { DelayedBoard } from './delayed-board.js';

const DELAY = 60_000;

describe('DelayedBoard', () => {
  it('shows a change exactly when it is `delay` old, not a millisecond before', () => {
    const d = new DelayedBoard(DELAY);
    const r = oddsRow('r1');
    d.push(changeSet(1, T0, { events: [boardEvent('ev1')], upserted: [r] }));
    expect(d.advance(T0 + DELAY - 1).rows.has('r1')).toBe(false);
    expect(d.pending).toBe(1);
    expect(d.advance(T0 + DELAY).rows.get('r1')).toEqual(r);
    expect(d.pending).toBe(0);
  });

  it('replays changes in order: a price moved twice shows each price in its turn, a removal last', () => {
    const d = new DelayedBoard(DELAY);
    const first = oddsRow('r1', { american: -110 });
    const second = oddsRow('r1', { american: -125, changedAt: T0 + 10_000 });
    d.push(changeSet(1, T0, { events: [boardEvent('ev1')], upserted: [first] }));
    d.push(changeSet(2, T0 + 10_000, { upserted: [second] }));
    d.push(changeSet(3, T0 + 20_000, { removed: [removal(second, T0 + 20_000)] }));
    expect(d.advance(T0 + DELAY + 5_000).rows.get('r1')?.american).toBe(-110);
    expect(d.advance(T0 + DELAY + 10_000).rows.get('r1')?.american).toBe(-125);
    expect(d.advance(T0 + DELAY + 19_999).rows.has('r1')).toBe(true);
    expect(d.advance(T0 + DELAY + 20_000).rows.has('r1')).toBe(false);
  });

  it('reading at an earlier time never rewinds what was already shown', () => {
    const d = new DelayedBoard(DELAY);
    d.push(changeSet(1, T0, { events: [boardEvent('ev1')], upserted: [oddsRow('r1')] }));
    d.advance(T0 + DELAY);
    expect(d.advance(T0).rows.has('r1')).toBe(true);
  });

  it('keeps its queue bounded as it drains (thousands of change sets), and stays exact', () => {
    const d = new DelayedBoard(DELAY);
    d.push(changeSet(1, T0, { events: [boardEvent('ev1')] }));
    for (let i = 0; i < 5000; i++)
      d.push(changeSet(i + 2, T0 + i, { upserted: [oddsRow('r1', { american: -100 - i, changedAt: T0 + i })] }));
    expect(d.advance(T0 + DELAY + 2999).rows.get('r1')?.american).toBe(-3099);
    expect(d.pending).toBe(2000);
    expect(d.advance(T0 + DELAY + 4999).rows.get('r1')?.american).toBe(-5099);
    expect(d.pending).toBe(0);
  });

  it('shows the board it was loaded with, what applyNow gave at once, then the change sets that followed when due, whether indexed by fill() or by the first read', () => {
    for (const early of [true, false]) {
      const d = new DelayedBoard(DELAY);
      const stored = oddsRow('r1', { american: -110 });
      d.load([boardEvent('ev1')], [stored, oddsRow('r2')], T0);
      d.applyNow(changeSet(1, T0 + 500, { upserted: [oddsRow('r3')] }));
      d.push(changeSet(1, T0 + 1_000, { upserted: [oddsRow('r1', { american: -130, changedAt: T0 + 1_000 })] }));
      d.push(changeSet(2, T0 + 2_000, { removed: [removal(oddsRow('r2'), T0 + 2_000)] }));
      if (early) d.fill();
      expect([...d.advance(T0 + 500).rows.keys()].sort()).toEqual(['r1', 'r2', 'r3']);
      const before = d.advance(T0 + DELAY);
      expect(before.rows.get('r1')).toEqual(stored);
      expect(before.rows.has('r2')).toBe(true);
      expect(before.events.has('ev1')).toBe(true);
      expect(d.advance(T0 + DELAY + 1_000).rows.get('r1')?.american).toBe(-130);
      expect(d.advance(T0 + DELAY + 2_000).rows.has('r2')).toBe(false);
      d.fill();
      expect(d.board.rows.get('r1')?.american).toBe(-130);
    }
  });
});

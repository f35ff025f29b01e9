import { describe, expect, it } from '@jest/globals';
import { ManualClock } from './clock.js';

describe('ManualClock timers', () => {
  it('runs a timeout once its due time is reached, with now() at that time', async () => {
    const clock = new ManualClock(1_000);
    const seen: number[] = [];
    clock.setTimeout(() => seen.push(clock.now()), 500);
    await clock.advance(499);
    expect(seen).toEqual([]);
    await clock.advance(1);
    expect(seen).toEqual([1_500]);
    await clock.advance(10_000);
    expect(seen).toEqual([1_500]);
    expect(clock.now()).toBe(11_500);
  });

  it('runs an interval every time it falls due within one advance, in due order with other timers', async () => {
    const clock = new ManualClock(0);
    const seen: string[] = [];
    clock.setInterval(() => seen.push(`i@${clock.now()}`), 100);
    clock.setTimeout(() => seen.push(`t@${clock.now()}`), 250);
    await clock.advance(350);
    expect(seen).toEqual(['i@100', 'i@200', 't@250', 'i@300']);
    expect(clock.pendingTimers).toBe(1);
  });

  it('a cancelled timer never runs', async () => {
    const clock = new ManualClock(0);
    let runs = 0;
    const t = clock.setInterval(() => runs++, 10);
    await clock.advance(25);
    t.cancel();
    await clock.advance(100);
    expect(runs).toBe(2);
    expect(clock.pendingTimers).toBe(0);
  });

  it('moves time at once and settles when the asynchronous work the timers started has settled', async () => {
    const clock = new ManualClock(0);
    const done: number[] = [];
    clock.setTimeout(async () => {
      await new Promise((r) => setImmediate(r));
      done.push(clock.now());
    }, 10);
    const p = clock.advance(20);
    expect(clock.now()).toBe(20);
    expect(done).toEqual([]);
    await p;
    expect(done).toEqual([20]);
  });

  it('a timer scheduled by a timer counts from the time it ran; a failing timer does not stop the others', async () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    clock.setTimeout(() => {
      clock.setTimeout(() => seen.push(clock.now()), 30);
      throw new Error('boom');
    }, 10);
    clock.setTimeout(() => seen.push(clock.now()), 20);
    await clock.advance(100);
    expect(seen).toEqual([20, 40]);
  });
});

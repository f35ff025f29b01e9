import { describe, expect, it } from '@jest/globals';
import { fullGc } from './full-gc.js';

describe('fullGc', () => {
  it('collects an object nothing refers to any more, and says how long it took', async () => {
    // Made in a function of its own: nothing in this one refers to it.
    const ref = ((): WeakRef<object> => new WeakRef({ payload: new Array(1000).fill('x') }))();
    // A WeakRef's target is kept for the rest of the turn that made or read it.
    await new Promise((r) => setImmediate(r));
    const ms = fullGc();
    expect(ref.deref()).toBeUndefined();
    expect(ms).toBeGreaterThan(0);
  });

  it('leaves what is still referenced', async () => {
    const kept = { payload: [1, 2, 3] };
    const ref = new WeakRef(kept);
    await new Promise((r) => setImmediate(r));
    fullGc();
    expect(ref.deref()).toBe(kept);
  });
});

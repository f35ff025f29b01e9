import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DropOldestBuffer } from './drop-oldest-buffer.js';

describe('DropOldestBuffer', () => {
  it('keeps the newest `max` items in order, dropping the oldest and handing each to onDrop', () => {
    const gone: number[] = [];
    const b = new DropOldestBuffer<number>(3, (x) => gone.push(x));
    for (let i = 1; i <= 5; i++) b.push(i);
    expect([...b]).toEqual([3, 4, 5]);
    expect([b.size, b.dropped, gone]).toEqual([3, 2, [1, 2]]);
  });

  it('takes the oldest first, and puts a failed batch back in front', () => {
    const b = new DropOldestBuffer<number>(10);
    for (let i = 1; i <= 6; i++) b.push(i);
    expect(b.take(4)).toEqual([1, 2, 3, 4]);
    b.push(7);
    b.putBack([1, 2, 3, 4]);
    expect([...b]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(b.take()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect([b.size, [...b]]).toEqual([0, []]);
  });

  it('after a putBack past the bound, the next push drops down to it', () => {
    const b = new DropOldestBuffer<number>(3);
    b.push(4);
    b.putBack([1, 2, 3]);
    expect(b.size).toBe(4);
    b.push(5);
    expect([...b]).toEqual([3, 4, 5]);
    expect(b.dropped).toBe(2);
  });

  it('behaves as an array cut to its last `max` items, whatever the sequence of operations', () => {
    // The model: a plain array, sliced after each push (what the writers did before).
    const op = fc.oneof(
      fc.record({ push: fc.integer() }),
      fc.record({ take: fc.integer({ min: 0, max: 12 }) }),
      fc.record({ putBack: fc.array(fc.integer(), { maxLength: 6 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 80 }), (max, ops) => {
        const b = new DropOldestBuffer<number>(max);
        let model: number[] = [];
        let dropped = 0;
        for (const o of ops) {
          if ('push' in o) {
            model.push(o.push);
            if (model.length > max) {
              dropped += model.length - max;
              model = model.slice(model.length - max);
            }
            b.push(o.push);
          } else if ('take' in o) {
            expect(b.take(o.take)).toEqual(model.slice(0, o.take));
            model = model.slice(o.take);
          } else {
            b.putBack(o.putBack);
            model = [...o.putBack, ...model];
          }
          expect([...b]).toEqual(model);
          expect(b.size).toBe(model.length);
          expect(b.dropped).toBe(dropped);
        }
      }),
    );
  });

  it('a push at the bound copies nothing of the backlog (the array is compacted once per half of it)', () => {
    // Counted, not timed: the slices made while a full buffer of 1,000 takes 10,000 more pushes.
    const b = new DropOldestBuffer<number>(1000);
    for (let i = 0; i < 1000; i++) b.push(i);
    const slice = Array.prototype.slice;
    let copied = 0;
    Array.prototype.slice = function (this: unknown[], ...a: [number?, number?]) {
      const out = slice.apply(this, a);
      copied += out.length;
      return out;
    } as typeof Array.prototype.slice;
    try {
      for (let i = 0; i < 10_000; i++) b.push(i);
    } finally {
      Array.prototype.slice = slice;
    }
    // Each kept item is copied about once per compaction (one per half of the array dropped): about 1 per push.
    // A slice of the backlog per push would copy 1,000 per push (10,000,000 in all).
    expect(copied).toBeLessThan(4 * 10_000);
    expect([...b].slice(0, 2)).toEqual([9000, 9001]);
  });
});

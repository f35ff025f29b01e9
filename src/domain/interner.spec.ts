import { describe, expect, it } from '@jest/globals';
import { Interner } from './interner.js';

/** A string equal to `s` but built at run time (a separate copy, as parsing or concatenation produces). */
const copy = (s: string): string => [...s].join('');

describe('Interner', () => {
  it('holds one entry per distinct value, however many copies are interned', () => {
    const it = new Interner();
    const values = ['nba|point_spread|game|', 'nba|point_spread|game|', 'other', 'nba|point_spread|game|'];
    for (const v of values) expect(it.intern(copy(v))).toBe(v);
    expect(it.size).toBe(2);
  });

  it('passes null and undefined through', () => {
    const it = new Interner();
    expect(it.intern(null)).toBeNull();
    expect(it.intern(undefined)).toBeUndefined();
    expect(it.size).toBe(0);
  });

  it('is bounded: a full generation is retired, values in use are promoted, the rest dropped', () => {
    const it = new Interner(2);
    it.intern('a');
    it.intern('b');
    it.intern('c'); // retires {a, b}
    expect(it.size).toBe(3);
    it.intern('a'); // promoted from the retired generation: still shared
    expect(it.intern(copy('a'))).toBe('a');
    it.intern('d'); // retires {c, a}: b is gone
    it.intern('e');
    expect(it.size).toBeLessThanOrEqual(4);
    // Correct either way: an interned value always equals its input.
    for (const s of ['a', 'b', 'c', 'd', 'e', 'f']) expect(it.intern(copy(s))).toBe(s);
  });
});

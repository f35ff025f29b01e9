import { describe, expect, it } from '@jest/globals';
import type { OddsBoard } from '../board/odds-board.js';
import { ResultCache } from './result-cache.js';

/** A board as the cache sees it: an identity and a version. */
const board = (version = 0) => ({ version }) as OddsBoard;

describe('ResultCache', () => {
  it('computes once per (board, version, key) and answers repeats from memory', () => {
    const cache = new ResultCache<string>();
    const b = board();
    let calls = 0;
    const compute = () => `value ${++calls}`;
    expect(cache.get(b, 'q', compute)).toBe('value 1');
    expect(cache.get(b, 'q', compute)).toBe('value 1');
    expect(calls).toBe(1);
    expect(cache.get(b, 'other', compute)).toBe('value 2');
    expect(calls).toBe(2);
  });

  it('recomputes after the board version moves, and keeps the new value', () => {
    const cache = new ResultCache<number>();
    const b = board(3);
    let n = 0;
    expect(cache.get(b, 'q', () => ++n)).toBe(1);
    (b as { version: number }).version = 4;
    expect(cache.get(b, 'q', () => ++n)).toBe(2);
    expect(cache.get(b, 'q', () => ++n)).toBe(2);
  });

  it('keeps boards apart: the delayed view and the live board never share an entry', () => {
    const cache = new ResultCache<string>();
    const live = board(1);
    const delayed = board(1);
    expect(cache.get(live, 'q', () => 'live')).toBe('live');
    expect(cache.get(delayed, 'q', () => 'delayed')).toBe('delayed');
    expect(cache.get(live, 'q', () => 'again')).toBe('live');
  });

  it('evicts the least recently used key past its size, a read counting as a use', () => {
    const cache = new ResultCache<string>(2);
    const b = board();
    const computed: string[] = [];
    const get = (k: string) => cache.get(b, k, () => (computed.push(k), k));
    get('a');
    get('b');
    get('a'); // a is now the most recent
    get('c'); // evicts b
    get('a');
    get('b'); // recomputed, evicts c
    get('c'); // recomputed
    expect(computed).toEqual(['a', 'b', 'c', 'b', 'c']);
  });
});

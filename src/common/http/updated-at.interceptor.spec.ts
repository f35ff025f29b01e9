import { describe, expect, it } from '@jest/globals';
import { withUpdatedAt } from './updated-at.interceptor.js';

describe('updated_at on every envelope', () => {
  const T = '2026-11-22T12:00:00.000Z';
  it('is added to single and list envelopes that lack it', () => {
    expect(withUpdatedAt({ success: true, data: { a: 1 } }, T)).toEqual({ success: true, data: { a: 1 }, updated_at: T });
    expect(withUpdatedAt({ success: true, data: [], pagination: {}, meta: { count: 0 } }, T)).toMatchObject({ updated_at: T });
  });
  it("keeps a route's own time", () => {
    expect(withUpdatedAt({ success: true, data: 1, updated_at: 'x' }, T)).toEqual({ success: true, data: 1, updated_at: 'x' });
  });
  it('leaves anything else alone (CSV text, errors, arrays, no body)', () => {
    expect(withUpdatedAt('a,b\n1,2', T)).toBe('a,b\n1,2');
    expect(withUpdatedAt({ error: { code: 'x' } }, T)).toEqual({ error: { code: 'x' } });
    expect(withUpdatedAt([1], T)).toEqual([1]);
    expect(withUpdatedAt(undefined, T)).toBeUndefined();
  });
});

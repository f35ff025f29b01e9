import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { EVENT_UUID_NAMESPACE, eventUuid } from './event-uuid.js';

/** RFC 4122 section 4.3, computed here by hand: SHA-1 of namespace bytes + name, version 5, variant 10. */
function v5ByHand(name: string, ns: string): string {
  const h = createHash('sha1')
    .update(Buffer.from(ns.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

describe('event uuid', () => {
  it('is the version 5 UUID of the event id', () => {
    const id = 'nba_boston_celtics_los_angeles_lakers_2026-11-22_b1';
    expect(eventUuid(id)).toBe(v5ByHand(id, EVENT_UUID_NAMESPACE));
    expect(eventUuid(id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
  it('is stable and distinct per event', () => {
    expect(eventUuid('a_b_c_2026-01-01_b1')).toBe(eventUuid('a_b_c_2026-01-01_b1'));
    expect(eventUuid('a_b_c_2026-01-01_b1')).not.toBe(eventUuid('a_b_c_2026-01-01_b2'));
  });
  it('matches the published RFC example vector for the DNS namespace', () => {
    expect(v5ByHand('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });
});

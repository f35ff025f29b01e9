import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { entityTag, KeptAnswers, noneMatch } from './conditional-get.js';

/** The tag as the hook defines it, computed here from its definition: sha256 of "tier:sha256(body)", 20 hex digits, quoted. */
function expected(tier: string, body: string): string {
  const digest = createHash('sha256').update(body).digest('hex');
  return `"${createHash('sha256').update(`${tier}:${digest}`).digest('hex').slice(0, 20)}"`;
}

describe('entityTag', () => {
  it('is the digest of the tier and the body: strong, and different per tier for the same bytes', () => {
    const body = '{"success":true,"data":[]}';
    expect(entityTag('pro', body)).toEqual({ tag: expected('pro', body), status: 'BYPASS' });
    expect(entityTag('sharp', body).tag).toBe(expected('sharp', body));
    expect(entityTag('pro', body).tag).not.toBe(entityTag('sharp', body).tag);
    expect(entityTag('pro', `${body} `).tag).not.toBe(entityTag('pro', body).tag);
  });

  it('leaves the response times out: updated_at and server_time blanked, every other field (data times too) counted', () => {
    const at = (t: string) =>
      `{"success":true,"data":[{"id":"a","odds_changed_at":"x"}],"meta":{"server_time":"${t}"},"updated_at":"${t}"}`;
    const blank = '{"success":true,"data":[{"id":"a","odds_changed_at":"x"}],"meta":{"server_time":""},"updated_at":""}';
    expect(entityTag('pro', at('2026-11-22T12:00:00.000Z')).tag).toBe(expected('pro', blank));
    expect(entityTag('pro', at('2026-11-22T12:00:01.000Z')).tag).toBe(expected('pro', blank));
    expect(entityTag('pro', at('1').replace('"x"', '"y"')).tag).not.toBe(expected('pro', blank));
  });

  it('a Buffer sent again is a HIT with the same tag (its digest kept); equal bytes in a new Buffer are a MISS', () => {
    const text = JSON.stringify({ data: 'x'.repeat(1000) });
    const page = Buffer.from(text);
    expect(entityTag('pro', page)).toEqual({ tag: expected('pro', text), status: 'MISS' });
    expect(entityTag('pro', page)).toEqual({ tag: expected('pro', text), status: 'HIT' });
    expect(entityTag('enterprise', page)).toEqual({ tag: expected('enterprise', text), status: 'HIT' });
    expect(entityTag('pro', Buffer.from(text))).toEqual({ tag: expected('pro', text), status: 'MISS' });
  });
});

describe('noneMatch (If-None-Match, weak comparison)', () => {
  const tag = '"abc123"';
  it.each([
    ['"abc123"', true],
    ['W/"abc123"', true],
    ['*', true],
    [' * ', true],
    ['"x", "abc123"', true],
    ['"x",W/"abc123" , "y"', true],
    ['"a,b", "abc123"', true],
    ['junk, "abc123"', true],
    ['"abc1234"', false],
    ['abc123', false],
    ['"abc123', false],
    ['"x", "y"', false],
    ['', false],
    ['**', false],
    ['"*"', false],
  ])('%j -> %s', (header, match) => {
    expect(noneMatch(header, tag)).toBe(match);
  });

  it('no header matches nothing; repeated headers are one list', () => {
    expect(noneMatch(undefined, tag)).toBe(false);
    expect(noneMatch(['"x"', '"abc123"'], tag)).toBe(true);
  });
});

describe('KeptAnswers', () => {
  const body = (n: number) => Buffer.alloc(n, 1);
  const keep = (kept: KeptAnswers, key: string, stamp: string, size = 10, validUntil = Infinity) =>
    kept.keep(
      { kept, key, stamp: { stamp, validUntil } },
      { tag: `"${key}-${stamp}"`, body: body(size), type: 'application/json', headers: {} },
    );

  it('gives the answer back only for the same stamp, before the time it may change', () => {
    const kept = new KeptAnswers(3);
    keep(kept, 'a', 's1', 10, 1000);
    expect(kept.current('a', 's1', 999)?.tag).toBe('"a-s1"');
    expect(kept.current('a', 's1', 1000)).toBeUndefined();
    expect(kept.current('a', 's2', 0)).toBeUndefined();
    expect(kept.current('b', 's1', 0)).toBeUndefined();
    keep(kept, 'a', 's2');
    expect(kept.current('a', 's1', 0)).toBeUndefined();
    expect(kept.current('a', 's2', 5000)?.tag).toBe('"a-s2"');
    expect(kept.size).toBe(1);
  });

  it('holds at most its capacity and its bytes, dropping the least recently used', () => {
    const kept = new KeptAnswers(3, 100);
    for (const k of ['a', 'b', 'c']) keep(kept, k, 's');
    expect(kept.current('a', 's', 0)).toBeDefined();
    keep(kept, 'd', 's');
    expect(kept.size).toBe(3);
    expect(kept.current('b', 's', 0)).toBeUndefined();
    expect(['a', 'c', 'd'].map((k) => kept.current(k, 's', 0)?.tag)).toEqual(['"a-s"', '"c-s"', '"d-s"']);
    // 10 + 10 + 10 bytes kept; 75 more leave room for two of them (95), not three (105): the oldest goes.
    keep(kept, 'e', 's', 75);
    expect(['a', 'c', 'd', 'e'].map((k) => kept.current(k, 's', 0) !== undefined)).toEqual([false, true, true, true]);
    // An answer larger than the whole budget is not kept, and takes nothing else out.
    keep(kept, 'f', 's', 101);
    expect(kept.current('f', 's', 0)).toBeUndefined();
    expect(kept.size).toBe(3);
  });
});

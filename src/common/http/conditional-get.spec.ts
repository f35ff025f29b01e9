import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { entityTag, KnownTags, noneMatch } from './conditional-get.js';

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

describe('KnownTags', () => {
  const at = (key: string, stamp: string, validUntil = Infinity) => ({ known, key, stamp: { stamp, validUntil } });
  let known = new KnownTags(3);

  it('gives the ETag back only for the same stamp, before the time the answer may change', () => {
    known = new KnownTags(3);
    known.remember(at('a', 's1', 1000), '"t1"');
    expect(known.current('a', 's1', 999)).toBe('"t1"');
    expect(known.current('a', 's1', 1000)).toBeUndefined();
    expect(known.current('a', 's2', 0)).toBeUndefined();
    expect(known.current('b', 's1', 0)).toBeUndefined();
    known.remember(at('a', 's2'), '"t2"');
    expect(known.current('a', 's1', 0)).toBeUndefined();
    expect(known.current('a', 's2', 5000)).toBe('"t2"');
  });

  it('holds at most its capacity, dropping the least recently used', () => {
    known = new KnownTags(3);
    for (const k of ['a', 'b', 'c']) known.remember(at(k, 's'), `"${k}"`);
    expect(known.current('a', 's', 0)).toBe('"a"');
    known.remember(at('d', 's'), '"d"');
    expect(known.size).toBe(3);
    expect(known.current('b', 's', 0)).toBeUndefined();
    expect(['a', 'c', 'd'].map((k) => known.current(k, 's', 0))).toEqual(['"a"', '"c"', '"d"']);
  });
});

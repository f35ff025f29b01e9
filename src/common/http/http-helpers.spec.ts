import { describe, expect, it } from '@jest/globals';
import { plainToInstance } from 'class-transformer';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { validateSync } from 'class-validator';
import { paginate, pagination } from './envelope.js';
import { BooleanParam, CsvList, PageQuery, parseBoolean, splitList } from './query.js';
import { validationException } from './validation.js';
import { redact } from '../logging/json-logger.js';
import { extractKey } from '../auth/api-key.guard.js';

class Q extends PageQuery({ defaultLimit: 50, maxLimit: 200, maxOffset: 5000 }) {
  @IsOptional() @IsString({ each: true }) @CsvList({ lowercase: true }) sport?: string[];
  @IsOptional() @IsBoolean() @BooleanParam() live?: boolean;
}

function parse(query: Record<string, unknown>) {
  const q = plainToInstance(Q, query);
  const errors = validateSync(q, { whitelist: true, forbidNonWhitelisted: true });
  return { q, error: errors.length ? validationException(errors) : null };
}

describe('query parameters', () => {
  it('applies defaults', () => {
    const { q, error } = parse({});
    expect(error).toBeNull();
    expect(q.limit).toBe(50);
    expect(q.offset).toBe(0);
  });
  it('splits comma lists and repeated keys', () => {
    expect(splitList('a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(splitList(['a,b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(parse({ sport: 'NBA,nhl' }).q.sport).toEqual(['nba', 'nhl']);
  });
  it('parses booleans strictly', () => {
    expect(parseBoolean('true')).toBe(true);
    expect(parseBoolean('0')).toBe(false);
    expect(parseBoolean('maybe')).toBe('maybe');
    const { error } = parse({ live: 'maybe' });
    expect(error?.code).toBe('invalid_request');
    expect(error?.message).toMatch(/"live"/);
  });
  it.each([
    [{ limit: 'abc' }, 'invalid_request', /"limit": limit must be an integer/],
    [{ limit: '-1' }, 'invalid_request', /"limit": limit must be at least 1/],
    [{ limit: '201' }, 'invalid_request', /not be greater than 200/],
    [{ limit: '1.5' }, 'invalid_request', /"limit"/],
    [{ offset: '-3' }, 'invalid_request', /"offset"/],
    [{ offset: '5001' }, 'offset_too_large', /"offset"/],
    [{ sprot: 'nba' }, 'invalid_request', /Unknown parameter "sprot"/],
  ])('refuses %j', (query, code, message) => {
    const { error } = parse(query);
    expect(error?.code).toBe(code);
    expect(error?.message).toMatch(message);
  });
  it('reports max_offset with offset_too_large', () => {
    expect(parse({ offset: '9999' }).error?.extras.max_offset).toBe(5000);
  });
});

describe('envelopes', () => {
  it('computes has_more and next_offset', () => {
    expect(pagination(10, 0, 25, 10)).toEqual({ limit: 10, offset: 0, has_more: true, next_offset: 10 });
    expect(pagination(10, 20, 25, 5)).toEqual({ limit: 10, offset: 20, has_more: false, next_offset: null });
  });
  it('slices a page and mirrors pagination into meta', () => {
    const p = paginate([1, 2, 3, 4, 5], 2, 2, { source: 'board' });
    expect(p.data).toEqual([3, 4]);
    expect(p.meta).toEqual({ count: 2, total: 5, source: 'board', pagination: p.pagination });
    expect(p.pagination.next_offset).toBe(4);
  });
});

describe('keys never reach the logs', () => {
  it('redacts keys in URLs and headers', () => {
    expect(redact('/api/v1/odds?sport=nba&api_key=sk_live_secret&x=1')).toBe('/api/v1/odds?sport=nba&api_key=[redacted]&x=1');
    expect(redact('{"x-api-key":"sk_live_secret"}')).not.toContain('sk_live_secret');
    expect(redact('Authorization: Bearer sk_live_secret')).not.toContain('sk_live_secret');
  });
});

describe('extractKey', () => {
  it('prefers X-API-Key, then Bearer, then api_key', () => {
    expect(extractKey({ headers: { 'x-api-key': 'a', authorization: 'Bearer b' }, query: { api_key: 'c' } })).toBe('a');
    expect(extractKey({ headers: { authorization: 'bearer b' }, query: { api_key: 'c' } })).toBe('b');
    expect(extractKey({ headers: {}, query: { api_key: 'c' } })).toBe('c');
    expect(extractKey({ headers: { authorization: 'Basic xyz' }, query: {} })).toBeUndefined();
  });
});

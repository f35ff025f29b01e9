import { describe, expect, it } from '@jest/globals';
import type { ArgumentMetadata } from '@nestjs/common';
import { BatchOddsBody, ListOddsQuery } from './odds.query.js';
import { ApiError } from '../../../common/http/api-error.js';
import { CachingValidationPipe, createValidationPipe, declaredProperties } from '../../../common/http/validation.js';

const meta: ArgumentMetadata = { type: 'query', metatype: ListOddsQuery, data: '' };

describe('the validation pipe remembers validated query strings', () => {
  it('gives every request its own copy of the same validated DTO', async () => {
    const pipe = createValidationPipe();
    const raw = { sportsbook: 'DraftKings,fanduel', limit: '20', live: 'true' };
    const a = (await pipe.transform({ ...raw }, meta)) as ListOddsQuery;
    const b = (await pipe.transform({ ...raw }, meta)) as ListOddsQuery;
    expect(a).toBeInstanceOf(ListOddsQuery);
    expect(b).toBeInstanceOf(ListOddsQuery);
    expect(b.sportsbook).toEqual(['draftkings', 'fanduel']);
    expect(b.limit).toBe(20);
    expect(b).toEqual(a);
    // A handler changing its copy changes no other request's.
    a.sportsbook!.push('betmgm');
    a.limit = 7;
    const c = (await pipe.transform({ ...raw }, meta)) as ListOddsQuery;
    expect(c.sportsbook).toEqual(['draftkings', 'fanduel']);
    expect(c.limit).toBe(20);
    expect(c.sportsbook).not.toBe(b.sportsbook);
  });

  it('rejects a bad query every time (failures are not remembered)', async () => {
    const pipe = createValidationPipe();
    for (let i = 0; i < 2; i++) {
      const err = await pipe.transform({ limit: '-1' }, meta).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('invalid_request');
    }
  });

  it('answers cachedQuery only for a query string validated before, with the validated DTO', async () => {
    const pipe = createValidationPipe();
    const raw = { sportsbook: 'DraftKings,fanduel', limit: '20' };
    expect(pipe.cachedQuery(ListOddsQuery, raw)).toBeUndefined();
    await pipe.transform({ limit: '-1' }, meta).catch(() => undefined);
    expect(pipe.cachedQuery(ListOddsQuery, { limit: '-1' })).toBeUndefined();
    const validated = await pipe.transform({ ...raw }, meta);
    const hit = pipe.cachedQuery(ListOddsQuery, { ...raw });
    expect(hit).toBeInstanceOf(ListOddsQuery);
    expect(hit).toEqual(validated);
    expect(pipe.cachedQuery(ListOddsQuery, { ...raw, limit: '21' })).toBeUndefined();
    expect(pipe.cachedQuery(BatchOddsBody, { ...raw })).toBeUndefined();
  });

  it('stays bounded', async () => {
    const pipe = createValidationPipe() as CachingValidationPipe;
    for (let i = 0; i < CachingValidationPipe.MAX_ENTRIES + 10; i++)
      await pipe.transform({ limit: String((i % 500) + 1), offset: String(i) }, meta);
    const sizes = [...pipe['memo'].values()].map((m) => m.size);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(CachingValidationPipe.MAX_ENTRIES);
  });
});

describe("the validation pipe compares keys with the DTO's own declared properties", () => {
  const body: ArgumentMetadata = { type: 'body', metatype: BatchOddsBody, data: '' };
  const refusal = async (value: unknown, m: ArgumentMetadata) => {
    const err = await createValidationPipe()
      .transform(value, m)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    return (err as ApiError).message;
  };

  it('refuses prototype names and typos as unknown parameters, in a null-prototype query object too', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'limt']) {
      const q = Object.assign(Object.create(null) as object, { [name]: '1' });
      if (name === '__proto__') Object.defineProperty(q, '__proto__', { value: '1', enumerable: true });
      expect(await refusal(q, meta)).toBe(`Unknown parameter "${name}"`);
      expect(await refusal({ event_ids: ['a'], [name]: 1 }, body)).toBe(`Unknown parameter "${name}"`);
    }
  });

  it('refuses a body that is not a JSON object before transforming it', async () => {
    expect(await refusal(undefined, body)).toBe('The request body must be a JSON object, got no body');
    expect(await refusal(null, body)).toBe('The request body must be a JSON object, got null');
    expect(await refusal([1], body)).toBe('The request body must be a JSON object, got an array');
    expect(await refusal('x', body)).toBe('The request body must be a JSON object, got a string');
    expect(await refusal(5, body)).toBe('The request body must be a JSON object, got a number');
  });

  it('knows the declared properties of a DTO, inherited ones included', () => {
    expect([...declaredProperties(BatchOddsBody)!.keys()].sort()).toEqual(['event_ids', 'market', 'sportsbook']);
    expect(declaredProperties(BatchOddsBody)!.get('event_ids')).toEqual({ list: true });
    expect(declaredProperties(BatchOddsBody)!.get('market')).toEqual({ list: false });
    const q = declaredProperties(ListOddsQuery)!;
    for (const p of ['limit', 'offset', 'api_key', 'state', 'team', 'q', 'sport']) expect(q.has(p)).toBe(true);
    expect(q.has('constructor')).toBe(false);
  });

  it('refuses a single-valued parameter given twice, and takes repeated list parameters', async () => {
    expect(await refusal({ limit: ['1', '500'] }, meta)).toBe('Invalid parameter "limit": given 2 times; it takes one value');
    expect(await refusal({ team: ['a', 'b', 'c'] }, meta)).toBe('Invalid parameter "team": given 3 times; it takes one value');
    expect(await refusal({ limit: ['1', '2'], limt: '3' }, meta)).toBe('Unknown parameter "limt"');
    await expect(createValidationPipe().transform({ sportsbook: ['draftkings', 'fanduel,betmgm'] }, meta)).resolves.toMatchObject({
      sportsbook: ['draftkings', 'fanduel', 'betmgm'],
    });
  });

  it('refuses a search with nothing to match once folded (punctuation alone)', async () => {
    for (const v of ['!!', '   ', '---', '', '\u6771\u4eac']) {
      expect(await refusal({ team: v }, meta)).toMatch(/^Invalid parameter "team": team must contain at least one letter/);
    }
    await expect(createValidationPipe().transform({ team: 'St. Louis!' }, meta)).resolves.toMatchObject({ team: 'St. Louis!' });
    await expect(createValidationPipe().transform({ q: 'Mü' }, meta)).resolves.toMatchObject({ q: 'Mü' });
  });
});

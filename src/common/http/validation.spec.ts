import { describe, expect, it } from '@jest/globals';
import type { ArgumentMetadata } from '@nestjs/common';
import { ListOddsQuery } from '../../modules/odds/dto/odds.query.js';
import { ApiError } from './api-error.js';
import { CachingValidationPipe, createValidationPipe } from './validation.js';

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

  it('stays bounded', async () => {
    const pipe = createValidationPipe() as CachingValidationPipe;
    for (let i = 0; i < CachingValidationPipe.MAX_ENTRIES + 10; i++) await pipe.transform({ limit: String((i % 500) + 1), offset: String(i) }, meta);
    const sizes = [...pipe['memo'].values()].map((m) => m.size);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(CachingValidationPipe.MAX_ENTRIES);
  });
});

import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../common/http/api-error.js';
import { parseCreateKeyBody, parseRotateBody } from './account-bodies.js';

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('invalid_request');
    return (e as ApiError).message;
  }
  throw new Error('not refused');
};

describe('key bodies', () => {
  it('create: a name, no name, or no body', () => {
    expect(parseCreateKeyBody({ name: '  desk ' })).toEqual({ name: 'desk' });
    expect(parseCreateKeyBody({})).toEqual({ name: null });
    expect(parseCreateKeyBody(undefined)).toEqual({ name: null });
    expect(parseCreateKeyBody({ name: null })).toEqual({ name: null });
    expect(parseCreateKeyBody({ name: 'é'.repeat(100) })).toEqual({ name: 'é'.repeat(100) });
  });

  it('create: refuses names over 100 characters, empty, not strings, with control characters, and unknown fields', () => {
    expect(refusal(() => parseCreateKeyBody({ name: 'x'.repeat(101) }))).toMatch(/at most 100/);
    expect(refusal(() => parseCreateKeyBody({ name: '   ' }))).toMatch(/empty/);
    expect(refusal(() => parseCreateKeyBody({ name: 5 }))).toMatch(/string/);
    expect(refusal(() => parseCreateKeyBody({ name: 'a\nb' }))).toMatch(/control/);
    expect(refusal(() => parseCreateKeyBody({ name: 'a', tier: 'enterprise' }))).toMatch(/Unknown parameter "tier"/);
    expect(refusal(() => parseCreateKeyBody(['a']))).toMatch(/JSON object/);
  });

  it('rotate: no body is no grace period and the old name', () => {
    expect(parseRotateBody(undefined)).toEqual({ graceHours: 0, name: undefined });
    expect(parseRotateBody({ gracePeriodHours: 24, name: 'new' })).toEqual({ graceHours: 24, name: 'new' });
    expect(parseRotateBody({ grace_period_hours: 0.5 })).toEqual({ graceHours: 0.5, name: undefined });
    expect(parseRotateBody({ gracePeriodHours: 72 })).toEqual({ graceHours: 72, name: undefined });
  });

  it('rotate: refuses a grace period outside 0-72 h or not a number, both spellings, unknown fields', () => {
    expect(refusal(() => parseRotateBody({ gracePeriodHours: 73 }))).toMatch(/0 to 72/);
    expect(refusal(() => parseRotateBody({ gracePeriodHours: -1 }))).toMatch(/0 to 72/);
    expect(refusal(() => parseRotateBody({ gracePeriodHours: '24' }))).toMatch(/gracePeriodHours/);
    expect(refusal(() => parseRotateBody({ grace_period_hours: null }))).toMatch(/grace_period_hours/);
    expect(refusal(() => parseRotateBody({ gracePeriodHours: 1, grace_period_hours: 1 }))).toMatch(/not both/);
    expect(refusal(() => parseRotateBody({ grace: 1 }))).toMatch(/Unknown parameter "grace"/);
  });
});

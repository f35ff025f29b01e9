import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ApiError } from './api-error.js';
import { checkJsonShape, parseJsonBody, type JsonLimits } from './body-limits.js';

const LOOSE: JsonLimits = { maxDepth: 1000, maxKeys: 1_000_000, maxObjectKeys: 1_000_000 };

/** The shape of a parsed value, computed independently (recursion over the value, not the text). */
function shape(v: unknown, depth = 0): { depth: number; members: number; widestObject: number } {
  if (v === null || typeof v !== 'object') return { depth, members: 0, widestObject: 0 };
  const children = Array.isArray(v) ? v : Object.values(v as object);
  let out = { depth: depth + 1, members: children.length, widestObject: Array.isArray(v) ? 0 : children.length };
  for (const c of children) {
    const s = shape(c, depth + 1);
    out = {
      depth: Math.max(out.depth, s.depth),
      members: out.members + s.members,
      widestObject: Math.max(out.widestObject, s.widestObject),
    };
  }
  return out;
}

function refused(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('checkJsonShape', () => {
  it('measures depth, members in all and keys per object as the parsed value has them', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 6 }),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 8 }),
        fc.boolean(),
        (value, maxDepth, maxKeys, maxObjectKeys, pretty) => {
          const text = JSON.stringify(value, null, pretty ? 1 : undefined);
          const s = shape(value);
          const v = checkJsonShape(text, { maxDepth, maxKeys, maxObjectKeys });
          const over = s.depth > maxDepth || s.members > maxKeys || s.widestObject > maxObjectKeys;
          expect(v !== null).toBe(over);
          expect(checkJsonShape(text, LOOSE)).toBeNull();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('ignores brackets, commas and escaped quotes inside strings', () => {
    const text = JSON.stringify({ a: '[[[{{{,,,"\\', b: ['\\"', '}]'] });
    expect(checkJsonShape(text, { maxDepth: 2, maxKeys: 4, maxObjectKeys: 2 })).toBeNull();
    expect(checkJsonShape(text, { maxDepth: 1, maxKeys: 4, maxObjectKeys: 2 })).toEqual({ limit: 'depth', max: 1 });
    expect(checkJsonShape(text, { maxDepth: 2, maxKeys: 3, maxObjectKeys: 2 })).toEqual({ limit: 'keys', max: 3 });
  });

  it('stops at the first limit crossed, without reading the rest of a huge body', () => {
    const deep = '['.repeat(500_000) + ']'.repeat(500_000);
    expect(checkJsonShape(deep, { maxDepth: 32, maxKeys: 10_000, maxObjectKeys: 1000 })).toEqual({ limit: 'depth', max: 32 });
    const wide = `{"event_ids":["a"],${Array.from({ length: 60_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(checkJsonShape(wide, { maxDepth: 32, maxKeys: 100_000, maxObjectKeys: 1000 })).toEqual({ limit: 'object_keys', max: 1000 });
    expect(checkJsonShape(wide, { maxDepth: 32, maxKeys: 10_000, maxObjectKeys: 100_000 })).toEqual({ limit: 'keys', max: 10_000 });
  });

  it('counts array items towards the total but not towards keys per object', () => {
    const text = JSON.stringify({ ids: Array.from({ length: 50 }, (_, i) => i) });
    expect(checkJsonShape(text, { maxDepth: 2, maxKeys: 51, maxObjectKeys: 1 })).toBeNull();
    expect(checkJsonShape(text, { maxDepth: 2, maxKeys: 50, maxObjectKeys: 1 })).toEqual({ limit: 'keys', max: 50 });
  });

  it('finds a key repeated within one object, escapes resolved, but not the same key in different objects', () => {
    expect(checkJsonShape('{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}', LOOSE)).toBeNull();
    expect(checkJsonShape('{"a":1,"b":2,"a":3}', LOOSE)).toEqual({ limit: 'duplicate_key', key: 'a' });
    expect(checkJsonShape('{"event_ids":["a"],"\\u0065vent_ids":"x"}', LOOSE)).toEqual({ limit: 'duplicate_key', key: 'event_ids' });
    expect(checkJsonShape('[{"x":{"y":1,"y":2}}]', LOOSE)).toEqual({ limit: 'duplicate_key', key: 'y' });
    // Values that equal a key are not keys.
    expect(checkJsonShape('{"a":"a","b":["a","a"]}', LOOSE)).toBeNull();
  });

  it('leaves malformed text to the parser (an unterminated string is not a crash)', () => {
    expect(checkJsonShape('{"a": "unterminated', LOOSE)).toBeNull();
    expect(checkJsonShape(']]]}}', LOOSE)).toBeNull();
  });
});

describe('parseJsonBody', () => {
  const limits: JsonLimits = { maxDepth: 32, maxKeys: 10_000, maxObjectKeys: 1000 };

  it('parses every JSON type at the top level', () => {
    for (const v of [null, true, 0, -1.5, 'x', [], {}, [1, { a: [2] }]]) expect(parseJsonBody(JSON.stringify(v), limits)).toEqual(v);
    expect(parseJsonBody('\ufeff{"a":1}', limits)).toEqual({ a: 1 });
  });

  it('refuses an empty body, a body past a limit (naming it) and malformed JSON with 400 invalid_request', () => {
    for (const [text, message] of [
      ['', /empty/],
      ['  \n', /empty/],
      ['{"a":' + '['.repeat(33) + ']'.repeat(33) + '}', /nested more than 32 levels/],
      [JSON.stringify(Array.from({ length: 10_001 }, () => 0)), /more than 10000 keys and array items/],
      [
        JSON.stringify(Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, 0]))),
        /more than 1000 keys \(the limit is 1000 keys per object\)/,
      ],
      ['{"event_ids": [', /Malformed JSON/],
      ['{"event_ids":["a"],"event_ids":"b"}', /repeats the key "event_ids" in one object/],
      ["{'a':1}", /Malformed JSON/],
    ] as const) {
      const e = refused(() => parseJsonBody(text, limits));
      expect(e.code).toBe('invalid_request');
      expect(e.status).toBe(400);
      expect(e.message).toMatch(message);
    }
  });

  it('refuses __proto__ and constructor.prototype keys anywhere, however they are escaped', () => {
    for (const text of [
      '{"__proto__":{"x":1}}',
      '{"a":[{"__proto__":null}]}',
      '{"\\u005f_proto__":1}',
      '{"constructor":{"prototype":{"x":1}}}',
    ]) {
      const e = refused(() => parseJsonBody(text, limits));
      expect(e.message).toMatch(/"__proto__" key .* not allowed/);
    }
    // A constructor key without a prototype inside is ordinary data.
    expect(parseJsonBody('{"constructor":"x"}', limits)).toEqual({ constructor: 'x' });
  });
});

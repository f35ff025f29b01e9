import sjson from 'secure-json-parse';
import { ApiError } from './api-error.js';

/**
 * Bounds on the shape of a JSON request body, checked on the raw text before anything parses, transforms or
 * validates it. JSON.parse of 500,000 nested arrays (1 MB) takes over 100 ms, class-transformer recurses
 * (a stack overflow past a few thousand levels) and de-duplicates an object's keys in quadratic time (60,000
 * keys: seconds), so without these one request could freeze the event loop for every other client.
 */
export interface JsonLimits {
  /** Levels of nested objects/arrays (`{"a":1}` is 1, `[[1]]` is 2). */
  maxDepth: number;
  /** Object keys plus array items, counted over the whole body. */
  maxKeys: number;
  /** Keys of any one object. */
  maxObjectKeys: number;
}

/** Keys of any one object in a JSON body (class-transformer handles an object's keys in quadratic time). */
export const MAX_OBJECT_KEYS = 1000;

export type ShapeViolation =
  | { limit: 'depth'; max: number }
  | { limit: 'keys'; max: number }
  | { limit: 'object_keys'; max: number }
  | { limit: 'duplicate_key'; key: string };

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const COMMA = 44;
const SPACE = 32;
const SMALL_OBJECT = 24;

/** The decoded text of a JSON string token (escapes resolved, so "a" and "\u0061" are the same key). */
function keyText(token: string): string {
  if (!token.includes('\\')) return token.slice(1, -1);
  try {
    return JSON.parse(token) as string;
  } catch {
    return token.slice(1, -1);
  }
}

/**
 * One pass over the text, iterative: depth, members in all, members per object and repeated keys within an
 * object (`{"a":1,"a":2}`: JSON.parse keeps the last silently, and another parser in front of us might keep the
 * first). Strings are skipped with indexOf. Works on any text (malformed JSON is for the parser to refuse);
 * returns the first limit crossed, or null.
 */
export function checkJsonShape(text: string, limits: JsonLimits): ShapeViolation | null {
  const n = text.length;
  // Per open container (a depth past maxDepth is refused before use): members so far, object or array, and for
  // an object whether the next string is a key, and the keys seen.
  const size = limits.maxDepth + 2;
  const counts = new Int32Array(size);
  const isObject = new Uint8Array(size);
  const expectKey = new Uint8Array(size);
  // Keys of each open object: a reused array searched linearly while small, a Set past SMALL_OBJECT keys.
  const keyList: string[][] = Array.from({ length: size }, () => []);
  const keySet: Array<Set<string> | undefined> = new Array<Set<string> | undefined>(size);
  let depth = 0;
  let total = 0;
  let awaitingFirst = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (awaitingFirst && c > SPACE) {
      awaitingFirst = false;
      if (c !== CLOSE_ARRAY && c !== CLOSE_OBJECT) {
        if (++total > limits.maxKeys) return { limit: 'keys', max: limits.maxKeys };
        counts[depth] = 1;
        if (isObject[depth] && limits.maxObjectKeys < 1) return { limit: 'object_keys', max: limits.maxObjectKeys };
      }
    }
    switch (c) {
      case QUOTE: {
        // Skip to the closing quote: the first one preceded by an even run of backslashes.
        const start = i;
        let from = i + 1;
        for (;;) {
          const q = text.indexOf('"', from);
          if (q < 0) return null;
          let b = q - 1;
          while (b > start && text.charCodeAt(b) === BACKSLASH) b--;
          if ((q - 1 - b) % 2 === 0) {
            i = q;
            break;
          }
          from = q + 1;
        }
        if (depth > 0 && expectKey[depth]) {
          expectKey[depth] = 0;
          const key = keyText(text.slice(start, i + 1));
          const list = keyList[depth]!;
          const set = keySet[depth];
          if (set ? set.has(key) : list.includes(key)) return { limit: 'duplicate_key', key };
          if (set) set.add(key);
          else if (list.push(key) > SMALL_OBJECT) keySet[depth] = new Set(list);
        }
        break;
      }
      case OPEN_ARRAY:
      case OPEN_OBJECT:
        if (++depth > limits.maxDepth) return { limit: 'depth', max: limits.maxDepth };
        counts[depth] = 0;
        isObject[depth] = c === OPEN_OBJECT ? 1 : 0;
        expectKey[depth] = isObject[depth]!;
        keyList[depth]!.length = 0;
        keySet[depth] = undefined;
        awaitingFirst = true;
        break;
      case CLOSE_ARRAY:
      case CLOSE_OBJECT:
        if (depth > 0) depth--;
        break;
      case COMMA:
        if (++total > limits.maxKeys) return { limit: 'keys', max: limits.maxKeys };
        if (depth > 0) {
          if (++counts[depth]! > limits.maxObjectKeys && isObject[depth]) return { limit: 'object_keys', max: limits.maxObjectKeys };
          expectKey[depth] = isObject[depth]!;
        }
        break;
    }
  }
  return null;
}

export function shapeMessage(v: ShapeViolation): string {
  switch (v.limit) {
    case 'depth':
      return `The JSON body is nested more than ${v.max} levels deep (the limit is ${v.max} levels of objects and arrays)`;
    case 'keys':
      return `The JSON body has more than ${v.max} keys and array items in all (the limit is ${v.max})`;
    case 'object_keys':
      return `An object in the JSON body has more than ${v.max} keys (the limit is ${v.max} keys per object)`;
    case 'duplicate_key': {
      const k = JSON.stringify(v.key.length > 100 ? `${v.key.slice(0, 100)}...` : v.key);
      return `The JSON body repeats the key ${k} in one object; each key may appear once`;
    }
  }
}

/**
 * Parses a JSON request body within the limits. Refuses with 400 invalid_request: an empty body, a body past a
 * limit (naming it), malformed JSON, and a `__proto__` key or a `constructor` object with a `prototype` key
 * anywhere (they would poison an object they are merged into; refused rather than silently dropped).
 */
export function parseJsonBody(raw: string, limits: JsonLimits): unknown {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  if (text.trim() === '')
    throw new ApiError('invalid_request', 'The body is empty but Content-Type is application/json; send a JSON value or no body');
  const violation = checkJsonShape(text, limits);
  if (violation) throw new ApiError('invalid_request', shapeMessage(violation));
  try {
    return sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    if (err instanceof SyntaxError && /forbidden prototype property/.test(err.message)) {
      throw new ApiError(
        'invalid_request',
        'The JSON body contains a "__proto__" key or a "constructor" object with a "prototype" key; these keys are not allowed',
      );
    }
    throw new ApiError('invalid_request', 'Malformed JSON body');
  }
}

import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { ApiError } from './api-error.js';
import { noteClampedLimit } from './limit-clamp.js';

/** A declared property, and whether it takes a list (repeated or comma-separated values). */
export type Declared = ReadonlyMap<string, { list: boolean }>;

/** A DTO class as class-validator's metadata storage takes it. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-validator's metadata API is typed on Function
type DtoClass = Function;

const declaredCache = new WeakMap<DtoClass, Declared | null>();

/**
 * The properties a DTO class declares (those with a class-validator rule, inherited ones included), as a Map:
 * membership is an own-property test, so `__proto__`, `constructor` or `toString` are never "declared" the way
 * class-validator's own whitelist lookup in a plain object takes them to be. A property validated `each` (or as
 * an array) takes a list. Null for a class with no rules.
 */
export function declaredProperties(type: DtoClass): Declared | null {
  let declared = declaredCache.get(type);
  if (declared === undefined) {
    const map = new Map<string, { list: boolean }>();
    for (const m of getMetadataStorage().getTargetValidationMetadatas(type, '', true, false)) {
      const list = m.each === true || m.name === 'isArray';
      map.set(m.propertyName, { list: (map.get(m.propertyName)?.list ?? false) || list });
    }
    declared = map.size ? map : null;
    declaredCache.set(type, declared);
  }
  return declared;
}

const shown = (name: string) => (name.length > 100 ? `${name.slice(0, 100)}...` : name);

/**
 * Refuses what no DTO may receive, before class-transformer sees it: a body that is not a JSON object, any key
 * the DTO does not declare (query parameter or body field), and a single-valued query parameter given more than
 * once (`limit=1&limit=500`: which one a proxy or cache saw is anybody's guess). Checked here, a request with
 * thousands of unknown keys costs one Map lookup each, not class-transformer's quadratic key handling.
 */
export function assertDeclaredKeys(value: unknown, metadata: ArgumentMetadata): void {
  const type = metadata.metatype;
  if (!type || (metadata.type !== 'query' && metadata.type !== 'body')) return;
  const declared = declaredProperties(type);
  if (!declared) return;
  if (metadata.type === 'body' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
    const got = value === undefined ? 'no body' : value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new ApiError('invalid_request', `The request body must be a JSON object, got ${got}`);
  }
  if (value === null || typeof value !== 'object') return;
  const keys = Object.keys(value);
  // An unknown key first: it is the likelier mistake (a typo), and the one that matters most.
  for (const key of keys)
    if (!declared.has(key)) throw new ApiError('invalid_request', `Unknown parameter "${shown(key)}"`, { parameter: shown(key) });
  if (metadata.type !== 'query') return;
  for (const key of keys) {
    const v = (value as Record<string, unknown>)[key];
    if (!declared.get(key)!.list && Array.isArray(v) && v.length > 1) {
      throw new ApiError('invalid_request', `Invalid parameter "${key}": given ${v.length} times; it takes one value`, { parameter: key });
    }
  }
}

const TYPE_CONSTRAINTS = new Set([
  'whitelistValidation',
  'isInt',
  'isNumber',
  'isBoolean',
  'isString',
  'isIn',
  'isEnum',
  'isArray',
  'isDateString',
  'isISO8601',
]);

function firstFailure(errors: ValidationError[], prefix = ''): { path: string; message: string; context?: Record<string, unknown> } | null {
  for (const e of errors) {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    if (e.constraints && Object.keys(e.constraints).length) {
      // Report a wrong type before a range ("must be an integer" rather than "must not be greater than").
      const entries = Object.entries(e.constraints);
      const [name, message] = (entries.find(([n]) => TYPE_CONSTRAINTS.has(n)) ?? entries[0]) as [string, string];
      const context = e.contexts?.[name] as Record<string, unknown> | undefined;
      return { path, message, context };
    }
    if (e.children?.length) {
      const inner = firstFailure(e.children, path);
      if (inner) return inner;
    }
  }
  return null;
}

/** Turns class-validator failures into 400 invalid_request naming the parameter and the reason. */
export function validationException(errors: ValidationError[]): ApiError {
  const f = firstFailure(errors);
  if (!f) return new ApiError('invalid_request', 'Invalid request');
  if (f.message.includes('should not exist')) {
    return new ApiError('invalid_request', `Unknown parameter "${f.path}"`, { parameter: f.path });
  }
  if (f.context?.code === 'offset_too_large') {
    return new ApiError('offset_too_large', `Invalid parameter "${f.path}": ${f.message}`, {
      parameter: f.path,
      max_offset: Number(f.context.max_offset),
    });
  }
  return new ApiError('invalid_request', `Invalid parameter "${f.path}": ${f.message}`, { parameter: f.path });
}

/**
 * The global pipe: class-validator DTOs, with the validated form of a query string remembered. Clients poll
 * the same few URLs over and over; validating and transforming their query again each time was a sixth of the
 * CPU a cached /odds page costs. Each request gets its own copy; failures are not remembered.
 */
export class CachingValidationPipe extends ValidationPipe {
  static readonly MAX_ENTRIES = 2000;
  private readonly memo = new Map<DtoClass, Map<string, object>>();

  /**
   * The validated form of a query already seen (the remembered object itself: read it, never change it), or
   * undefined when this query was not validated yet (or failed): the caller then takes the pipe.
   */
  cachedQuery(type: DtoClass, value: unknown): object | undefined {
    const byKey = this.memo.get(type);
    const hit = byKey && value && typeof value === 'object' ? byKey.get(JSON.stringify(value)) : undefined;
    if (hit) noteClampedLimit(value, hit);
    return hit;
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    assertDeclaredKeys(value, metadata);
    const type = metadata.metatype;
    if (metadata.type !== 'query' || !type || !value || typeof value !== 'object') return super.transform(value, metadata);
    const key = JSON.stringify(value);
    let byKey = this.memo.get(type);
    const hit = byKey?.get(key);
    if (hit) {
      noteClampedLimit(value, hit);
      return copy(hit);
    }
    const out = (await super.transform(value, metadata)) as object;
    noteClampedLimit(value, out);
    let kept: object;
    try {
      kept = copy(out);
    } catch {
      return out; // something structuredClone cannot copy: not remembered
    }
    if (!byKey) this.memo.set(type, (byKey = new Map()));
    if (byKey.size >= CachingValidationPipe.MAX_ENTRIES) byKey.clear();
    byKey.set(key, kept);
    return out;
  }
}

/** A copy of a validated DTO: same class, its own arrays and nested objects. */
export function copy<T extends object>(o: T): T {
  const out = Object.create(Object.getPrototypeOf(o) as object | null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) {
    // Query DTOs hold strings, numbers, booleans and lists of them: a list is copied by a slice.
    if (v === null || typeof v !== 'object') out[k] = v;
    else if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')) out[k] = v.slice();
    else out[k] = structuredClone(v);
  }
  return out as T;
}

export function createValidationPipe(): CachingValidationPipe {
  return new CachingValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
    exceptionFactory: validationException,
  });
}

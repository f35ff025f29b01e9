import { ApiError } from '../../common/http/api-error.js';
import { checkLabel, MAX_LABEL } from '../../common/text/label.js';
import { MAX_GRACE_HOURS } from './api-keys.service.js';

/** Longest key name (100 characters, as the public product allows). */
export const MAX_KEY_NAME = MAX_LABEL;

function object(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw new ApiError(
      'invalid_request',
      `The request body must be a JSON object, got ${Array.isArray(body) ? 'an array' : `a ${typeof body}`}`,
    );
  return body as Record<string, unknown>;
}

function onlyKnown(b: Record<string, unknown>, known: readonly string[]): void {
  for (const k of Object.keys(b)) {
    if (!known.includes(k))
      throw new ApiError(
        'invalid_request',
        `Unknown parameter "${k.length > 100 ? `${k.slice(0, 100)}...` : k}" (allowed: ${known.join(', ')})`,
        { parameter: k.slice(0, 100) },
      );
  }
}

/** A key name: absent or null is no name; otherwise a string the name rule (checkLabel) accepts. */
export function keyName(v: unknown): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v !== 'string') throw new ApiError('invalid_request', 'Invalid parameter "name": must be a string', { parameter: 'name' });
  return checkLabel(v, 'name', MAX_KEY_NAME);
}

/** POST /account/keys: `{name?}` (the SDKs send `{name}`; no body is a key without a name). */
export function parseCreateKeyBody(body: unknown): { name: string | null } {
  const b = object(body);
  onlyKnown(b, ['name']);
  return { name: keyName(b.name) ?? null };
}

/**
 * POST /account/keys/{id}/rotate: `{gracePeriodHours?, name?}` (OpenAPI spelling; `grace_period_hours` too).
 * The SDKs send no body: no grace period, the old name.
 */
export function parseRotateBody(body: unknown): { graceHours: number; name: string | null | undefined } {
  const b = object(body);
  onlyKnown(b, ['gracePeriodHours', 'grace_period_hours', 'name']);
  if (b.gracePeriodHours !== undefined && b.grace_period_hours !== undefined) {
    throw new ApiError('invalid_request', 'Give gracePeriodHours or grace_period_hours, not both', { parameter: 'gracePeriodHours' });
  }
  const raw = b.gracePeriodHours !== undefined ? b.gracePeriodHours : b.grace_period_hours !== undefined ? b.grace_period_hours : 0;
  const param = b.grace_period_hours !== undefined ? 'grace_period_hours' : 'gracePeriodHours';
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0 || raw > MAX_GRACE_HOURS) {
    throw new ApiError('invalid_request', `Invalid parameter "${param}": a number of hours from 0 to ${MAX_GRACE_HOURS}`, {
      parameter: param,
    });
  }
  return { graceHours: raw, name: keyName(b.name) };
}

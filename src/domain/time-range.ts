/**
 * The times the service takes: from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (UTC). Both the
 * JavaScript Date (±8.64e15 ms) and PostgreSQL's timestamptz (4713 BC to 294276 AD) hold every one of them, every
 * one has a four-digit year in RFC 3339, and no sports price, report or question lies outside. A time from a
 * source (a quote's start, a report's capture time) and a time asked for in a parameter both follow it. Pure.
 */

/** 1970-01-01T00:00:00.000Z. */
export const MIN_TIME_MS = 0;
/** 9999-12-31T23:59:59.999Z. */
export const MAX_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The range as people read it (for messages and docs). */
export const TIME_RANGE_TEXT = '1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z';

/** Why `ms` (epoch milliseconds) is not a time the service takes, or null when it is. */
export function timeProblem(ms: unknown): string | null {
  if (typeof ms !== 'number') return `is not a time (got ${JSON.stringify(ms) ?? typeof ms})`;
  if (!Number.isFinite(ms)) return `is not a finite time (got ${String(ms)})`;
  if (ms < MIN_TIME_MS || ms > MAX_TIME_MS) return `is outside ${TIME_RANGE_TEXT} (got ${ms} ms)`;
  return null;
}

import { applyDecorators } from '@nestjs/common';
import { IsString, MaxLength, ValidateBy } from 'class-validator';
import { MAX_TIME_MS, MIN_TIME_MS, TIME_RANGE_TEXT } from '../../domain/time-range.js';
import { ApiError } from '../http/api-error.js';
import { StringParam } from '../http/query.js';

/**
 * The one reader of every date and time a client sends (query parameters and body fields), and of the times in
 * files and feeds the importers read. Strict: a calendar date must exist (no February 30, no month 13, no hour
 * 24), the year has four digits and is read as written (0050 is the year 50, never 1950), and the time lies in
 * the range the service holds (src/domain/time-range.ts: 1970-01-01 to 9999-12-31, UTC). Nothing is rolled over
 * or guessed.
 *
 * Forms, as each parameter allows:
 * - `time`: RFC 3339, `2026-11-22T18:00:00Z`, `2026-11-22T13:00:00-05:00` (`T` or a space; seconds and a fraction
 *   of up to 9 digits optional; no offset is UTC); a date alone `2026-11-22` (midnight UTC, or the day's last
 *   millisecond for a window's end); Unix seconds `1795370400` (up to 12 digits, a fraction allowed) where allowed.
 * - `date`: `YYYY-MM-DD` alone (a calendar day, no time).
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const UNIX_SECONDS = /^\d{1,12}(\.\d{1,9})?$/;
const DAY_MS = 86_400_000;

export interface TimeParamOptions {
  /** Unix seconds are taken (default true). */
  unixSeconds?: boolean;
  /** A date alone is taken: as midnight UTC (`start`, the default) or as the day's last millisecond (`end`). */
  dateAlone?: 'start' | 'end' | false;
}

/** A parsed time, or why the text is not one. */
export type ParsedTime = { ms: number; problem?: undefined } | { ms?: undefined; problem: string };

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysIn(year: number, month: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** Epoch ms of a UTC calendar time, the year read as written (Date.UTC would read 0-99 as 1900-1999). */
function utc(year: number, month: number, day: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(h, mi, s, ms);
  return d.getTime();
}

function dateProblem(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12) return `has no month ${month}`;
  if (day < 1 || day > daysIn(year, month))
    return `is not a calendar date (${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')} has ${daysIn(year, month)} days)`;
  return null;
}

function inRange(ms: number): ParsedTime {
  if (!Number.isFinite(ms) || ms < MIN_TIME_MS || ms > MAX_TIME_MS)
    return { problem: `is outside the times the service holds (${TIME_RANGE_TEXT})` };
  return { ms };
}

const FORMS = (o: TimeParamOptions) =>
  [
    'an RFC 3339 time such as 2026-11-22T18:00:00Z',
    o.dateAlone !== false ? 'a date YYYY-MM-DD' : null,
    o.unixSeconds !== false ? 'Unix seconds' : null,
  ]
    .filter(Boolean)
    .join(', or ');

/** Reads a time as the options allow: epoch ms, or the problem (strict, range-checked). Pure. */
export function parseTime(raw: string, o: TimeParamOptions = {}): ParsedTime {
  const s = raw.trim();
  if (o.unixSeconds !== false && UNIX_SECONDS.test(s)) return inRange(Math.round(Number(s) * 1000));
  const d = DATE.exec(s);
  if (d && o.dateAlone !== false) {
    const [year, month, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
    const bad = dateProblem(year, month, day);
    if (bad) return { problem: bad };
    const start = utc(year, month, day);
    return inRange(o.dateAlone === 'end' ? start + DAY_MS - 1 : start);
  }
  const m = DATE_TIME.exec(s);
  if (!m) return { problem: `is not ${FORMS(o)}` };
  const [year, month, day, hour, minute] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])];
  const second = Number(m[6] ?? '0');
  const bad = dateProblem(year, month, day);
  if (bad) return { problem: bad };
  if (hour > 23 || minute > 59 || second > 59) return { problem: `has no time of day ${m[4]}:${m[5]}${m[6] ? `:${m[6]}` : ''}` };
  let offsetMin = 0;
  const off = m[8];
  if (off && off.toUpperCase() !== 'Z') {
    const digits = off.replace(':', '');
    const oh = Number(digits.slice(1, 3)),
      om = Number(digits.slice(3, 5));
    if (oh > 23 || om > 59) return { problem: `has no UTC offset ${off}` };
    offsetMin = (digits.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  const frac = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  return inRange(utc(year, month, day, hour, minute, second, frac) - offsetMin * 60_000);
}

/** Reads a calendar date `YYYY-MM-DD` (no time): the date as given, or the problem. Pure. */
export function parseDate(raw: string): { date: string; problem?: undefined } | { date?: undefined; problem: string } {
  const s = raw.trim();
  const d = DATE.exec(s);
  if (!d) return { problem: 'is not a date YYYY-MM-DD' };
  const t = parseTime(s, { unixSeconds: false });
  return t.problem ? { problem: t.problem } : { date: s };
}

const shown = (raw: string) => JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}...` : raw);

/** A time parameter's epoch ms, or 400 invalid_request naming the parameter (undefined stays undefined). */
export function timeParam(name: string, raw: string | undefined, o: TimeParamOptions = {}): number | undefined {
  if (raw === undefined) return undefined;
  const t = parseTime(raw, o);
  if (t.problem !== undefined)
    throw new ApiError('invalid_request', `Invalid parameter "${name}": ${shown(raw)} ${t.problem}`, { parameter: name });
  return t.ms;
}

/**
 * A DTO property holding a time (query or body): one string, checked by `parseTime` with these options; a
 * failure is the validation pipe's 400 invalid_request naming the parameter. The service reads it with `timeParam`.
 */
export const TimeParam = (o: TimeParamOptions = {}) =>
  applyDecorators(
    StringParam(),
    IsString(),
    MaxLength(64),
    ValidateBy({
      name: 'isTime',
      validator: {
        validate: (v: unknown) => typeof v === 'string' && parseTime(v, o).problem === undefined,
        defaultMessage: (a) => {
          const v = a?.value;
          return typeof v === 'string' ? `${shown(v)} ${parseTime(v, o).problem ?? ''}` : `must be ${FORMS(o)}`;
        },
      },
    }),
  );

/** A DTO property holding a calendar date `YYYY-MM-DD` (a game day): strict like `TimeParam`. */
export const DateParam = () =>
  applyDecorators(
    StringParam(),
    IsString(),
    MaxLength(64),
    ValidateBy({
      name: 'isDate',
      validator: {
        validate: (v: unknown) => typeof v === 'string' && parseDate(v).problem === undefined,
        defaultMessage: (a) => {
          const v = a?.value;
          return typeof v === 'string' ? `${shown(v)} ${parseDate(v).problem ?? ''}` : 'must be a date YYYY-MM-DD';
        },
      },
    }),
  );

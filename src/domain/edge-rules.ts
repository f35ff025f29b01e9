import { deepTextProblem, fieldsProblem } from './text.js';
import { timeProblem } from './time-range.js';
import { FUTURE_TYPES } from './futures.js';
import type { EventStatus, EventUpdate, Quote, SplitsInput } from './types.js';

/**
 * The rules every item a source sends must pass at the ingestion pipeline's edge, one item at a time (a refused
 * item is reported with its reason; the rest of its batch is kept): a price for the board or for a futures
 * market, a splits snapshot, an event update (status, game state). Text the store cannot hold (src/domain/text.ts),
 * times neither Date nor PostgreSQL can hold or no price can have (src/domain/time-range.ts), numbers that are not
 * finite. The board's pipeline, the futures mapping and the CLI's store-only import all call these: every entry
 * point (the admin channel, the importers, the upstream feeds, the simulator) meets the same rules. Pure.
 */

export type EdgeReason = 'invalid_text' | 'invalid_time' | 'invalid_market_data' | 'invalid_status' | 'malformed_quote';

export interface EdgeProblem {
  reason: EdgeReason;
  message: string;
}

const problem = (reason: EdgeReason, message: string): EdgeProblem => ({ reason, message });

/** A required time: a start, a capture time (0, null or absent is missing). */
function requiredTime(v: unknown, field: string): EdgeProblem | null {
  if (v === undefined || v === null || v === 0) return problem('invalid_time', `${field} is missing`);
  const p = timeProblem(v);
  return p ? problem('invalid_time', `${field} ${p}`) : null;
}

/** An optional time (null, undefined or 0 is none). */
function optionalTime(v: unknown, field: string): EdgeProblem | null {
  return v === undefined || v === null || v === 0 ? null : requiredTime(v, field);
}

/** An optional number: absent, null or a finite number. */
/** A contract price (bid, ask, last trade): absent, null, or a number from 0 to 1 (dollars per contract). */
function contractPrice(v: unknown, field: string): EdgeProblem | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1)
    return problem('invalid_market_data', `${field} must be a contract price from 0 to 1, got ${JSON.stringify(v) ?? String(v)}`);
  return null;
}

function optionalNumber(v: unknown, field: string): EdgeProblem | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v))
    return problem('invalid_market_data', `${field} must be a finite number, got ${JSON.stringify(v) ?? String(v)}`);
  return null;
}

/**
 * Why a quote (a price for the board or a futures price) cannot be taken, or null. Its text fields (the future tag's
 * too), its start (required) and change time (optional), its line and numeric extras. The price itself is read by
 * `normalizePrice` (src/math/odds.ts), which refuses what no price can be (non-finite, at or below evens 1.0).
 */
export function quoteProblem(q: Quote): EdgeProblem | null {
  const future = q.future && typeof q.future === 'object' ? q.future : undefined;
  const text = fieldsProblem(q, QUOTE_TEXT_FIELDS) ?? (future ? fieldsProblem(future, FUTURE_TEXT_FIELDS, 'future.') : null);
  if (text) return problem('invalid_text', text);
  return (
    requiredTime(q.startTime, 'startTime') ??
    optionalTime(q.sourceTime, 'sourceTime') ??
    optionalNumber(q.line, 'line') ??
    optionalNumber(q.maxBet, 'maxBet') ??
    contractPrice(q.bid, 'bid') ??
    contractPrice(q.ask, 'ask') ??
    contractPrice(q.last, 'last') ??
    gameNumber(q.gameNumber) ??
    optionalFlag(q.isLive, 'isLive') ??
    optionalFlag(q.isActive, 'isActive') ??
    optionalFlag(q.approximateStart, 'approximateStart') ??
    (future ? futureTagProblem(future) : null)
  );
}

/** A quote's text fields and its futures tag's, in the order their problems are reported. */
const QUOTE_TEXT_FIELDS = [
  'book',
  'league',
  'sport',
  'leagueName',
  'homeTeam',
  'awayTeam',
  'marketType',
  'period',
  'selection',
  'selectionType',
  'playerName',
  'playerTeam',
  'statCategory',
  'externalEventId',
  'marketId',
  'selectionId',
  'homePitcher',
  'awayPitcher',
] as const satisfies ReadonlyArray<keyof Quote>;
const FUTURE_TEXT_FIELDS = ['market', 'name', 'type', 'kind', 'externalId'] as const satisfies ReadonlyArray<
  keyof NonNullable<Quote['future']>
>;

/** A doubleheader's game number: absent, or a whole number from 1 to 9. */
function gameNumber(v: unknown): EdgeProblem | null {
  if (v === undefined || v === null) return null;
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 9
    ? null
    : problem('malformed_quote', `gameNumber must be a whole number from 1 to 9, got ${JSON.stringify(v) ?? String(v)}`);
}

/** An optional flag: absent, null or a boolean. */
function optionalFlag(v: unknown, field: string): EdgeProblem | null {
  if (v === undefined || v === null || typeof v === 'boolean') return null;
  return problem('malformed_quote', `${field} must be true or false, got ${JSON.stringify(v) ?? String(v)}`);
}

const FUTURE_TYPE_NAMES: ReadonlySet<string> = new Set(FUTURE_TYPES);

/** A source's futures tag: a market key, a name and a kind (non-empty text) and one of the four futures types. */
function futureTagProblem(f: NonNullable<Quote['future']>): EdgeProblem | null {
  for (const k of ['market', 'name', 'kind'] as const)
    if (typeof f[k] !== 'string' || !f[k].trim()) return problem('malformed_quote', `future.${k} must be non-empty text`);
  if (typeof f.type !== 'string' || !FUTURE_TYPE_NAMES.has(f.type))
    return problem('malformed_quote', `future.type must be one of ${FUTURE_TYPES.join(', ')}, got ${JSON.stringify(f.type)}`);
  if (f.externalId !== undefined && f.externalId !== null && typeof f.externalId !== 'string')
    return problem('malformed_quote', 'future.externalId must be text or null');
  return null;
}

/** The numbers inside a JSON-like value that are not finite (a JSON `1e400` reads as Infinity): the first one's path. */
function nonFinite(v: unknown, path: string, depth = 0): string | null {
  if (depth > 8) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? null : path;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = nonFinite(v[i], `${path}[${i}]`, depth + 1);
      if (p) return p;
    }
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const p = nonFinite(x, `${path}.${k}`, depth + 1);
      if (p) return p;
    }
  }
  return null;
}

/** A share of bets or handle: a fraction from 0 to 1. */
function shares(v: unknown, field: string): EdgeProblem | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'object') return problem('invalid_market_data', `${field} must be an object of shares`);
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'number' || x < 0 || x > 1) return problem('invalid_market_data', `${field}.${k} must be a share from 0 to 1`);
  }
  return null;
}

/** Why a splits snapshot cannot be taken, or null: text, start and capture times, finite lines and odds, shares 0-1. */
export function splitsProblem(s: SplitsInput): EdgeProblem | null {
  if (!s || typeof s !== 'object') return problem('malformed_quote', 'a splits snapshot must be an object');
  const text = deepTextProblem(s, 'splits');
  if (text) return problem('invalid_text', text);
  const time = requiredTime(s.startTime, 'startTime') ?? requiredTime(s.fetchedAt, 'fetchedAt');
  if (time) return time;
  const bad = nonFinite(s, 'splits');
  if (bad) return problem('invalid_market_data', `${bad} must be a finite number`);
  for (const m of ['spread', 'total', 'moneyline'] as const) {
    const x = s[m] as { handle_pct?: unknown; bets_pct?: unknown } | undefined;
    if (x === undefined || x === null) continue;
    if (typeof x !== 'object') return problem('invalid_market_data', `${m} must be an object`);
    const p = shares(x.handle_pct, `${m}.handle_pct`) ?? shares(x.bets_pct, `${m}.bets_pct`);
    if (p) return p;
  }
  return null;
}

const STATUSES: ReadonlySet<string> = new Set<EventStatus>(['upcoming', 'live', 'ended', 'postponed', 'cancelled']);

/** A score: a whole number from 0 up. */
function score(v: unknown, field: string): EdgeProblem | null {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    return problem('invalid_market_data', `gameState.${field} must be a whole number from 0 up, got ${JSON.stringify(v) ?? String(v)}`);
  return null;
}

/**
 * Why an event update (a status, a game-state report) cannot be taken, or null: text, start time, a known status,
 * and a game state that is null or an object with whole-number scores and only finite numbers.
 */
export function eventUpdateProblem(u: EventUpdate): EdgeProblem | null {
  if (!u || typeof u !== 'object') return problem('malformed_quote', 'an event update must be an object');
  const text = deepTextProblem(u, 'event');
  if (text) return problem('invalid_text', text);
  const time = requiredTime(u.startTime, 'startTime');
  if (time) return time;
  if (u.status !== undefined && (typeof u.status !== 'string' || !STATUSES.has(u.status)))
    return problem('invalid_status', `status must be one of ${[...STATUSES].join(', ')}, got ${JSON.stringify(u.status)}`);
  const g = u.gameState;
  if (g !== undefined && g !== null) {
    if (typeof g !== 'object' || Array.isArray(g)) return problem('invalid_market_data', 'gameState must be an object or null');
    const bad = nonFinite(g, 'gameState');
    if (bad) return problem('invalid_market_data', `${bad} must be a finite number`);
    const p = score(g.home_score, 'home_score') ?? score(g.away_score, 'away_score');
    if (p) return p;
  }
  return null;
}

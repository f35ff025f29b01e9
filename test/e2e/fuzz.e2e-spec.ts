import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { paramProblem } from '../../src/common/http/text-params.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, H } from '../factories/market.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Fuzzing every endpoint's parameters and bodies: whatever arrives, the answer is never a 5xx, every 4xx
 * carries the error body {error: {code, message, docs}}, and a parameter no endpoint declares (prototype names
 * included) is refused with 400. The key's budget and the failed-login limit are raised so that no 429 can
 * stand in for the validation under test: a 429 here is a failure.
 */
const ENDPOINTS: Array<{ path: string; params: string[] }> = [
  { path: '/sports', params: ['include_empty'] },
  { path: '/leagues', params: ['sport', 'include_empty'] },
  { path: '/sportsbooks', params: ['region', 'sharp', 'catalog', 'include_unlisted', 'include_inactive'] },
  { path: '/markets', params: ['sport'] },
  { path: '/teams', params: ['sport', 'league', 'q'] },
  { path: '/events', params: ['sport', 'league', 'sportsbook', 'live', 'has_score', 'team', 'date', 'q', 'limit', 'offset'] },
  {
    path: '/odds',
    params: [
      'sport',
      'league',
      'sportsbook',
      'add_sportsbook',
      'market',
      'event',
      'live',
      'team',
      'date',
      'q',
      'min_odds',
      'max_odds',
      'sort',
      'fields',
      'group_by',
      'limit',
      'offset',
      'cursor',
      'main',
    ],
  },
  {
    path: '/odds/best',
    params: ['sport', 'league', 'sportsbook', 'market', 'event', 'live', 'team', 'min_odds', 'max_odds', 'is_main_line', 'limit', 'offset'],
  },
  { path: '/odds/comparison', params: ['event', 'event_id', 'market', 'sportsbook'] },
  {
    path: '/odds/delta',
    params: ['since', 'sport', 'league', 'sportsbook', 'market', 'event', 'live', 'limit', 'offset', 'sort', 'fields'],
  },
  {
    path: '/opportunities/ev',
    params: [
      'sport',
      'league',
      'sportsbook',
      'market',
      'event',
      'live',
      'team',
      'min_odds',
      'max_odds',
      'min_ev',
      'max_ev',
      'min_market_width',
      'max_market_width',
      'max_odds_age',
      'date_range',
      'sort',
      'limit',
      'offset',
      'devig_method',
    ],
  },
  {
    path: '/opportunities/arbitrage',
    params: [
      'sport',
      'league',
      'sportsbook',
      'market',
      'event',
      'team',
      'min_odds',
      'max_odds',
      'min_profit',
      'max_odds_age',
      'date_range',
      'live',
      'format',
      'group',
      'sort',
      'limit',
      'offset',
    ],
  },
  {
    path: '/opportunities/middles',
    params: ['sport', 'league', 'sportsbook', 'market', 'min_size', 'live', 'max_odds_age', 'sort', 'limit', 'offset'],
  },
  { path: '/opportunities/middles/summary', params: ['sport', 'league'] },
  { path: '/opportunities/low_hold', params: ['sport', 'league', 'market', 'max_hold', 'sort', 'limit', 'offset'] },
  { path: '/splits', params: ['sport', 'league', 'sportsbook', 'event', 'market', 'limit', 'offset'] },
  { path: '/splits/history', params: ['event_id', 'sportsbook', 'start_time', 'end_time', 'limit'] },
  { path: '/account', params: [] },
];

const value = fc.oneof(
  fc.constantFrom(
    '',
    'true',
    'false',
    '0',
    '-1',
    '1e309',
    'NaN',
    'null',
    'undefined',
    '[]',
    '{}',
    '%',
    '%00',
    '%ZZ',
    '..',
    '-',
    '--',
    ',',
    ',,,',
    'nba,nhl',
    'draftkings,pinnacle',
    '-odds_decimal',
    'ev',
    '2026-11-22',
    '2026-13-45',
    '1795300000',
    'today',
    'best',
    'csv',
    'event',
    'power',
    '9'.repeat(30),
    'x'.repeat(3000),
  ),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** Parameter names no endpoint declares: Object.prototype's own names, and a typo. */
const UNDECLARED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__', 'limt'];

function query(params: string[]) {
  return fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...(params.length ? params : ['x'])), fc.string({ maxLength: 12 }), fc.constantFrom(...UNDECLARED)),
        value,
      ),
      { maxLength: 6 },
    )
    .map((pairs) => ({
      qs: pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'),
      undeclared: pairs.map(([k]) => k).filter((k) => UNDECLARED.includes(k)),
      // A name or value the text rule refuses (U+FFFD, a control character...): that rule is checked on every
      // parameter before any route looks at the names it declares, so such a request is refused for it instead.
      hostile: pairs.some(([k, v]) => paramProblem(k) !== null || paramProblem(v) !== null),
    }));
}

describe('fuzzing every endpoint', () => {
  let t: TestApp;
  const failures: string[] = [];

  beforeAll(async () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    t = await startTestApp({
      clock: new ManualClock(now),
      env: { ENTERPRISE_REQUESTS_PER_MINUTE: '1000000', AUTH_FAILURES_PER_MINUTE: '1000000' },
    });
    t.app.get(IngestionService).ingest(
      {
        source: 'test',
        quotes: buildMarket(
          [{ league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: now + 5 * H }],
          ['draftkings', 'fanduel', 'pinnacle'],
          now,
        ),
      },
      now,
      { backfill: true },
    );
  });
  afterAll(async () => {
    await t.close();
  });

  async function check(label: string, res: { status: number; json: any; text: string }) {
    if (res.status >= 500) failures.push(`${label} -> ${res.status} ${res.text.slice(0, 200)}`);
    else if (res.status === 429) failures.push(`${label} -> 429: a rate limit answered instead of validation`);
    else if (res.status >= 400) {
      const e = res.json?.error;
      if (!e || typeof e.code !== 'string' || typeof e.message !== 'string' || typeof e.docs !== 'string')
        failures.push(`${label} -> ${res.status} without the error body: ${res.text.slice(0, 200)}`);
      if (/\bat .*\.(ts|js):\d+/.test(res.text)) failures.push(`${label} leaks a stack`);
    }
  }

  it.each(ENDPOINTS)('GET $path with random parameters', async ({ path, params }) => {
    await fc.assert(
      fc.asyncProperty(query(params), fc.constantFrom('header', 'query'), async ({ qs, undeclared, hostile }, via) => {
        const res = await t.call(`${path}${qs ? `?${qs}` : ''}`, { key: KEYS.enterprise, via: via as 'header' | 'query' });
        await check(`GET ${path}?${qs}`, res);
        // Every endpoint with parameters refuses one it does not declare (/account takes none and reads none), or,
        // when the request also carries text the rule refuses, that text.
        const refusedAs = hostile ? /^(Unknown parameter|Invalid parameter) "/ : /^Unknown parameter "/;
        if (undeclared.length && params.length && (res.status !== 400 || !refusedAs.test(res.json?.error?.message ?? ''))) {
          failures.push(
            `GET ${path}?${qs} -> ${res.status} although it names undeclared parameter(s) ${undeclared.join(', ')}: ${res.text.slice(0, 120)}`,
          );
        }
      }),
      { numRuns: 60 },
    );
    expect(failures).toEqual([]);
  });

  it('path parameters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/sports/', '/leagues/', '/sportsbooks/', '/events/', '/events/x/', '/opportunities/middles/', '/stream/events/'),
        fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('%2F', '..%2F..', 'a'.repeat(500), 'odds', 'markets')),
        async (prefix, id) => {
          const path = `${prefix}${encodeURIComponent(id)}${prefix === '/events/x/' ? 'odds' : ''}`;
          if (path.startsWith('/stream')) return; // streams stay open; covered by the stream tests
          await check(`GET ${path}`, await t.call(path, { key: KEYS.enterprise }));
        },
      ),
      { numRuns: 120 },
    );
    expect(failures).toEqual([]);
  });

  it('POST bodies', async () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/odds/batch', '/admin/keys', '/admin/ingest', '/account'),
        fc.oneof(
          json.map((v) => JSON.stringify(v)),
          fc.string({ maxLength: 100 }),
          fc.constant('{"event_ids": ['),
        ),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
        async (path, body, type) => {
          const res = await t.call(path, {
            key: KEYS.enterprise,
            method: 'POST',
            rawBody: body,
            headers: { 'Content-Type': type, 'X-Admin-Token': t.adminToken },
          });
          await check(`POST ${path} ${type} ${body.slice(0, 80)}`, res);
        },
      ),
      { numRuns: 200 },
    );
    expect(failures).toEqual([]);
  });
});

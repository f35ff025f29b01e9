import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ManualClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, H } from '../factories/market.js';
import { KEYS, SERVICES, startTestApp, type CallResult, type TestApp } from '../support/test-app.js';

/**
 * The standing hostile-HTTP suite: what an attacker or a careless client sends, over real sockets. Every case
 * gets a 4xx in the contract's error body {error: {code, message, docs}} (or, where Node's HTTP parser refuses
 * the bytes, that body on a connection the server then closes), and the process stays up. Add cases here as
 * they are found. Limits under test: BODY_MAX_DEPTH 32, BODY_MAX_KEYS 1000, 1000 keys per object, 16 KB of
 * headers (Node's default), AUTH_FAILURES_PER_MINUTE.
 */

interface RawResponse {
  status: number | null;
  head: string;
  body: string;
  /** The server closed the connection (rather than keeping it alive). */
  closed: boolean;
}

/** Sends bytes on a fresh connection; reads one response (or the close that ends it). */
function raw(port: number, data: string | Buffer, waitMs = 3000): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const text = buf.toString('utf8');
      const at = text.indexOf('\r\n\r\n');
      const head = at >= 0 ? text.slice(0, at) : text;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      socket.destroy();
      resolve({ status: m ? Number(m[1]) : null, head, body: at >= 0 ? text.slice(at + 4) : '', closed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const text = buf.toString('utf8');
      const at = text.indexOf('\r\n\r\n');
      const len = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, at));
      // A complete response on a connection kept alive: no need to wait for a close that will not come.
      if (at >= 0 && len && Buffer.byteLength(text.slice(at + 4)) >= Number(len[1]) && !/\r\nconnection: *close/i.test(text.slice(0, at)))
        finish(false);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.write(data);
  });
}

type ErrorBody = { error?: { code?: unknown; message?: unknown; docs?: unknown } };

function expectContractError(
  status: number,
  text: string,
  expected: { status?: number; code?: string; message?: RegExp },
  label = '',
): void {
  let json: ErrorBody | null = null;
  try {
    json = JSON.parse(text) as ErrorBody;
  } catch {
    /* checked below */
  }
  const where = `${label} -> ${status} ${text.slice(0, 200)}`;
  expect({ where, ok: status >= 400 && status < 500 }).toEqual({ where, ok: true });
  if (expected.status !== undefined) expect({ where, status }).toEqual({ where, status: expected.status });
  expect({ where, shape: [typeof json?.error?.code, typeof json?.error?.message, typeof json?.error?.docs] }).toEqual({
    where,
    shape: ['string', 'string', 'string'],
  });
  if (expected.code) expect({ where, code: json!.error!.code }).toEqual({ where, code: expected.code });
  if (expected.message) expect(json!.error!.message).toMatch(expected.message);
  expect(text).not.toMatch(/\bat .*\.(ts|js):\d+/);
}

const expectApiError = (r: CallResult, expected: { status?: number; code?: string; message?: RegExp }, label = '') =>
  expectContractError(r.status, r.text, expected, label);

function expectRawError(r: RawResponse, expected: { status?: number; code?: string; message?: RegExp }, label: string): void {
  expect({ label, status: r.status }).toEqual({ label, status: expected.status ?? r.status });
  expect(r.head).toMatch(/\r\ncontent-type: application\/json/i);
  expectContractError(r.status ?? 0, r.body, expected, label);
}

const nested = (open: string, close: string, n: number, inner = '') => open.repeat(n) + inner + close.repeat(n);
const wideObject = (n: number) => `{"event_ids":["a"],${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`;

describe('hostile HTTP', () => {
  let t: TestApp;
  let port: number;
  const now = Date.parse('2026-11-22T12:00:00Z');

  beforeAll(async () => {
    // Budgets raised so that no 429 stands in for the answer under test (the lock-out has its own app below).
    t = await startTestApp({
      clock: new ManualClock(now),
      env: { ENTERPRISE_REQUESTS_PER_MINUTE: '1000000', AUTH_FAILURES_PER_MINUTE: '1000000' },
    });
    port = Number(new URL(t.url).port);
    t.app.get(IngestionService).ingest(
      {
        source: 'test',
        quotes: buildMarket(
          [{ league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: now + 5 * H }],
          ['draftkings', 'fanduel'],
          now,
        ),
      },
      now,
      { backfill: true },
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const batch = (rawBody: string, headers: Record<string, string> = {}) =>
    t.call('/odds/batch', { method: 'POST', key: KEYS.enterprise, rawBody, headers: { 'Content-Type': 'application/json', ...headers } });
  const adminKeys = (rawBody: string) =>
    t.call('/admin/keys', { method: 'POST', rawBody, headers: { 'Content-Type': 'application/json', 'X-Admin-Token': t.adminToken } });

  describe('bodies', () => {
    it('refuses nesting past 32 levels, on every route, before any validation (no stack overflow, no 500)', async () => {
      const cases = [
        nested('[', ']', 1500),
        `{"event_ids":["a"],"x":${nested('{"a":', '}', 5000, '1')}}`,
        nested('[', ']', 500_000),
        `{"event_ids":${nested('[', ']', 33)}}`,
      ];
      for (const body of cases) {
        expectApiError(
          await batch(body),
          { status: 400, code: 'invalid_request', message: /nested more than 32 levels deep/ },
          `batch depth ${body.length}`,
        );
        expectApiError(
          await adminKeys(body),
          { status: 400, code: 'invalid_request', message: /nested more than 32 levels deep/ },
          `admin depth ${body.length}`,
        );
      }
      // Without credentials too: the body is measured before anything else is done with it.
      expectApiError(await t.call('/admin/keys', { method: 'POST', rawBody: cases[0]!, headers: { 'Content-Type': 'application/json' } }), {
        status: 400,
        message: /nested more than 32/,
      });
      // 32 levels are allowed: the answer is the DTO's, not the depth limit's.
      const at32 = await batch(`{"event_ids":${nested('[', ']', 31)}}`);
      expectApiError(at32, { status: 400, code: 'invalid_request', message: /event_ids/ });
    });

    it('refuses more than 1000 keys and array items, and more than 1000 keys in one object', async () => {
      expectApiError(await batch(wideObject(60_000)), { status: 400, message: /more than 1000 keys and array items in all/ });
      expectApiError(await batch(JSON.stringify({ event_ids: Array.from({ length: 1001 }, (_, i) => `e${i}`) })), {
        status: 400,
        message: /more than 1000 keys and array items/,
      });
      // The operator's bulk routes are exempt from the count, not from the per-object bound.
      expectApiError(await adminKeys(`{"tier":"pro",${Array.from({ length: 1001 }, (_, i) => `"k${i}":1`).join(',')}}`), {
        status: 400,
        message: /more than 1000 keys \(the limit is 1000 keys per object\)/,
      });
      // Under the limit, unknown keys are refused by name, before class-transformer sees them.
      expectApiError(await batch(wideObject(900)), { status: 400, message: /^Unknown parameter "k0"$/ });
    });

    it('refuses a key repeated in one object, and __proto__ / constructor.prototype keys', async () => {
      expectApiError(await batch('{"event_ids":["a"],"event_ids":"x"}'), { status: 400, message: /repeats the key "event_ids"/ });
      expectApiError(await adminKeys('{"tier":"free","tier":"enterprise"}'), { status: 400, message: /repeats the key "tier"/ });
      for (const body of [
        '{"event_ids":["a"],"__proto__":{"x":1}}',
        '{"event_ids":["a"],"constructor":{"prototype":{"x":1}}}',
        '{"event_ids":[{"__proto__":null}]}',
        '{"\\u005f_proto__":1}',
      ]) {
        expectApiError(await batch(body), { status: 400, code: 'invalid_request', message: /"__proto__" key .* not allowed/ }, body);
      }
      expectApiError(await adminKeys('{"tier":"pro","__proto__":{"admin":true}}'), { status: 400, message: /not allowed/ });
    });

    it('refuses every JSON type but an object at the top level, wrong types and huge strings', async () => {
      for (const body of ['null', 'true', '0', '-1.5e308', '"event_ids"', '[]', '[{"event_ids":["a"]}]']) {
        expectApiError(await batch(body), { status: 400, message: /must be a JSON object/ }, body);
      }
      for (const body of [
        '{}',
        '{"event_ids":5}',
        '{"event_ids":true}',
        '{"event_ids":{}}',
        '{"event_ids":[1]}',
        '{"event_ids":[null]}',
        '{"event_ids":[]}',
        '{"event_ids":["a"],"sportsbook":{"a":1}}',
        '{"event_ids":["a"],"market":[1,2]}',
      ]) {
        expectApiError(await batch(body), { status: 400, code: 'invalid_request', message: /event_ids|sportsbook|market/ }, body);
      }
      expectApiError(await batch(JSON.stringify({ event_ids: ['x'.repeat(900_000)] })), { status: 400, message: /event_ids/ });
      expectApiError(await batch(JSON.stringify({ event_ids: ['x'.repeat(1_100_000)] })), { status: 413, code: 'payload_too_large' });
      expectApiError(await adminKeys('{"tier":{"$gt":""}}'), { status: 400, message: /tier/ });
    });

    it('refuses bodies that are not JSON: other content types, empty, truncated, malformed', async () => {
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/vnd.api+json',
      ]) {
        expectApiError(
          await batch('event_ids=a', { 'Content-Type': type }),
          { status: 415, code: 'unsupported_media_type', message: /application\/json/ },
          type,
        );
      }
      const noType = await raw(
        port,
        `POST /api/v1/odds/batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${KEYS.enterprise}\r\nContent-Length: 17\r\n\r\n{"event_ids":[1]}`,
      );
      expectRawError(noType, { status: 415, code: 'unsupported_media_type' }, 'no content type');
      expectApiError(await batch(''), { status: 400, message: /body is empty/ });
      for (const body of ['{"event_ids": [', '{"event_ids":["a"]', "{'event_ids':['a']}", '{"event_ids":["a"],}', 'NaN', '\u0000']) {
        expectApiError(await batch(body), { status: 400, code: 'invalid_request', message: /Malformed JSON/ }, JSON.stringify(body));
      }
      // A body shorter than its Content-Length, then the connection ends: no response is owed, the server survives.
      const short = await raw(
        port,
        `POST /api/v1/odds/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"event_ids":`,
        300,
      );
      expect(short.status === null || (short.status >= 400 && short.status < 500)).toBe(true);
    });
  });

  describe('headers', () => {
    it('answers headers or a URL over 16 KB with 431 in the error body', async () => {
      expectApiError(await t.call('/health', { headers: { 'X-Big': 'a'.repeat(100_000) } }), {
        status: 431,
        code: 'header_too_large',
        message: /larger than \d+ bytes/,
      });
      expectApiError(await t.call(`/health?x=${'a'.repeat(100_000)}`), { status: 431, code: 'header_too_large' });
      expectApiError(
        await t.call('/odds', { headers: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`x-h${i}`, 'v'.repeat(30)])) }),
        { status: 431 },
      );
    });

    it('refuses smuggling forms and invalid bytes in the error body and closes the connection', async () => {
      const cases: Array<[string, string]> = [
        [
          'Content-Length with Transfer-Encoding',
          'POST /api/v1/odds/batch HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        ],
        ['two Content-Lengths', 'POST /api/v1/odds/batch HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'],
        ['Content-Length not a number', 'POST /api/v1/odds/batch HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
        ['a control character in a header value', 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n'],
        ['a space in a header name', 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX A: b\r\n\r\n'],
        ['NUL in the path', 'GET /api/v1/health\u0000 HTTP/1.1\r\nHost: x\r\n\r\n'],
        ['an unknown method', 'FOO /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n'],
        ['not HTTP at all', 'GARBAGE\r\n\r\n'],
        [
          'a bad chunk size',
          'POST /api/v1/odds/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
        ],
      ];
      for (const [label, data] of cases) {
        const r = await raw(port, data);
        expectRawError(r, { status: 400, code: 'invalid_request', message: /^Malformed HTTP request/ }, label);
        expect({ label, closed: r.closed }).toEqual({ label, closed: true });
      }
    });

    it('treats duplicated or oversized key headers as invalid keys', async () => {
      const dup = await fetch(`${t.url}/api/v1/account`, {
        headers: [
          ['X-API-Key', KEYS.enterprise],
          ['X-API-Key', KEYS.free],
        ],
      });
      expectContractError(dup.status, await dup.text(), { status: 401, code: 'unauthorized' }, 'duplicated X-API-Key');
      expectApiError(await t.call('/account', { headers: { Authorization: `Bearer ${'k'.repeat(10_000)}` } }), {
        status: 401,
        code: 'unauthorized',
      });
      expectApiError(await t.call('/account', { headers: { 'X-API-Key': '\u00ff\u00fe' } }), { status: 401 });
    });
  });

  describe('query strings', () => {
    it('refuses prototype names, unknown and bracketed keys, and single-valued parameters given twice', async () => {
      for (const qs of [
        '__proto__=1',
        'constructor=1',
        'toString=1',
        'hasOwnProperty=1',
        'valueOf=x',
        '__proto__[x]=1',
        'limit[]=1',
        'limt=1',
        '=1',
      ]) {
        expectApiError(await t.call(`/odds?${qs}`, { key: KEYS.enterprise }), { status: 400, message: /^Unknown parameter "/ }, qs);
        expectApiError(await t.call(`/events?${qs}`, { key: KEYS.enterprise }), { status: 400, message: /^Unknown parameter "/ }, qs);
      }
      expectApiError(await t.call('/odds?limit=1&limit=500', { key: KEYS.enterprise }), { status: 400, message: /"limit": given 2 times/ });
      expectApiError(await t.call('/events?team=a&team=b', { key: KEYS.enterprise }), { status: 400, message: /"team": given 2 times/ });
      // A list parameter may be repeated.
      const listed = await t.call('/odds?sportsbook=draftkings&sportsbook=fanduel&limit=1', { key: KEYS.enterprise });
      expect(listed.status).toBe(200);
    });

    it('refuses searches with nothing to match: punctuation, NUL, emoji; and overlong values', async () => {
      // A NUL is refused by the text rule of every parameter, before the search rule.
      for (const param of ['/odds?team', '/events?q', '/teams?q', '/opportunities/ev?team'])
        expectApiError(await t.call(`${param}=%00`, { key: KEYS.enterprise }), { status: 400, message: /NUL character/ }, param);
      for (const v of ['!!', '%20%20', '%F0%9F%98%80', '-_-']) {
        expectApiError(
          await t.call(`/odds?team=${v}`, { key: KEYS.enterprise }),
          { status: 400, message: /"team": team must contain at least one letter/ },
          v,
        );
        expectApiError(
          await t.call(`/events?q=${v}`, { key: KEYS.enterprise }),
          { status: 400, message: /"q": q must contain at least one letter/ },
          v,
        );
        expectApiError(
          await t.call(`/teams?q=${v}`, { key: KEYS.enterprise }),
          { status: 400, message: /"q": q must contain at least one letter/ },
          v,
        );
        for (const list of ['ev', 'arbitrage', 'middles', 'low_hold']) {
          expectApiError(
            await t.call(`/opportunities/${list}?team=${v}`, { key: KEYS.enterprise }),
            { status: 400, message: /"team": team must contain at least one letter/ },
            `${list} ${v}`,
          );
        }
      }
      expectApiError(await t.call(`/events?q=${'x'.repeat(5000)}`, { key: KEYS.enterprise }), { status: 400, message: /"q"/ });
      expectApiError(await t.call(`/odds?cursor=${'x'.repeat(3000)}`, { key: KEYS.enterprise }), { status: 400, message: /"cursor"/ });
      expectApiError(await t.call('/odds?limit=%00', { key: KEYS.enterprise }), { status: 400, message: /"limit"/ });
      expectApiError(await t.call('/odds?live=%C0%80', { key: KEYS.enterprise }), { status: 400, message: /"live"/ });
      // A real name still matches, accents and punctuation folded.
      const ok = await t.call('/events?q=celtics!', { key: KEYS.enterprise });
      expect(ok.status).toBe(200);
      expect(ok.json.data.map((e: { home_team: string }) => e.home_team)).toEqual(['Boston Celtics']);
    });
  });

  describe('methods and paths', () => {
    it('answers unknown methods on known paths with 405 and Allow, and odd methods without a 5xx', async () => {
      for (const method of ['PUT', 'DELETE', 'PATCH']) {
        const r = await t.call('/odds', { method, key: KEYS.enterprise });
        expectApiError(r, { status: 405, code: 'method_not_allowed' }, method);
        expect(r.headers.get('allow')).toBe('GET');
      }
      for (const method of ['PROPFIND', 'OPTIONS']) expectApiError(await t.call('/odds', { method, key: KEYS.enterprise }), {}, method);
      const trace = await raw(port, 'TRACE /api/v1/odds HTTP/1.1\r\nHost: x\r\n\r\n');
      expectRawError(trace, {}, 'TRACE');
      // CONNECT has no handler: Node closes the connection.
      const c = await raw(port, 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(c.status === null ? c.closed : c.status >= 400 && c.status < 500).toBe(true);
    });

    it('answers traversal and odd paths with 404 (never 403) or 400, in the error body', async () => {
      const cases: Array<[string, number]> = [
        ['/docs/../../package.json', 404],
        ['/docs/%2e%2e/%2e%2e/package.json', 404],
        ['/docs/..%2f..%2fpackage.json', 404],
        ['/docs/%2e%2e%5c%2e%2e%5cpackage.json', 404],
        ['/api/v1/%2e%2e/%2e%2e/etc/passwd', 404],
        ['/api/v1/odds/%2e%2e', 404],
        ['//api/v1/odds', 404],
        [`/api/v1/${'a'.repeat(8000)}`, 404],
        [`/api/v1/events/${'a'.repeat(600)}`, 400],
        ['/api/v1/events/%ZZ', 400],
        // A NUL in a path parameter breaks the text rule of every parameter (src/common/http/text-params.ts).
        ['/api/v1/events/%00', 400],
      ];
      for (const [path, status] of cases) {
        const r = await raw(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${KEYS.enterprise}\r\n\r\n`);
        expectRawError(r, { status }, path.slice(0, 60));
      }
    });

    it('serves only the files Swagger UI needs under /docs', async () => {
      expect((await fetch(`${t.url}/docs`)).status).toBe(200);
      for (const f of [
        'swagger-ui.css',
        'swagger-ui-bundle.js',
        'swagger-ui-standalone-preset.js',
        'swagger-ui-init.js',
        'favicon-32x32.png',
      ]) {
        expect({ f, status: (await fetch(`${t.url}/docs/${f}`)).status }).toEqual({ f, status: 200 });
      }
      for (const f of [
        'package.json',
        'README.md',
        'swagger-ui-bundle.js.map',
        'swagger-ui.js.map',
        'LICENSE',
        'index.js',
        'absolute-path.js',
        'oauth2-redirect.html',
        'log.bundle-sizes.swagger-ui.txt',
      ]) {
        const r = await fetch(`${t.url}/docs/${f}`);
        expectContractError(r.status, await r.text(), { status: 404, code: 'not_found' }, f);
      }
    });
  });

  describe('metrics and CORS (defaults)', () => {
    it('/metrics answers a direct local request, and needs the admin token through a proxy', async () => {
      expect((await fetch(`${t.url}/metrics`)).status).toBe(200);
      const proxied: Array<Record<string, string>> = [
        { 'X-Forwarded-For': '203.0.113.9' },
        { Forwarded: 'for=203.0.113.9' },
        { 'X-Real-IP': '203.0.113.9' },
      ];
      for (const h of proxied) {
        const r = await fetch(`${t.url}/metrics`, { headers: h });
        expectContractError(r.status, await r.text(), { status: 401, code: 'unauthorized' }, JSON.stringify(h));
        const withToken = await fetch(`${t.url}/metrics`, { headers: { ...h, 'X-Admin-Token': t.adminToken } });
        expect(withToken.status).toBe(200);
        expect(await withToken.text()).toMatch(/# TYPE auth_failures_total counter/);
      }
    });

    it('sends no CORS headers when CORS_ORIGINS is not set', async () => {
      const g = await fetch(`${t.url}/api/v1/health`, { headers: { Origin: 'https://evil.example' } });
      expect(g.headers.get('access-control-allow-origin')).toBeNull();
      const pre = await fetch(`${t.url}/api/v1/admin/keys`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://evil.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'x-admin-token',
        },
      });
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      expect(pre.headers.get('access-control-allow-headers')).toBeNull();
    });
  });

  it('keeps the event loop free while hostile bodies are served: a concurrent /health answers within 100 ms', async () => {
    // Built before measuring: the client's own work is not the server's.
    const hostile: Array<{ path: string; body: string; headers: Record<string, string> }> = [
      { path: '/odds/batch', body: wideObject(60_000), headers: { 'X-API-Key': KEYS.free } },
      { path: '/odds/batch', body: `{"event_ids":${nested('[', ']', 1500)}}`, headers: { 'X-API-Key': KEYS.free } },
      {
        path: '/odds/batch',
        body: `{"event_ids":["a"],"x":${nested('{"a":', '}', 5000, '1')}}`,
        headers: { 'X-API-Key': KEYS.enterprise },
      },
      { path: '/odds/batch', body: nested('[', ']', 500_000), headers: { 'X-API-Key': KEYS.enterprise } },
      { path: '/admin/keys', body: `{"tier":"pro","name":${nested('[', ']', 5000)}}`, headers: { 'X-Admin-Token': t.adminToken } },
    ];
    const RESOLUTION_MS = 10;
    const attempt = async () => {
      const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
      loop.enable();
      let inFlight = true;
      let healthMax = 0;
      let polls = 0;
      const poller = (async () => {
        while (inFlight) {
          const t0 = performance.now();
          const r = await fetch(`${t.url}/api/v1/health`);
          await r.text();
          healthMax = Math.max(healthMax, performance.now() - t0);
          polls++;
          await new Promise((res) => setTimeout(res, 5));
        }
      })();
      const answers = await Promise.all(
        hostile.map((h) =>
          fetch(`${t.url}/api/v1${h.path}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', ...h.headers },
            body: h.body,
          }).then(async (r) => ({ status: r.status, text: await r.text() })),
        ),
      );
      await new Promise((res) => setTimeout(res, 20));
      inFlight = false;
      await poller;
      loop.disable();
      return { answers, healthMax, polls, loopDelayMax: loop.max / 1e6 - RESOLUTION_MS };
    };
    // A loaded CI machine can stall any process for a moment: the bound must hold in one of three runs. A
    // request that blocks the loop (the 60,000-key body used to take 2-13 s) fails all three.
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const run = await attempt();
      runs.push(run);
      for (const a of run.answers)
        expectContractError(a.status, a.text, { status: 400, code: 'invalid_request', message: /nested more than 32|more than 1000 keys/ });
      if (run.healthMax < 100 && run.loopDelayMax < 100) break;
    }
    const best = runs.reduce((a, b) => (Math.max(b.healthMax, b.loopDelayMax) < Math.max(a.healthMax, a.loopDelayMax) ? b : a));
    expect(best.polls).toBeGreaterThan(0);
    expect({
      healthMs: best.healthMax < 100,
      loopDelayMs: best.loopDelayMax < 100,
      runs: runs.map((r) => [Math.round(r.healthMax), Math.round(r.loopDelayMax)]),
    }).toMatchObject({ healthMs: true, loopDelayMs: true });
  });

  it('is still up and healthy after all of the above', async () => {
    const r = await t.call('/health');
    expect(r.status).toBe(200);
    expect((await t.call('/account', { key: KEYS.enterprise })).status).toBe(200);
  });
});

describe('failed authentication is throttled per client address', () => {
  let t: TestApp;
  let clock: ManualClock;
  const LIMIT = 5;

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2026-11-22T12:00:00Z'));
    // TRUST_PROXY: X-Forwarded-For gives each test its own client address (req.ip), as behind a proxy.
    t = await startTestApp({
      clock,
      env: {
        AUTH_FAILURES_PER_MINUTE: String(LIMIT),
        TRUST_PROXY: 'true',
        METRICS_ALLOW_LOCAL: 'false',
        CORS_ORIGINS: 'https://app.example',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const from = (ip: string, extra: Record<string, string> = {}) => ({ 'X-Forwarded-For': ip, ...extra });

  it('answers 401 to the first N wrong keys, then 429 with Retry-After to every request from the address, a correct key included', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++)
      statuses.push((await t.call('/account', { key: `sk_wrong_${i}_xxxxxxxx`, headers: from('203.0.113.1') })).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429, 429]);
    const locked = await t.call('/account', { key: KEYS.pro, headers: from('203.0.113.1') });
    expectApiError(locked, { status: 429, code: 'rate_limited', message: /Too many failed authentication attempts from this address/ });
    expect(Number(locked.headers.get('retry-after'))).toBe(60);
    expect(locked.json.retry_after).toBe(60);
    // The same key from another address works; so does the locked address once the minute is over.
    expect((await t.call('/account', { key: KEYS.pro, headers: from('203.0.113.2') })).status).toBe(200);
    if (SERVICES) {
      // The counters are in Redis, whose expiry runs on real time: the window is a minute at most.
      expect(
        Number((await t.call('/account', { key: KEYS.pro, headers: from('203.0.113.1') })).headers.get('retry-after')),
      ).toBeLessThanOrEqual(60);
      return;
    }
    clock.advance(30_000);
    expect(Number((await t.call('/account', { key: KEYS.pro, headers: from('203.0.113.1') })).headers.get('retry-after'))).toBe(30);
    clock.advance(30_000);
    expect((await t.call('/account', { key: KEYS.pro, headers: from('203.0.113.1') })).status).toBe(200);
  });

  it('counts wrong admin tokens on the same budget, and not missing credentials', async () => {
    for (let i = 0; i < LIMIT; i++)
      expect((await t.call('/admin/keys', { headers: from('203.0.113.3', { 'X-Admin-Token': `wrong-token-${i}-xxxxxxxx` }) })).status).toBe(
        401,
      );
    expectApiError(await t.call('/admin/keys', { headers: from('203.0.113.3', { 'X-Admin-Token': t.adminToken }) }), {
      status: 429,
      code: 'rate_limited',
    });
    expect((await t.call('/account', { key: KEYS.pro, headers: from('203.0.113.3') })).status).toBe(429);
    for (let i = 0; i < LIMIT * 3; i++) expect((await t.call('/account', { headers: from('203.0.113.4') })).status).toBe(401);
    expect((await t.call('/account', { key: KEYS.pro, headers: from('203.0.113.4') })).status).toBe(200);
    expect((await t.call('/admin/keys', { headers: from('203.0.113.4', { 'X-Admin-Token': t.adminToken }) })).status).toBe(200);
  });

  it('/metrics needs the token even locally when METRICS_ALLOW_LOCAL=false', async () => {
    const r = await fetch(`${t.url}/metrics`);
    expectContractError(r.status, await r.text(), { status: 401, code: 'unauthorized' });
    const ok = await fetch(`${t.url}/metrics`, { headers: { 'X-Admin-Token': t.adminToken } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toMatch(/rate_limit_rejections_total\{tier="failed_auth"\} [1-9]/);
  });

  it('allows only the configured origin, without credentials, and never the admin token in a preflight', async () => {
    const ok = await fetch(`${t.url}/api/v1/health`, { headers: { Origin: 'https://app.example' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    const evil = await fetch(`${t.url}/api/v1/health`, { headers: { Origin: 'https://evil.example' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await fetch(`${t.url}/api/v1/admin/keys`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-admin-token',
      },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect((pre.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/)).not.toContain('x-admin-token');
    expect((pre.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain('x-api-key');
    const evilPre = await fetch(`${t.url}/api/v1/odds`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(evilPre.headers.get('access-control-allow-origin')).toBeNull();
  });
});

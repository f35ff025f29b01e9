import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { BoardService } from '../../src/modules/board/board.service.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, H } from '../factories/market.js';
import { isolationEnv, KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';
import { WsClient } from '../support/ws-client.js';

/**
 * Names of JavaScript's object internals are ordinary text: as the value of any query or path parameter of any
 * operation in /docs-json (the walk finds an operation added later), the answer is a 200 or a 4xx with the error
 * body, never a 5xx; a stream given one sends its snapshot to the end.
 */
export const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'prototype', 'valueOf'];

interface Operation {
  parameters?: Array<{ name: string; in: string; schema?: { type?: string } }>;
  security?: Array<Record<string, string[]>>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

const NOW = Date.parse('2026-11-22T12:00:00Z');

/** A board with a game at normal books. */
export function normalMarket(now: number): Quote[] {
  return buildMarket(
    [{ league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: now + 5 * H }],
    ['draftkings', 'pinnacle'],
    now,
  );
}

/** Reads a stream for at most `ms`: its status and the text it sent. */
export async function readStream(url: string, headers: Record<string, string>, until: RegExp, ms = 3000) {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), ms);
  let text = '';
  let status = 0;
  try {
    const res = await fetch(url, { headers, signal: ac.signal });
    status = res.status;
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    while (!until.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += dec.decode(value, { stream: true });
    }
  } catch {
    /* aborted: the time is up */
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
  return { status, text };
}

/** Sample values of parameters that need a real one (an event's id, a time), beside the one under test. */
function baseline(eventId: string): Record<string, string> {
  return { eventId, event: eventId, event_id: eventId, since: new Date(NOW - 60_000).toISOString() };
}

/** Every operation of /docs-json with its parameters. */
function operationsOf(doc: Doc) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    (['get', 'post', 'delete'] as const).filter((m) => item[m]).map((method) => ({ path, method, op: item[method]! })),
  );
}

/**
 * For each operation, URLs with `value` in one parameter at a time (every path parameter together, then each query
 * parameter), the others at their sample value: the required ones, and `event`/`since` where the operation takes them.
 */
function urlsWith(doc: Doc, value: string, eventId: string) {
  const base = baseline(eventId);
  const out: Array<{ method: string; url: string; admin: boolean; stream: boolean }> = [];
  for (const { path, method, op } of operationsOf(doc)) {
    if (path === '/api/v1/mcp') continue; // JSON-RPC: driven below with its tools
    const admin = (op.security ?? []).some((s) => 'AdminToken' in s);
    const params = op.parameters ?? [];
    const query = params.filter((p) => p.in === 'query').map((p) => p.name);
    const samples = (except: string) =>
      query
        .filter((q) => q !== except && Object.hasOwn(base, q) && !(q === 'event_id' && query.includes('event')))
        .map((q) => `${q}=${encodeURIComponent(base[q]!)}`);
    const fill = (v: string | null) => path.replace(/\{(\w+)\}/g, (_m, n: string) => encodeURIComponent(v ?? base[n] ?? value));
    const stream = path.startsWith('/api/v1/stream');
    if (params.some((p) => p.in === 'path')) {
      const qs = samples('').join('&');
      out.push({ method, url: `${fill(value)}${qs ? `?${qs}` : ''}`, admin, stream });
    }
    for (const q of query)
      out.push({ method, url: `${fill(null)}?${[...samples(q), `${q}=${encodeURIComponent(value)}`].join('&')}`, admin, stream });
  }
  return out;
}

/** A 5xx, or a 4xx without the error body, as a failure line; null when the answer is fine. */
function failureOf(label: string, res: { status: number; json: any; text: string }): string | null {
  if (res.status >= 500) return `${label} -> ${res.status} ${res.text.slice(0, 200)}`;
  if (res.status >= 400) {
    const e = res.json?.error;
    if (!e || typeof e.code !== 'string' || typeof e.message !== 'string')
      return `${label} -> ${res.status} without the error body: ${res.text.slice(0, 200)}`;
  }
  return null;
}

/** Calls every URL (streams read until their snapshot completes); the failures. */
async function walk(t: TestApp, urls: ReturnType<typeof urlsWith>): Promise<string[]> {
  const failures: string[] = [];
  for (const { method, url, admin, stream } of urls) {
    const headers: Record<string, string> = admin ? { 'X-Admin-Token': t.adminToken } : { 'X-API-Key': KEYS.enterprise };
    const label = `${method.toUpperCase()} ${url}`;
    if (stream && method === 'get') {
      const r = await readStream(`${t.url}${url}`, headers, /snapshot:complete|event: error/);
      if (r.status >= 500 || /event: error/.test(r.text)) failures.push(`${label} -> ${r.status} ${r.text.slice(-200)}`);
      else if (r.status === 200 && /event: snapshot\n/.test(r.text) && !/snapshot:complete/.test(r.text))
        failures.push(`${label}: the snapshot never completed`);
      continue;
    }
    const body = method === 'post' ? {} : undefined;
    const f = failureOf(label, await t.call(`${t.url}${url}`, { method: method.toUpperCase(), headers, body }));
    if (f) failures.push(f);
  }
  return failures;
}

describe('prototype names as parameter values, on every operation', () => {
  let t: TestApp;
  let doc: Doc;
  let eventId: string;

  beforeAll(async () => {
    t = await startTestApp({
      clock: new ManualClock(NOW),
      env: { ENTERPRISE_REQUESTS_PER_MINUTE: '1000000', AUTH_FAILURES_PER_MINUTE: '1000000' },
    });
    t.app.get(IngestionService).ingest({ source: 'test', quotes: normalMarket(NOW) }, NOW, { backfill: true });
    doc = (await t.call(`${t.url}/docs-json`)).json as Doc;
    eventId = (await t.call('/events', { key: KEYS.enterprise })).json.data[0].id;
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(PROTOTYPE_NAMES)(
    'every query parameter and every path parameter, with %s',
    async (name) => {
      const urls = urlsWith(doc, name, eventId);
      expect(urls.length).toBeGreaterThan(200);
      expect(await walk(t, urls)).toEqual([]);
    },
    120_000,
  );
});

/** Quotes naming a book, league, team, market, selection and event after each prototype name (an arbitrage at the books). */
function hostileQuotes(now: number): Quote[] {
  const start = now + 5 * H;
  const base = { league: 'nba', homeTeam: 'Boston Celtics', awayTeam: 'Los Angeles Lakers', startTime: start, line: null, sourceTime: now };
  return PROTOTYPE_NAMES.flatMap((name): Quote[] => [
    // The book: Celtics at +105 here and Lakers at +100 at DraftKings are an arbitrage.
    { ...base, book: name, marketType: 'moneyline', selection: 'Boston Celtics', selectionType: 'home', price: { american: 105 } },
    { ...base, book: name, marketType: 'moneyline', selection: 'Los Angeles Lakers', selectionType: 'away', price: { american: -200 } },
    {
      ...base,
      book: 'draftkings',
      league: name,
      sport: 'basketball',
      marketType: 'moneyline',
      selection: 'Boston Celtics',
      selectionType: 'home',
      price: { american: -110 },
    },
    {
      ...base,
      book: 'draftkings',
      homeTeam: name,
      awayTeam: 'prototype',
      marketType: 'moneyline',
      selection: name,
      selectionType: 'home',
      price: { american: -110 },
    },
    { ...base, book: 'fanduel', marketType: name, selection: 'Boston Celtics', selectionType: 'home', price: { american: -110 } },
    { ...base, book: 'fanduel', marketType: 'moneyline', selection: name, selectionType: name, price: { american: -110 } },
    {
      ...base,
      book: 'betmgm',
      marketType: 'moneyline',
      selection: 'Boston Celtics',
      selectionType: 'home',
      price: { american: -105 },
      externalEventId: name,
      marketId: name,
      selectionId: name,
    },
  ]);
}

describe('a board with books, leagues, teams, markets and events named after prototype names', () => {
  const shared = process.env.TEST_DATABASE_URL
    ? isolationEnv()
    : { DATA_DIR: mkdtempSync(join(tmpdir(), 'odds-proto-')), EMBEDDED_IN_MEMORY: 'false' };
  const config = testConfig({ ...shared, ENTERPRISE_REQUESTS_PER_MINUTE: '1000000', AUTH_FAILURES_PER_MINUTE: '1000000' });
  let t: TestApp | undefined;
  let doc: Doc;
  let eventId: string;
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await t?.close();
  });

  /** Every read route, SSE, the WebSocket and MCP on the board: no 5xx, streams complete their snapshot. */
  async function everythingAnswers(app: TestApp): Promise<void> {
    const urls = urlsWith(doc, 'moneyline', eventId).filter((u) => u.method === 'get');
    // Each operation with its sample values only, and the lists with each name as a book filter.
    const plain = [...new Map(urls.map((u) => [u.url.split('?')[0], { ...u, url: u.url.replace(/[?&][a-z_]+=moneyline$/, '') }])).values()];
    const named = PROTOTYPE_NAMES.flatMap((n) =>
      ['/odds', '/odds/best', '/opportunities/arbitrage', '/opportunities/ev', '/opportunities/middles', '/opportunities/low_hold'].map(
        (p) => ({
          method: 'get',
          url: `/api/v1${p}?sportsbook=${encodeURIComponent(n)}`,
          admin: false,
          stream: false,
        }),
      ),
    );
    const extra = [
      { method: 'get', url: '/api/v1/opportunities/arbitrage?format=csv', admin: false, stream: false },
      { method: 'get', url: `/api/v1/odds/comparison?event=${eventId}`, admin: false, stream: false },
      { method: 'get', url: '/api/v1/stream/opportunities', admin: false, stream: true },
      { method: 'get', url: '/api/v1/stream?channels=odds,opportunities', admin: false, stream: true },
    ];
    expect(await walk(app, [...plain, ...named, ...extra])).toEqual([]);
    // The arbitrage at the books named so is found, in JSON and CSV.
    const arbs = (await app.call('/opportunities/arbitrage?min_profit=0&include_flagged=true', { key: KEYS.enterprise })).json
      .data as Array<{
      legs: Array<{ sportsbook: string }>;
    }>;
    expect(arbs.some((a) => a.legs.some((l) => l.sportsbook === 'constructor'))).toBe(true);
    // The WebSocket: subscribed to the market and to each book, a snapshot, never a close.
    const ws = await WsClient.connect(`${app.url.replace('http', 'ws')}/api/v1/ws?api_key=${KEYS.enterprise}&client_profile=spec`);
    for (const n of PROTOTYPE_NAMES)
      ws.send({ type: 'subscribe', channels: ['odds', 'opportunities'], filters: { markets: [n], sportsbooks: [n] } });
    ws.send({ type: 'ping' });
    await ws.next('pong');
    expect(ws.closeInfo).toBeNull();
    ws.close();
    // MCP: find_arbitrage and compare_odds.
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/api/v1/mcp`), { requestInit: { headers: { 'X-API-Key': KEYS.enterprise } } }),
    );
    clients.push(client);
    for (const [name, args] of [
      ['find_arbitrage', {}],
      ['compare_odds', { event: eventId, market: 'moneyline' }],
      ['get_odds', { sportsbook: 'constructor' }],
    ] as const) {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect({ name, isError: r.isError ?? false, text: r.isError ? JSON.stringify(r.content).slice(0, 200) : '' }).toEqual({
        name,
        isError: false,
        text: '',
      });
    }
  }

  it('ingests or refuses each row, every reader keeps answering, also after a restart; deep links keep such ids', async () => {
    t = await startTestApp({ clock: new ManualClock(NOW), config });
    t.app.get(IngestionService).ingest({ source: 'test', quotes: normalMarket(NOW) }, NOW, { backfill: true });
    const ingest = await t.call('/admin/ingest', {
      method: 'POST',
      headers: { 'X-Admin-Token': t.adminToken },
      body: { source: 'hostile', quotes: hostileQuotes(NOW) },
    });
    expect(failureOf('POST /admin/ingest', ingest)).toBeNull();
    expect(ingest.status).toBe(200);
    doc = (await t.call(`${t.url}/docs-json`)).json as Doc;
    eventId = ((await t.call('/events', { key: KEYS.enterprise })).json.data as Array<{ id: string; home_team: string }>).find(
      (e) => e.home_team === 'Boston Celtics',
    )!.id;
    await everythingAnswers(t);

    // Deep links: an id named so is kept in the answer (null: no such price), never dropped.
    const links = await t.call('/deeplinks/batch', { method: 'POST', key: KEYS.enterprise, body: { ids: [...PROTOTYPE_NAMES] } });
    expect(links.status).toBe(200);
    const map = links.json.data.links ?? links.json.data;
    for (const n of PROTOTYPE_NAMES) expect(Object.hasOwn(map, n)).toBe(true);

    await t.app.get(BoardService).writer.flush();
    await t.close({ keepStore: true });
    t = await startTestApp({ clock: new ManualClock(NOW + 60_000), config });
    await everythingAnswers(t);
  }, 180_000);
});

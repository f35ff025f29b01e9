import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import WebSocket from 'ws';
import { ManualClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, H } from '../factories/market.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';
import { WsClient } from '../support/ws-client.js';

/**
 * The parameter text rule (src/common/http/text-params.ts) in every JSON body and on the WebSocket: every string
 * field of every operation's request body in /docs-json (a sample body built from its schema, each string in turn
 * made hostile; an operation added later is walked too), field names, every MCP tool's string arguments, the
 * WebSocket upgrade's query parameters and the subscribe message's strings. A 400 invalid_request naming the field
 * (a tool error for MCP arguments, an `error` frame on the socket), never a 500 and never stored.
 */
const NOW = Date.parse('2026-11-22T12:00:00Z');
const BAD = ['a\u0000b', '\u0001', 'a\nb', 'a\u007fb', 'a\u0085b', 'a\u009bb', 'a\ud800b'];

/** A string with its non-printable characters written as \\uXXXX (test names). */
const shown = (s: string) => s.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

type Schema = {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  example?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  oneOf?: Schema[];
};
type Op = { requestBody?: { content?: Record<string, { schema?: Schema }> }; security?: Array<Record<string, string[]>> };
type Doc = { paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, Schema> } };

describe('control characters in every body string, MCP argument and WebSocket input', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await startTestApp({
      clock: new ManualClock(NOW),
      env: { ENTERPRISE_REQUESTS_PER_MINUTE: '1000000', AUTH_FAILURES_PER_MINUTE: '1000000' },
    });
    t.app.get(IngestionService).ingest(
      {
        source: 'test',
        quotes: buildMarket(
          [{ league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 5 * H }],
          ['draftkings', 'fanduel'],
          NOW,
        ),
      },
      NOW,
      { backfill: true },
    );
    doc = (await t.call(`${t.url}/docs-json`)).json as Doc;
  });
  afterAll(async () => {
    await t.close();
  });

  const resolve = (s: Schema): Schema => (s.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()!]!) : s);

  /** A sample value of a schema, and the paths of every string in it. */
  function sample(s0: Schema, path: string, strings: string[], depth = 0): unknown {
    const s = resolve(s0);
    if (s.enum) {
      if (typeof s.enum[0] === 'string') strings.push(path);
      return s.enum[0];
    }
    if (s.oneOf) return sample(s.oneOf[0]!, path, strings, depth);
    if (s.type === 'string') {
      strings.push(path);
      return typeof s.example === 'string' ? s.example : 'x';
    }
    if (s.type === 'array') return depth > 4 ? [] : [sample(s.items ?? { type: 'string' }, `${path}[0]`, strings, depth + 1)];
    if (s.type === 'boolean') return true;
    if (s.type === 'number' || s.type === 'integer') return typeof s.example === 'number' ? s.example : 1;
    if (s.properties) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties)) out[k] = sample(v, path ? `${path}.${k}` : k, strings, depth + 1);
      return out;
    }
    return s.example ?? {};
  }

  function setAt(body: unknown, path: string, v: unknown): unknown {
    const copy = structuredClone(body) as Record<string, unknown>;
    const parts = path.match(/[^.[\]]+/g)!;
    let o: any = copy;
    for (const p of parts.slice(0, -1)) o = o[p];
    o[parts.at(-1)!] = v;
    return copy;
  }

  /** Every POST operation with a JSON body: (path, the sample body, its string fields, admin or not). */
  const bodies = () => {
    const out: Array<{ path: string; body: unknown; strings: string[]; admin: boolean }> = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        if (method !== 'post' || !schema) continue;
        const strings: string[] = [];
        const body = sample(schema, '', strings);
        out.push({ path: path.replace(/\{\w+\}/g, 'x'), body, strings, admin: (op.security ?? []).some((s) => 'AdminToken' in s) });
      }
    return out;
  };

  it('the walk finds the bodies of the route list and their strings', () => {
    const all = bodies();
    const named = all.flatMap((b) => b.strings.map((s) => `${b.path} ${s}`));
    for (const known of [
      '/api/v1/account/keys name',
      '/api/v1/account/keys/x/rotate name',
      '/api/v1/deeplinks/batch ids[0]',
      '/api/v1/parlay/price legs[0].event_id',
      '/api/v1/odds/batch event_ids[0]',
      '/api/v1/admin/keys account_id',
      '/api/v1/admin/ingest source',
      '/api/v1/mcp method',
    ])
      expect(named).toContain(known);
  });

  it.each(BAD.map((b) => [shown(b), b]))(
    '%s in any body string or field name: 400 invalid_request naming the field, on every operation',
    async (_label, bad) => {
      const failures: string[] = [];
      let tried = 0;
      for (const b of bodies()) {
        const headers: Record<string, string> = b.admin
          ? { 'X-Admin-Token': t.adminToken }
          : { 'X-API-Key': KEYS.enterprise, Accept: 'application/json, text/event-stream' };
        const cases: Array<{ body: unknown; name: string }> = b.strings.map((s) => ({ body: setAt(b.body, s, bad), name: s }));
        const key = `k${bad}`;
        cases.push({ body: { ...(b.body as object), [key]: 1 }, name: key });
        for (const c of cases) {
          tried++;
          const r = await t.call(`${t.url}${b.path}`, { method: 'POST', headers, body: c.body });
          if (r.status !== 400 || r.json?.error?.code !== 'invalid_request' || r.json?.error?.parameter !== c.name)
            failures.push(`POST ${b.path} ${JSON.stringify(c.name)} -> ${r.status} ${r.text.slice(0, 200)}`);
        }
      }
      expect(tried).toBeGreaterThan(15);
      expect(failures).toEqual([]);
    },
  );

  it("the admin ingest's items are refused one by one (the batch is kept), its own fields as a whole", async () => {
    const quote = {
      book: 'betmgm',
      league: 'nba',
      homeTeam: 'Boston Celtics',
      awayTeam: 'Los Angeles Lakers',
      startTime: NOW + 5 * H,
      marketType: 'moneyline',
      selection: 'Boston Celtics',
      selectionType: 'home',
      price: { american: -120 },
    };
    const r = await t.call('/admin/ingest', {
      method: 'POST',
      headers: { 'X-Admin-Token': t.adminToken },
      body: { quotes: [quote, { ...quote, selection: 'Boston\u0000Celtics' }] },
    });
    expect(r.status).toBe(200);
    expect(r.json.data.accepted).toBe(1);
    expect(r.json.data.rejections).toEqual([
      { index: 1, reason: 'invalid_text', message: expect.stringMatching(/^selection contains a NUL/) },
    ]);
  });

  it('MCP: every string argument of every tool with a control character is a tool error, never an internal error', async () => {
    const rpc = async (body: unknown) => {
      const r = await fetch(`${t.url}/api/v1/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': KEYS.enterprise },
        body: JSON.stringify(body),
      });
      const text = await r.text();
      const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? 'null');
      return { status: r.status, json: JSON.parse(data) as any };
    };
    const tools = (await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).json.result.tools as Array<{
      name: string;
      inputSchema: { properties?: Record<string, { type?: string; anyOf?: unknown[] }> };
    }>;
    const failures: string[] = [];
    let tried = 0;
    for (const tool of tools)
      for (const [name, s] of Object.entries(tool.inputSchema.properties ?? {})) {
        if (s.type !== 'string' && !s.anyOf) continue;
        for (const bad of ['a\u0000b', 'a\u0085b']) {
          tried++;
          const r = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool.name, arguments: { [name]: bad } } });
          const text = JSON.stringify(r.json);
          if (r.status !== 200 || r.json.result?.isError !== true || /internal_error|HTTP 5\d\d/.test(text))
            failures.push(`${tool.name}(${name}) -> ${r.status} ${text.slice(0, 200)}`);
        }
      }
    expect(tried).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });

  describe('WebSocket', () => {
    const wsUrl = (q: string) => `${t.url.replace('http', 'ws')}/api/v1/ws?api_key=${KEYS.enterprise}&client_profile=spec${q}`;
    /** The HTTP status an upgrade is answered with when it is refused (null: it was accepted). */
    const upgradeStatus = (url: string) =>
      new Promise<{ status: number | null; body: string }>((resolve) => {
        const ws = new WebSocket(url);
        ws.on('unexpected-response', (req, res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += String(c)));
          res.on('end', () => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body });
          });
        });
        ws.on('open', () => {
          ws.close();
          resolve({ status: null, body: '' });
        });
        ws.on('error', () => undefined);
      });

    it.each(['league', 'sportsbook', 'channels', 'event_id', 'market', 'sport', 'min_ev'])(
      'a control character in the upgrade query parameter %p: 400 naming it, no socket',
      async (name) => {
        for (const bad of ['%00', 'a%01', '%0A', '%C2%85', '%7F']) {
          const r = await upgradeStatus(wsUrl(`&${name}=${bad}`));
          expect([bad, r.status]).toEqual([bad, 400]);
          expect(JSON.parse(r.body).error).toMatchObject({ code: 'invalid_request', parameter: name });
        }
        expect((await upgradeStatus(wsUrl('&league=nba'))).status).toBeNull();
      },
    );

    it('a control character in any string of a subscribe message: an error frame naming it, the socket still serves', async () => {
      const c = await WsClient.connect(wsUrl(''));
      try {
        const cases: Array<[unknown, string]> = [
          [{ type: 'subscribe', channels: ['odds'], filters: { leagues: ['nba\u0000'] } }, 'filters.leagues[0]'],
          [{ type: 'subscribe', channels: ['odds\u0001'] }, 'channels[0]'],
          [{ type: 'subscribe', channels: ['odds'], filters: { sportsbooks: ['draft\u0085kings'] } }, 'filters.sportsbooks[0]'],
          [{ type: 'subscribe', channels: ['odds'], filters: { eventIds: ['x\u009b'] } }, 'filters.eventIds[0]'],
          [{ type: 'subscribe', channels: ['odds'], filters: { ['le\u0000agues']: ['nba'] } }, 'filters.le\u0000agues'],
          [{ type: 'ping', id: 'p\u0000' }, 'id'],
        ];
        for (const [msg, name] of cases) {
          c.send(msg);
          const e = await c.next('error');
          expect(e.code ?? e.error?.code).toBe('invalid_message');
          expect(JSON.stringify(e)).toContain(JSON.stringify(name).slice(1, -1));
        }
        c.send({ type: 'ping' });
        await c.next('pong');
      } finally {
        c.close();
      }
    });
  });
});

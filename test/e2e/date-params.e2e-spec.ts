import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Every date and time parameter of every operation of /docs-json (found by its name, so one added later is tried
 * too), and of every MCP tool: impossible calendar dates, years outside 1970..9999, times of day and offsets that
 * do not exist are 400 invalid_request naming the parameter (never 500, never read leniently as another day);
 * a real date is taken.
 */
const NOW = Date.parse('2026-11-22T12:00:00Z');

/** A parameter holding a date or a time, by its name (`date_range` is a word list, not a date). */
const DATE_LIKE = /^(date|since|from|to|until|before|after)$|(^|_)(time|date|start|end)(_|$)|^commence_time/;

const IMPOSSIBLE = [
  '2026-02-30',
  '2026-02-29', // 2026 is not a leap year
  '2026-04-31',
  '2026-13-01',
  '2026-00-10',
  '0000-01-01',
  '0050-01-01',
  '1969-12-31',
  '10000-01-01',
  '+275760-09-13',
  '2026-11-22T24:00:00Z',
  '2026-11-22T18:61:00Z',
  '2026-11-22T18:00:00+25:00',
  '2026-02-30T12:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59-01:00',
  '9999999999999',
  '1e300',
  'yesterday',
];

type Op = {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: { enum?: unknown[] } }>;
  security?: Array<Record<string, string[]>>;
};
type Doc = { paths: Record<string, Record<string, Op>> };

describe('date and time parameters: one strict reader, 400 naming the parameter', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW), env: { ENTERPRISE_REQUESTS_PER_MINUTE: '1000000' } });
    doc = (await t.call(`${t.url}/docs-json`)).json as Doc;
  });
  afterAll(async () => {
    await t.close();
  });

  /** Every (method, path, parameter) holding a date or time, with the other required parameters filled in. */
  const dateParams = () => {
    const out: Array<{ method: string; path: string; name: string; rest: string; admin: boolean }> = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        const params = op.parameters ?? [];
        const admin = (op.security ?? []).some((s) => 'AdminToken' in s);
        for (const p of params) {
          if (p.in !== 'query' || !DATE_LIKE.test(p.name) || p.schema?.enum) continue;
          const rest = params
            .filter((o) => o.in === 'query' && o.required && o.name !== p.name)
            .map((o) => `&${o.name}=${o.name === 'event_id' ? 'nba_x' : 'x'}`)
            .join('');
          out.push({ method: method.toUpperCase(), path: path.replace(/\{\w+\}/g, 'x'), name: p.name, rest, admin });
        }
      }
    return out;
  };

  it('the walk finds the date and time parameters of the route list', () => {
    const names = dateParams().map((p) => `${p.path}?${p.name}`);
    for (const known of [
      '/api/v1/odds?date',
      '/api/v1/events?date',
      '/api/v1/odds/delta?since',
      '/api/v1/splits/history?start_time',
      '/api/v1/splits/history?end_time',
      '/api/v1/historical/clv?from',
      '/api/v1/historical/clv?to',
    ])
      expect(names).toContain(known);
  });

  it.each(IMPOSSIBLE)('%p: 400 invalid_request naming the parameter on every route', async (bad) => {
    const failures: string[] = [];
    for (const p of dateParams()) {
      const url = `${t.url}${p.path}?${p.name}=${encodeURIComponent(bad)}${p.rest}`;
      const headers: Record<string, string> = p.admin ? { 'X-Admin-Token': t.adminToken } : { 'X-API-Key': KEYS.enterprise };
      const r = await t.call(url, { method: p.method, headers });
      if (r.status !== 400 || r.json?.error?.code !== 'invalid_request' || r.json?.error?.parameter !== p.name)
        failures.push(`${p.method} ${p.path}?${p.name}=${bad} -> ${r.status} ${r.text.slice(0, 200)}`);
      else if (!String(r.json.error.message).includes(`"${p.name}"`)) failures.push(`${p.path}?${p.name}: message does not name it`);
    }
    expect(failures).toEqual([]);
  });

  it('a real date is taken on every such route (never refused as a date)', async () => {
    const failures: string[] = [];
    for (const good of ['2026-11-20', '2024-02-29', '2026-11-20T18:00:00Z']) {
      for (const p of dateParams()) {
        if (p.name === 'date' && good.includes('T')) continue; // a game day is a date alone
        const url = `${t.url}${p.path}?${p.name}=${encodeURIComponent(good)}${p.rest}`;
        const r = await t.call(url, { method: p.method, headers: { 'X-API-Key': KEYS.enterprise } });
        if (r.status >= 500 || r.json?.error?.parameter === p.name)
          failures.push(`${p.path}?${p.name}=${good} -> ${r.status} ${r.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('the reproductions: /historical/clv?from=0000-01-01 and since=2026-02-30 are 400, never 500 or March 2', async () => {
    const clv = await t.call('/historical/clv?from=0000-01-01', { key: KEYS.enterprise });
    expect(clv.status).toBe(400);
    expect(clv.json.error).toMatchObject({ code: 'invalid_request', parameter: 'from' });
    expect(clv.json.error.message).toMatch(/^Invalid parameter "from": "0000-01-01" is outside the times the service holds/);
    const delta = await t.call('/odds/delta?since=2026-02-30T00:00:00Z', { key: KEYS.enterprise });
    expect(delta.status).toBe(400);
    expect(delta.json.error.message).toMatch(/not a calendar date \(2026-02 has 28 days\)/);
    const splits = await t.call('/splits/history?event_id=nba_x&start_time=0050-01-01', { key: KEYS.enterprise });
    expect(splits.status).toBe(400);
    expect(splits.json.error.parameter).toBe('start_time');
    const ok = await t.call('/odds/delta?since=2026-11-22T11:00:00Z', { key: KEYS.enterprise });
    expect(ok.status).toBe(200);
  });

  it('MCP tools: every date or time argument with an impossible value is a tool error, never an internal error', async () => {
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
    const list = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const tools = list.json.result.tools as Array<{
      name: string;
      inputSchema: { properties?: Record<string, { type?: string }>; required?: string[] };
    }>;
    // A tool's other required arguments get a plain value, so the date argument is the one refused.
    const required = (tool: (typeof tools)[number], except: string) =>
      Object.fromEntries(
        (tool.inputSchema.required ?? [])
          .filter((n) => n !== except)
          .map((n) => [n, ['number', 'integer'].includes(tool.inputSchema.properties?.[n]?.type ?? '') ? 1 : 'nba_x']),
      );
    const failures: string[] = [];
    let tried = 0;
    for (const tool of tools)
      for (const name of Object.keys(tool.inputSchema.properties ?? {})) {
        if (!DATE_LIKE.test(name)) continue;
        for (const bad of ['2026-02-30', '0000-01-01', '2026-02-30T00:00:00Z', '0000-01-01T00:00:00Z']) {
          tried++;
          const r = await rpc({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: tool.name, arguments: { ...required(tool, name), [name]: bad } },
          });
          const text = JSON.stringify(r.json);
          if (r.status !== 200 || r.json.result?.isError !== true || /internal_error|HTTP 500/.test(text) || !text.includes(name))
            failures.push(`${tool.name}(${name}=${bad}) -> ${r.status} ${text.slice(0, 200)}`);
        }
      }
    expect(tried).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, H } from '../factories/market.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

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
  return buildMarket([{ league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: now + 5 * H }], ['draftkings', 'pinnacle'], now);
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

describe('prototype names as parameter values, on every operation', () => {
  let t: TestApp;
  let doc: Doc;

  beforeAll(async () => {
    t = await startTestApp({
      clock: new ManualClock(NOW),
      env: { ENTERPRISE_REQUESTS_PER_MINUTE: '1000000', AUTH_FAILURES_PER_MINUTE: '1000000' },
    });
    t.app.get(IngestionService).ingest({ source: 'test', quotes: normalMarket(NOW) }, NOW, { backfill: true });
    doc = (await t.call(`${t.url}/docs-json`)).json as Doc;
  });
  afterAll(async () => {
    await t.close();
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      (['get', 'post', 'delete'] as const).filter((m) => item[m]).map((method) => ({ path, method, op: item[method]! })),
    );

  async function check(failures: string[], label: string, res: { status: number; json: any; text: string }) {
    if (res.status >= 500) failures.push(`${label} -> ${res.status} ${res.text.slice(0, 200)}`);
    else if (res.status >= 400) {
      const e = res.json?.error;
      if (!e || typeof e.code !== 'string' || typeof e.message !== 'string')
        failures.push(`${label} -> ${res.status} without the error body: ${res.text.slice(0, 200)}`);
    }
  }

  it('every query parameter and every path parameter, with each name', async () => {
    const failures: string[] = [];
    let tried = 0;
    for (const { path, method, op } of operations()) {
      if (path === '/api/v1/mcp') continue; // JSON-RPC: test/e2e/mcp.e2e-spec.ts
      const admin = (op.security ?? []).some((s) => 'AdminToken' in s);
      const headers: Record<string, string> = admin ? { 'X-Admin-Token': t.adminToken } : { 'X-API-Key': KEYS.enterprise };
      const stream = path.startsWith('/api/v1/stream');
      const params = op.parameters ?? [];
      const pathNames = params.filter((p) => p.in === 'path').map((p) => p.name);
      const queryNames = params.filter((p) => p.in === 'query').map((p) => p.name);
      for (const name of PROTOTYPE_NAMES) {
        const filled = path.replace(/\{(\w+)\}/g, () => encodeURIComponent(name));
        // The path parameters with the name, then each query parameter with it (path parameters filled with it too).
        const urls = [...(pathNames.length ? [filled] : []), ...queryNames.map((q) => `${filled}?${q}=${encodeURIComponent(name)}`)];
        for (const u of urls) {
          tried++;
          const label = `${method.toUpperCase()} ${u}`;
          if (stream && method === 'get') {
            const r = await readStream(`${t.url}${u}`, headers, /snapshot:complete|event: error/);
            if (r.status >= 500 || /event: error/.test(r.text)) failures.push(`${label} -> ${r.status} ${r.text.slice(-200)}`);
            if (r.status === 200 && /event: snapshot\n/.test(r.text) && !/snapshot:complete/.test(r.text))
              failures.push(`${label}: the snapshot never completed`);
            continue;
          }
          const body = method === 'get' || method === 'delete' ? undefined : {};
          await check(failures, label, await t.call(`${t.url}${u}`, { method: method.toUpperCase(), headers, body }));
        }
      }
    }
    expect(tried).toBeGreaterThan(400);
    expect(failures).toEqual([]);
  }, 300_000);
});

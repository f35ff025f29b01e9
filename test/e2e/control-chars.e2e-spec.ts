import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, H } from '../factories/market.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * NUL and other control characters, and bytes that are not UTF-8, in every path and query parameter of every
 * operation of /docs-json (the walk finds an operation added later): always 400 invalid_request naming the parameter.
 */
const NOW = Date.parse('2026-11-22T12:00:00Z');
const BAD = ['%00', 'a%00b', '%01', '%0A', '%7F', '%C2%85', '%EF%BF%BD'];

type Doc = {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; security?: Array<Record<string, string[]>> }>>;
};

describe('control characters in every parameter', () => {
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
          ['draftkings'],
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

  it.each(BAD)(
    '%p: 400 naming the parameter, on every route',
    async (bad) => {
      const failures: string[] = [];
      let tried = 0;
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const method of ['get', 'post', 'delete'] as const) {
          const op = item[method];
          if (!op) continue;
          const admin = (op.security ?? []).some((s) => 'AdminToken' in s);
          const headers: Record<string, string> = admin ? { 'X-Admin-Token': t.adminToken } : { 'X-API-Key': KEYS.enterprise };
          const params = op.parameters ?? [];
          const cases: Array<{ url: string; name: string }> = [];
          for (const p of params.filter((x) => x.in === 'path'))
            cases.push({ url: path.replace(`{${p.name}}`, `x${bad}`).replace(/\{\w+\}/g, 'x'), name: p.name });
          for (const p of params.filter((x) => x.in === 'query'))
            cases.push({ url: `${path.replace(/\{\w+\}/g, 'x')}?${p.name}=x${bad}`, name: p.name });
          for (const c of cases) {
            tried++;
            const r = await t.call(`${t.url}${c.url}`, { method: method.toUpperCase(), headers, body: method === 'post' ? {} : undefined });
            if (r.status !== 400 || r.json?.error?.code !== 'invalid_request' || r.json?.error?.parameter !== c.name)
              failures.push(`${method.toUpperCase()} ${c.url} -> ${r.status} ${r.text.slice(0, 160)}`);
          }
        }
      }
      expect(tried).toBeGreaterThan(200);
      expect(failures).toEqual([]);
    },
    120_000,
  );

  it('the named reproductions: a real NUL in event_id, a key id and admin ids is 400 naming the parameter', async () => {
    const admin = { 'X-Admin-Token': t.adminToken };
    const user = { 'X-API-Key': KEYS.enterprise };
    const cases: Array<[string, string, Record<string, string>, string]> = [
      ['GET', '/odds/closing?event_id=%00', user, 'event_id'],
      ['GET', '/odds/closing?event_id=nba_x%00y', user, 'event_id'],
      ['GET', '/splits/history?event_id=%00', user, 'event_id'],
      ['GET', '/splits/history?event_id=nba%00', user, 'event_id'],
      ['DELETE', '/account/keys/%00', user, 'id'],
      ['DELETE', '/account/keys/key_%00', user, 'id'],
      ['POST', '/account/keys/%00/rotate', user, 'id'],
      ['POST', '/admin/keys/%00/revoke', admin, 'id'],
      ['POST', '/admin/keys/%00/arbitrage', admin, 'id'],
      ['POST', '/admin/accounts/%00/max-keys', admin, 'id'],
      ['POST', '/admin/accounts/acct_%00/addons', admin, 'id'],
      ['GET', '/admin/keys?x%00=1', admin, 'x\u0000'],
    ];
    for (const [method, path, headers, parameter] of cases) {
      const r = await t.call(path, { method, headers, body: method === 'POST' ? {} : undefined });
      expect([method, path, r.status, r.json?.error?.code, r.json?.error?.parameter]).toEqual([
        method,
        path,
        400,
        'invalid_request',
        parameter,
      ]);
    }
  });
});

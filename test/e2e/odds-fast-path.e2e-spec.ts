import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { OddsFastPath } from '../../src/modules/odds/odds-fast-path.js';
import { buildMarket, H } from '../factories/market.js';
import { startTestApp, type CallResult, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T18:00:00Z');
const BOOKS = ['draftkings', 'fanduel', 'betmgm', 'pinnacle'];
const GAMES = [
  { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 2 * H },
  { league: 'nhl', home: 'Toronto Maple Leafs', away: 'Montreal Canadiens', start: NOW + 26 * H },
];

/** The headers of a response, without those that differ on every request by design (X-Cache-Status: MISS, then HIT). */
function stableHeaders(r: CallResult): Record<string, string> {
  const out: Record<string, string> = {};
  r.headers.forEach((v, k) => {
    if (k !== 'x-request-id' && k !== 'x-ratelimit-remaining' && k !== 'date' && k !== 'x-cache-status') out[k] = v;
  });
  return out;
}

/**
 * GET /odds and /odds/best are answered before the Nest pipeline once the key is cached and the query was
 * validated (OddsFastPath). These reads must be indistinguishable from the pipeline's: same bytes, same headers,
 * each request counted once on its budget and in usage, the 429 and the errors the pipeline answers.
 */
describe('odds reads answered before the pipeline (end to end)', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  /** What each call to the fast path answered: true when it sent the response itself. */
  const answered: boolean[] = [];

  beforeAll(async () => {
    t = await startTestApp({ clock });
    const r = t.app.get(IngestionService).ingest({ source: 'test', quotes: buildMarket(GAMES, BOOKS, NOW) }, NOW, { backfill: true });
    expect(r.rejected).toEqual({});
    const fast = t.app.get(OddsFastPath);
    const serve = fast.serve.bind(fast);
    jest.spyOn(fast, 'serve').mockImplementation(async (...args) => {
      const done = await serve(...args);
      answered.push(done);
      return done;
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(['/odds?limit=5&sort=-odds_decimal', '/odds/best?market=moneyline'])(
    'answers %s with the bytes and headers the pipeline answered, counting one request each',
    async (path) => {
      const key = await t.newKey('pro');
      answered.length = 0;
      const first = await t.call(path, { key });
      const second = await t.call(path, { key });
      const third = await t.call(path, { key });
      // The first read (key and query unseen) went down the pipeline; the next ones did not.
      expect(answered).toEqual([false, true, true]);
      expect(first.status).toBe(200);
      for (const r of [second, third]) {
        expect(r.status).toBe(200);
        expect(r.text).toBe(first.text);
        expect(stableHeaders(r)).toEqual(stableHeaders(first));
        expect(r.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{12}$/);
      }
      expect(first.headers.get('x-tier')).toBe('pro');
      expect(first.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      // The pipeline built the page (or took it from the page cache); the fast path sent the kept page.
      expect(first.headers.get('etag')).toMatch(/^"[0-9a-f]{20}"$/);
      expect([second, third].map((r) => r.headers.get('x-cache-status'))).toEqual(['HIT', 'HIT']);
      const remaining = [first, second, third].map((r) => Number(r.headers.get('x-ratelimit-remaining')));
      const limit = Number(first.headers.get('x-ratelimit-limit'));
      expect(remaining).toEqual([limit - 1, limit - 2, limit - 3]);
    },
  );

  it('counts fast reads once in usage', async () => {
    const key = await t.newKey('sharp');
    for (let i = 0; i < 4; i++) expect((await t.call('/odds?limit=2', { key })).status).toBe(200);
    const usage = await t.call('/account/usage', { key });
    expect(usage.json.data.requests.today).toBe(5);
    expect(usage.json.data.requests.limit.remaining).toBe(usage.json.data.requests.limit.per_minute - 5);
  });

  it("answers the request past the budget with the pipeline's 429, counted once", async () => {
    const key = await t.newKey('free'); // 12 a minute
    answered.length = 0;
    const statuses: number[] = [];
    let last: CallResult | undefined;
    for (let i = 0; i < 13; i++) {
      last = await t.call('/odds?limit=3', { key });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(12).fill(200), 429]);
    expect(answered.slice(1, 12).every(Boolean)).toBe(true);
    expect(answered[12]).toBe(false);
    expect(last!.json.error.code).toBe('rate_limited');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(last!.headers.get('x-ratelimit-limit')).toBe('12');
    expect(last!.headers.get('x-data-delay')).toBe('60');
    expect(Number(last!.headers.get('retry-after'))).toBe(last!.json.retry_after);
  });

  it('leaves errors to the pipeline: a refused book scope is 403 every time, each request counted once', async () => {
    const key = await t.newKey('free');
    answered.length = 0;
    const a = await t.call('/odds?sportsbook=pinnacle', { key });
    const b = await t.call('/odds?sportsbook=pinnacle', { key });
    expect(answered).toEqual([false, false]);
    expect(a.status).toBe(403);
    expect(b.status).toBe(403);
    expect(b.text).toBe(a.text);
    expect(a.json.error.code).toBe('tier_restricted');
    expect(Number(b.headers.get('x-ratelimit-remaining'))).toBe(Number(a.headers.get('x-ratelimit-remaining')) - 1);
  });

  it('never answers an invalid query or an invalid key', async () => {
    const key = await t.newKey('pro');
    answered.length = 0;
    const bad = [await t.call('/odds?limit=0', { key }), await t.call('/odds?limit=0', { key })];
    expect(bad.map((r) => r.status)).toEqual([400, 400]);
    expect(bad[1]!.text).toBe(bad[0]!.text);
    await t.call('/odds?limit=4', { key });
    const wrong = await t.call('/odds?limit=4', { key: 'sk_live_not_a_key_at_all_0000' });
    expect(wrong.status).toBe(401);
    expect(answered).toEqual([false, false, false, false]);
  });

  it('refuses a revoked key on its next read', async () => {
    const admin = { 'X-Admin-Token': t.adminToken };
    const created = await t.call('/admin/keys', { method: 'POST', body: { tier: 'pro' }, headers: admin });
    const { key, id } = created.json.data as { key: string; id: string };
    answered.length = 0;
    expect((await t.call('/odds?limit=1', { key })).status).toBe(200);
    expect((await t.call('/odds?limit=1', { key })).status).toBe(200);
    expect(answered).toEqual([false, true]);
    expect((await t.call(`/admin/keys/${id}/revoke`, { method: 'POST', headers: admin })).status).toBeLessThan(300);
    const after = await t.call('/odds?limit=1', { key });
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe('unauthorized');
  });
});

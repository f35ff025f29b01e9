import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { ApiKeysRepository } from '../../src/modules/accounts/api-keys.repository.js';
import { EventBus } from '../../src/common/bus/event-bus.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { StreamHub } from '../../src/modules/stream/stream-hub.js';
import { KEY_CHECK_MS } from '../../src/modules/stream/key-watch.js';
import { buildMarket, H } from '../factories/market.js';
import { SseRecorder } from '../support/sse.js';
import { isolationEnv, startTestApp, testConfig, type TestApp } from '../support/test-app.js';
import { WsClient } from '../support/ws-client.js';
import { KEYS_TOPIC } from '../../src/domain/topics.js';

/**
 * Two instances on one PostgreSQL schema and one Redis: a key revoked on one ends its streams on the other
 * within 5 s, through the bus, and through the periodic check of the store when the bus message is lost.
 */
describe('revocation ends streams on every instance', () => {
  const NOW = Date.parse('2026-11-22T12:00:00Z');
  let a: TestApp;
  let b: TestApp;
  const open: Array<{ close(): void }> = [];

  beforeAll(async () => {
    const shared = isolationEnv();
    a = await startTestApp({ clock: new ManualClock(NOW), config: testConfig(shared) });
    b = await startTestApp({ clock: new ManualClock(NOW), config: testConfig(shared) });
    const games = [{ league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 6 * H }];
    for (const x of [a, b])
      x.app
        .get(IngestionService)
        .ingest({ source: 'test', quotes: buildMarket(games, ['draftkings', 'fanduel', 'pinnacle'], NOW) }, NOW, { backfill: true });
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await b.close();
    await a.close();
  });

  async function newKey(): Promise<{ key: string; id: string }> {
    const r = await a.call('/admin/keys', { method: 'POST', body: { tier: 'sharp' }, headers: { 'X-Admin-Token': a.adminToken } });
    return r.json.data as { key: string; id: string };
  }

  /** An SSE stream and a WebSocket of a key on instance B, both past their snapshot. */
  async function streamsOnB(key: string) {
    const sse = new SseRecorder(`${b.url}/api/v1/stream?channel=odds&api_key=${key}`);
    const ws = await WsClient.connect(`${b.url.replace('http', 'ws')}/api/v1/ws?api_key=${key}&channels=odds`);
    open.push(sse, ws);
    await sse.seen('snapshot:complete');
    await ws.seen('snapshot:complete');
    return { sse, ws };
  }

  it("revoked through A's admin route: B's SSE and WebSocket streams close within 5 s", async () => {
    const { key, id } = await newKey();
    const { sse, ws } = await streamsOnB(key);
    const keep = await newKey();
    const bystander = await streamsOnB(keep.key);
    const revokedAt = Date.now();
    expect((await a.call(`/admin/keys/${id}/revoke`, { method: 'POST', headers: { 'X-Admin-Token': a.adminToken } })).status).toBe(200);
    const [err, closed] = await Promise.all([sse.seen('error', 5000), ws.closed]);
    expect(Date.now() - revokedAt).toBeLessThan(5000);
    expect(err.data).toEqual({ code: 'unauthorized', message: 'The API key was revoked; the stream is closed' });
    expect(closed).toEqual({ code: 4001, reason: 'unauthorized' });
    expect(b.app.get(StreamHub).streamingKeys()).not.toContain(id);
    expect(bystander.ws.closeInfo).toBeNull();
    expect(bystander.sse.of('error')).toEqual([]);
  });

  it("when the bus message is lost, B's periodic check of the store closes the streams within 5 s", async () => {
    const { key, id } = await newKey();
    const { sse, ws } = await streamsOnB(key);
    // Nothing reaches B's bus handlers for key changes from now on (a lost message), and the revocation is
    // written to the store without any announcement at all.
    const bus = b.app.get(EventBus);
    const seen: unknown[] = [];
    bus.subscribe(KEYS_TOPIC, (p) => seen.push(p));
    const at = new Date(NOW);
    const revokedAt = Date.now();
    await a.app.get(ApiKeysRepository, { strict: false }).update(id, { isActive: false, revokedAt: at, updatedAt: at });
    // The periodic check is a job on B's clock: the next one is at most KEY_CHECK_MS away.
    await (b.clock as ManualClock).advance(KEY_CHECK_MS);
    const [err, closed] = await Promise.all([sse.seen('error', 5000), ws.closed]);
    expect(Date.now() - revokedAt).toBeLessThan(5000);
    expect(seen).toEqual([]);
    expect(err.data.code).toBe('unauthorized');
    expect(closed.code).toBe(4001);
    // And the key no longer opens anything on either instance.
    expect((await b.call('/account', { key })).status).toBe(401);
  });

  it("an add-on given or taken away through A applies to the key on B at once (B's cached lookup is dropped)", async () => {
    const r = await a.call('/admin/keys', { method: 'POST', body: { tier: 'pro' }, headers: { 'X-Admin-Token': a.adminToken } });
    const { key, account_id: account } = r.json.data as { key: string; account_id: string };
    // B has read the key (and keeps it for KEY_CACHE_MS; its clock does not move here).
    expect((await b.call('/gamestate', { key })).status).toBe(403);
    const set = (enabled: boolean) =>
      a.call(`/admin/accounts/${account}/addons`, {
        method: 'POST',
        body: { addon: 'game_state', enabled },
        headers: { 'X-Admin-Token': a.adminToken },
      });
    /** B's answer to /gamestate once it is `want`, or its last answer after 2 s (the bus is asynchronous). */
    const onB = async (want: number) => {
      const until = Date.now() + 2000;
      let status = (await b.call('/gamestate', { key })).status;
      while (status !== want && Date.now() < until) {
        await new Promise((done) => setTimeout(done, 20));
        status = (await b.call('/gamestate', { key })).status;
      }
      return status;
    };
    expect((await set(true)).status).toBe(200);
    expect(await onB(200)).toBe(200);
    expect((await b.call('/account', { key })).json.data.addons).toEqual(['game_state']);
    expect((await set(false)).status).toBe(200);
    const status = await onB(403);
    expect(status).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { Catalog } from '../../src/config/catalog.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { MAX_FRAME_BYTES } from '../../src/modules/stream/chunks.js';
import { StreamHub } from '../../src/modules/stream/stream-hub.js';
import { MESSAGE_BUDGET, SUBSCRIBE_BUDGET } from '../../src/modules/stream/ws-session.js';
import { buildMarket, H, type GameSpec } from '../factories/market.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';
import { WsClient, type WsFrame } from '../support/ws-client.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const BOOKS = ['draftkings', 'fanduel', 'betmgm', 'pinnacle'];

/**
 * The standing hostile-input suite for the WebSocket: whatever a client sends, the process stays up, the
 * socket gets an `error` frame (and stays usable) or a clean close with a reason, and REST keeps answering.
 */
describe('hostile WebSocket input', () => {
  let t: TestApp;
  let key: string;
  const open: WsClient[] = [];
  // The `spec` profile: the frames and the wait-for-subscribe behaviour this suite checks (the default is the AsyncAPI profile).
  const wsUrl = (k: string, q = '') => `${t.url.replace('http', 'ws')}/api/v1/ws?api_key=${k}&client_profile=spec${q}`;
  const connect = async (q = '', k = key) => {
    const c = await WsClient.connect(wsUrl(k, q));
    open.push(c);
    return c;
  };
  /** The socket still answers: a ping gets its pong. */
  const stillServes = async (c: WsClient) => {
    c.send({ type: 'ping' });
    await c.next('pong');
  };
  /** The server still answers REST while (and after) the hostile client did its thing. */
  const restAnswers = async () => expect((await t.call('/account', { key })).status).toBe(200);

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
    // About 4,000 prices: NBA games over 10 days at four books, so a snapshot takes several frames.
    const teams = new Catalog().teamsOf('nba').map((x) => x.name);
    const games: GameSpec[] = [];
    for (let d = 0; d < 10; d++)
      for (let i = 0; i + 1 < teams.length; i += 2)
        games.push({ league: 'nba', home: teams[i]!, away: teams[i + 1]!, start: NOW + (30 + d * 24) * H });
    t.app.get(IngestionService).ingest({ source: 'test', quotes: buildMarket(games, BOOKS, NOW) }, NOW, { backfill: true });
    // Its own sharp key: 1,000 requests a minute, so the upgrades of this suite never hit the rate limit.
    key = await t.newKey('sharp');
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await t.close();
  });

  const invalid: Array<[string, string]> = [
    ['null', 'null'],
    ['true', 'true'],
    ['42', '42'],
    ['a string', '"str"'],
    ['an empty array', '[]'],
    ['an array of numbers', '[1,2]'],
    ['an empty object', '{}'],
    ['a null type', '{"type":null}'],
    ['channels as a string', '{"type":"subscribe","channels":"odds"}'],
    ['channels with non-strings', '{"type":"subscribe","channels":["odds",1,null,{}]}'],
    ['an unknown channel', '{"type":"subscribe","channels":["everything"]}'],
    ['null filters', '{"type":"subscribe","filters":null}'],
    ['filters as an array', '{"type":"subscribe","filters":["nba"]}'],
    ['filters with wrong inner types', '{"type":"subscribe","filters":{"leagues":"nba","min_ev":"high"}}'],
    ['filters with lists of numbers', '{"type":"subscribe","filters":{"sportsbooks":[1,2]}}'],
    ['deeply nested JSON (10k levels)', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['deeply nested JSON inside a filter', `{"type":"subscribe","filters":{"leagues":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}}`],
    ['text that is not JSON', 'hello'],
  ];

  it.each(invalid)('%s: an invalid_message error frame, and the socket keeps serving', async (_name, raw) => {
    const c = await connect();
    c.send(raw);
    const err = await c.next('error');
    expect(err).toMatchObject({ code: 'invalid_message', data: { code: 'invalid_message' } });
    expect(typeof err.message).toBe('string');
    await stillServes(c);
    await restAnswers();
    c.close();
  });

  it.each([['{"type":"auth","token":"x"}'], ['{"type":"subscribe_all"}'], ['{"type":"__proto__"}']])(
    'unknown type %s: unknown_message_type',
    async (raw) => {
      const c = await connect();
      c.send(raw);
      expect(await c.next('error')).toMatchObject({ code: 'unknown_message_type' });
      await stillServes(c);
      await restAnswers();
      c.close();
    },
  );

  it('a binary frame: invalid_message, and the socket keeps serving', async () => {
    const c = await connect();
    c.ws.send(Buffer.from('{"type":"ping"}'), { binary: true });
    expect(await c.next('error')).toMatchObject({
      code: 'invalid_message',
      message: 'Binary frames are not accepted: send JSON text frames',
    });
    await stillServes(c);
    await restAnswers();
    c.close();
  });

  it('a 70 KB frame (over the 64 KB limit): closed with 1009 (message too big)', async () => {
    const c = await connect();
    c.send(JSON.stringify({ type: 'subscribe', filters: { leagues: ['x'.repeat(70 * 1024)] } }));
    const closed = await c.closed;
    expect(closed.code).toBe(1009);
    await restAnswers();
  });

  it('invalid UTF-8 in a text frame: closed with 1007 (invalid payload)', async () => {
    const c = await connect();
    c.ws.send(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), { binary: false });
    const closed = await c.closed;
    expect(closed.code).toBe(1007);
    await restAnswers();
  });

  it('a subscription the tier refuses is an error frame; the previous subscription stays', async () => {
    const c = await connect('&channels=odds');
    await c.seen('snapshot:complete');
    c.send({ type: 'subscribe', channels: ['gamestate'] });
    expect(await c.next('error')).toMatchObject({ code: 'tier_restricted' });
    c.send({ type: 'subscribe', filters: { sportsbooks: ['nobook'] } });
    expect((await c.next('error')).code).toMatch(/invalid_request|tier_restricted/);
    await stillServes(c);
    c.close();
  });

  it('10 subscribe messages at once: one snapshot in flight, each newer one superseding; one snapshot completes', async () => {
    const c = await connect();
    for (let i = 0; i < SUBSCRIBE_BUDGET.limit; i++) c.send({ type: 'subscribe', channels: ['odds'], filters: { min_ev: i } });
    await c.next((f) => f.type === 'subscribed' && f.data.min_ev === SUBSCRIBE_BUDGET.limit - 1);
    await c.next('snapshot:complete');
    // Give a second snapshot the time to show up if one were still running.
    await stillServes(c);
    expect(c.of('subscribed')).toHaveLength(SUBSCRIBE_BUDGET.limit);
    expect(c.of('snapshot:complete')).toHaveLength(1);
    expect(c.of('error')).toEqual([]);
    // After the last `subscribed`, exactly one whole snapshot: offsets run from 0 to the total, in order.
    const lastSub = c.frames.findIndex((f) => f.type === 'subscribed' && f.data.min_ev === SUBSCRIBE_BUDGET.limit - 1);
    const chunks = c.frames
      .slice(lastSub)
      .filter((f) => f.type === 'snapshot')
      .map((f) => f.data);
    const total = c.of('snapshot:complete')[0]!.data.total_odds;
    expect(total).toBeGreaterThan(2000);
    let offset = 0;
    for (const ch of chunks) {
      expect(ch.offset).toBe(offset);
      offset += ch.count;
    }
    expect(offset).toBe(total);
    // Everything sent before the last subscription was partial: far less than ten snapshots.
    const before = c.frames
      .slice(0, lastSub)
      .filter((f) => f.type === 'snapshot')
      .reduce((n, f) => n + f.data.count, 0);
    expect(before).toBeLessThan(total);
    c.close();
  });

  it('50 subscribe messages at once: 10 served, then rate_limited errors, then closed with 4029 and a reason', async () => {
    const c = await connect();
    for (let i = 0; i < 50; i++) c.send({ type: 'subscribe', channels: ['odds'] });
    const closed = await c.closed;
    expect(closed).toEqual({ code: 4029, reason: 'rate_limited' });
    expect(c.of('subscribed')).toHaveLength(SUBSCRIBE_BUDGET.limit);
    const errors = c.of('error');
    expect(errors.slice(0, -1).map((e) => e.code)).toEqual(Array(SUBSCRIBE_BUDGET.closeAt - SUBSCRIBE_BUDGET.limit).fill('rate_limited'));
    expect(errors.at(-1)).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('closing the connection') });
    expect(c.of('snapshot:complete').length).toBeLessThanOrEqual(1);
    await restAnswers();
    expect(t.app.get(StreamHub).openStreams).toBe(0);
  });

  it('pings in a loop: answered up to the message budget, then refused, then closed with 4029', async () => {
    const c = await connect();
    for (let i = 0; i < 500; i++) c.send({ type: 'ping' });
    const closed = await c.closed;
    expect(closed).toEqual({ code: 4029, reason: 'rate_limited' });
    expect(c.of('pong')).toHaveLength(MESSAGE_BUDGET.limit);
    expect(c.of('error')).toHaveLength(MESSAGE_BUDGET.closeAt - MESSAGE_BUDGET.limit + 1);
    await restAnswers();
  });

  it('messages sent before `connected` are kept and served once the key is checked (the SDK subscribes on open)', async () => {
    const c = new WsClient(wsUrl(key));
    open.push(c);
    await c.opened();
    c.send({ type: 'subscribe', filters: { leagues: ['nba'] } });
    const sub = await c.seen('subscribed');
    // No channels named: every channel the tier has (sharp: prices and every opportunity kind, no game state).
    expect(sub.data).toMatchObject({
      channels: ['odds', 'opportunities'],
      kinds: ['ev', 'arbitrage', 'middles', 'low_hold'],
      leagues: ['nba'],
    });
    await c.seen('snapshot:complete');
    expect(c.frames.map((f) => f.type).slice(0, 2)).toEqual(['connected', 'subscribed']);
    c.close();
  });

  it('sends nothing but `connected` until the client subscribes; then snapshot frames of at most 256 KB, in the documented order', async () => {
    const hub = t.app.get(StreamHub);
    const c = await connect();
    expect(c.frames[0]!.data).toMatchObject({ channels: null, filters: { min_ev: 2, min_profit: 0.5 } });
    hub.heartbeatNow();
    t.app.get(IngestionService).ingest({
      source: 'test',
      quotes: buildMarket([{ league: 'nhl', home: 'Toronto Maple Leafs', away: 'Montreal Canadiens', start: NOW + 8 * H }], BOOKS, NOW),
    });
    await stillServes(c);
    expect(c.frames.map((f) => f.type)).toEqual(['connected', 'pong']);
    c.send({ type: 'subscribe' });
    await c.seen('snapshot:complete');
    const order = c.frames.map((f: WsFrame) => (f.type === 'snapshot' ? (f.data.odds ? 'odds' : `opps:${f.data.kind}`) : f.type));
    const compact = order.filter((x, i) => x !== order[i - 1]);
    expect(compact).toEqual([
      'connected',
      'pong',
      'subscribed',
      'odds',
      'opps:ev',
      'opps:arbitrage',
      'opps:middles',
      'opps:low_hold',
      'snapshot:complete',
    ]);
    expect(Math.max(...c.sizes)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    expect(c.of('snapshot').filter((f) => f.data.odds).length).toBeGreaterThan(4000 / 1000);
    c.close();
  });

  it('a subscription whose snapshot would exceed the per-stream limit is refused with a message; a narrower one is served', async () => {
    const hub = t.app.get(StreamHub);
    hub.maxSnapshotOdds = 1000;
    try {
      const c = await connect();
      c.send({ type: 'subscribe', channels: ['odds'] });
      const err = await c.next('error');
      expect(err.code).toBe('invalid_request');
      expect(err.message).toMatch(
        /^This stream's snapshot would hold \d+ prices; a stream may hold at most 1000\. Narrow it with sportsbook/,
      );
      expect(c.of('subscribed')).toEqual([]);
      c.send({
        type: 'subscribe',
        channels: ['odds'],
        filters: { eventIds: [(await t.call('/events?league=nba&limit=1', { key })).json.data[0].id] },
      });
      await c.seen('snapshot:complete');
      // On SSE the same filter is a 400 before the stream starts.
      const sse = await t.call(`/stream?channel=odds&api_key=${key}`);
      expect(sse.status).toBe(400);
      expect(sse.json.error.message).toContain('a stream may hold at most 1000');
      c.close();
    } finally {
      hub.maxSnapshotOdds = Number.POSITIVE_INFINITY;
    }
  });
});

describe("WebSocket upgrades spend the key's per-minute budget", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('REST calls and upgrades share one budget: past it, rate_limited and close 4029; REST is refused too', async () => {
    const key = await t.newKey('hobby'); // 120 requests a minute
    for (let i = 0; i < 119; i++) expect((await t.call('/account', { key })).status).toBe(200);
    const last = await WsClient.connect(`${t.url.replace('http', 'ws')}/api/v1/ws?api_key=${key}`);
    const over = new WsClient(`${t.url.replace('http', 'ws')}/api/v1/ws?api_key=${key}`);
    const err = await over.next('error');
    expect(err).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^Rate limit of 120 requests per minute exceeded; retry in \d+ s$/),
    });
    expect(await over.closed).toEqual({ code: 4029, reason: 'rate_limited' });
    expect(over.of('connected')).toEqual([]);
    expect((await t.call('/account', { key })).status).toBe(429);
    last.close();
  });

  it('a bad key is 4001 and a key without streaming 4003, each with an error frame', async () => {
    const bad = new WsClient(`${t.url.replace('http', 'ws')}/api/v1/ws?api_key=sk_nope_000000000`);
    expect(await bad.next('error')).toMatchObject({ code: 'unauthorized' });
    expect((await bad.closed).code).toBe(4001);
    const free = new WsClient(`${t.url.replace('http', 'ws')}/api/v1/ws?api_key=${await t.newKey('free')}`);
    expect(await free.next('error')).toMatchObject({ code: 'tier_restricted' });
    expect((await free.closed).code).toBe(4003);
  });
});

describe('failed WebSocket logins count against the client address, like REST', () => {
  const LIMIT = 5;
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW), env: { AUTH_FAILURES_PER_MINUTE: String(LIMIT) } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('past the limit of wrong keys, even a good key from that address is refused (429, close 4029), on REST too', async () => {
    const ws = `${t.url.replace('http', 'ws')}/api/v1/ws?api_key=`;
    for (let i = 0; i < LIMIT; i++) {
      const bad = new WsClient(`${ws}sk_wrong_${String(i).padStart(12, '0')}`);
      expect(await bad.next('error')).toMatchObject({ code: 'unauthorized' });
      expect((await bad.closed).code).toBe(4001);
    }
    const good = new WsClient(`${ws}${KEYS.sharp}`);
    expect(await good.next('error')).toMatchObject({
      code: 'rate_limited',
      message: expect.stringContaining('failed authentication attempts'),
    });
    expect((await good.closed).code).toBe(4029);
    expect(good.of('connected')).toEqual([]);
    expect((await t.call('/account', { key: KEYS.sharp })).status).toBe(429);
  });
});

import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import WebSocket from 'ws';
import { ManualClock } from '../../src/common/time/clock.js';
import { KEY_CHECK_MS } from '../../src/modules/stream/key-watch.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { ApiKeysRepository } from '../../src/modules/accounts/api-keys.repository.js';
import { StreamAccess } from '../../src/modules/stream/stream-access.js';
import { Leadership } from '../../src/modules/cluster/leadership.service.js';
import { CLOSE_GRACE_MS, MAX_QUEUED_BYTES, STALL_TIMEOUT_MS, type Transport } from '../../src/modules/stream/stream-client.js';
import { REPLAY_MS, StreamHub } from '../../src/modules/stream/stream-hub.js';
import { Catalog } from '../../src/config/catalog.js';
import { buildMarket, celticsMoneyline, H, type GameSpec } from '../factories/market.js';
import { SseRecorder } from '../support/sse.js';
import { KEYS, SERVICES, startTestApp, type TestApp } from '../support/test-app.js';
import { WsClient } from '../support/ws-client.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const GAMES = [
  { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 6 * H },
  { league: 'nhl', home: 'Toronto Maple Leafs', away: 'Montreal Canadiens', start: NOW + 8 * H },
];
const BOOKS = ['draftkings', 'fanduel', 'betmgm', 'pinnacle'];

const celtics = (book: string, price: number, type: 'home' | 'away' = 'home'): Quote => celticsMoneyline(book, price, NOW, type);

describe('live stream (SSE and WebSocket, end to end)', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  const open: SseRecorder[] = [];
  const sse = (path: string, key: string, opts: { lastEventId?: string } = {}) => {
    const r = new SseRecorder(`${t.url}/api/v1${path}${path.includes('?') ? '&' : '?'}api_key=${key}`, opts);
    open.push(r);
    return r;
  };
  let ingestion: IngestionService;
  const ingest = (quotes: Quote[]) => {
    clock.advance(1000);
    ingestion.ingest({ source: 'test', quotes });
  };

  let arbKey: string;

  beforeAll(async () => {
    t = await startTestApp({ clock });
    ingestion = t.app.get(IngestionService);
    ingestion.ingest({ source: 'test', quotes: buildMarket(GAMES, BOOKS, NOW) }, NOW, { backfill: true });
    // Made here, before any stream closes: a displaced EventSource's ended connection can sit in the shared
    // fetch pool just as the server closes it, and a later fetch that takes it fails ('other side closed').
    arbKey = await t.newKey('sharp');
  });
  afterAll(async () => {
    for (const r of open) r.close();
    await t.close();
  });

  it('refuses a missing key (401), the free tier (403) and the game-state channel below enterprise (403)', async () => {
    expect((await fetch(`${t.url}/api/v1/stream`)).status).toBe(401);
    const free = await fetch(`${t.url}/api/v1/stream?api_key=${KEYS.free}`);
    expect(free.status).toBe(403);
    expect(((await free.json()) as any).error.code).toBe('tier_restricted');
    const gs = await fetch(`${t.url}/api/v1/stream?channel=gamestate&api_key=${KEYS.sharp}`);
    expect(gs.status).toBe(403);
    expect((await fetch(`${t.url}/api/v1/stream?channel=nonsense&api_key=${KEYS.sharp}`)).status).toBe(400);
  });

  it('sends connected, a snapshot in chunks, snapshot:complete, then live price changes and opportunities', async () => {
    const s = sse('/stream?channel=all', KEYS.sharp);
    const connected = await s.seen('connected');
    expect(connected.data).toMatchObject({ channel: 'odds,opportunities', tier: 'sharp', reconnected: false, heartbeat_seconds: 30 });
    const complete = await s.seen('snapshot:complete');
    const oddsChunks = s.of('snapshot').filter((e) => e.data.odds);
    const rows = oddsChunks.flatMap((e) => e.data.odds);
    expect(rows.length).toBe(complete.data.total_odds);
    expect(rows.length).toBeGreaterThan(0);
    expect(oddsChunks.every((e) => e.data.count <= 1000)).toBe(true);
    expect(complete.data.status).toBe('ready');
    // An arbitrage appears: DraftKings Celtics +115 (2.15) against the best Lakers price, BetMGM... +109 (2.09):
    // 1/2.15 + 1/2.09 = 0.9436, a 5.98 % arbitrage. DraftKings first moves its Lakers price to -116, so that its own
    // market stays sound (+115 with its +100 would sum to 96.5%: a book crossing itself is left out of detection).
    ingest([celtics('draftkings', -116, 'away')]);
    await s.next('odds:update');
    ingest([celtics('draftkings', 115)]);
    const upd = await s.next('odds:update');
    expect(upd.data).toMatchObject({ book: 'draftkings', count: 1, partial: false });
    expect(upd.data.odds[0]).toMatchObject({ sportsbook: 'draftkings', odds_american: 115, selection_type: 'home' });
    const arb = await s.seen('arb:detected');
    expect(arb.data[0].legs.map((l: any) => l.sportsbook)).toContain('draftkings');
    // It goes away when the price does.
    ingest([celtics('draftkings', -200), celtics('draftkings', 100, 'away')]);
    const gone = await s.next('arb:expired');
    expect(gone.data.expired).toContain(arb.data[0].id);
    expect(Date.parse(gone.data.timestamp)).toBe(clock.now());
    // frame ids: every frame has one, strictly increasing in (seq, k)
    const ids = s.events.map((e) => e.id);
    expect(ids.every(Boolean)).toBe(true);
  });

  it("applies filters and the tier's books", async () => {
    const dk = sse('/stream?channel=odds&sportsbook=draftkings&league=nba', KEYS.pro);
    await dk.seen('snapshot:complete');
    const snap = dk.of('snapshot').flatMap((e) => e.data.odds);
    expect(snap.every((o: any) => o.sportsbook === 'draftkings' && o.league === 'nba')).toBe(true);
    ingest([celtics('fanduel', 120), celtics('draftkings', -190)]);
    const u = await dk.next('odds:update');
    expect(u.data.book).toBe('draftkings');
    expect((await fetch(`${t.url}/api/v1/stream?sportsbook=pinnacle&api_key=${KEYS.pro}`)).status).toBe(403);
  });

  it('resumes with Last-Event-ID: exactly the missed frames, no gap, no duplicate', async () => {
    const steady = sse('/stream?channel=odds', KEYS.sharp);
    await steady.seen('snapshot:complete');
    const first = sse('/stream?channel=odds', KEYS.sharp);
    await first.seen('snapshot:complete');
    ingest([celtics('betmgm', -111)]);
    await first.next('odds:update');
    await steady.next('odds:update');
    const lastId = first.events[first.events.length - 1]!.id;
    first.close();
    const before = steady.events.length;
    ingest([celtics('betmgm', -112), celtics('fanduel', -113)]);
    ingest([celtics('betmgm', -114, 'away')]);
    ingest([celtics('pinnacle', -115)]);
    const resumed = sse('/stream?channel=odds', KEYS.sharp, { lastEventId: lastId });
    const c = await resumed.seen('connected');
    expect(c.data).toMatchObject({ reconnected: true, resumed: true });
    // the steady client received these after `lastId`:
    while (steady.events.length - before < 4) await steady.next('odds:update');
    const missed = steady.events.slice(before).filter((e) => e.type.startsWith('odds:'));
    while (resumed.of('odds:update').length < missed.length) await resumed.next('odds:update');
    const got = resumed.events.filter((e) => e.type.startsWith('odds:'));
    expect(got.map((e) => e.id)).toEqual(missed.map((e) => e.id));
    expect(got.map((e) => e.data)).toEqual(missed.map((e) => e.data));
    expect(resumed.of('snapshot')).toEqual([]);
    // An id that has left the buffer (or a foreign one) gets a fresh snapshot.
    const stale = sse('/stream?channel=odds', KEYS.sharp, { lastEventId: '1000000000000-0' });
    const c2 = await stale.seen('connected');
    expect(c2.data).toMatchObject({ reconnected: true, resumed: false });
    await stale.seen('snapshot:complete');
  });

  it('caps streams per key: a newer stream displaces the oldest with an error', async () => {
    const key = await t.newKey('hobby');
    const a = sse('/stream', key);
    await a.seen('snapshot:complete');
    const b = sse('/stream', key);
    await b.seen('connected');
    const err = await a.seen('error');
    expect(err.data).toMatchObject({ code: 'too_many_streams' });
    a.close();
  });

  it('cuts off a client that stops reading, and memory stays flat', async () => {
    const hub = t.app.get(StreamHub);
    const res = await new Promise<import('node:http').IncomingMessage>((resolve) => {
      const req = request(`${t.url}/api/v1/stream?channel=odds&api_key=${KEYS.enterprise}`, (r) => resolve(r));
      req.end();
    });
    expect(res.statusCode).toBe(200);
    res.pause();
    const streamsBefore = hub.openStreams;
    let maxQueued = 0;
    let closed = false;
    res.on('close', () => (closed = true));
    res.socket.on('close', () => (closed = true));
    // Flood: many price changes, each a frame the paused client will not read.
    for (let i = 0; i < 400 && hub.openStreams === streamsBefore; i++) {
      const quotes = buildMarket(GAMES, BOOKS, NOW).map((q) => ({
        ...q,
        price: { decimal: 1.5 + ((i + (q.selection.length % 7)) % 50) / 20 },
      }));
      ingest(quotes);
      maxQueued = Math.max(maxQueued, hub.maxQueuedBytes());
      await new Promise((r) => setImmediate(r));
    }
    expect(hub.openStreams).toBe(streamsBefore - 1);
    // What the server held for the slow client never exceeded the per-stream bound.
    expect(maxQueued).toBeGreaterThan(0);
    expect(maxQueued).toBeLessThanOrEqual(MAX_QUEUED_BYTES);
    expect(hub.stats.closedSlow).toBe(1);
    res.resume();
    res.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(closed || res.destroyed).toBe(true);
  });

  it('WebSocket: connected, subscribed, snapshot, live frames, ping and subscribe', async () => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/api/v1/ws?api_key=${KEYS.sharp}&channels=odds,arbitrage&client_profile=spec`);
    const frames: any[] = [];
    const waitFor = (type: string) =>
      new Promise<any>((resolve, reject) => {
        const found = frames.find((f) => f.type === type);
        if (found) return resolve(found);
        const timer = setTimeout(() => reject(new Error(`no ${type}; saw ${frames.map((f) => f.type)}`)), 10_000);
        ws.on('message', function listener(raw) {
          const f = JSON.parse(String(raw));
          if (f.type === type) {
            clearTimeout(timer);
            ws.off('message', listener);
            resolve(f);
          }
        });
      });
    ws.on('message', (raw) => frames.push(JSON.parse(String(raw))));
    const connected = await waitFor('connected');
    expect(connected.data).toMatchObject({ tier: 'sharp', features: { ev: true, arbitrage: true }, books: { max: -1 } });
    expect((await waitFor('subscribed')).data).toMatchObject({ channels: ['odds', 'opportunities'], kinds: ['arbitrage'] });
    await waitFor('snapshot:complete');
    ingest([celtics('fanduel', -130)]);
    const upd = await waitFor('odds:update');
    expect(upd).toMatchObject({ seq: expect.stringMatching(/^\d+-\d+$/), data: { book: 'fanduel' } });
    ws.send(JSON.stringify({ type: 'ping' }));
    expect((await waitFor('pong')).type).toBe('pong');
    frames.length = 0;
    ws.send(JSON.stringify({ type: 'subscribe', filters: { sportsbooks: ['draftkings'] } }));
    expect((await waitFor('subscribed')).data.sportsbooks).toEqual(['draftkings']);
    ws.send('not json');
    expect((await waitFor('error')).data.code).toBe('invalid_message');
    ws.close();
    const bad = new WebSocket(`${t.url.replace('http', 'ws')}/api/v1/ws?api_key=nope_nope_nope`);
    const code = await new Promise<number>((resolve) => bad.on('close', (c) => resolve(c)));
    expect(code).toBe(4001);
    const free = new WebSocket(`${t.url.replace('http', 'ws')}/api/v1/ws?api_key=${KEYS.free}`);
    expect(await new Promise<number>((resolve) => free.on('close', (c) => resolve(c)))).toBe(4003);
  });

  it('a busy market during a long snapshot: nothing is queued for the client, and what changed follows snapshot:complete', async () => {
    const hub = t.app.get(StreamHub);
    // A board of about 10 MB: NBA games over 40 days at four books.
    const teams = new Catalog().teamsOf('nba').map((x) => x.name);
    const big: GameSpec[] = [];
    for (let d = 0; d < 40; d++)
      for (let i = 0; i + 1 < teams.length; i += 2)
        big.push({ league: 'nba', home: teams[i]!, away: teams[i + 1]!, start: NOW + (30 + d * 24) * H });
    const market = buildMarket(big, BOOKS, NOW);
    ingest(market);
    const res = await new Promise<import('node:http').IncomingMessage>((resolve) => {
      const req = request(`${t.url}/api/v1/stream?channel=odds&api_key=${KEYS.enterprise}`, (r) => resolve(r));
      req.end();
    });
    expect(res.statusCode).toBe(200);
    res.pause(); // the snapshot stalls on a full socket
    await new Promise((r) => setTimeout(r, 100));
    // Meanwhile every price of the big market moves three times: far more than a client may have queued.
    const marker = market[0]!;
    for (let round = 1; round <= 3; round++) {
      ingest(
        market.map((q) =>
          q === marker ? { ...q, price: { decimal: 7.5 + round / 100 } } : { ...q, price: { decimal: 1.8 + round / 100 } },
        ),
      );
      expect(hub.maxQueuedBytes()).toBe(0);
      await new Promise((r) => setImmediate(r));
    }
    // Now read everything: the snapshot, then the three rounds of changes, and no error.
    const events: Array<{ event: string; data: string }> = [];
    let text = '';
    res.setEncoding('utf8');
    await new Promise<void>((resolve, reject) => {
      // A liveness bound, not a timing: reading all of it takes about 18 s on an idle 2-core machine, and more beside other work.
      const timer = setTimeout(() => reject(new Error(`timed out; saw ${[...new Set(events.map((e) => e.event))]}`)), 150_000);
      res.on('data', (chunk: string) => {
        text += chunk;
        let at;
        while ((at = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, at);
          text = text.slice(at + 2);
          const event = /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message';
          const lines = block.split('\n').filter((l) => l.startsWith('data:'));
          if (!lines.length) continue; // a comment or a retry hint
          const data = lines.map((l) => l.slice(5).trimStart()).join('\n');
          events.push({ event, data });
          if (event === 'error' || (event === 'odds:update' && data.includes('"odds_decimal":7.53'))) {
            clearTimeout(timer);
            resolve();
          }
        }
      });
      res.resume();
    });
    res.destroy();
    const names = events.map((e) => e.event);
    expect(names).not.toContain('error');
    const complete = names.indexOf('snapshot:complete');
    expect(complete).toBeGreaterThan(0);
    expect([...new Set(names.slice(0, complete))]).toEqual(['connected', 'snapshot']);
    // The marker row's three moves arrive after the snapshot, in order.
    const moves = events
      .slice(complete)
      .filter((e) => e.event === 'odds:update')
      .flatMap((e) => JSON.parse(e.data).odds as Array<{ id: string; odds_decimal: number }>);
    const markerId = moves.find((o) => o.odds_decimal === 7.51)!.id;
    expect(moves.filter((o) => o.id === markerId).map((o) => o.odds_decimal)).toEqual([7.51, 7.52, 7.53]);
  }, 240_000);

  it('one price change that opens an arbitrage reaches an SSE stream in one write: its odds:update, then arb:detected', async () => {
    // The NHL game, untouched by the other tests: best Montreal price +120 at pinnacle. Toronto +110 at DraftKings
    // (2.10) against it: 1/2.10 + 1/2.20 = 0.931, an arbitrage. DraftKings first moves its own Montreal price to -130,
    // so that its market stays sound (a book crossing itself is left out of detection).
    const leafs = (book: string, price: number, type: 'home' | 'away'): Quote => ({
      ...celtics(book, price, type),
      league: 'nhl',
      homeTeam: 'Toronto Maple Leafs',
      awayTeam: 'Montreal Canadiens',
      startTime: NOW + 8 * H,
      selection: type === 'home' ? 'Toronto Maple Leafs' : 'Montreal Canadiens',
    });
    // A key of its own (made before the busy-market test): no other test's stream takes this one's place.
    const key = arbKey;
    const server = t.app.getHttpServer();
    const serverSide = new Map<number, Socket>();
    const onConnection = (socket: Socket) => serverSide.set(socket.remotePort!, socket);
    server.on('connection', onConnection);
    const port = Number(new URL(t.url).port);
    // A client reading the socket itself: each chunk as it was read.
    const chunks: string[] = [];
    const client = connect(port, '127.0.0.1');
    const text = () => chunks.join('');
    const until = async (cond: () => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(cond()).toBe(true);
    };
    try {
      client.on('data', (b: Buffer) => chunks.push(b.toString('utf8')));
      await new Promise<void>((r) => client.once('connect', () => r()));
      client.write(
        `GET /api/v1/stream?channel=all&league=nhl&api_key=${key} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`,
      );
      await until(() => text().includes('event: snapshot:complete'));
      const socket = serverSide.get(client.localPort!)!;
      // The system calls that send on the server's side of this connection: one per _write or _writev.
      let writes = 0;
      const methods = socket as unknown as Record<'_write' | '_writev', (...a: unknown[]) => void>;
      for (const m of ['_write', '_writev'] as const) {
        const own = methods[m].bind(socket);
        methods[m] = (...a: unknown[]) => (writes++, own(...a));
      }
      // Every book's prices as the factory made them (fresh), DraftKings' Montreal price at -130.
      const home = [-127, -132, -137, -142];
      const away = [111, 114, 117, 120];
      ingest(BOOKS.flatMap((b, i) => [leafs(b, home[i]!, 'home'), leafs(b, b === 'draftkings' ? -130 : away[i]!, 'away')]));
      await until(() => text().includes('event: odds:update'));
      await new Promise((r) => setTimeout(r, 100));
      expect(text()).not.toContain('event: arb:detected');
      const from = chunks.length;
      writes = 0;
      ingest([leafs('draftkings', 110, 'home')]);
      await until(() => text().includes('event: arb:detected'));
      await new Promise((r) => setTimeout(r, 100));
      expect(writes).toBe(1);
      const read = chunks.slice(from).join('');
      // Both frames of the change set, in order, and whatever else its evaluation found after the prices.
      const events = [...read.matchAll(/^event: (.+)$/gm)].map((m) => m[1]!);
      expect(events[0]).toBe('odds:update');
      expect(events).toContain('arb:detected');
      expect(events.filter((e) => e.startsWith('odds:'))).toEqual(['odds:update']);
      const ids = [...read.matchAll(/^id: (\d+)-(\d+)$/gm)].map((m) => [m[1], Number(m[2])]);
      expect(new Set(ids.map(([seq]) => seq)).size).toBe(1);
      expect(ids.map(([, k]) => k)).toEqual(ids.map((_, i) => i));
      // The client read them in one chunk (one write on loopback arrives whole).
      expect(chunks.slice(from).find((c) => c.includes('event: arb:detected'))).toContain('event: odds:update');
    } finally {
      server.off('connection', onConnection);
      client.destroy();
      // Back to where the game was: the arbitrage closes.
      ingest([leafs('draftkings', -127, 'home'), leafs('draftkings', 111, 'away')]);
    }
  });
});

describe('an instance nobody streams from', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  const open: SseRecorder[] = [];
  const sse = (path: string, opts: { lastEventId?: string } = {}) => {
    const r = new SseRecorder(`${t.url}/api/v1${path}&api_key=${KEYS.sharp}`, opts);
    open.push(r);
    return r;
  };
  beforeAll(async () => {
    t = await startTestApp({ clock });
    t.app.get(IngestionService).ingest({ source: 'test', quotes: buildMarket(GAMES, BOOKS, NOW) }, NOW, { backfill: true });
  });
  afterAll(async () => {
    for (const r of open) r.close();
    await t.close();
  });

  it('keeps no opportunity frames for replay, so a client resuming from that time gets a fresh snapshot (with Redis: a replay from the shared log)', async () => {
    const ingest = (quotes: Quote[]) => {
      clock.advance(1000);
      t.app.get(IngestionService).ingest({ source: 'test', quotes });
    };
    const first = sse('/stream?channel=all');
    await first.seen('snapshot:complete');
    ingest([celtics('fanduel', -131)]);
    await first.next('odds:update');
    const lastId = first.events[first.events.length - 1]!.id;
    first.close();
    const hub = t.app.get(StreamHub);
    while (hub.openStreams > 0) await new Promise((r) => setTimeout(r, 20));
    // The replay window passes with no stream open; a price moves (a client of another instance saw it as
    // frame `${seq}-0`), then an arbitrage appears (see the test above for its sums).
    clock.advance(REPLAY_MS + 1000);
    ingest([celtics('fanduel', -134)]);
    const seenElsewhere = `${hub.currentSeq()}-0`;
    ingest([celtics('draftkings', 115), celtics('draftkings', -116, 'away')]);
    const stale = sse('/stream?channel=all', { lastEventId: lastId });
    expect((await stale.seen('connected')).data).toMatchObject({ reconnected: true, resumed: false });
    const back = sse('/stream?channel=all', { lastEventId: seenElsewhere });
    // With Redis the shared replay log holds what this instance did not keep: the resume replays, no snapshot.
    expect((await back.seen('connected')).data).toMatchObject({ reconnected: true, resumed: SERVICES });
    const hasDk = (arbs: any[]) => arbs.some((a: any) => a.legs.some((l: any) => l.sportsbook === 'draftkings'));
    if (!SERVICES) {
      await back.seen('snapshot:complete');
      expect(
        hasDk(
          back
            .of('snapshot')
            .filter((e) => e.data.kind === 'arbitrage')
            .flatMap((e) => e.data.opportunities),
        ),
      ).toBe(true);
    } else if (t.app.get(Leadership).isLeader) {
      // The active worker writes the opportunity changes to the log (suites share one database, so another
      // suite's instance may hold the worker lock: then nobody writes this deployment's opportunity changes).
      expect(hasDk((await back.seen('arb:detected')).data)).toBe(true);
    }
    // While a client is connected, frames are kept again: a resume from now replays.
    ingest([celtics('draftkings', -200), celtics('draftkings', 100, 'away')]);
    await back.seen('arb:expired');
    const id2 = back.events[back.events.length - 1]!.id;
    ingest([celtics('betmgm', -137)]);
    const again = sse('/stream?channel=all', { lastEventId: id2 });
    expect((await again.seen('connected')).data).toMatchObject({ reconnected: true, resumed: true });
    expect((await again.seen('odds:update')).data.odds[0]).toMatchObject({ sportsbook: 'betmgm', odds_american: -137 });
  });
});

describe('revoking a key ends its open streams (embedded store)', () => {
  let t: TestApp;
  const open: Array<{ close(): void }> = [];
  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
    t.app.get(IngestionService).ingest({ source: 'test', quotes: buildMarket(GAMES, BOOKS, NOW) }, NOW, { backfill: true });
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await t.close();
  });

  const newKey = async () => {
    const r = await t.call('/admin/keys', { method: 'POST', body: { tier: 'pro' }, headers: { 'X-Admin-Token': t.adminToken } });
    return r.json.data as { key: string; id: string };
  };
  const streams = async (key: string) => {
    const sse = new SseRecorder(`${t.url}/api/v1/stream?channel=odds&api_key=${key}`);
    const ws = await WsClient.connect(`${t.url.replace('http', 'ws')}/api/v1/ws?api_key=${key}&channels=odds`);
    open.push(sse, ws);
    await sse.seen('snapshot:complete');
    await ws.seen('snapshot:complete');
    return { sse, ws };
  };

  it('through the admin route: SSE gets an unauthorized error and WebSocket closes with 4001, both within 5 s', async () => {
    const { key, id } = await newKey();
    const other = await newKey();
    const { sse, ws } = await streams(key);
    const bystander = await streams(other.key);
    const hub = t.app.get(StreamHub);
    expect(hub.streamingKeys()).toEqual(expect.arrayContaining([id, other.id]));
    const revokedAt = Date.now();
    expect((await t.call(`/admin/keys/${id}/revoke`, { method: 'POST', headers: { 'X-Admin-Token': t.adminToken } })).status).toBe(200);
    const [sseErr, wsClose] = await Promise.all([sse.seen('error', 5000), ws.closed]);
    expect(Date.now() - revokedAt).toBeLessThan(5000);
    expect(sseErr.data).toEqual({ code: 'unauthorized', message: 'The API key was revoked; the stream is closed' });
    expect(wsClose).toEqual({ code: 4001, reason: 'unauthorized' });
    expect(ws.of('error').at(-1)).toMatchObject({ code: 'unauthorized', message: 'The API key was revoked; the stream is closed' });
    expect(hub.streamingKeys()).not.toContain(id);
    expect((await t.call('/account', { key })).status).toBe(401);
    // The other key's streams are untouched.
    expect(bystander.ws.closeInfo).toBeNull();
    expect(bystander.sse.of('error')).toEqual([]);
    bystander.ws.send({ type: 'ping' });
    await bystander.ws.next('pong');
  });

  it('a revocation no instance announced (written to the store directly) is found by the periodic check, KEY_CHECK_MS later', async () => {
    const { key, id } = await newKey();
    const { sse, ws } = await streams(key);
    const at = new Date(NOW);
    await t.app.get(ApiKeysRepository, { strict: false }).update(id, { isActive: false, revokedAt: at, updatedAt: at });
    await (t.clock as ManualClock).advance(KEY_CHECK_MS - 1);
    expect(sse.of('error')).toEqual([]);
    // The periodic check is a job on the app's clock.
    await (t.clock as ManualClock).advance(1);
    const [sseErr, wsClose] = await Promise.all([sse.seen('error', 5000), ws.closed]);
    expect(sseErr.data.code).toBe('unauthorized');
    expect(wsClose.code).toBe(4001);
  });
});

describe('stalled SSE readers past the stream cap', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  beforeAll(async () => {
    t = await startTestApp({ clock });
    // A board of about 10 MB (as above): no client reading nothing can take a snapshot of it into socket buffers.
    const teams = new Catalog().teamsOf('nba').map((x) => x.name);
    const big: GameSpec[] = [];
    for (let d = 0; d < 40; d++)
      for (let i = 0; i + 1 < teams.length; i += 2)
        big.push({ league: 'nba', home: teams[i]!, away: teams[i + 1]!, start: NOW + (30 + d * 24) * H });
    t.app.get(IngestionService).ingest({ source: 'test', quotes: buildMarket(big, BOOKS, NOW) }, NOW, { backfill: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a snapshot to a socket that takes everything at once still writes each frame on its own turn of the event loop', async () => {
    const hub = t.app.get(StreamHub);
    const account = { keyId: 'key_turns', accountId: 'acct_turns', name: null, tier: 'enterprise' as const, arbitrageEnabled: true };
    const filter = t.app.get(StreamAccess).filter(account, { channels: ['odds'] });
    // The event loop's turns, counted by a callback that reschedules itself after I/O each time.
    let turns = 0;
    let spinning = true;
    const spin = () => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const writtenAt: Array<{ event: string; turn: number }> = [];
    const transport: Transport = {
      write: (f) => (writtenAt.push({ event: f.event, turn: turns }), true),
      buffered: () => 0, // a socket that never pushes back
      onDrain: () => undefined,
      close: () => undefined,
      onGone: () => undefined,
    };
    await hub.snapshot(hub.client(account, filter, transport));
    spinning = false;
    const frames = writtenAt.filter((w) => w.event === 'snapshot');
    expect(frames.length).toBeGreaterThan(10);
    // Other work (health, REST, other streams) runs between any two frames: no two share a turn.
    for (let i = 1; i < frames.length; i++) expect(frames[i]!.turn).toBeGreaterThan(frames[i - 1]!.turn);
  });

  it("more stalled sockets than the cap: each dropped stream's socket is closed on the server and its queue freed", async () => {
    const hub = t.app.get(StreamHub);
    // The server's side of each of our connections, found by the client's port.
    const server = t.app.getHttpServer();
    // A socket counts as closed once it has emitted 'close' (what the hub waits for), not merely when destroyed:
    // 'close' follows destroy() a turn of the event loop later.
    const serverSide = new Map<number, { closed: boolean }>();
    const onConnection = (socket: import('node:net').Socket) => {
      const side = { closed: false };
      serverSide.set(socket.remotePort!, side);
      socket.once('close', () => (side.closed = true));
    };
    server.on('connection', onConnection);
    const key = await t.newKey('pro'); // two streams at once
    const responses: import('node:http').IncomingMessage[] = [];
    const openOnServer = () => responses.filter((res) => serverSide.get(res.socket.localPort!)?.closed === false).length;
    try {
      for (let i = 0; i < 6; i++) {
        const res = await new Promise<import('node:http').IncomingMessage>((resolve) =>
          request(`${t.url}/api/v1/stream?channel=odds&api_key=${key}`, resolve).end(),
        );
        expect(res.statusCode).toBe(200);
        res.pause(); // never reads
        responses.push(res);
      }
      expect(responses.every((res) => serverSide.has(res.socket.localPort!))).toBe(true);
      expect(hub.openStreams).toBe(2);
      const settle = async (target: number, tick = () => undefined as void) => {
        const deadline = Date.now() + CLOSE_GRACE_MS + 10_000;
        while (openOnServer() > target && Date.now() < deadline) {
          tick();
          await new Promise((r) => setTimeout(r, 50));
        }
        return openOnServer();
      };
      // The four displaced streams could not take their last frames: their sockets are destroyed after the grace.
      expect(await settle(2)).toBe(2);
      expect(hub.closingStreams).toBe(0);
      // The two left stall their snapshots: after STALL_TIMEOUT_MS of reading nothing they are cut off, and closed.
      // (Time moves on until they are: a wait for the socket that began after one move has its own deadline.)
      expect(await settle(0, () => clock.advance(STALL_TIMEOUT_MS + 1000))).toBe(0);
      expect(hub.openStreams).toBe(0);
      expect(hub.closingStreams).toBe(0);
      expect(hub.maxQueuedBytes()).toBe(0);
      // A client that reads again finds the end of the stream, not an open connection.
      const ended = responses.map(
        (res) =>
          new Promise<void>((resolve) => {
            res.on('end', () => resolve());
            res.on('error', () => resolve());
            res.on('close', () => resolve());
            res.resume();
          }),
      );
      await Promise.all(ended);
    } finally {
      server.off('connection', onConnection);
      for (const res of responses) res.destroy();
    }
  });
});

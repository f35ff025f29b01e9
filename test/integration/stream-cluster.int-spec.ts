import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import WebSocket from 'ws';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, celticsMoneyline, H } from '../factories/market.js';
import { SseRecorder, type SseEvent } from '../support/sse.js';
import { until } from '../support/tcp-proxy.js';
import { isolationEnv, KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

/** Streams on two instances (one PostgreSQL schema, one Redis): one cap per key, and resume anywhere. */
describe('streams across instances', () => {
  const NOW = Date.parse('2026-11-22T12:00:00Z');
  const GAMES = [{ league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 6 * H }];
  let shared: Record<string, string>;
  let a: TestApp;
  let b: TestApp;
  const apps: TestApp[] = [];
  const recorders: SseRecorder[] = [];
  const sse = (app: TestApp, path: string, key: string, opts: { lastEventId?: string } = {}) => {
    const r = new SseRecorder(`${app.url}/api/v1${path}${path.includes('?') ? '&' : '?'}api_key=${key}`, opts);
    recorders.push(r);
    return r;
  };
  const active = async (app: TestApp, key: string): Promise<number> =>
    (await app.call('/account/usage', { key })).json.data.streams.active as number;
  const celtics = (book: string, price: number): Quote => celticsMoneyline(book, price, NOW);

  beforeAll(async () => {
    shared = isolationEnv();
    a = await startTestApp({ clock: new ManualClock(NOW), config: testConfig(shared) });
    b = await startTestApp({ clock: new ManualClock(NOW), config: testConfig(shared) });
    apps.push(a, b);
    a.app.get(IngestionService).ingest({ source: 'test', quotes: buildMarket(GAMES, ['draftkings', 'fanduel', 'pinnacle'], NOW) }, NOW);
  });
  afterAll(async () => {
    for (const r of recorders) r.close();
    for (const app of apps.reverse()) await app.close();
  });

  it('a key with a cap of 2 holds exactly 2 streams across both instances; the next, on either, displaces the oldest', async () => {
    const key = await a.newKey('pro');
    const s1 = sse(a, '/stream?channel=odds', key);
    await s1.seen('connected');
    await until(async () => (await active(b, key)) === 1, 5000);
    const s2 = sse(b, '/stream?channel=odds', key);
    await s2.seen('connected');
    await until(async () => (await active(a, key)) === 2, 5000);
    expect(await active(b, key)).toBe(2);

    // The third, on B: the oldest stream (on A) is closed with too_many_streams; the key still holds 2.
    const s3 = sse(b, '/stream?channel=odds', key);
    await s3.seen('connected');
    const err = await s1.seen('error');
    expect(err.data).toMatchObject({ code: 'too_many_streams' });
    expect(s2.of('error')).toEqual([]);
    expect(await active(a, key)).toBe(2);

    // The fourth, on A: now the oldest is s2, on B.
    const s4 = sse(a, '/stream?channel=odds', key);
    await s4.seen('connected');
    expect((await s2.seen('error')).data).toMatchObject({ code: 'too_many_streams' });
    expect(s3.of('error')).toEqual([]);
    expect(await active(b, key)).toBe(2);

    // Closing gives the slots back, whichever instance is asked.
    s3.close();
    await until(async () => (await active(a, key)) === 1, 5000);
    s4.close();
    await until(async () => (await active(b, key)) === 0, 5000);
  });

  /** Frames of the odds channel after a point, as a client that stayed connected received them. */
  const oddsFrames = (events: SseEvent[]) => events.filter((e) => e.type.startsWith('odds:')).map((e) => ({ id: e.id, data: e.data }));

  it('a client that read frames on A resumes on B, and on an instance started since, with the missed frames in order (no snapshot)', async () => {
    const steady = sse(a, '/stream?channel=odds', KEYS.sharp);
    await steady.seen('snapshot:complete');
    const first = sse(a, '/stream?channel=odds', KEYS.enterprise);
    await first.seen('snapshot:complete');
    const ingestion = a.app.get(IngestionService);
    ingestion.ingest({ source: 'test', quotes: [celtics('draftkings', -111)] }, NOW + 1000);
    await first.next('odds:update');
    await steady.next('odds:update');
    const lastId = first.events[first.events.length - 1]!.id;
    first.close();
    const before = steady.events.length;
    ingestion.ingest({ source: 'test', quotes: [celtics('draftkings', -112), celtics('fanduel', -113)] }, NOW + 2000);
    ingestion.ingest({ source: 'test', quotes: [celtics('pinnacle', -115)] }, NOW + 3000);
    while (steady.of('odds:update').length < 4) await steady.next('odds:update');
    const missed = oddsFrames(steady.events.slice(before));
    expect(missed.length).toBeGreaterThanOrEqual(3);

    // On B (it saw the same change sets over the bus).
    const onB = sse(b, '/stream?channel=odds', KEYS.enterprise, { lastEventId: lastId });
    expect((await onB.seen('connected')).data).toMatchObject({ reconnected: true, resumed: true });
    while (oddsFrames(onB.events).length < missed.length) await onB.next(['odds:update', 'odds:locked', 'odds:removed']);
    expect(oddsFrames(onB.events)).toEqual(missed);
    expect(onB.of('snapshot')).toEqual([]);
    onB.close();

    // On an instance that was not running when those frames were sent: only the shared log has them.
    const late = await startTestApp({ clock: new ManualClock(NOW + 3000), config: testConfig(shared) });
    apps.push(late);
    const onLate = sse(late, '/stream?channel=odds', KEYS.enterprise, { lastEventId: lastId });
    expect((await onLate.seen('connected')).data).toMatchObject({ reconnected: true, resumed: true });
    while (oddsFrames(onLate.events).length < missed.length) await onLate.next(['odds:update', 'odds:locked', 'odds:removed']);
    expect(oddsFrames(onLate.events)).toEqual(missed);
    expect(onLate.of('snapshot')).toEqual([]);

    // Live frames follow on the new instance, after the replayed ones.
    ingestion.ingest({ source: 'test', quotes: [celtics('draftkings', -118)] }, NOW + 4000);
    const live = await onLate.next('odds:update');
    expect(live.data.odds[0].sportsbook).toBe('draftkings');
    const seqOf = (id: string) => Number(id.split('-')[0]);
    expect(seqOf(live.id)).toBeGreaterThan(seqOf(missed[missed.length - 1]!.id));
  });

  it('an AsyncAPI WebSocket client resumes on an instance started since, from the shared log: replay: true, no snapshot', async () => {
    const messages = (app: TestApp, query: string) => {
      const ws = new WebSocket(`${app.url.replace('http', 'ws')}/api/v1/ws?api_key=${KEYS.enterprise}&channels=odds${query}`, [
        'sharpapi-v1',
      ]);
      const got: Array<Record<string, any>> = [];
      const waiters: Array<() => void> = [];
      ws.on('message', (raw: Buffer) => {
        got.push(JSON.parse(String(raw)) as Record<string, any>);
        for (const w of waiters.splice(0)) w();
      });
      const seen = async (pred: (m: Record<string, any>) => boolean) => {
        for (let i = 0; i < 200 && !got.some(pred); i++) await new Promise<void>((r) => (waiters.push(r), setTimeout(r, 50)));
        const m = got.find(pred);
        if (!m) throw new Error(`not seen; got ${got.map((x) => x.type).join(', ')}`);
        return m;
      };
      return { ws, got, seen };
    };
    const ingestion = a.app.get(IngestionService);
    const first = messages(a, '');
    await first.seen((m) => m.type === 'snapshot:complete');
    ingestion.ingest({ source: 'test', quotes: [celtics('fanduel', -121)] }, NOW + 5000);
    const seen = await first.seen((m) => m.type === 'odds:update');
    first.ws.terminate();
    ingestion.ingest({ source: 'test', quotes: [celtics('draftkings', -122)] }, NOW + 6000);
    ingestion.ingest({ source: 'test', quotes: [celtics('pinnacle', -123)] }, NOW + 7000);

    const late = await startTestApp({ clock: new ManualClock(NOW + 7000), config: testConfig(shared) });
    apps.push(late);
    const again = messages(late, `&resume=true&from_seq=${seen.global_seq}`);
    const complete = await again.seen((m) => m.type === 'snapshot:complete');
    expect(complete).toMatchObject({ resumed: true, books: [] });
    expect(again.got.filter((m) => m.type === 'initial')).toEqual([]);
    const replayed = again.got.filter((m) => m.type === 'odds:update');
    expect(replayed.map((m) => [m.source, m.data.map((r: any) => r.odds_american), m.replay])).toEqual([
      ['draftkings', [-122], true],
      ['pinnacle', [-123], true],
    ]);
    expect(replayed.every((m) => m.global_seq > seen.global_seq)).toBe(true);
    again.ws.terminate();
  });
});

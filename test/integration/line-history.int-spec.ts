import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { LineHistoryStore } from '../../src/modules/stores/line-history/line-history.store.js';
import { celticsMoneyline } from '../factories/market.js';
import { isolationEnv, KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

/**
 * The line history with two instances on one PostgreSQL schema and one Redis: the instance that ingests writes each
 * change once (the other hears it on the bus and writes nothing), and the other reads it from the database once the
 * first has written it.
 */
describe('line history across instances', () => {
  const NOW = Date.parse('2026-11-22T12:00:00Z');
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const shared = isolationEnv();
    a = await startTestApp({ clock: new ManualClock(NOW), config: testConfig(shared) });
    b = await startTestApp({ clock: new ManualClock(NOW), config: testConfig(shared) });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('A writes the changes it ingests, once; B reads them from the store after A wrote them', async () => {
    const ingest = a.app.get(IngestionService);
    ingest.ingest(
      { source: 'test', quotes: [celticsMoneyline('draftkings', -110, NOW), celticsMoneyline('draftkings', 100, NOW, 'away')] },
      NOW,
    );
    ingest.ingest({ source: 'test', quotes: [celticsMoneyline('draftkings', -120, NOW)] }, NOW + 1000);
    const A = a.app.get(LineHistoryStore);
    const B = b.app.get(LineHistoryStore);
    expect([A.writer.pending, B.writer.pending]).toEqual([3, 0]);
    await A.writer.flush();
    // B's window ends at B's now: past both changes.
    await (b.clock as ManualClock).set(NOW + 2000);
    const eventId = (await b.call('/events?league=nba', { key: KEYS.sharp })).json.data[0].id as string;
    const r = await b.call(`/odds/history?event=${eventId}&sportsbook=draftkings&selection=home`, { key: KEYS.sharp });
    expect(r.json.data.map((x: any) => x.points.map((p: any) => p.odds_american))).toEqual([[-110, -120]]);
    // Written once: B heard both change sets on the bus and buffered nothing.
    await B.writer.flush();
    expect((await A.size()).changes).toBe(3);
  });
});

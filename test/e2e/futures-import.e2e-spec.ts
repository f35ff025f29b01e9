import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { admin } from '../../src/cli/commands.js';
import { readManifest, removeImport, runImport } from '../../src/cli/import.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { Catalog } from '../../src/config/catalog.js';
import { FuturesStoreService } from '../../src/modules/stores/futures/futures-store.service.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { FuturesSimulator } from '../../src/modules/ingestion/simulator/futures-sim.js';
import { KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

const SAMPLE = new URL('../fixtures/mlb_odds_snapshot.csv', import.meta.url).pathname;
const quiet = () => undefined;
/** Four months after the July 2026 capture: the simulator's MLB championship is the 2027 one (closes 2027-11-01). */
const NOW = Date.parse('2026-11-25T12:00:00Z');

type J = Record<string, any>;

describe('a replayed import never touches the live futures markets (simulator running)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'odds-futures-import-'));
  const config = testConfig({ DATA_DIR: dataDir });
  let t: TestApp;
  let server: { pid: number; host: string; port: number; admin_token: string; started_at: string };
  const store = () => t.app.get(FuturesStoreService).store;
  const state = () => ({
    markets: [...store().markets.values()].map((m) => `${m.id}|${m.name}|${m.closesAt}`).sort(),
    prices: [...store().prices.values()].map((p) => `${p.id}|${p.marketId}|${p.decimal}|${p.lastSeenAt}`).sort(),
  });
  const get = async (path: string) => {
    const r = await t.call(path, { key: KEYS.sharp });
    expect(r.status).toBe(200);
    return r.json as J;
  };
  const all = async (path: string) => (await get(`${path}${path.includes('?') ? '&' : '?'}limit=200`)).data as J[];

  beforeAll(async () => {
    t = await startTestApp({ config, clock: new ManualClock(NOW) });
    const address = t.app.getHttpServer().address() as { port: number };
    server = { pid: process.pid, host: '127.0.0.1', port: address.port, admin_token: t.adminToken, started_at: '' };
    const sim = new FuturesSimulator(t.app.get(Catalog), { seed: 11 });
    const r = t.app.get(IngestionService).ingest(sim.start(NOW), NOW);
    expect(r.rejected).toEqual({});
  });
  afterAll(async () => {
    await t?.close();
  });

  it('--replay imports the July 2026 futures as history: the 2027 championship, /futures, +EV and low-hold are unchanged', async () => {
    const before = state();
    const sim2027 = store().pricesOf('mlb_championship_winner_2027').length;
    expect(sim2027).toBe(300); // 30 teams x 10 books
    const lists = async () => ({
      markets: await all('/futures?league=mlb'),
      ev: await all('/futures/ev?league=mlb&min_ev=-100'),
      lowHold: await all('/futures/low_hold?league=mlb&max_hold=100'),
    });
    const live = await lists();
    expect(live.ev.length).toBeGreaterThan(0);

    const s = await runImport(SAMPLE, config, { replay: true, server, admin }, quiet);
    expect(s.reasons).toEqual({});
    expect(s.imported).toBe(3673);

    // The simulator's market has its own 300 prices, none from the file; nothing live moved.
    expect(store().pricesOf('mlb_championship_winner_2027').length).toBe(sim2027);
    for (const p of store().pricesOf('mlb_championship_winner_2027')) expect(p.source).toBe('simulator-futures');
    const after = state();
    expect(after.prices.filter((x) => before.prices.includes(x))).toEqual(before.prices);
    expect(await lists()).toEqual(live);
    // No +EV item is a history market's (the +40000 at +1,196% came from a merged July price).
    expect(live.ev.every((e) => !String(e.future_market_id).includes('_hist_'))).toBe(true);
    expect(Math.max(...live.ev.map((e) => e.ev_percentage as number))).toBeLessThan(100);

    // The file's futures are history markets of their own, keyed by the capture's season (2026), never 2027.
    const history = [...store().markets.values()].filter((m) => m.history);
    expect(history.length).toBeGreaterThan(100);
    expect(history.every((m) => m.id.includes('_hist_') && m.name.endsWith('(history: import:mlb_odds_snapshot.csv)'))).toBe(true);
    const ws = history.find((m) => m.id.startsWith('mlb_championship_winner_2026_hist_'))!;
    expect(ws).toBeDefined();
    expect(history.some((m) => m.id.startsWith('mlb_championship_winner_2027'))).toBe(false);
    // Reachable by its id (an operator can look at the replay), never in a list.
    const byId = await get(`/futures?future_id=${ws.id}`);
    expect(byId.data.map((m: J) => m.market_id)).toEqual([ws.id]);
    expect((await get(`/futures/ev?future_id=${ws.id}&min_ev=-100`)).data).toEqual([]);
    expect((await get(`/futures/low_hold?future_id=${ws.id}&max_hold=100`)).data).toEqual([]);

    // A second replay changes nothing; then import:remove leaves the futures exactly as before the import.
    const again = await runImport(SAMPLE, config, { replay: true, server, admin }, quiet);
    expect(again.withdrawn).toBe(0);
    const manifest = readManifest(dataDir, 'mlb_odds_snapshot.csv')!;
    const removed = await removeImport('mlb_odds_snapshot.csv', config, { server, admin }, quiet);
    expect(removed).toBe(manifest.ids.length);
    expect(state()).toEqual(before);
    expect(await lists()).toEqual(live);
  });
});

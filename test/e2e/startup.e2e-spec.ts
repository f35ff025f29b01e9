import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from '@jest/globals';
import WebSocket from 'ws';
import { createApp } from '../../src/app.factory.js';
import { EarlyServer } from '../../src/common/http/early-server.js';
import { Serving } from '../../src/common/serving.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { BoardService } from '../../src/modules/board/board.service.js';
import { HealthService } from '../../src/modules/health/health.service.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { call, KEYS, testConfig } from '../support/test-app.js';

/**
 * The start as main.ts does it (issue 17): the port answers before the application is loaded, then the whole
 * application (REST, WebSocket upgrades) runs on that same server.
 */
describe('start-up on the early server', () => {
  const early = new EarlyServer('test', '/docs');
  let close: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await close?.();
  });

  it('answers health while loading, then serves the application on the same port', async () => {
    await early.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(early.server.address() as AddressInfo).port}`;
    const starting = await call(base, '/health');
    expect(starting.status).toBe(200);
    expect(starting.json).toMatchObject({ status: 'degraded', checks: { startup: { status: 'degraded' } } });
    expect((await call(base, '/sports')).status).toBe(503);
    const notReady = await call(base, '/health/ready');
    expect(notReady.status).toBe(503);
    expect(notReady.json).toMatchObject({ status: 'starting', checks: { startup: { status: 'degraded' } } });

    const config = testConfig();
    const app = await createApp(config, { clock: new ManualClock(Date.now()) }, { serverFactory: early.factory });
    close = () => app.close();
    await app.listen(0, '127.0.0.1');
    expect((app.getHttpServer().address() as AddressInfo).port).toBe((early.server.address() as AddressInfo).port);

    const health = await call(base, '/health');
    expect(health.status).toBe(200);
    expect(health.json.status).toBe('ok');
    expect(health.json.checks.startup).toBeUndefined();
    const ready = await call(base, '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ status: 'ready', checks: { startup: { status: 'ok', message: 'started' } } });
    expect((await call(base, '/account', { key: KEYS.pro })).json.data.tier).toBe('pro');

    // WebSocket upgrades reach the application too.
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/v1/ws?api_key=${KEYS.pro}`);
    const first = await new Promise<{ type: string }>((resolve, reject) => {
      ws.once('message', (d) => resolve(JSON.parse(d.toString()) as { type: string }));
      ws.once('error', reject);
    });
    expect(first.type).toBe('connected');
    ws.close();
  });

  it('is not ready while the startup check waits for the first market, and ready once it is in', async () => {
    const config = testConfig();
    const app = await createApp(config, { clock: new ManualClock(Date.now()) });
    let loaded = false;
    app
      .get(HealthService)
      .addCheck('startup', () =>
        loaded
          ? { status: 'ok', message: 'initial market loaded' }
          : { status: 'degraded', message: 'starting: loading the initial market' },
      );
    await app.listen(0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
      const waiting = await call(base, '/health/ready');
      expect(waiting.status).toBe(503);
      expect(waiting.json).toEqual({
        status: 'starting',
        checks: { startup: { status: 'degraded', message: 'starting: loading the initial market' } },
      });
      loaded = true;
      const ready = await call(base, '/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.json.status).toBe('ready');
    } finally {
      await app.close();
    }
  });

  it('with the providers held (main.ts), they start once the application serves, not while it starts', async () => {
    const config = testConfig({ PROVIDERS: 'simulator', SIMULATOR_EVENTS: '10' });
    const app = await createApp(config, { clock: new ManualClock(Date.now()) }, { holdProviders: true });
    try {
      await app.listen(0, '127.0.0.1');
      const ingestion = app.get(IngestionService);
      const started: string[][] = [];
      const startProviders = ingestion.startProviders.bind(ingestion);
      ingestion.startProviders = (providers) => {
        started.push(providers.map((p) => p.name));
        return startProviders(providers);
      };
      // Stopped and started again (a leadership lost and regained) while waiting: one start, not two.
      const leadership = ingestion as unknown as { stopAll: () => Promise<void>; startAll: () => Promise<void> };
      await leadership.stopAll();
      void leadership.startAll();
      // A second of real time (building a 10-event simulator takes a small part of it): nothing is built.
      await new Promise((r) => setTimeout(r, 1_000));
      expect([started, app.get(BoardService).board.size]).toEqual([[], 0]);
      app.get(Serving).begin();
      await ingestion.initialLoad();
      expect(started).toEqual([['simulator', 'simulator-futures']]);
      expect(app.get(BoardService).board.size).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});

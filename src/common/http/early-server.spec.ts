import { describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { EarlyServer } from './early-server.js';

const NOW = Date.parse('2026-11-22T20:00:00Z');

describe('EarlyServer', () => {
  it('answers health (degraded, with the startup check) and 503 elsewhere until the application takes the same server over', async () => {
    const early = new EarlyServer('1.2.3', '/docs', () => NOW);
    await early.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(early.server.address() as AddressInfo).port}`;
    try {
      early.phase = 'opening the database';
      const health = await fetch(`${base}/api/v1/health`);
      expect(health.status).toBe(200);
      const body = (await health.json()) as {
        status: string;
        version: string;
        timestamp: string;
        checks: Record<string, { status: string; message: string }>;
      };
      expect(body).toMatchObject({ status: 'degraded', version: '1.2.3', timestamp: '2026-11-22T20:00:00.000Z' });
      expect(body.checks.startup).toEqual({ status: 'degraded', message: 'starting: opening the database' });
      for (const name of ['redis', 'data', 'schema', 'database']) expect(body.checks[name]!.status).toBe('degraded');
      expect(health.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{12}$/);

      const other = await fetch(`${base}/api/v1/odds`);
      expect(other.status).toBe(503);
      expect(other.headers.get('retry-after')).toBe('2');
      expect(((await other.json()) as { error: { code: string; message: string; docs: string } }).error).toMatchObject({
        code: 'service_unavailable',
        docs: '/docs#error-service_unavailable',
      });

      // Fastify's serverFactory: it gets this server; its handler answers once it "listens".
      const server = early.factory((_req, res) => res.end('app'), { keepAliveTimeout: 5000 });
      expect(server).toBe(early.server);
      expect(early.handedOver).toBe(false);
      expect((await fetch(`${base}/api/v1/health`)).status).toBe(200);
      const listening = new Promise<void>((r) => server.once('listening', () => r()));
      server.listen(12345, '0.0.0.0');
      await listening;
      expect(early.handedOver).toBe(true);
      expect(server.keepAliveTimeout).toBe(5000);
      // Still the same port: nothing was re-bound.
      expect(await (await fetch(`${base}/api/v1/health`)).text()).toBe('app');
      expect(await (await fetch(`${base}/anything`)).text()).toBe('app');
    } finally {
      early.server.closeAllConnections();
      await new Promise((r) => early.server.close(r));
    }
  });
});

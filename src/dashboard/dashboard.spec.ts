import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { DASHBOARD_CSP, registerDashboard } from './dashboard.js';

describe('registerDashboard', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function serve(dir: string): Promise<string> {
    app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    await registerDashboard(app, '/docs', dir);
    return app.listen({ port: 0, host: '127.0.0.1' });
  }

  it('without a bundle, / says how to build it (503, the API error body)', async () => {
    const url = await serve(join(tmpdir(), 'no-such-dashboard-dir'));
    const res = await fetch(`${url}/`, { redirect: 'manual' });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: {
        code: 'service_unavailable',
        message: 'The dashboard is not built: run `npm run build` (it writes dist/web)',
        docs: '/docs#error-service_unavailable',
      },
    });
  });

  it('with a bundle: relative redirects, the page and its files under the self-only CSP', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dash-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(join(dir, 'app.js'), 'export {};');
    const url = await serve(dir);
    for (const path of ['/', '/dashboard', '/?x=1']) {
      const res = await fetch(`${url}${path}`, { redirect: 'manual' });
      expect([path, res.status, res.headers.get('location')]).toEqual([path, 302, 'dashboard/']);
    }
    const page = await fetch(`${url}/dashboard/`);
    expect([page.status, page.headers.get('content-security-policy'), await page.text()]).toEqual([
      200,
      DASHBOARD_CSP,
      '<!doctype html><title>t</title>',
    ]);
    const js = await fetch(`${url}/dashboard/app.js`);
    expect([js.status, js.headers.get('content-security-policy'), await js.text()]).toEqual([200, DASHBOARD_CSP, 'export {};']);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const missing = await fetch(`${url}/dashboard/LICENSE`);
    expect([missing.status, ((await missing.json()) as { error: { code: string } }).error.code]).toEqual([404, 'not_found']);
  });
});

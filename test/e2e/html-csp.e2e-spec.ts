import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { htmlCsp } from '../../src/common/http/html-csp.js';
import type { RouteIndex } from '../../src/common/http/route-index.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** Every GET route the server registered (the route index the app keeps for 405 answers). */
function getRoutes(t: TestApp): string[] {
  const index = (t.app.getHttpAdapter().getInstance() as unknown as { routeIndex: RouteIndex }).routeIndex;
  return index
    .list()
    .filter((r) => r.methods.includes('GET'))
    .map((r) => r.url);
}

/** A concrete path for a route: parameters filled, the wildcard as one of its files. */
function concrete(route: string): string[] {
  const filled = route.replace(/:[A-Za-z_]+/g, 'x');
  if (filled.endsWith('*')) return [filled.slice(0, -1), `${filled.slice(0, -1)}index.html`, `${filled.slice(0, -1)}swagger-ui-init.js`];
  return [filled];
}

describe('every HTML page carries a Content-Security-Policy', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(Date.UTC(2026, 10, 18, 12, 0, 0)) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('every GET route answering text/html (with and without a key) has one, and it allows no inline code but the page’s own', async () => {
    const routes = getRoutes(t);
    expect(routes).toEqual(expect.arrayContaining(['/docs', '/docs/errors', '/api/v1/odds']));
    const html: string[] = [];
    for (const route of routes) {
      if (route.includes('stream') || route.endsWith('/ws')) continue; // long-lived streams: never HTML
      for (const path of concrete(route)) {
        for (const headers of [{}, { 'X-API-Key': KEYS.enterprise }] as Array<Record<string, string>>) {
          const res = await fetch(`${t.url}${path}`, { headers, redirect: 'manual' });
          const type = res.headers.get('content-type') ?? '';
          const body = await res.text();
          if (!/^text\/html/i.test(type)) continue;
          html.push(path);
          const csp = res.headers.get('content-security-policy');
          expect([path, typeof csp]).toEqual([path, 'string']);
          expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
          expect(csp).toContain("frame-ancestors 'none'");
          // Each inline script and style block of the page is allowed by its hash, and only those.
          expect([path, csp]).toEqual([path, path.startsWith('/dashboard') ? csp : htmlCsp(body)]);
        }
      }
    }
    expect(html).toEqual(expect.arrayContaining(['/docs', '/docs/errors']));
  });

  (CHROMIUM ? it : it.skip)(
    'Swagger UI and the errors page work in a real browser under their policy (no violation, no error)',
    async () => {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
      try {
        for (const [path, ready] of [
          ['/docs', '.swagger-ui .info .title'],
          ['/docs/errors', 'tr#error-not_found'],
        ] as const) {
          const page = await browser.newPage();
          const problems: string[] = [];
          page.on('pageerror', (e: Error) => problems.push(e.message));
          // Errors on the console (CSP violations included), but not the browser's own /favicon.ico request.
          page.on('console', (m) => m.type() === 'error' && !/favicon\.ico/.test(m.location().url) && problems.push(m.text()));
          page.on('response', (res) => res.status() >= 400 && problems.push(`${res.status()} ${res.url()}`));
          await page.addInitScript(
            "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sample))",
          );
          await page.goto(`${t.url}${path}`);
          await page.locator(ready).first().waitFor({ timeout: 20_000 });
          if (path === '/docs') {
            // The operations are listed and the styles applied (the stylesheet and the inline style both load).
            await page.locator('.opblock-summary-path').first().waitFor({ timeout: 20_000 });
            const svgHidden = await page.evaluate("getComputedStyle(document.querySelector('body > svg')).position");
            expect(svgHidden).toBe('absolute');
          }
          await page.waitForTimeout(300);
          expect([path, problems]).toEqual([path, []]);
          await page.close();
        }
      } finally {
        await browser.close();
      }
    },
    90_000,
  );
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { DASHBOARD_CSP } from '../../src/dashboard/dashboard.js';
import { projectRoot } from '../../src/config/paths.js';
import type { Quote } from '../../src/domain/types.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The dashboard in a real browser: Debian's chromium driven by playwright-core. The page is opened with a key,
 * the board fills from the stream, then prices that cross are injected through POST /admin/ingest and the
 * arbitrage appears in its list, with stakes, and the page is photographed: into a temporary directory, or to the
 * path DASHBOARD_SCREENSHOT names (`DASHBOARD_SCREENSHOT=docs/dashboard.png` refreshes the image the README shows).
 * Skipped, saying so, only where no Chromium is installed (CHROMIUM_PATH overrides /usr/bin/chromium).
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
/** Temporary directories the screenshots went to, removed at the end. */
const scratch: string[] = [];
/** Where the screenshot goes: DASHBOARD_SCREENSHOT (relative to the repository), else a new temporary directory. */
function screenshotPath(): string {
  const named = process.env.DASHBOARD_SCREENSHOT;
  if (named) return resolve(projectRoot(), named);
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-'));
  scratch.push(dir);
  return join(dir, 'dashboard.png');
}
const NOW = Date.parse('2026-11-22T12:00:00Z');
const KICK = Date.parse('2026-11-23T01:00:00Z');
const BOOKS = ['bet365', 'betmgm', 'caesars', 'draftkings', 'fanduel', 'pinnacle'] as const;
const GAMES = [
  { homeTeam: 'Denver Nuggets', awayTeam: 'Los Angeles Lakers', start: KICK },
  { homeTeam: 'Boston Celtics', awayTeam: 'Miami Heat', start: KICK + 2 * 3600_000 },
  { homeTeam: 'Golden State Warriors', awayTeam: 'Phoenix Suns', start: KICK + 3 * 3600_000 },
];

const ml = (book: string, g: (typeof GAMES)[number], side: 'home' | 'away', decimal: number): Quote => ({
  book,
  league: 'nba',
  homeTeam: g.homeTeam,
  awayTeam: g.awayTeam,
  startTime: g.start,
  marketType: 'moneyline',
  selection: side === 'home' ? g.homeTeam : g.awayTeam,
  selectionType: side,
  line: null,
  price: { decimal },
});

/**
 * Every book -110 / -110 (1.91), except bet365 pays 1.95 on the Nuggets (the best price of that row, the only
 * one highlighted). Hold 2/1.91 - 1 = 4.71% everywhere: no arbitrage.
 */
function board(): Quote[] {
  const out: Quote[] = [];
  for (const g of GAMES)
    for (const b of BOOKS) out.push(ml(b, g, 'home', b === 'bet365' && g === GAMES[0] ? 1.95 : 1.91), ml(b, g, 'away', 1.91));
  return out;
}

/**
 * The crossing prices: DraftKings Celtics 2.05, FanDuel Heat 2.02. Implied total 100/2.05 + 100/2.02 =
 * 48.7805 + 49.5050 = 98.2855%; profit 10000/98.2855 - 100 = 1.7444%; stakes 48.7805/98.2855 = 49.63% and
 * 50.37%, so 49.63 and 50.37 of a bankroll of 100.
 */
const CROSSING = [ml('draftkings', GAMES[1]!, 'home', 2.05), ml('fanduel', GAMES[1]!, 'away', 2.02)];

const describeBrowser = CHROMIUM ? describe : describe.skip;
if (!CHROMIUM) {
  console.warn('dashboard e2e skipped: no Chromium at /usr/bin/chromium (apt-get install -y chromium, or set CHROMIUM_PATH)');
}

describeBrowser('dashboard in a real browser (chromium + playwright-core)', () => {
  let t: TestApp;
  let browser: any;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(projectRoot(), 'scripts', 'build-web.mjs')], { stdio: 'inherit' });
    t = await startTestApp({ clock: new ManualClock(NOW) });
    const r = await t.call('/admin/ingest', {
      method: 'POST',
      body: { source: 'import', quotes: board() },
      headers: { 'X-Admin-Token': t.adminToken },
    });
    expect(r.status).toBe(200);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  it('/ and /dashboard lead to the page, served with a self-only CSP', async () => {
    for (const path of ['/', '/dashboard']) {
      const res = await fetch(`${t.url}${path}`, { redirect: 'manual' });
      expect([path, res.status, res.headers.get('location')]).toEqual([path, 302, 'dashboard/']);
    }
    const page = await fetch(`${t.url}/dashboard/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(await page.text()).toContain('<script type="module" src="app.js">');
    const js = await fetch(`${t.url}/dashboard/app.js`);
    expect([js.status, js.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect((await fetch(`${t.url}/dashboard/missing.js`)).status).toBe(404);
  });

  it('opens with a key, fills the board, shows an injected arbitrage with stakes, and takes a screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e: Error) => errors.push(e.message));
    // Answers over 400 other than the usage endpoint (optional: the page shows usage only where it answers).
    page.on(
      'response',
      (res: any) => res.status() >= 400 && !res.url().endsWith('/api/v1/account/usage') && errors.push(`${res.status()} ${res.url()}`),
    );
    await page.goto(`${t.url}/dashboard/#key=${KEYS.sharp}`);

    // The key is kept (localStorage) and taken out of the address bar; the account's tier is shown.
    await page.getByTestId('account').getByText('Tier: sharp').waitFor();
    // Its usage: requests today (this page's own calls count) and the streams the key holds.
    expect(await page.getByTestId('usage').textContent()).toMatch(
      /usage: today \d+ · this month \d+ · this minute \d+\/1000 · streams \d+\/5/,
    );
    expect(page.url()).toBe(`${t.url}/dashboard/`);
    expect(await page.evaluate("localStorage.getItem('odds-dashboard.key')")).toBe(KEYS.sharp);

    // The board: 3 games x 2 selections, 6 books; the Nuggets' best price is bet365's 1.95 (-105 is 1.95 in American).
    await page.getByTestId('status').getByText('live').waitFor();
    await waitCount(page, 'table[data-testid=board] tbody tr', 6);
    expect(await page.locator('table[data-testid=board] thead th.book').allTextContents()).toEqual([...BOOKS]);
    const best = page.locator('td.best');
    expect(await best.count()).toBe(1); // the Nuggets row: bet365 alone; in every other row all six books tie (none marked)
    const nuggets = page.locator('table[data-testid=board] tr', { hasText: 'Denver Nuggets' }).first();
    expect(await nuggets.locator('td.best').count()).toBe(1);
    expect(await nuggets.locator('td.best').getAttribute('title')).toContain('1.95');
    expect(await page.locator('[data-kind=arbitrage] li').count()).toBe(0);

    // Crossing prices go in; the arbitrage arrives over the stream.
    const r = await t.call('/admin/ingest', {
      method: 'POST',
      body: { source: 'import', quotes: CROSSING },
      headers: { 'X-Admin-Token': t.adminToken },
    });
    expect(r.status).toBe(200);
    const arb = page.locator('[data-kind=arbitrage] li');
    await arb.first().waitFor();
    expect(await arb.count()).toBe(1);
    const text = (await arb.first().textContent()) ?? '';
    expect(text).toContain('Miami Heat @ Boston Celtics');
    expect(text).toContain('1.74%');
    expect(text).toContain('stake 49.63');
    expect(text).toContain('stake 50.37');
    expect(await arb.first().getAttribute('class')).toBe('fresh');
    // It links to its event (the board narrowed to it) and to the books (deep links, in a new tab).
    expect(await arb.first().locator('.opp-head a').getAttribute('href')).toBe(`#event=${encodeURIComponent(await eventId())}`);
    const links = await arb
      .first()
      .locator('a[target=_blank]')
      .evaluateAll((as: Array<{ href: string }>) => as.map((a) => a.href));
    expect(links.length).toBe(2);
    for (const href of links) expect(href).toMatch(/\/api\/v1\/deeplink\/.+/);
    // The board now shows DraftKings' 2.05 (+105) as the Celtics' best price.
    const celtics = page.locator('table[data-testid=board] tr', { hasText: 'Boston Celtics' }).first();
    await celtics.locator('td.best[title*="2.05"]').waitFor();
    expect(await celtics.locator('td.best').count()).toBe(1);
    expect(await celtics.locator('td.best').getAttribute('title')).toContain('2.05');

    const shot = screenshotPath();
    mkdirSync(dirname(shot), { recursive: true });
    await page.screenshot({ path: shot, fullPage: false });
    expect(existsSync(shot)).toBe(true);

    // Following the event link narrows the board to that game.
    await arb.first().locator('.opp-head a').click();
    await waitCount(page, 'table[data-testid=board] tbody tr', 2);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  /** Waits until the page holds exactly `n` elements matching `selector`. */
  async function waitCount(page: any, selector: string, n: number): Promise<void> {
    await page.waitForFunction(
      ([sel, want]: [string, number]) => (globalThis as any).document.querySelectorAll(sel).length === want,
      [selector, n],
    );
  }

  async function eventId(): Promise<string> {
    const r = await t.call('/opportunities/arbitrage', { key: KEYS.sharp });
    return r.json.data[0].event_id as string;
  }
});

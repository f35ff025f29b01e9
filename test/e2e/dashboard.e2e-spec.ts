import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { DASHBOARD_CSP } from '../../src/dashboard/dashboard.js';
import { projectRoot } from '../../src/config/paths.js';
import type { EventUpdate, Quote } from '../../src/domain/types.js';
import { ClosingLinesService } from '../../src/modules/closing-lines/closing-lines.service.js';
import { ClvService } from '../../src/modules/clv/clv.service.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The dashboard in a real browser: Debian's chromium driven by playwright-core. The page is opened with a key,
 * the board fills from the stream, then prices that cross are injected through POST /admin/ingest and the
 * arbitrage appears in its list, with stakes; the book picker hides and shows columns and is remembered; the event
 * page draws each book's line history after injected moves, with the close and a +EV signal marked; the track-record
 * page shows a settled signal. Screenshots go to a temporary directory (DASHBOARD_SCREENSHOTS names another), never
 * into the work tree.
 * Skipped, saying so, only where no Chromium is installed (CHROMIUM_PATH overrides /usr/bin/chromium).
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
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

const SHOTS = process.env.DASHBOARD_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'odds-dashboard-shots-'));

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
    console.log(`dashboard screenshots: ${SHOTS}`);
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

    await page.screenshot({ path: join(SHOTS, 'dashboard.png'), fullPage: false });

    // Following the event link narrows the board to that game.
    await arb.first().locator('.opp-head a').click();
    await waitCount(page, 'table[data-testid=board] tbody tr', 2);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  /** A page with the sharp key, failing the test on a page error or an API answer over 400 (usage aside). */
  async function openPage(hash: string) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e: Error) => errors.push(e.message));
    page.on('console', (m: any) => m.type() === 'error' && errors.push(m.text()));
    page.on(
      'response',
      (res: any) => res.status() >= 400 && !res.url().endsWith('/api/v1/account/usage') && errors.push(`${res.status()} ${res.url()}`),
    );
    await page.goto(`${t.url}/dashboard/#key=${KEYS.sharp}`);
    await page.getByTestId('account').getByText('Tier: sharp').waitFor();
    if (hash) await page.evaluate((h: string) => ((globalThis as any).location.hash = h), hash);
    return { page, errors };
  }

  const headerBooks = (page: any): Promise<string[]> => page.locator('table[data-testid=board] thead th.book').allTextContents();

  it('the book picker hides and shows columns, remembered after a reload; the event column stays in view', async () => {
    const { page, errors } = await openPage('');
    await waitCount(page, 'table[data-testid=board] tbody tr', 6);
    expect(await headerBooks(page)).toEqual([...BOOKS]);
    await page.getByTestId('book-picker').locator('summary').click();
    await page.locator('input[name=book-bet365]').uncheck();
    await page.locator('input[name=book-pinnacle]').uncheck();
    expect(await headerBooks(page)).toEqual(['betmgm', 'caesars', 'draftkings', 'fanduel']);
    expect(await page.getByTestId('book-picker').locator('summary').textContent()).toBe('Books: 4 of 6 shown');
    await page.reload();
    await page.getByTestId('status').getByText('live').waitFor();
    await waitCount(page, 'table[data-testid=board] tbody tr', 6);
    expect(await headerBooks(page)).toEqual(['betmgm', 'caesars', 'draftkings', 'fanduel']);
    expect(JSON.parse(await page.evaluate("localStorage.getItem('odds-dashboard.hidden-books')"))).toEqual(['bet365', 'pinnacle']);
    // Scrolled sideways, the event column stays where it was.
    await page.setViewportSize({ width: 700, height: 900 });
    const cell = page.locator('table[data-testid=board] td.ev').first();
    const before = (await cell.boundingBox())!.x;
    await page.locator('.board .scroll').evaluate((el: any) => (el.scrollLeft = 300));
    expect((await cell.boundingBox())!.x).toBe(before);
    await page.getByTestId('book-picker').locator('summary').click();
    await page.getByRole('button', { name: 'Show all' }).click();
    expect(await headerBooks(page)).toEqual([...BOOKS]);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it("the event page draws each book's line history after injected moves", async () => {
    // The Nuggets' price moves at three instants a minute apart: pinnacle first, then draftkings and fanduel, then
    // betmgm and caesars. Each book's home series: its first price (the board above) plus one move; bet365 none.
    const clock = t.clock as ManualClock;
    const moves: Array<[string, number]>[] = [
      [['pinnacle', 1.87]],
      [
        ['draftkings', 1.88],
        ['fanduel', 1.89],
      ],
      [
        ['betmgm', 1.86],
        ['caesars', 1.9],
      ],
    ];
    for (const step of moves) {
      await clock.advance(60_000);
      const r = await t.call('/admin/ingest', {
        method: 'POST',
        body: { source: 'import', quotes: step.map(([b, d]) => ml(b, GAMES[0]!, 'home', d)) },
        headers: { 'X-Admin-Token': t.adminToken },
      });
      expect(r.status).toBe(200);
    }
    const nuggets = (await t.call('/events?team=nuggets', { key: KEYS.sharp })).json.data[0].id as string;
    const { page, errors } = await openPage(`#view=event&event=${encodeURIComponent(nuggets)}`);
    await page.getByTestId('event-page').waitFor();
    await waitCount(page, '[data-testid=chart-books] li', 6);
    const drawn = await page
      .locator('[data-testid=chart-books] li')
      .evaluateAll((els: any[]) => els.map((e) => [e.getAttribute('data-book'), Number(e.getAttribute('data-changes'))]));
    expect(drawn).toEqual([
      ['bet365', 1],
      ['betmgm', 2],
      ['caesars', 2],
      ['draftkings', 2],
      ['fanduel', 2],
      ['pinnacle', 2],
    ]);
    // uPlot drew a canvas and a legend entry per book (and the time axis).
    expect(await page.locator('[data-testid=price-chart] canvas').count()).toBe(1);
    expect(await page.locator('[data-testid=price-chart] .u-legend .u-series').count()).toBe(7);
    expect(await page.locator('select[name=history-selection] option').allTextContents()).toEqual(['Denver Nuggets', 'Los Angeles Lakers']);
    // The same series as GET /odds/history.
    const api = await t.call(`/odds/history?event=${nuggets}&market=moneyline&selection=home`, { key: KEYS.sharp });
    expect(api.json.data.map((x: any) => [x.sportsbook, x.points.length])).toEqual(drawn);
    await page.screenshot({ path: join(SHOTS, 'event-page.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('the track record shows a settled +EV signal; its event page marks the close and the signal', async () => {
    // A +EV price through the real pipeline (DraftKings Bulls +120 against Pinnacle -110 / -110), the game going
    // live (its close captured), then a final score (graded: the Bulls win).
    const clock = t.clock as ManualClock;
    const start = clock.now() + 3600_000;
    const game = { league: 'nba', homeTeam: 'Chicago Bulls', awayTeam: 'New York Knicks', startTime: start };
    const ml2 = (book: string, home: number, away: number, isLive = false): Quote[] =>
      (['home', 'away'] as const).map((side) => ({
        ...game,
        book,
        marketType: 'moneyline',
        selection: side === 'home' ? game.homeTeam : game.awayTeam,
        selectionType: side,
        line: null,
        price: { american: side === 'home' ? home : away },
        isLive,
      }));
    const ingestion = t.app.get(IngestionService);
    const ev = (e: Partial<EventUpdate>): EventUpdate[] => [{ ...game, ...e }];
    ingestion.ingest(
      { source: 'test', quotes: [...ml2('pinnacle', -110, -110), ...ml2('draftkings', 120, -140)], events: ev({ status: 'upcoming' }) },
      clock.now(),
    );
    await clock.set(start - 300_000);
    ingestion.ingest({ source: 'test', quotes: [...ml2('pinnacle', -110, -110), ...ml2('draftkings', 120, -140)] }, clock.now());
    await clock.set(start + 30_000);
    ingestion.ingest(
      {
        source: 'test',
        quotes: [...ml2('pinnacle', -200, 170, true), ...ml2('draftkings', -210, 160, true)],
        events: ev({ status: 'live', gameState: { home_score: 8, away_score: 2, game_period: 'Q1' } }),
      },
      clock.now(),
    );
    await t.app.get(ClosingLinesService).flush();
    await clock.set(start + 3 * 3600_000);
    ingestion.ingest(
      { source: 'test', quotes: [], events: ev({ status: 'ended', gameState: { home_score: 112, away_score: 104, game_period: 'F' } }) },
      clock.now(),
    );
    await t.app.get(ClvService).settle();

    const { page, errors } = await openPage('#view=record');
    await page.getByTestId('record-page').waitFor();
    await page.getByTestId('settlements').waitFor();
    const rows = await page.locator('[data-testid=settlements] tbody tr').allTextContents();
    expect(rows.length).toBe(1);
    expect(rows[0]).toContain('New York Knicks @ Chicago Bulls');
    expect(rows[0]).toContain('+120');
    expect(rows[0]).toContain('won');
    expect(await page.getByTestId('record-overall').textContent()).toContain('1 won, 0 lost');
    expect(await page.locator('[data-testid=units-chart] canvas').count()).toBe(1);
    expect(await page.locator('[data-testid=sport-chart] canvas').count()).toBe(1);
    expect(await page.locator('[data-testid=by-sport] tbody tr').allTextContents()).toEqual([expect.stringContaining('basketball')]);
    await page.screenshot({ path: join(SHOTS, 'track-record.png'), fullPage: true });

    // The settlement links to its game's event page: the close is captured and the +EV signal listed (and marked).
    await page.locator('[data-testid=settlements] a').click();
    await page.getByTestId('event-page').waitFor();
    await page.getByTestId('signals').waitFor();
    expect(await page.locator('[data-testid=signals] tr').allTextContents()).toEqual([expect.stringMatching(/draftkings\+120.*won/)]);
    await page.getByText(/^Closed /).waitFor();
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

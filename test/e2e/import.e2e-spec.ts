import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { admin } from '../../src/cli/commands.js';
import { readManifest, removeImport, runImport } from '../../src/cli/import.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { BoardService } from '../../src/modules/board/board.service.js';
import { KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

const SAMPLE = new URL('../fixtures/mlb_odds_snapshot.csv', import.meta.url).pathname;
const rows = parse(readFileSync(SAMPLE, 'utf8'), { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
const quiet = () => undefined;
/** Just after the sample's capture (its latest timestamp is 2026-07-13T01:45:58Z). */
const AT_CAPTURE = Date.parse('2026-07-13T02:00:00Z');

/**
 * Rows of the sample labelled moneyline that offer a player or manager on a question with no opponent (an award):
 * prices all the same, kept as quoted and never part of a two-way group.
 */
const futuresMoneylines = rows.filter((r) => r.market_type === 'moneyline' && !['home', 'away'].includes(r.selection_type!));
const perBook = (list: Array<Record<string, string>>) =>
  list.reduce<Record<string, number>>((m, r) => ((m[r.sportsbook!] = (m[r.sportsbook!] ?? 0) + 1), m), {});

describe('importing the MLB sample', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'odds-import-'));
  const config = testConfig({ DATA_DIR: dataDir, EMBEDDED_IN_MEMORY: 'false' });
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('into the store (no server running): every row is a price and every row is kept (exit 0)', async () => {
    expect(futuresMoneylines).toHaveLength(8);
    const s = await runImport(SAMPLE, config, { replay: false, server: null, admin, now: AT_CAPTURE }, quiet);
    expect(s.records).toBe(rows.length);
    expect(s.rejected).toBe(0);
    expect(s.errors).toEqual([]);
    expect(s.imported).toBe(rows.length);
    expect(s.changed).toBe(s.imported);
    expect(s.reasons).toEqual({});
    expect(s.byBook).toEqual(perBook(rows));
    expect(s.exitCode).toBe(0);
    // Every league and book of the sample is in the catalog: nothing registered.
    expect(s.registered).toEqual({ leagues: [], books: [] });
  });

  it('a second import of the same file changes nothing', async () => {
    const s = await runImport(SAMPLE, config, { replay: false, server: null, admin, now: AT_CAPTURE }, quiet);
    expect(s.changed).toBe(0);
    expect(s.unchanged).toBe(rows.length);
  });

  it('a server started on that store serves the imported games under their canonical ids', async () => {
    t = await startTestApp({ config, clock: new ManualClock(AT_CAPTURE) });
    const game = rows.filter((r) => r.event_id === 'mlb_giants_rockies_2026-07-12_b2');
    const r = await t.call('/events/mlb_giants_rockies_2026-07-12_b2', { key: KEYS.sharp });
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ home_team: 'San Francisco Giants', away_team: 'Colorado Rockies', league: 'mlb' });
    expect(r.json.data.books).toEqual([...new Set(game.map((g) => g.sportsbook))].sort());
    const events = await t.call('/events?league=mlb&limit=200', { key: KEYS.sharp });
    // Only the sample's four games are events: its futures rows (Kalshi contracts, awards, championships) are
    // futures markets, never events with two teams ("Esmerlyn Valdez @ Esmerlyn Valdez").
    expect((events.json.data as Array<{ id: string }>).map((e) => e.id).sort()).toEqual([
      'mlb_americanleague_nationalleague_2026-07-13_b3',
      'mlb_americanleague_nationalleague_2026-07-14_b3',
      'mlb_giants_rockies_2026-07-12_b2',
      'mlb_rays_redsox_2026-07-12_b3',
    ]);
    for (const e of events.json.data as Array<{ home_team: string; away_team: string }>)
      expect(e.home_team.toLowerCase()).not.toBe(e.away_team.toLowerCase());
    const futures = await t.call('/futures?league=mlb&limit=200', { key: KEYS.sharp });
    expect(futures.status).toBe(200);
    expect(futures.json.meta.total).toBeGreaterThan(50);
    const ws = (futures.json.data as Array<{ market_id: string; books_available: string[]; future_type: string }>).find(
      (m) => m.market_id === 'mlb_championship_winner_2026',
    );
    expect(ws?.future_type).toBe('TEAM');
    expect(ws?.books_available).toEqual(expect.arrayContaining(['betmgm', 'fanduel', 'hardrock', 'ladbrokes', 'polymarket']));
  });

  it('through a running server (admin channel): the same counts, nothing new', async () => {
    const address = t!.app.getHttpServer().address() as { port: number };
    const server = { pid: process.pid, host: '127.0.0.1', port: address.port, admin_token: t!.adminToken, started_at: '' };
    const s = await runImport(SAMPLE, config, { replay: false, server, admin }, quiet);
    expect(s.via).toBe('server');
    expect(s.imported).toBe(rows.length);
    expect(s.rejected).toBe(0);
    expect(s.changed).toBe(0);
  });

  it('--replay moves the board to now: the same games, start times shifted by the capture distance', async () => {
    const address = t!.app.getHttpServer().address() as { port: number };
    const server = { pid: process.pid, host: '127.0.0.1', port: address.port, admin_token: t!.adminToken, started_at: '' };
    const s = await runImport(SAMPLE, config, { replay: true, server, admin }, quiet);
    expect(s.imported).toBe(rows.length);
    expect(s.shiftMs).toBeGreaterThan(0);
  });
});

describe('imports never pollute the board (issue 17)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'odds-import-clean-'));
  // Today's clock: the July sample is four months old.
  const NOW = Date.parse('2026-11-22T20:00:00Z');
  const config = testConfig({ DATA_DIR: dataDir });
  let t: TestApp;
  let server: { pid: number; host: string; port: number; admin_token: string; started_at: string };
  const board = () => t.app.get(BoardService).board;
  const snapshot = () => ({
    rows: [...board().rows.keys()].sort(),
    events: [...board().events.values()].map((e) => `${e.id}:${e.status}`).sort(),
  });
  const upcomingInThePast = () => [...board().events.values()].filter((e) => e.status === 'upcoming' && e.startTime < NOW);

  afterAll(async () => {
    await t?.close();
  });

  it('without --replay, the games that started in July come in as ended, never upcoming; a second import leaves the same board', async () => {
    t = await startTestApp({ config, clock: new ManualClock(NOW) });
    const address = t.app.getHttpServer().address() as { port: number };
    server = { pid: process.pid, host: '127.0.0.1', port: address.port, admin_token: t.adminToken, started_at: '' };
    const first = await runImport(SAMPLE, config, { replay: false, server, admin }, quiet);
    expect(first.reasons).toEqual({});
    expect(first.exitCode).toBe(0);
    expect(first.ended.rows).toBeGreaterThan(1000);
    expect(first.imported).toBe(rows.length);
    expect(upcomingInThePast()).toEqual([]);
    // The ended games are not listed (no live prices), so /events does not start with July.
    const events = await t.call('/events?limit=200', { key: KEYS.sharp });
    expect(
      events.json.data.filter((e: { status: string; start_time: string }) => e.status === 'upcoming' && Date.parse(e.start_time) < NOW),
    ).toEqual([]);
    const before = snapshot();
    const again = await runImport(SAMPLE, config, { replay: false, server, admin }, quiet);
    expect(again.changed).toBe(0);
    expect(again.withdrawn).toBe(0);
    expect(snapshot()).toEqual(before);
  });

  it('--replay twice leaves the same board (the same events, no second copy), then --dry-run changes nothing', async () => {
    await removeImport('mlb_odds_snapshot.csv', config, { server, admin }, quiet);
    const first = await runImport(SAMPLE, config, { replay: true, server, admin }, quiet);
    expect(first.shiftMs).toBeGreaterThan(0);
    const after1 = snapshot();
    expect(after1.rows.length).toBeGreaterThan(200); // the game rows (207); the 3,466 futures rows are futures markets, not board rows
    (t.clock as ManualClock).advance(90_000);
    const second = await runImport(SAMPLE, config, { replay: true, server, admin }, quiet);
    expect(second.imported).toBe(first.imported);
    expect(snapshot().events).toEqual(after1.events);
    expect(snapshot().rows).toEqual(after1.rows);
    expect(upcomingInThePast()).toEqual([]);

    const dry = await runImport(SAMPLE, config, { replay: true, server, admin, dryRun: true }, quiet);
    expect(dry.dryRun).toBe(true);
    expect(dry.withdrawn).toBe(0);
    expect(snapshot().rows).toEqual(after1.rows);
  });

  it('import:remove withdraws every price the import brought, and forgets it', async () => {
    const manifest = readManifest(dataDir, 'mlb_odds_snapshot.csv')!;
    expect(manifest.ids.length).toBeGreaterThan(200);
    const removed = await removeImport('mlb_odds_snapshot.csv', config, { server, admin }, quiet);
    expect(removed).toBe(manifest.ids.length);
    expect(board().rows.size).toBe(0);
    expect(readManifest(dataDir, 'mlb_odds_snapshot.csv')).toBeNull();
    await expect(removeImport('mlb_odds_snapshot.csv', config, { server, admin }, quiet)).rejects.toThrow(
      /no import named "mlb_odds_snapshot.csv"/,
    );
  });
});

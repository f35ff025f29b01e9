import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { admin } from '../../src/cli/commands.js';
import { runImport } from '../../src/cli/import.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

const SAMPLE = new URL('../fixtures/mlb_odds_snapshot.csv', import.meta.url).pathname;
const rows = parse(readFileSync(SAMPLE, 'utf8'), { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
const quiet = () => undefined;

/**
 * Rows of the sample labelled moneyline that offer a player or manager on a question with no opponent (an award):
 * prices all the same, kept as quoted and never part of a two-way group.
 */
const futuresMoneylines = rows.filter((r) => r.market_type === 'moneyline' && !['home', 'away'].includes(r.selection_type!));
const perBook = (list: Array<Record<string, string>>) => list.reduce<Record<string, number>>((m, r) => ((m[r.sportsbook!] = (m[r.sportsbook!] ?? 0) + 1), m), {});

describe('importing the MLB sample', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'odds-import-'));
  const config = testConfig({ DATA_DIR: dataDir, EMBEDDED_IN_MEMORY: 'false' });
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('into the store (no server running): every row is a price and every row is kept (exit 0)', async () => {
    expect(futuresMoneylines).toHaveLength(8);
    const s = await runImport(SAMPLE, config, { replay: false, server: null, admin }, quiet);
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
    const s = await runImport(SAMPLE, config, { replay: false, server: null, admin }, quiet);
    expect(s.changed).toBe(0);
    expect(s.unchanged).toBe(rows.length);
  });

  it('a server started on that store serves the imported games under their canonical ids', async () => {
    t = await startTestApp({ config, clock: new ManualClock(Date.parse('2026-07-13T02:00:00Z')) });
    const game = rows.filter((r) => r.event_id === 'mlb_giants_rockies_2026-07-12_b2');
    const r = await t.call('/events/mlb_giants_rockies_2026-07-12_b2', { key: KEYS.sharp });
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ home_team: 'San Francisco Giants', away_team: 'Colorado Rockies', league: 'mlb' });
    expect(r.json.data.books).toEqual([...new Set(game.map((g) => g.sportsbook))].sort());
    const events = await t.call('/events?league=mlb&limit=200', { key: KEYS.sharp });
    // Only the sample's four games are events: its futures rows (Kalshi contracts, awards, championships) are
    // futures markets, never events with two teams ("Esmerlyn Valdez @ Esmerlyn Valdez").
    expect((events.json.data as Array<{ id: string }>).map((e) => e.id).sort()).toEqual([
      'mlb_americanleague_nationalleague_2026-07-13_b3', 'mlb_americanleague_nationalleague_2026-07-14_b3', 'mlb_giants_rockies_2026-07-12_b2', 'mlb_rays_redsox_2026-07-12_b3',
    ]);
    for (const e of events.json.data as Array<{ home_team: string; away_team: string }>) expect(e.home_team.toLowerCase()).not.toBe(e.away_team.toLowerCase());
    const futures = await t.call('/futures?league=mlb&limit=200', { key: KEYS.sharp });
    expect(futures.status).toBe(200);
    expect(futures.json.meta.total).toBeGreaterThan(50);
    const ws = (futures.json.data as Array<{ market_id: string; books_available: string[]; future_type: string }>).find((m) => m.market_id === 'mlb_championship_winner_2026');
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

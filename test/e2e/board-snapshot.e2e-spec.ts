import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import { createDataSource } from '../../src/database/data-source.js';
import type { OddsRow } from '../../src/domain/odds-row.js';
import { EARLIER_SNAPSHOT_FILE, SNAPSHOT_FILE } from '../../src/modules/board/board-snapshot.js';
import { BoardRepository } from '../../src/modules/board/board.repository.js';
import { BoardService } from '../../src/modules/board/board.service.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, H } from '../factories/market.js';
import { startTestApp, testConfig, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const byId = (rows: Iterable<OddsRow>) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/**
 * The embedded store on disk writes its prices to a file at a clean stop and reads them back at the next start in
 * place of the odds table, only while the table is as the file says. PostgreSQL has no such file.
 */
(process.env.TEST_DATABASE_URL ? describe.skip : describe)('the embedded store: a snapshot of the prices at a clean stop', () => {
  const dir = mkdtempSync(join(tmpdir(), 'odds-snapshot-'));
  const file = join(dir, SNAPSHOT_FILE);
  const config = testConfig({ DATA_DIR: dir, EMBEDDED_IN_MEMORY: 'false' });
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });
  const start = async (at: number) => {
    t = await startTestApp({ clock: new ManualClock(at), config });
    return t.app.get(BoardService);
  };
  /** The board's prices equal what the odds table holds, field for field. */
  const expectBoardIsTable = async (boards: BoardService) => {
    const table = await t!.app.get(BoardRepository).load();
    expect(table.rows.length).toBeGreaterThan(0);
    expect(byId(boards.board.rows.values())).toEqual(byId(table.rows));
  };
  /** A change to the table while no server runs (another tool, a restored backup). */
  const behindItsBack = async (sql: string, params: unknown[]) => {
    const ds = createDataSource(config);
    await ds.initialize();
    await ds.query(sql, params);
    await ds.destroy();
  };
  const games = [
    { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 6 * H },
    { league: 'nba', home: 'Miami Heat', away: 'Chicago Bulls', start: NOW + 8 * H },
  ];
  const market = buildMarket(games, ['draftkings', 'fanduel', 'pinnacle'], NOW);
  let moved: OddsRow;

  it('a clean stop writes it; the next start reads it instead of the table, removes it, and holds what the table holds', async () => {
    let boards = await start(NOW);
    const ingestion = t!.app.get(IngestionService);
    ingestion.ingest({ source: 'test', quotes: market }, NOW);
    // The same prices seen again (a sighting: the table's last_seen_at moves, the board's row stays as it was),
    // then one price moved and one withdrawn.
    ingestion.ingest({ source: 'test', quotes: market }, NOW + 30_000);
    ingestion.ingest({ source: 'test', quotes: [{ ...market[0]!, price: { american: 180 } }], removals: [market[1]!] }, NOW + 40_000);
    const rows = boards.board.size;
    moved = [...boards.board.rows.values()].find((r) => r.american === 180)!;
    expect(moved).toBeDefined();
    await t!.close({ keepStore: true });
    expect(existsSync(file)).toBe(true);

    boards = await start(NOW + 60_000);
    expect(boards.pricesFrom).toBe('snapshot');
    expect(existsSync(file)).toBe(false);
    expect(boards.board.size).toBe(rows);
    expect(boards.board.rows.get(moved.id)!.american).toBe(180);
    // A price seen at +30 s and not changed since carries that sighting, as the table does.
    const still = [...boards.board.rows.values()].find((r) => r.id !== moved.id)!;
    expect(still.lastSeenAt).toBe(NOW + 30_000);
    await expectBoardIsTable(boards);
  });

  it('a table changed after the stop is read instead: a price updated, then a price deleted', async () => {
    await t!.close({ keepStore: true });
    expect(existsSync(file)).toBe(true);
    await behindItsBack(`UPDATE odds SET odds_decimal = 9.5 WHERE id = $1`, [moved.id]);
    let boards = await start(NOW + 120_000);
    expect(boards.pricesFrom).toBe('table');
    expect(existsSync(file)).toBe(false);
    expect(boards.board.rows.get(moved.id)!.decimal).toBe(9.5);
    await expectBoardIsTable(boards);

    await t!.close({ keepStore: true });
    expect(existsSync(file)).toBe(true);
    await behindItsBack(`DELETE FROM odds WHERE id = $1`, [moved.id]);
    boards = await start(NOW + 180_000);
    expect(boards.pricesFrom).toBe('table');
    expect(boards.board.rows.has(moved.id)).toBe(false);
    await expectBoardIsTable(boards);
  });

  it.each([
    ['not JSON', '{"format": 3, "mark": '],
    ['an earlier format', JSON.stringify({ format: 2, mark: 'x', rows: 0, fields: ['id'], strings: [], columns: [{ s: [] }] })],
    [
      'other fields',
      `${JSON.stringify({ format: 3, mark: 'x', rows: 0, fields: ['id'], strings: [], columns: [{ k: 's', o: 0 }], littleEndian: true })}\n`,
    ],
  ])('a file that is not a snapshot of this build (%s) is removed and the table read', async (_why, text) => {
    await t!.close({ keepStore: true });
    writeFileSync(file, text);
    const boards = await start(NOW + 240_000);
    expect(boards.pricesFrom).toBe('table');
    expect(existsSync(file)).toBe(false);
    await expectBoardIsTable(boards);
  });

  it("an earlier build's snapshot (board-snapshot.json) is not read, and removed", async () => {
    await t!.close({ keepStore: true });
    const earlier = join(dir, EARLIER_SNAPSHOT_FILE);
    writeFileSync(earlier, JSON.stringify({ format: 2, mark: 'x', rows: 0, fields: [], strings: [], columns: [] }));
    const boards = await start(NOW + 300_000);
    expect(existsSync(earlier)).toBe(false);
    await expectBoardIsTable(boards);
  });
});

import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { admin } from '../../src/cli/commands.js';
import { IMPORT_EXIT, runImport, type ImportSummary } from '../../src/cli/import.js';
import { ManualClock } from '../../src/common/time/clock.js';
import type { OddsRow } from '../../src/domain/odds-row.js';
import { BoardService } from '../../src/modules/board/board.service.js';
import { isolationEnv, KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';
import { MetricsService } from '../../src/common/metrics/metrics.service.js';

/**
 * The standing hostile-import suite (issue 11): files a careless exporter or an attacker produces, imported
 * through a running server as `npm run cli -- import` does. Each case: a report naming every refused row with its
 * line and reason, the documented exit code (0 all, 1 some refused, 2 nothing imported), nothing already stored
 * lost, and the server still answering. Runs on the embedded store and, with TEST_DATABASE_URL, on PostgreSQL.
 */
const NOW = Date.parse('2026-11-22T12:00:00Z');
const HEADER =
  'id,sportsbook,event_id,sport,league,home_team,away_team,market_type,selection,selection_type,odds_american,odds_decimal,odds_probability,line,event_start_time,is_live,timestamp';
const quiet = () => undefined;

/** One sample-format row: a moneyline price on a Celtics-Lakers game unless told otherwise. */
function row(
  o: Partial<Record<'id' | 'book' | 'home' | 'away' | 'selection' | 'type' | 'american' | 'decimal' | 'start', string>> = {},
): string {
  const home = o.home ?? 'Boston Celtics';
  return [
    o.id ?? '1',
    o.book ?? 'draftkings',
    'e1',
    'basketball',
    'nba',
    home,
    o.away ?? 'Los Angeles Lakers',
    'moneyline',
    o.selection ?? home,
    o.type ?? 'home',
    o.american ?? '-150',
    o.decimal ?? '1.6667',
    '',
    '',
    o.start ?? '2026-11-23T00:40:00Z',
    'False',
    '2026-11-22T11:59:00Z',
  ].join(',');
}

const BOOKS = ['draftkings', 'fanduel', 'betmgm', 'caesars', 'pinnacle', 'bet365', 'betrivers', 'fanatics'];

describe('hostile imports through a running server', () => {
  const shared = process.env.TEST_DATABASE_URL
    ? isolationEnv()
    : { DATA_DIR: mkdtempSync(join(tmpdir(), 'odds-hostile-')), EMBEDDED_IN_MEMORY: 'false' };
  const config = testConfig(shared);
  const dir = mkdtempSync(join(tmpdir(), 'odds-hostile-files-'));
  let t: TestApp;
  let n = 0;

  const server = () => {
    const address = t.app.getHttpServer().address() as { port: number };
    return { pid: process.pid, host: '127.0.0.1', port: address.port, admin_token: t.adminToken, started_at: '' };
  };
  /** Writes `content` to a file and imports it through the running server. */
  const importFile = async (content: string | Buffer, ext = 'csv'): Promise<ImportSummary> => {
    const path = join(dir, `case-${++n}.${ext}`);
    writeFileSync(path, content);
    return runImport(path, config, { replay: false, server: server(), admin }, quiet);
  };
  const stored = async (): Promise<number> => Number((await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM odds'))[0].n);
  const storedIds = async (): Promise<Set<string>> =>
    new Set(((await t.app.get(DataSource).query('SELECT id FROM odds')) as Array<{ id: string }>).map((r) => r.id));
  const flush = () => t.app.get(BoardService).writer.flush({ force: true });
  const healthy = async () => {
    const h = await t.call('/health');
    expect(h.status).toBe(200);
    expect(JSON.stringify(h.json)).not.toMatch(/writes failing/);
  };

  let baseline: Set<string>;

  beforeAll(async () => {
    t = await startTestApp({ config, clock: new ManualClock(NOW) });
    // What is stored before any hostile file: one price from each of eight books.
    const s = await importFile([HEADER, ...BOOKS.map((b, i) => row({ id: String(i + 1), book: b }))].join('\n'));
    expect(s).toMatchObject({ imported: BOOKS.length, rejected: 0, exitCode: IMPORT_EXIT.ALL });
    await flush();
    baseline = await storedIds();
    expect(baseline.size).toBe(BOOKS.length);
  });

  afterAll(async () => {
    // Nothing stored before was lost, whatever came in between.
    await flush();
    const now = await storedIds();
    for (const id of baseline) expect(now.has(id)).toBe(true);
    await t.close();
  });

  it('the exact reproduction: a NUL in home_team is refused at the edge with its line; later rows are stored', async () => {
    const s = await importFile([HEADER, row({ home: 'Boston\u0000Celtics', selection: 'Boston Celtics' })].join('\n'));
    expect(s).toMatchObject({ records: 1, imported: 0, rejected: 1, exitCode: IMPORT_EXIT.NOTHING });
    expect(s.errors).toEqual([
      { line: 2, reason: 'home_team contains a NUL character (U+0000), which the database cannot store', code: 'invalid_text' },
    ]);
    expect(s.reasons).toEqual({ invalid_text: 1 });
    const before = await stored();
    const later = await importFile([HEADER, row({ book: 'bovada' }), row({ book: 'betonline' })].join('\n'));
    expect(later).toMatchObject({ imported: 2, exitCode: IMPORT_EXIT.ALL });
    await flush();
    expect(await stored()).toBe(before + 2);
    expect(t.app.get(BoardService).writer.healthy).toBe(true);
    await healthy();
  });

  it('the admin ingest channel refuses the same quote the same way (every source passes the edge)', async () => {
    const quote = {
      book: 'draftkings',
      league: 'nba',
      homeTeam: 'Boston Celtics',
      awayTeam: 'Los\u0000Lakers',
      startTime: Date.parse('2026-11-23T00:40:00Z'),
      marketType: 'moneyline',
      selection: 'Boston Celtics',
      selectionType: 'home',
      price: { american: -150 },
    };
    const r = await t.call('/admin/ingest', {
      method: 'POST',
      body: { quotes: [quote, { ...quote, awayTeam: 'Los Angeles Lakers', selection: 'x\ud800' }] },
      headers: { 'X-Admin-Token': t.adminToken },
    });
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ accepted: 0, rejected: { invalid_text: 2 } });
    expect(r.json.data.rejections.map((x: { message: string }) => x.message)).toEqual([
      'awayTeam contains a NUL character (U+0000), which the database cannot store',
      'selection contains a lone UTF-16 surrogate (U+D800), which is not a character',
    ]);
  });

  it.each([
    [
      'a UTF-8 BOM',
      () => `\ufeff${HEADER}\n${row({ book: 'fanduel' })}\n`,
      { exit: 0, imported: 1, errors: [] as Array<[number, RegExp]> },
    ],
    [
      'CRLF line ends',
      () => `${HEADER}\r\n${row({ book: 'fanduel' })}\r\n${row({ book: 'betmgm' })}\r\n`,
      { exit: 0, imported: 2, errors: [] },
    ],
    [
      'latin-1 bytes inside a UTF-8 file',
      () =>
        Buffer.concat([
          Buffer.from(`${HEADER}\n${row({ book: 'fanduel' })}\n`),
          Buffer.from(
            `${row({ book: 'betmgm', home: 'Z\u00fcrich Lions', away: 'Boston Celtics', selection: 'Boston Celtics', type: 'away' })}\n`,
            'latin1',
          ),
        ]),
      { exit: 1, imported: 1, errors: [[3, /home_team contains bytes that are not valid UTF-8/]] },
    ],
    [
      'a wrong header',
      () => 'book,team,price\ndraftkings,Boston Celtics,-150\n',
      { exit: 2, imported: 0, errors: [[1, /missing columns: sportsbook, event_id, league, home_team/]] },
    ],
    ['an empty file', () => '', { exit: 2, imported: 0, errors: [[1, /the file is empty/]] }],
    ['a header and no rows', () => `${HEADER}\n`, { exit: 2, imported: 0, errors: [[1, /no data rows/]] }],
    [
      'a CSV cut mid-row',
      () => `${HEADER}\n${row({ book: 'fanduel' })}\n${row({ book: 'betmgm' }).slice(0, 60)}`,
      { exit: 1, imported: 1, errors: [[3, /event_start_time|market_type is empty|selection is empty|no price/]] },
    ],
    [
      'a CSV cut inside a quoted field',
      () => `${HEADER}\n${row({ book: 'fanduel' })}\n3,betmgm,e1,basketball,nba,"Boston Cel`,
      { exit: 1, imported: 1, errors: [[3, /unreadable CSV row/]] },
    ],
    [
      'one bad quote among good rows',
      () => [HEADER, row({ book: 'fanduel' }), row({ book: 'betmgm', home: '"Boston" Celtics"x' }), row({ book: 'caesars' })].join('\n'),
      { exit: 1, imported: 2, errors: [[3, /unreadable CSV row/]] },
    ],
    [
      'a 100 KB team name',
      () => [HEADER, row({ book: 'fanduel' }), row({ book: 'betmgm', away: 'L'.repeat(100_000) })].join('\n'),
      { exit: 1, imported: 1, errors: [[3, /away_team is 100000 characters long/]] },
    ],
    [
      'control characters',
      () => [HEADER, row({ book: 'betmgm', selection: 'Boston\u0007Celtics' }), row({ book: 'fanduel' })].join('\n'),
      { exit: 1, imported: 1, errors: [[2, /selection contains the control character U\+0007/]] },
    ],
    [
      'unknown columns',
      () => [`${HEADER},notes,tracking_id`, `${row({ book: 'fanduel' })},hello,42`].join('\n'),
      { exit: 0, imported: 1, errors: [] },
    ],
    [
      'truncated JSON',
      () =>
        '[{"id":"e1","sport_key":"basketball_nba","commence_time":"2026-11-23T00:40:00Z","home_team":"Boston Celtics","away_team":"Los Ange',
      { exit: 2, imported: 0, errors: [[1, /not valid JSON/]], ext: 'json' },
    ],
    [
      'JSON with a lone surrogate in a team',
      () =>
        JSON.stringify([
          {
            id: 'e9',
            sport_key: 'basketball_nba',
            commence_time: '2026-11-23T00:40:00Z',
            home_team: 'Boston Celtics\ud800',
            away_team: 'Los Angeles Lakers',
            bookmakers: [
              {
                key: 'draftkings',
                last_update: '2026-11-22T11:00:00Z',
                markets: [
                  {
                    key: 'h2h',
                    outcomes: [
                      { name: 'Boston Celtics\ud800', price: 1.6 },
                      { name: 'Los Angeles Lakers', price: 2.4 },
                    ],
                  },
                ],
              },
            ],
          },
        ]),
      {
        exit: 2,
        imported: 0,
        errors: [
          [1, /homeTeam contains a lone UTF-16 surrogate/],
          [2, /homeTeam contains a lone UTF-16 surrogate/],
        ],
        ext: 'json',
      },
    ],
  ] as Array<[string, () => string | Buffer, { exit: number; imported: number; errors: Array<[number, RegExp]>; ext?: string }]>)(
    '%s: reported row by row, the documented exit code, the server stays up',
    async (_name, content, want) => {
      const s = await importFile(content(), want.ext);
      expect(s.exitCode).toBe(want.exit);
      expect(s.imported).toBe(want.imported);
      expect(s.errors).toHaveLength(want.errors.length);
      want.errors.forEach(([line, reason], i) => {
        expect(s.errors[i]!.line).toBe(line);
        expect(s.errors[i]!.reason).toMatch(reason);
      });
      await healthy();
    },
  );

  it('unknown columns are named in the summary, not silently dropped', async () => {
    const s = await importFile([`${HEADER},notes`, row({ book: 'caesars' })].join('\n'));
    expect(s.notes).toEqual(['ignored unknown columns: notes']);
  });

  it("formula-looking cells are data: stored and served verbatim (escaping is the CSV export's job)", async () => {
    const home = '=HYPERLINK("http://evil.example/x","y")';
    const s = await importFile(
      [HEADER, row({ book: 'fanduel', home: `"${home.replace(/"/g, '""')}"`, selection: '+SUM(1;2)', away: '@cmd' })].join('\n'),
    );
    expect(s).toMatchObject({ imported: 1, exitCode: IMPORT_EXIT.ALL });
    const events = await t.call('/events?league=nba&limit=200', { key: KEYS.sharp });
    expect(events.json.data.some((e: { home_team: string; away_team: string }) => e.home_team === home && e.away_team === '@cmd')).toBe(
      true,
    );
  });

  it('many refused rows from a read-only folder: every one listed with its line, in a file under the data directory', async () => {
    const lines = [HEADER];
    for (let i = 0; i < 120; i++) lines.push(row({ id: String(i), book: 'fanduel', home: `Team\u0000${i}` }));
    lines.push(row({ book: 'pinnacle', id: 'ok' }));
    const readOnly = mkdtempSync(join(tmpdir(), 'odds-hostile-ro-'));
    const path = join(readOnly, 'partial.csv');
    writeFileSync(path, lines.join('\n'));
    chmodSync(readOnly, 0o555);
    const printed: string[] = [];
    let s: ImportSummary;
    try {
      s = await runImport(path, config, { replay: false, server: server(), admin }, (l) => printed.push(l));
    } finally {
      chmodSync(readOnly, 0o755);
    }
    expect(s).toMatchObject({ imported: 1, rejected: 120, exitCode: IMPORT_EXIT.SOME_REJECTED });
    expect(s.errors.map((e) => e.line)).toEqual(Array.from({ length: 120 }, (_, i) => i + 2));
    // Written under DATA_DIR/imports (named after the source), nothing beside the input; the summary names it.
    expect(s.rejectionsFile).toBe(join(config.dataDir, 'imports', 'partial.csv.rejected.csv'));
    expect(readdirSync(readOnly)).toEqual(['partial.csv']);
    expect(printed.join('\n')).toContain(`every rejected row with its line and reason: ${s.rejectionsFile}`);
    expect(printed.join('\n')).toContain('partial import (exit code 1): 1 rows imported, 120 refused');
    const listed = readFileSync(s.rejectionsFile!, 'utf8').trim().split('\n');
    expect(listed).toHaveLength(121);
    expect(listed[1]).toBe('2,"home_team contains a NUL character (U+0000), which the database cannot store"');
  });
});

describe('the board writer quarantines what the database refuses for its data', () => {
  let t: TestApp;
  const NOW2 = Date.parse('2026-11-22T12:00:00Z');
  afterAll(async () => {
    await t?.close();
  });

  /** A board row as the pipeline would build it (the text check bypassed: the writer is the last line of defence). */
  const boardRow = (id: string, selection: string): OddsRow => ({
    id,
    sportsbook: 'draftkings',
    eventId: 'nba_celtics_lakers_2026-11-22_b3',
    sport: 'basketball',
    league: 'nba',
    marketType: 'moneyline',
    period: 'game',
    ladderKey: 'l',
    groupKey: 'g',
    groupLine: null,
    selection,
    selectionType: 'home',
    line: null,
    playerName: null,
    statCategory: null,
    american: -150,
    decimal: 1.6667,
    probability: 0.6,
    isLive: false,
    isActive: true,
    changedAt: NOW2,
    oddsChangedAt: NOW2,
    lastSeenAt: NOW2,
    externalEventId: null,
    marketId: null,
    selectionId: null,
    maxBet: null,
  });

  it('isolates the refused row, writes every other one, counts it, says so in health, and keeps writing', async () => {
    t = await startTestApp({ clock: new ManualClock(NOW2) });
    const writer = t.app.get(BoardService).writer;
    const rows = Array.from({ length: 40 }, (_, i) => boardRow(`r${i}`, i === 17 ? 'bad\u0000row' : `ok ${i}`));
    writer.enqueue({ version: 1, at: NOW2, upserted: rows, removed: [], events: [], eventsRemoved: [], seen: [] });
    await writer.flush({ force: true });
    expect(writer.healthy).toBe(true);
    expect(writer.pending).toBe(0);
    const ids = ((await t.app.get(DataSource).query('SELECT id FROM odds ORDER BY id')) as Array<{ id: string }>).map((r) => r.id);
    expect(ids).toHaveLength(39);
    expect(ids).not.toContain('r17');
    // The row is refused; its history entry (prices only, no text) is stored.
    expect(writer.quarantinedByKind).toMatchObject({ rows: 1, history: 0 });
    expect(writer.quarantine.map((q) => [q.kind, q.id, q.code])).toEqual([['rows', 'r17', '22021']]);
    expect(Number((await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM odds_history'))[0].n)).toBe(40);
    const h = await t.call('/health');
    expect(JSON.stringify(h.json)).toMatch(/1 item refused by the database for its data was quarantined/);
    expect(await t.app.get(MetricsService).registry.metrics()).toMatch(/^board_write_quarantined 1$/m);
    // Later writes are not blocked.
    writer.enqueue({
      version: 2,
      at: NOW2 + 1000,
      upserted: [boardRow('r100', 'later')],
      removed: [],
      events: [],
      eventsRemoved: [],
      seen: [],
    });
    await writer.flush({ force: true });
    expect(Number((await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM odds'))[0].n)).toBe(40);
    expect(writer.lossReport()).toMatchObject({ pending: { rows: 0, history: 0 }, quarantined: { rows: 1, history: 0 } });
  });
});

describe('a restart after a refused import shows every earlier row', () => {
  const shared = process.env.TEST_DATABASE_URL
    ? isolationEnv()
    : { DATA_DIR: mkdtempSync(join(tmpdir(), 'odds-hostile-restart-')), EMBEDDED_IN_MEMORY: 'false' };
  const config = testConfig(shared);
  const dir = mkdtempSync(join(tmpdir(), 'odds-hostile-restart-files-'));
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('rows imported before and after a file with a NUL are all there after the restart', async () => {
    t = await startTestApp({ config, clock: new ManualClock(NOW) });
    const address = t.app.getHttpServer().address() as { port: number };
    const server = { pid: process.pid, host: '127.0.0.1', port: address.port, admin_token: t.adminToken, started_at: '' };
    const file = (name: string, lines: string[]) => {
      const p = join(dir, name);
      writeFileSync(p, [HEADER, ...lines].join('\n'));
      return p;
    };
    const before = await runImport(
      file(
        'before.csv',
        BOOKS.slice(0, 4).map((b) => row({ book: b })),
      ),
      config,
      { replay: false, server, admin },
      quiet,
    );
    const refused = await runImport(
      file('nul.csv', [row({ book: 'bovada', home: 'Boston\u0000Celtics' })]),
      config,
      { replay: false, server, admin },
      quiet,
    );
    const after = await runImport(
      file(
        'after.csv',
        BOOKS.slice(4).map((b) => row({ book: b, selection: 'Los Angeles Lakers', type: 'away' })),
      ),
      config,
      { replay: false, server, admin },
      quiet,
    );
    expect([before.exitCode, refused.exitCode, after.exitCode]).toEqual([0, 2, 0]);
    const onBoard = [...t.app.get(BoardService).board.rows.values()].map((r) => `${r.sportsbook}:${r.selectionType}`).sort();
    expect(onBoard).toHaveLength(8);
    await t.close({ keepStore: true });

    t = await startTestApp({ config, clock: new ManualClock(NOW + 60_000) });
    const reloaded = [...t.app.get(BoardService).board.rows.values()].map((r) => `${r.sportsbook}:${r.selectionType}`).sort();
    expect(reloaded).toEqual(onBoard);
    const odds = await t.call('/odds?league=nba&limit=100', { key: KEYS.sharp });
    expect(odds.status).toBe(200);
    expect(odds.json.data).toHaveLength(8);
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { BoardService } from '../../src/modules/board/board.service.js';
import { ClosingLinesService } from '../../src/modules/closing-lines/closing-lines.service.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { isolationEnv, KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

const START = Date.parse('2026-11-22T20:00:00Z');
const GAME = { league: 'nba', homeTeam: 'Boston Celtics', awayTeam: 'Los Angeles Lakers', startTime: START };
const ml = (book: string, home: number, away: number): Quote[] => [
  { ...GAME, book, marketType: 'moneyline', selection: GAME.homeTeam, selectionType: 'home', line: null, price: { american: home } },
  { ...GAME, book, marketType: 'moneyline', selection: GAME.awayTeam, selectionType: 'away', line: null, price: { american: away } },
];

/** Closing lines across a restart on the same store: what was captured before it is not captured again after it. */
describe('closing lines across a restart', () => {
  const shared = process.env.TEST_DATABASE_URL
    ? isolationEnv()
    : { DATA_DIR: mkdtempSync(join(tmpdir(), 'odds-closing-restart-')), EMBEDDED_IN_MEMORY: 'false' };
  const config = testConfig(shared);
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('a game closed before the restart is not closed again after it (the store says what was captured)', async () => {
    t = await startTestApp({ clock: new ManualClock(START - 120_000), config });
    t.app
      .get(IngestionService)
      .ingest({ source: 'test', quotes: [...ml('pinnacle', -125, 105), ...ml('draftkings', 120, -140)] }, START - 120_000);
    // A feed without a live flag: the game closes at its start (15 s later, the job's pass).
    const closing = t.app.get(ClosingLinesService);
    expect(closing.captureStarted(START + 15_000)).toBe(2);
    await closing.flush();
    expect(closing.stats.stored).toBe(2);
    await t.app.get(BoardService).writer.flush();
    const id = (await t.call('/events?league=nba', { key: KEYS.pro })).json.data[0].id as string;
    await t.close({ keepStore: true });

    t = await startTestApp({ clock: new ManualClock(START + 60_000), config });
    const again = t.app.get(ClosingLinesService);
    const heard: string[] = [];
    again.onCapture((c) => heard.push(c.sportsbook));
    // The board came back with the game still upcoming and its pre-game prices: nothing is captured again.
    expect(again.captureStarted(START + 60_000)).toBe(0);
    await again.flush();
    expect(heard).toEqual([]);
    const r = await t.call(`/odds/closing?event_id=${id}&sportsbook=pinnacle,draftkings`, { key: KEYS.sharp });
    expect(r.json.data.captured_at).toBe(new Date(START + 15_000).toISOString());
    expect(Object.keys(r.json.data.books).sort()).toEqual(['draftkings', 'pinnacle']);
  });
});

import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { BoardService } from '../../src/modules/board/board.service.js';
import { OPPORTUNITY_FILE } from '../../src/modules/detection/opportunity-file.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, H } from '../factories/market.js';
import { isolationEnv, KEYS, startTestApp, testConfig, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');

/** A restart on the same store: the board and its opportunities come back, and keep following changes. */
describe('restarting on the same store', () => {
  // One store for both runs: a schema on PostgreSQL, or an embedded database on disk.
  const shared = process.env.TEST_DATABASE_URL
    ? isolationEnv()
    : { DATA_DIR: mkdtempSync(join(tmpdir(), 'odds-restart-')), EMBEDDED_IN_MEMORY: 'false' };
  const config = testConfig(shared);
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  const game = { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 6 * H };
  const leg: Quote = {
    book: 'draftkings',
    league: 'nba',
    homeTeam: game.home,
    awayTeam: game.away,
    startTime: game.start,
    marketType: 'moneyline',
    selection: game.home,
    selectionType: 'home',
    line: null,
    price: { american: 115 },
  };
  // DraftKings' own Lakers price moves too (+100 -> -116): a book whose own two prices cross (+115 / +100) is a data
  // error left out of detection.
  const otherSide: Quote = { ...leg, selection: game.away, selectionType: 'away', price: { american: -116 } };
  const arbs = async () =>
    (await t!.call('/opportunities/arbitrage?min_profit=0', { key: KEYS.sharp })).json.data as Array<{
      id: string;
      detected_at: string;
      legs: Array<{ sportsbook: string }>;
    }>;

  it('an arbitrage stored before the restart is found again after it, and goes when its leg is withdrawn', async () => {
    t = await startTestApp({ clock: new ManualClock(NOW), config });
    t.app
      .get(IngestionService)
      .ingest({ source: 'test', quotes: [...buildMarket([game], ['draftkings', 'fanduel', 'pinnacle'], NOW), leg, otherSide] }, NOW);
    const before = await arbs();
    expect(before.some((a) => a.legs.some((l) => l.sportsbook === 'draftkings'))).toBe(true);
    await t.app.get(BoardService).writer.flush();
    await t.close({ keepStore: true });

    // The embedded store on disk keeps the live opportunities of a clean stop beside its prices, and the start
    // reads them back (opportunity-file.ts), read once; PostgreSQL finds them again.
    const file = process.env.TEST_DATABASE_URL ? null : join(shared.DATA_DIR!, OPPORTUNITY_FILE);
    if (file) expect(existsSync(file)).toBe(true);

    t = await startTestApp({ clock: new ManualClock(NOW + 60_000), config });
    if (file) expect(existsSync(file)).toBe(false);
    const after = await arbs();
    expect(after.map((a) => a.id)).toEqual(before.map((a) => a.id));
    // Stored, an opportunity keeps the time it was first detected across the restart; found again, it is new.
    expect(after.map((a) => a.detected_at)).toEqual(before.map(() => new Date(file ? NOW : NOW + 60_000).toISOString()));
    // The leg's price is withdrawn: the arbitrage built on a row loaded from the store must go at once.
    t.app.get(IngestionService).ingest({ source: 'test', quotes: [], removals: [leg] }, NOW + 61_000);
    expect((await arbs()).some((a) => a.legs.some((l) => l.sportsbook === 'draftkings'))).toBe(false);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EventBus } from '../../src/common/bus/event-bus.js';
import { ManualClock } from '../../src/common/time/clock.js';
import type { OddsProvider, Quote } from '../../src/domain/types.js';
import { ODDS_TOPIC } from '../../src/domain/topics.js';
import { BoardService } from '../../src/modules/board/board.service.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { LineHistoryRepository } from '../../src/modules/stores/line-history/line-history.repository.js';
import { LineHistoryStore } from '../../src/modules/stores/line-history/line-history.store.js';
import { buildMarket, H } from '../factories/market.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T18:00:00Z');
const BOOKS = ['draftkings', 'fanduel', 'betmgm', 'caesars', 'pinnacle', 'bet365'];

// The embedded database runs on the ingest's thread: a provider's initial snapshot (fed in slices, with a turn of the
// event loop between them) is written once it is all on the board, prices and line history alike.
describe("a provider's initial snapshot is written after it is on the board", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('no price nor line-history write runs between its slices; the first writes after it store all of it', async () => {
    // 200 games x 6 books x 7-8 quotes: more than one slice of 5,000.
    const games = Array.from({ length: 200 }, (_, i) => ({
      league: 'nba',
      home: `Home Team ${i}`,
      away: `Away Team ${i}`,
      start: NOW + (2 + (i % 20)) * H,
    }));
    const quotes: Quote[] = buildMarket(games, BOOKS, NOW);
    expect(quotes.length).toBeGreaterThan(5_000);

    const boards = t.app.get(BoardService);
    const lineHistory = t.app.get(LineHistoryStore);
    const repo = t.app.get(LineHistoryRepository);
    const writes: string[] = [];
    const ensureSeries = repo.ensureSeries.bind(repo);
    repo.ensureSeries = (keys) => {
      writes.push(`series ${boards.board.size}`);
      return ensureSeries(keys);
    };
    const writeBatch = (boards.writer as unknown as { writeBatch: () => Promise<boolean> }).writeBatch.bind(boards.writer);
    (boards.writer as unknown as { writeBatch: () => Promise<boolean> }).writeBatch = () => {
      writes.push(`prices ${boards.board.size}`);
      return writeBatch();
    };
    // What the periodic write jobs do, asked after every slice (they would run in the turns between slices).
    let slices = 0;
    const off = t.app.get(EventBus).subscribe(ODDS_TOPIC, () => {
      slices++;
      void boards.writer.flush();
      void lineHistory.writer.flush();
    });
    const provider: OddsProvider = {
      name: 'snapshot',
      intervalMs: 60_000,
      start: () => ({ source: 'snapshot', quotes }),
      poll: () => null,
    };
    try {
      await t.app.get(IngestionService).startProviders([provider]);
    } finally {
      off();
    }
    expect(slices).toBe(Math.ceil(quotes.length / 5_000));
    expect(boards.board.size).toBe(quotes.length);
    expect(writes).toEqual([]);

    // Released: the next periodic writes store the whole snapshot.
    await Promise.all([boards.writer.flush(), lineHistory.writer.flush()]);
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((w) => w.endsWith(` ${quotes.length}`))).toBe(true);
    expect([boards.writer.pending, lineHistory.writer.pending]).toEqual([0, 0]);
    expect(lineHistory.writer.stats.stored).toBe(quotes.length);
  });
});

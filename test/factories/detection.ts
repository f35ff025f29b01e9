import { expect } from '@jest/globals';
import { Catalog } from '../../src/config/catalog.js';
import type { Quote } from '../../src/domain/types.js';
import { OddsBoard } from '../../src/modules/board/odds-board.js';
import type { DetectContext } from '../../src/modules/detection/group-info.js';
import { IngestionPipeline } from '../../src/modules/ingestion/pipeline.js';
import { scopeFilter } from '../../src/modules/detection/market-groups.js';
import { chiefsBills, KICK, NOW } from './quotes.js';

/**
 * A board built through the real ingestion pipeline from a few quotes, for the detectors' unit tests: one NFL
 * game (Chiefs at home against the Bills), priced as each test says.
 */
export const catalog = new Catalog();
export { KICK, NOW };
/** Every book in scope (as the detection engine's scope of all books). */
export const all = scopeFilter(() => true);

export function boardWith(quotes: Quote[]): { ctx: DetectContext; board: OddsBoard } {
  const board = new OddsBoard();
  const pipe = new IngestionPipeline(catalog, board);
  const r = pipe.process({ source: 'test', quotes }, NOW);
  expect(r.report.rejected).toEqual({});
  board.applyChangeSet(r.changeSet);
  return { ctx: { board, catalog, now: NOW }, board };
}

export const nfl = chiefsBills;
export const home = (book: string, price: Quote['price'], over: Partial<Quote> = {}) => nfl(book, { price, ...over });
export const away = (book: string, price: Quote['price'], over: Partial<Quote> = {}) =>
  nfl(book, { selection: 'Buffalo Bills', selectionType: 'away', price, ...over });

export const groupOf = (board: OddsBoard, market = 'moneyline', line: number | null = null) =>
  [...board.rows.values()].find((r) => r.marketType === market && r.groupLine === line)!.groupKey;

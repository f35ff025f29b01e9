import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { DetectionEngine } from '../../src/modules/detection/detection.engine.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { detectMiddles } from '../../src/modules/middles/middles.detector.js';
import type { MiddleRecord } from '../../src/modules/middles/middles.record.js';
import { all, boardWith, NOW } from '../factories/detection.js';
import { bruinsRangers } from '../factories/quotes.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A middle is priced on more than its own ladder: a puck line's on the game's moneyline and total, a spread's on
 * the game total. When only those move, the middle the service holds must be the one a fresh detection on the
 * same prices finds (the detector run on a board built from scratch is the reference).
 */
describe('middles re-priced when the markets they are priced on move', () => {
  const BOOKS = ['draftkings', 'fanduel', 'pinnacle'];
  const nhl = (book: string, over: Partial<Quote>): Quote => bruinsRangers(book, 'home', 100, over);
  const moneyline = (home: number, away: number): Quote[] =>
    BOOKS.flatMap((b) => [
      nhl(b, { price: { american: home } }),
      nhl(b, { selection: 'New York Rangers', selectionType: 'away', price: { american: away } }),
    ]);
  const total = (line: number, books = BOOKS): Quote[] =>
    books.flatMap((b) => [
      nhl(b, { marketType: 'total_goals', selection: 'Over', selectionType: 'over', line, price: { american: -110 } }),
      nhl(b, { marketType: 'total_goals', selection: 'Under', selectionType: 'under', line, price: { american: -110 } }),
    ]);
  const spread = (book: string, side: 'home' | 'away', line: number, american: number): Quote =>
    nhl(book, {
      marketType: 'point_spread',
      selection: side === 'home' ? 'Boston Bruins' : 'New York Rangers',
      selectionType: side,
      line,
      price: { american },
    });
  // DraftKings Bruins -1.5 +360 / FanDuel Rangers +2.5 -700: both win on a Bruins win by exactly 2.
  const puckLines = [
    spread('draftkings', 'home', -1.5, 360),
    spread('draftkings', 'away', 1.5, -480),
    spread('fanduel', 'home', -2.5, 500),
    spread('fanduel', 'away', 2.5, -700),
  ];

  let t: TestApp;
  let at = NOW;
  /** Every quote sent so far, in order (a later quote of the same price replaces the earlier one). */
  const sent: Quote[] = [];
  const ingest = (quotes: Quote[]) => {
    sent.push(...quotes);
    t.app.get(IngestionService).ingest({ source: 'test', quotes }, (at += 1000));
  };
  /** The middles the service holds (all books), and those a fresh detection finds on every quote sent. */
  const held = (): MiddleRecord[] => [...t.app.get(DetectionEngine).live('middles', 'all')!.values()] as MiddleRecord[];
  const fresh = (): MiddleRecord[] => {
    const b = boardWith(sent);
    const ladders = new Set([...b.board.rows.values()].filter((r) => r.groupLine !== null).map((r) => r.ladderKey));
    return [...ladders].flatMap((l) => detectMiddles(b.ctx, l, all));
  };
  const figures = (ms: MiddleRecord[]) =>
    ms
      .map((m) => ({ id: m.id, p: m.analysis.middleProbability, ev: m.analysis.expectedValue, numbers: m.analysis.middleNumbers }))
      .sort((x, y) => (x.id < y.id ? -1 : 1));
  const onPuckLine = (ms: MiddleRecord[]) => ms.filter((m) => m.marketType === 'point_spread');

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a moneyline move re-prices the puck line middle (the model is located on the moneyline)', () => {
    ingest([...moneyline(150, -170), ...total(5.5), ...puckLines]);
    const before = onPuckLine(held());
    expect(figures(held())).toEqual(figures(fresh()));
    expect(before).toHaveLength(1);
    // The Bruins become favourites: a win by exactly 2 is more likely than for the underdog they were.
    ingest(moneyline(-170, 150));
    const expected = fresh();
    expect(onPuckLine(expected)).toHaveLength(1);
    expect(onPuckLine(expected)[0]!.analysis.middleProbability).toBeGreaterThan(before[0]!.analysis.middleProbability + 0.01);
    expect(figures(held())).toEqual(figures(expected));
  });

  it('a move of the game total (total goals) re-prices the puck line middle', () => {
    const before = onPuckLine(held());
    // The main total moves from 5.5 to 7.5 (four books quote 7.5, three still 5.5): a higher-scoring game.
    ingest(total(7.5, [...BOOKS, 'betmgm']));
    const expected = fresh();
    expect(onPuckLine(expected)).toHaveLength(1);
    expect(onPuckLine(expected)[0]!.analysis.middleProbability).not.toBeCloseTo(before[0]!.analysis.middleProbability, 3);
    expect(figures(held())).toEqual(figures(expected));
  });
});

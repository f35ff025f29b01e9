import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../config/catalog.js';
import type { OddsRow } from '../../domain/odds-row.js';
import { boardEvent, changeSet, oddsRow, T0 } from '../board/board.fixtures.js';
import { OddsBoard } from '../board/odds-board.js';
import { allBooksBest, bestOf, groupFlags, groupInfo, impliedTotalAllBooks, type DetectContext } from './group-info.js';
import { bestPerOutcome, gamePricing, ladderMarket } from './market-groups.js';

const catalog = new Catalog();
const GROUP = 'ev1|moneyline|full|';

function price(id: string, book: string, side: 'home' | 'away', decimal: number, patch: Partial<OddsRow> = {}): OddsRow {
  return oddsRow(id, {
    sportsbook: book,
    selectionType: side,
    decimal,
    probability: 1 / decimal,
    ladderKey: 'ev1|moneyline|full|',
    groupKey: GROUP,
    ...patch,
  });
}

function boardOf(rows: OddsRow[]): OddsBoard {
  const board = new OddsBoard();
  board.applyChangeSet(changeSet(1, T0, { events: [boardEvent('ev1')], upserted: rows }));
  return board;
}

const ctxOf = (board: OddsBoard): DetectContext => ({ board, catalog, now: T0, memo: new Map() });

describe('a market group read once per evaluation', () => {
  const rows = [
    price('a1', 'draftkings', 'home', 2.1),
    price('a2', 'draftkings', 'away', 1.8),
    price('b1', 'fanduel', 'home', 2.1), // ties DraftKings on home
    price('b2', 'fanduel', 'away', 1.95),
    price('c1', 'caesars', 'home', 2.3, { isActive: false }), // suspended: never the best
    price('c2', 'caesars', 'away', 1.7),
    price('d1', 'betmgm', 'home', 2.05),
  ];

  it('bestOf finds what bestPerOutcome finds, in every scope', () => {
    const g = groupInfo(ctxOf(boardOf(rows)), GROUP)!;
    const scopes = [() => true, (b: string) => b !== 'fanduel', (b: string) => b === 'caesars', (b: string) => b === 'betmgm'];
    for (const inScope of scopes) expect(bestOf(g, inScope)).toEqual(bestPerOutcome(g.rows, g.outcomes, inScope));
    // and the expectations themselves: home 2.1 tied (draftkings first by name), away 1.95 at FanDuel
    const all = bestOf(g, () => true)!;
    expect(all.legs.map((l) => l.id)).toEqual(['a1', 'b2']);
    expect(all.tied[0]!.map((l) => l.id).sort()).toEqual(['a1', 'b1']);
    expect([...all.books].sort()).toEqual(['betmgm', 'caesars', 'draftkings', 'fanduel']);
    // Caesars alone has no active home price: no complete market
    expect(bestOf(g, (b) => b === 'caesars')).toBeNull();
  });

  it('keeps the best prices among all books for one evaluation, and a price change is seen by the next one', () => {
    const board = boardOf(rows);
    const ctx = ctxOf(board);
    const g = groupInfo(ctx, GROUP)!;
    expect(allBooksBest(g)).toBe(allBooksBest(g));
    expect(impliedTotalAllBooks(ctx, GROUP)).toBeCloseTo(1 / 2.1 + 1 / 1.95, 12);
    // FanDuel's away price moves to 2.2: the next evaluation (a new context) reads the new price
    board.applyChangeSet(changeSet(2, T0 + 1000, { upserted: [price('b2', 'fanduel', 'away', 2.2)] }));
    expect(impliedTotalAllBooks(ctxOf(board), GROUP)).toBeCloseTo(1 / 2.1 + 1 / 2.2, 12);
  });
});

describe('groupFlags (the flagged venue markets of a group, kept with the rows they were read on)', () => {
  it('answers from a later evaluation without reading the group again, and reads it again once a row changes', () => {
    // DraftKings 2.1 / 2.1 sums to 95%: a self-arbitrage; FanDuel 1.9 / 1.9 is sound.
    const board = boardOf([
      price('a1', 'draftkings', 'home', 2.1),
      price('a2', 'draftkings', 'away', 2.1),
      price('b1', 'fanduel', 'home', 1.9),
      price('b2', 'fanduel', 'away', 1.9),
    ]);
    const flags = groupFlags(ctxOf(board), GROUP);
    expect([...flags!.keys()]).toEqual(['draftkings']);
    // A later evaluation (its own context, nothing read yet): the very same flags, the group not read again.
    expect(groupFlags(ctxOf(board), GROUP)).toBe(flags);
    expect(groupFlags({ board, catalog, now: T0 }, GROUP)).toBe(flags);
    // DraftKings' away price moves to 1.8 (hold 3%): no longer flagged.
    board.applyChangeSet(changeSet(2, T0 + 1000, { upserted: [price('a2', 'draftkings', 'away', 1.8)] }));
    expect(groupFlags(ctxOf(board), GROUP)).toBeUndefined();
    // And back: flagged again, read from the new rows (new flags, equal to the first ones).
    board.applyChangeSet(changeSet(3, T0 + 2000, { upserted: [price('a2', 'draftkings', 'away', 2.1)] }));
    const again = groupFlags(ctxOf(board), GROUP);
    expect(again).not.toBe(flags);
    expect(again).toEqual(flags);
  });
});

describe('gamePricing (which ladder keys price the line ladders of their game)', () => {
  it('is the game (event|period) of a total or a moneyline without a subject, null otherwise', () => {
    expect(gamePricing('ev1|total_points|full|')).toEqual({ game: 'ev1|full', by: 'total' });
    expect(gamePricing('ev1|total_goals|1p|')).toEqual({ game: 'ev1|1p', by: 'total' });
    expect(gamePricing('ev1|total_runs|full|')).toEqual({ game: 'ev1|full', by: 'total' });
    expect(gamePricing('ev1|moneyline|full|')).toEqual({ game: 'ev1|full', by: 'moneyline' });
    expect(gamePricing('ev1|total_points|1h|')).toEqual({ game: 'ev1|1h', by: 'total' });
    expect(gamePricing('ev1|total_points|full|Boston Celtics')).toBeNull();
    expect(gamePricing('ev1|point_spread|full|')).toBeNull();
    expect(gamePricing('ev1|total_points_x|full|')).toBeNull();
    expect(gamePricing('|total_points|full|')).toBeNull();
    expect(gamePricing('ev1')).toBeNull();
  });

  it("ladderMarket is the key's market", () => {
    expect(ladderMarket('ev1|point_spread|full|')).toBe('point_spread');
    expect(ladderMarket('ev1|moneyline')).toBe('moneyline');
  });
});

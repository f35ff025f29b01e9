import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../config/catalog.js';
import type { Quote } from '../domain/types.js';
import { ArbitragePresenter } from './arbitrage/arbitrage.presenter.js';
import { detectArbitrage } from './arbitrage/arbitrage.detector.js';
import { OddsBoard } from './board/odds-board.js';
import type { DetectContext } from './detection/group-info.js';
import { detectEv } from './ev/ev.detector.js';
import { EvPresenter } from './ev/ev.presenter.js';
import { IngestionPipeline } from './ingestion/pipeline.js';
import { RefBlocks } from './reference/ref-blocks.js';

/**
 * A book the catalog does not describe (a feed sent it; the pipeline registered it on first sight) is unverified:
 * never a sharp reference, not part of the other books' consensus, and every opportunity resting on it carries
 * UNVERIFIED_BOOK until an operator describes it in config/catalog/sportsbooks.json.
 */

const NOW = Date.parse('2026-11-22T12:00:00Z');
const KICK = Date.parse('2026-11-23T18:00:00Z');
const all = () => true;
/** A pick'em operator the catalog does not know. */
const PICKEM = 'pickem_ace';

function boardWith(quotes: Quote[], catalog = new Catalog()) {
  const board = new OddsBoard();
  const r = new IngestionPipeline(catalog, board).process({ source: 'test', quotes }, NOW);
  expect(r.report.rejected).toEqual({});
  board.applyChangeSet(r.changeSet);
  const ctx: DetectContext = { board, catalog, now: NOW };
  const refs = new RefBlocks(catalog);
  return {
    board,
    ctx,
    catalog,
    group: [...board.rows.values()][0]!.groupKey,
    arbitrage: new ArbitragePresenter(catalog, refs),
    ev: new EvPresenter(refs, catalog),
  };
}

/** Josh Allen passing yards over/under 250.5 at one book (American prices). */
const prop = (book: string, over: number, under: number): Quote[] =>
  (['over', 'under'] as const).map((side) => ({
    book,
    league: 'nfl',
    homeTeam: 'Kansas City Chiefs',
    awayTeam: 'Buffalo Bills',
    startTime: KICK,
    marketType: 'player_pass_yards',
    playerName: 'Josh Allen',
    statCategory: 'pass_yards',
    selection: side === 'over' ? 'Over' : 'Under',
    selectionType: side,
    line: 250.5,
    price: { american: side === 'over' ? over : under },
  }));

/**
 * Three catalog books and the pick'em operator. Over: DraftKings -120 (0.545455), FanDuel -118 (118/218 = 0.541284),
 * BetMGM -120 (0.545455); the pick'em +115 (2.15, 0.465116). Under: DraftKings and BetMGM +100 (2.0), FanDuel -102.
 * Pick'em over 2.15 + DraftKings/BetMGM under 2.0: 1/2.15 + 1/2 = 0.465116 + 0.5 = 0.965116, an arbitrage of
 * 1/0.965116 - 1 = 3.6145%. The pick'em's own market 0.465116 + 1/1.666667 (0.6) = 1.065116 is sound, and its over is
 * not off the consensus: median of the others 0.545455, gap 0.080 in probability but |logit(0.465116) -
 * logit(0.545455)| = |-0.139762 - 0.182322| = 0.322 < 0.35. Nothing but the book's identity warns.
 */
const pickemMarket = () => [
  ...prop('draftkings', -120, 100),
  ...prop('fanduel', -118, -102),
  ...prop('betmgm', -120, 100),
  ...prop(PICKEM, 115, -150),
];

describe('an unverified book', () => {
  it('is registered unverified: class unknown, not a sharp book', () => {
    const { catalog } = boardWith(pickemMarket());
    expect(catalog.book(PICKEM)).toMatchObject({ class: 'unknown', is_sharp: false, unlisted: true });
    expect(catalog.isVerified(PICKEM)).toBe(false);
    expect(catalog.isVerified('draftkings')).toBe(true);
    expect(catalog.isVerified('no_such_book')).toBe(false);
  });

  it('puts UNVERIFIED_BOOK on an arbitrage resting on it (3.6145%), and UNKNOWN_VENUE_COST (no net figure)', () => {
    const { board, ctx, group, arbitrage } = boardWith(pickemMarket());
    const a = detectArbitrage(ctx, group, all)!;
    expect(a.legs.map((l) => [l.row.sportsbook, l.row.selectionType])).toEqual([
      [PICKEM, 'over'],
      ['betmgm', 'under'],
    ]);
    const item = arbitrage.present(board, a, NOW) as Record<string, unknown>;
    expect(item.profit_percent).toBeCloseTo(3.6145, 3);
    // A book on first sight has an unknown cost too (config/costs.json), so no net figure either.
    expect(item.warnings).toEqual(['UNVERIFIED_BOOK', 'UNKNOWN_VENUE_COST']);
    expect(item.estimated_net_profit_percent).toBeNull();
    expect(a.guards.unverified).toEqual([PICKEM]);
  });

  it('loses the warning once an operator describes the book in the catalog', () => {
    const catalog = new Catalog();
    // What an entry in config/catalog/sportsbooks.json gives at load: a book of a known class.
    catalog.adoptBook({
      ...Catalog.unknownBook(PICKEM, 'Pickem Ace', 99),
      class: 'us',
      regions: ['us'],
      requires_tier: 'pro',
    });
    const { board, ctx, group, arbitrage } = boardWith(pickemMarket(), catalog);
    expect(catalog.isVerified(PICKEM)).toBe(true);
    const a = detectArbitrage(ctx, group, all)!;
    expect((arbitrage.present(board, a, NOW) as Record<string, unknown>).warnings).toEqual([]);
  });

  it('puts UNVERIFIED_BOOK on a +EV price of it, and is never the sharp reference', () => {
    // Pinnacle -105 / -105: fair 0.5 each (every method). The pick'em over 2.15: EV 0.5 * 2.15 - 1 = +7.5%.
    const { board, ctx, group, ev } = boardWith([...prop('pinnacle', -105, -105), ...pickemMarket()]);
    const e = detectEv(ctx, group).find((x) => x.row.sportsbook === PICKEM)!;
    expect(e.sharpBook).toBe('pinnacle');
    const item = ev.present(board, e, 'power', NOW) as Record<string, unknown>;
    expect(item.ev_percentage).toBeCloseTo(7.5, 6);
    expect(item.warnings).toContain('UNVERIFIED_BOOK');
    // Named as the reference, it is refused: no +EV is devigged from it.
    expect(detectEv(ctx, group, PICKEM)).toEqual([]);
    // A verified book named as the reference still works (DraftKings -120 / +100 devigged).
    expect(detectEv(ctx, group, 'draftkings').length).toBeGreaterThan(0);
  });

  it('is not part of the other books consensus', () => {
    // DraftKings, FanDuel, BetMGM over -110 (0.523810). Bovada over +150 (0.4): |logit 0.4 - logit 0.52381| =
    // |-0.405465 - 0.095310| = 0.500775 > 0.35 and 0.12381 > 0.05: PRICE_OFF_CONSENSUS. Three unverified books at
    // +150 too would, if counted, move the median of the other six to (0.4 + 0.52381) / 2 = 0.461905 (gap 0.061905,
    // log-odds 0.252) and hide it.
    const quotes = [
      ...['draftkings', 'fanduel', 'betmgm'].flatMap((b) => prop(b, -110, -110)),
      ...prop('bovada', 150, -190),
      ...['pick_one', 'pick_two', 'pick_three'].flatMap((b) => prop(b, 150, -190)),
    ];
    const { board, ctx, group, arbitrage } = boardWith(quotes);
    // Bovada over 2.5 + best under -110 (1.909091): 0.4 + 0.52381 = 0.92381.
    const a = detectArbitrage(ctx, group, (b) => b === 'bovada' || b === 'draftkings')!;
    expect(a.guards.offConsensus.map((g) => [g.book, g.otherBooks])).toEqual([['bovada', 3]]);
    expect(a.guards.offConsensus[0]!.consensus).toBeCloseTo(0.52381, 5);
    expect((arbitrage.present(board, a, NOW) as Record<string, unknown>).warnings).toEqual(['LOW_IMPLIED_TOTAL', 'PRICE_OFF_CONSENSUS']);
  });
});

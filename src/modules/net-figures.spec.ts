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
import { detectMiddles } from './middles/middles.detector.js';
import { MiddlesPresenter } from './middles/middles.presenter.js';
import { RefBlocks } from './reference/ref-blocks.js';
import { all, away, home, NOW } from '../../test/factories/detection.js';

/** Net figures beside the gross ones, with the shipped config/costs.json (Kalshi 0.07 trading fee; Polymarket unknown). */

const catalog = new Catalog();
const refs = new RefBlocks(catalog);
const arbP = new ArbitragePresenter(catalog, refs);
const evP = new EvPresenter(refs, catalog);
const midP = new MiddlesPresenter(refs);

function boardWith(quotes: Quote[]) {
  const board = new OddsBoard();
  const r = new IngestionPipeline(catalog, board).process({ source: 'test', quotes }, NOW);
  expect(r.report.rejected).toEqual({});
  board.applyChangeSet(r.changeSet);
  const ctx: DetectContext = { board, catalog, now: NOW };
  return { board, ctx, group: [...board.rows.values()][0]!.groupKey, ladder: [...board.rows.values()][0]!.ladderKey };
}
/** A moneyline price of the factory's NFL game; a price under 1 is a contract price (its decimal is 1 / price, unrounded). */
const nfl = (book: string, side: 'home' | 'away', decimal: number, over: Partial<Quote> = {}): Quote =>
  (side === 'home' ? home : away)(book, decimal < 1 ? { contract_price: decimal } : { decimal }, over);
const dec = (book: string, h: number, a: number, over: Partial<Quote> = {}) => [nfl(book, 'home', h, over), nfl(book, 'away', a, over)];
type J = Record<string, any>;

describe('arbitrage net of venue costs', () => {
  it('DraftKings 1.95 against a Kalshi contract at 0.44: gross 4.95%, net 3.08% of the outlay on net stakes 52.86 / 47.14', () => {
    // The board keeps decimals to 4 places: the contract at 0.44 is 2.2727 (implied 0.440005).
    // Implied 0.512821 + 0.440005 = 0.952826 -> gross 100 / 0.952826 - 100 = 4.9510%.
    // Kalshi: outlay per unit of stake 1 + 0.07 x (1 - 0.440005) = 1.039200 -> 1 / net decimal = 0.440005 x 1.039200 = 0.457253;
    // sum 0.512821 + 0.457253 = 0.970074 -> net 100 / 0.970074 - 100 = 3.0849%; outlay shares 52.8641%, 47.1359%.
    const b = boardWith([...dec('draftkings', 1.95, 1.8), ...dec('kalshi', 0.58, 0.44)]);
    const a = arbP.present(b.board, detectArbitrage(b.ctx, b.group, all)!, NOW) as J;
    expect(a.profit_percent).toBeCloseTo(4.951, 4);
    expect(a.estimated_net_profit_percent).toBeCloseTo(3.0849, 4);
    const leg = (book: string) => (a.legs as J[]).find((l) => l.sportsbook === book)!;
    expect(leg('draftkings').net_stake_percent).toBeCloseTo(52.8641, 4);
    expect(leg('kalshi').net_stake_percent).toBeCloseTo(47.1359, 4);
    expect(a.warnings).not.toContain('UNKNOWN_VENUE_COST');
  });

  it('a sportsbook-only arbitrage keeps its whole profit and its stakes', () => {
    // 2.10 / 2.05: 3.7350%, stakes 49.3976 / 50.6024
    const b = boardWith([...dec('draftkings', 2.1, 1.7), ...dec('fanduel', 1.7, 2.05)]);
    const a = arbP.present(b.board, detectArbitrage(b.ctx, b.group, all)!, NOW) as J;
    expect(a.estimated_net_profit_percent).toBe(a.profit_percent);
    for (const l of a.legs as J[]) expect(l.net_stake_percent).toBe(l.stake_percent);
  });

  it('a venue whose cost is unknown (Polymarket) gives no net figure and UNKNOWN_VENUE_COST', () => {
    const b = boardWith([...dec('draftkings', 1.95, 1.8), ...dec('polymarket', 0.58, 0.44)]);
    const a = arbP.present(b.board, detectArbitrage(b.ctx, b.group, all)!, NOW) as J;
    expect(a.estimated_net_profit_percent).toBeNull();
    for (const l of a.legs as J[]) expect(l.net_stake_percent).toBeNull();
    expect(a.warnings).toContain('UNKNOWN_VENUE_COST');
  });

  it('a book registered on first sight (here one named constructor) has an unknown cost', () => {
    const b = boardWith([...dec('draftkings', 1.95, 1.8), ...dec('constructor', 1.7, 2.2)]);
    const a = arbP.present(b.board, detectArbitrage(b.ctx, b.group, all)!, NOW) as J;
    expect(a.estimated_net_profit_percent).toBeNull();
    expect(a.warnings).toContain('UNKNOWN_VENUE_COST');
  });
});

describe('+EV net of venue costs', () => {
  // Pinnacle 1/0.4888 and 1/0.5512 (sum 1.04): multiplicative fair 0.4888 / 1.04 = 0.47 and 0.53.
  const sharp = () => dec('pinnacle', 0.4888, 0.5512);

  it('a Kalshi contract at 0.45 with fair 0.47: ev_percentage +4.44%, estimated_net_ev_percentage +0.57%', () => {
    // Exact contract price: gross 0.47 / 0.45 - 1 = +4.4444%, net 0.47 / (0.45 + 0.07 x 0.45 x 0.55) - 1 = +0.5724%
    // (src/math/costs.spec.ts). The board keeps the decimal to 4 places, 2.2222: gross 0.47 x 2.2222 - 1 = +4.4434%;
    // net decimal 2.2222 / (1 + 0.07 x (1 - 0.450005)) = 2.2222 / 1.038500 = 2.139817 -> 0.47 x 2.139817 - 1 = +0.5714%.
    const b = boardWith([...sharp(), ...dec('kalshi', 0.45, 0.57)]);
    const r = detectEv(b.ctx, b.group).find((e) => e.row.sportsbook === 'kalshi')!;
    const item = evP.present(b.board, r, 'multiplicative', NOW) as J;
    expect(item.fair_probability).toBeCloseTo(0.47, 6);
    expect(item.ev_percentage).toBeCloseTo(4.4434, 4);
    expect(item.estimated_net_ev_percentage).toBeCloseTo(0.5714, 4);
    expect(item.warnings).not.toContain('UNKNOWN_VENUE_COST');
  });

  it('a sportsbook: net equals gross; Polymarket: null and UNKNOWN_VENUE_COST', () => {
    const b = boardWith([...sharp(), ...dec('draftkings', 0.45, 1.7), ...dec('polymarket', 0.45, 0.57)]);
    const items = detectEv(b.ctx, b.group).map((r) => evP.present(b.board, r, 'multiplicative', NOW) as J);
    const dk = items.find((i) => i.sportsbook === 'draftkings')!;
    expect(dk.estimated_net_ev_percentage).toBe(dk.ev_percentage);
    const pm = items.find((i) => i.sportsbook === 'polymarket')!;
    expect(pm.ev_percentage).toBeCloseTo(4.4434, 4);
    expect(pm.estimated_net_ev_percentage).toBeNull();
    expect(pm.warnings).toContain('UNKNOWN_VENUE_COST');
  });
});

describe('middles net of venue costs', () => {
  const spread = (book: string, homeLine: number, h: number, a: number) => [
    nfl(book, 'home', h, { marketType: 'point_spread', line: homeLine }),
    nfl(book, 'away', a, { marketType: 'point_spread', line: -homeLine }),
  ];

  it('between sportsbooks the net expected value is the gross one; with an unknown venue it is null', () => {
    const b = boardWith([...spread('draftkings', -2.5, 1.91, 1.91), ...spread('fanduel', -7.5, 1.89, 1.93)]);
    const m = midP.present(b.board, detectMiddles(b.ctx, b.ladder, all)[0]!, NOW) as J;
    expect(m.estimated_net_expected_value).toBe(m.expected_value);
    expect(m.warnings).not.toContain('UNKNOWN_VENUE_COST');
    const u = boardWith([...spread('draftkings', -2.5, 1.91, 1.91), ...spread('novig', -7.5, 1.89, 1.93)]);
    const n = midP.present(u.board, detectMiddles(u.ctx, u.ladder, all)[0]!, NOW) as J;
    expect(n.estimated_net_expected_value).toBeNull();
    expect(n.warnings).toContain('UNKNOWN_VENUE_COST');
  });
});

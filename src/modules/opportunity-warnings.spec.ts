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
import { detectLowHold } from './low-hold/low-hold.detector.js';
import { LowHoldPresenter } from './low-hold/low-hold.presenter.js';
import { detectMiddles } from './middles/middles.detector.js';
import { MiddlesPresenter } from './middles/middles.presenter.js';
import { RefBlocks } from './reference/ref-blocks.js';

/** Every warning of every opportunity type, at its documented threshold (README "Opportunities"). */

const catalog = new Catalog();
const refs = new RefBlocks(catalog);
const presenters = {
  arbitrage: new ArbitragePresenter(catalog, refs),
  ev: new EvPresenter(refs, catalog),
  middles: new MiddlesPresenter(refs),
  lowHold: new LowHoldPresenter(refs),
};
const presenter = {
  arbitrage: (...a: Parameters<ArbitragePresenter['present']>) => presenters.arbitrage.present(...a),
  ev: (...a: Parameters<EvPresenter['present']>) => presenters.ev.present(...a),
  middle: (...a: Parameters<MiddlesPresenter['present']>) => presenters.middles.present(...a),
  lowHold: (...a: Parameters<LowHoldPresenter['present']>) => presenters.lowHold.present(...a),
};
const NOW = Date.parse('2026-11-22T12:00:00Z');
const KICK = Date.parse('2026-11-23T18:00:00Z');
const all = () => true;
const S = 1000;

function boardWith(quotes: Quote[]) {
  const board = new OddsBoard();
  const r = new IngestionPipeline(catalog, board).process({ source: 'test', quotes }, NOW);
  expect(r.report.rejected).toEqual({});
  board.applyChangeSet(r.changeSet);
  const ctx: DetectContext = { board, catalog, now: NOW };
  const flagged: DetectContext = { ...ctx, includeFlagged: true };
  const group = (pred: (r: { sportsbook: string; groupLine: number | null }) => boolean = () => true) =>
    [...board.rows.values()].find(pred)!.groupKey;
  return { board, ctx, flagged, group, ladder: [...board.rows.values()][0]!.ladderKey };
}

const nfl = (book: string, side: 'home' | 'away', price: Quote['price'], over: Partial<Quote> = {}): Quote => ({
  book,
  league: 'nfl',
  homeTeam: 'Kansas City Chiefs',
  awayTeam: 'Buffalo Bills',
  startTime: KICK,
  marketType: 'moneyline',
  selection: side === 'home' ? 'Kansas City Chiefs' : 'Buffalo Bills',
  selectionType: side,
  line: null,
  price,
  ...over,
});
const ml = (book: string, h: number, a: number, over: Partial<Quote> = {}) => [
  nfl(book, 'home', { american: h }, over),
  nfl(book, 'away', { american: a }, over),
];
const dec = (book: string, h: number, a: number, over: Partial<Quote> = {}) => [
  nfl(book, 'home', { decimal: h }, over),
  nfl(book, 'away', { decimal: a }, over),
];
const spread = (book: string, homeLine: number, h: number, a: number, over: Partial<Quote> = {}) => [
  nfl(book, 'home', { american: h }, { marketType: 'point_spread', line: homeLine, ...over }),
  nfl(book, 'away', { american: a }, { marketType: 'point_spread', line: -homeLine, ...over }),
];
type J = Record<string, any>;

describe('arbitrage warnings', () => {
  // DraftKings +110 / FanDuel +104: 96.6386%, 3.4783% profit, both books sound, fewer than 3 other books (no consensus)
  const pregame = () => boardWith([...ml('draftkings', 110, -130), ...ml('fanduel', -125, 104)]);

  it('none on a fresh pre-game arbitrage; POTENTIALLY_STALE_ODDS past 60 s; VERY_STALE_ODDS past 300 s', () => {
    const { board, ctx, group } = pregame();
    const a = detectArbitrage(ctx, group(), all)!;
    expect(presenter.arbitrage(board, a, NOW + 60 * S).warnings).toEqual([]);
    expect(presenter.arbitrage(board, a, NOW + 61 * S).warnings).toEqual(['POTENTIALLY_STALE_ODDS']);
    expect(presenter.arbitrage(board, a, NOW + 300 * S).warnings).toEqual(['POTENTIALLY_STALE_ODDS']);
    expect(presenter.arbitrage(board, a, NOW + 301 * S).warnings).toEqual(['POTENTIALLY_STALE_ODDS', 'VERY_STALE_ODDS']);
  });

  it('LOW_IMPLIED_TOTAL below 95%', () => {
    // 2.15 / 2.15: 93.0233% (7.5% profit); 2.1 / 2.1: 95.2381%
    const low = boardWith([...dec('draftkings', 2.15, 1.6), ...dec('fanduel', 1.6, 2.15)]);
    expect(presenter.arbitrage(low.board, detectArbitrage(low.ctx, low.group(), all)!, NOW).warnings).toEqual(['LOW_IMPLIED_TOTAL']);
    const ok = boardWith([...dec('draftkings', 2.1, 1.6), ...dec('fanduel', 1.6, 2.1)]);
    expect(presenter.arbitrage(ok.board, detectArbitrage(ok.ctx, ok.group(), all)!, NOW).warnings).toEqual([]);
  });

  it('live: LIVE_GAME; LIVE_HIGH_PROFIT_SUSPICIOUS above 2%; stale past 10 s, very stale past 30 s', () => {
    const live = { isLive: true };
    // 2.05 / 2.0: 98.7805%, 1.2346% profit
    const small = boardWith([...dec('draftkings', 2.05, 1.7, live), ...dec('fanduel', 1.7, 2.0, live)]);
    const a = detectArbitrage(small.ctx, small.group(), all)!;
    expect(presenter.arbitrage(small.board, a, NOW + 10 * S).warnings).toEqual(['LIVE_GAME']);
    expect(presenter.arbitrage(small.board, a, NOW + 11 * S).warnings).toEqual(['LIVE_GAME', 'POTENTIALLY_STALE_ODDS']);
    expect(presenter.arbitrage(small.board, a, NOW + 31 * S).warnings).toEqual(['LIVE_GAME', 'POTENTIALLY_STALE_ODDS', 'VERY_STALE_ODDS']);
    // 2.1 / 2.0: 97.619%, 2.439% profit
    const big = boardWith([...dec('draftkings', 2.1, 1.7, live), ...dec('fanduel', 1.7, 2.0, live)]);
    expect(presenter.arbitrage(big.board, detectArbitrage(big.ctx, big.group(), all)!, NOW).warnings).toEqual([
      'LIVE_GAME',
      'LIVE_HIGH_PROFIT_SUSPICIOUS',
    ]);
  });

  it('VENUE_SELF_ARBITRAGE and VENUE_EXCESS_HOLD when flagged markets are let in', () => {
    // DraftKings 2.2 / 2.0 crosses itself (0.4545 + 0.5 = 95.45%); let in, DK home 2.2 + FanDuel away 2.05 = 94.24%
    const self = boardWith([...dec('draftkings', 2.2, 2.0), ...dec('fanduel', 1.7, 2.05)]);
    expect(detectArbitrage(self.ctx, self.group(), all)).toBeNull();
    expect(presenter.arbitrage(self.board, detectArbitrage(self.flagged, self.group(), all)!, NOW).warnings).toEqual([
      'LOW_IMPLIED_TOTAL',
      'VENUE_SELF_ARBITRAGE',
    ]);
    // DraftKings 2.2 / 1.3 holds 22.4% (retail ceiling 17%); FanDuel 1.6 / 2.0: DK home + FD away = 95.45%
    const hold = boardWith([...dec('draftkings', 2.2, 1.3), ...dec('fanduel', 1.6, 2.0)]);
    expect(detectArbitrage(hold.ctx, hold.group(), all)).toBeNull();
    expect(presenter.arbitrage(hold.board, detectArbitrage(hold.flagged, hold.group(), all)!, NOW).warnings).toEqual(['VENUE_EXCESS_HOLD']);
  });

  it('PRICE_OFF_CONSENSUS when a leg is far from the other books (and on low-hold too)', () => {
    // Bovada +150 (0.4) where four books say -110 (0.5238); its own market 2.5 / 1.5 (106.7%) is sound.
    // Bovada home 2.5 + best away 1.9091: 0.4 + 0.523807 = 92.38%
    const b = boardWith([...['draftkings', 'fanduel', 'betmgm', 'caesars'].flatMap((x) => ml(x, -110, -110)), ...dec('bovada', 2.5, 1.5)]);
    const a = detectArbitrage(b.ctx, b.group(), all)!;
    expect(presenter.arbitrage(b.board, a, NOW).warnings).toEqual(['LOW_IMPLIED_TOTAL', 'PRICE_OFF_CONSENSUS']);
    expect(presenter.lowHold(b.board, detectLowHold(b.ctx, b.group(), all)!, NOW).warnings).toEqual(['PRICE_OFF_CONSENSUS']);
  });
});

describe('+EV warnings', () => {
  it('SINGLE_SHARP_REF with one sharp book; none with two; POTENTIALLY_STALE_ODDS / LIVE_STALE_ODDS past 60 s / 10 s', () => {
    // Pinnacle and Circa -105 / -105 (fair 0.5): DraftKings +110 is +5%
    const one = boardWith([...ml('pinnacle', -105, -105), ...ml('draftkings', 110, -130)]);
    expect(presenter.ev(one.board, detectEv(one.ctx, one.group())[0]!, 'power', NOW).warnings).toEqual(['SINGLE_SHARP_REF']);
    const two = boardWith([...ml('pinnacle', -105, -105), ...ml('circa', -105, -105), ...ml('draftkings', 110, -130)]);
    const r = detectEv(two.ctx, two.group())[0]!;
    expect(presenter.ev(two.board, r, 'power', NOW + 60 * S).warnings).toEqual([]);
    expect(presenter.ev(two.board, r, 'power', NOW + 61 * S).warnings).toEqual(['POTENTIALLY_STALE_ODDS']);
    const live = boardWith([
      ...ml('pinnacle', -105, -105, { isLive: true }),
      ...ml('circa', -105, -105, { isLive: true }),
      ...ml('draftkings', 110, -130, { isLive: true }),
    ]);
    const lr = detectEv(live.ctx, live.group())[0]!;
    expect(presenter.ev(live.board, lr, 'power', NOW + 10 * S).warnings).toEqual([]);
    expect(presenter.ev(live.board, lr, 'power', NOW + 11 * S).warnings).toEqual(['LIVE_STALE_ODDS']);
  });

  it('LOW_IMPLIED_TOTAL when the devigged sharp market holds under 1%', () => {
    // Pinnacle -102 / -102 (1.9804): 2 x 0.504948 = 100.99%; -103 / -103 (1.9709): 101.48%
    const thin = boardWith([...ml('pinnacle', -102, -102), ...ml('circa', -105, -105), ...ml('draftkings', 110, -130)]);
    expect(presenter.ev(thin.board, detectEv(thin.ctx, thin.group())[0]!, 'power', NOW).warnings).toEqual(['LOW_IMPLIED_TOTAL']);
    const normal = boardWith([...ml('pinnacle', -103, -103), ...ml('circa', -105, -105), ...ml('draftkings', 110, -130)]);
    expect(presenter.ev(normal.board, detectEv(normal.ctx, normal.group())[0]!, 'power', NOW).warnings).toEqual([]);
  });

  it('PRICE_OFF_CONSENSUS and VENUE_* on +EV items', () => {
    // Bovada +150 (0.4) against Pinnacle, Circa, DraftKings, FanDuel at -110 (0.5238): +EV (fair 0.5) and off the consensus
    const b = boardWith([...['pinnacle', 'circa', 'draftkings', 'fanduel'].flatMap((x) => ml(x, -110, -110)), ...dec('bovada', 2.5, 1.5)]);
    const bov = detectEv(b.ctx, b.group()).find((e) => e.row.sportsbook === 'bovada')!;
    expect(presenter.ev(b.board, bov, 'power', NOW).warnings).toEqual(['PRICE_OFF_CONSENSUS']);
    // Bovada 2.5 / 1.9 crosses itself (0.4 + 0.5263 = 92.6%): its +EV home price is listed only when let in
    const s = boardWith([...['pinnacle', 'circa'].flatMap((x) => ml(x, -110, -110)), ...dec('bovada', 2.5, 1.9)]);
    expect(detectEv(s.ctx, s.group()).some((e) => e.row.sportsbook === 'bovada')).toBe(false);
    const flaggedEv = detectEv(s.flagged, s.group()).find((e) => e.row.sportsbook === 'bovada')!;
    expect(presenter.ev(s.board, flaggedEv, 'power', NOW).warnings).toEqual(['VENUE_SELF_ARBITRAGE']);
  });
});

describe('middle warnings', () => {
  it('HIGH_PROBABILITY above 15%, LARGE_GAP above 3 points, STALE_ODDS past 30 s', () => {
    // DraftKings -2.5 / FanDuel +7.5: a 5-point gap over 3 and 7
    const b = boardWith([...spread('draftkings', -2.5, -110, -110), ...spread('fanduel', -7.5, -112, -108)]);
    const m = detectMiddles(b.ctx, b.ladder, all)[0]!;
    expect(m.analysis.middleProbability).toBeGreaterThan(0.15);
    expect(presenter.middle(b.board, m, NOW + 30 * S).warnings).toEqual(['HIGH_PROBABILITY', 'LARGE_GAP']);
    expect(presenter.middle(b.board, m, NOW + 31 * S).warnings).toEqual(['HIGH_PROBABILITY', 'LARGE_GAP', 'STALE_ODDS']);
    // DraftKings -3.5 / FanDuel +4.5: a 1-point gap (only 4, not a key number), middle probability under 15%
    const narrow = boardWith([...spread('draftkings', -3.5, -110, -110), ...spread('fanduel', -4.5, -112, -108)]);
    const n = detectMiddles(narrow.ctx, narrow.ladder, all)[0]!;
    expect(n.analysis.middleProbability).toBeLessThanOrEqual(0.15);
    expect(presenter.middle(narrow.board, n, NOW).warnings).toEqual([]);
  });

  it('LIVE_GAME and GUARANTEED_PROFIT', () => {
    // DraftKings Chiefs -2.5 at +120 and FanDuel Bills +7.5 at +120: 50/50 stakes return 110 whichever wins
    const b = boardWith([
      ...spread('draftkings', -2.5, 120, -150, { isLive: true }),
      ...spread('fanduel', -7.5, -150, 120, { isLive: true }),
    ]);
    const m = detectMiddles(b.ctx, b.ladder, all)[0]!;
    expect(presenter.middle(b.board, m, NOW).warnings).toEqual(['HIGH_PROBABILITY', 'LARGE_GAP', 'LIVE_GAME', 'GUARANTEED_PROFIT']);
  });

  it('VENUE_EXCESS_HOLD (flagged markets let in) and PRICE_OFF_CONSENSUS', () => {
    // DraftKings -2.5 at -105 / +2.5 at -400: 0.5122 + 0.8 = 131.2%, over the 17% ceiling: no middle by default
    const b = boardWith([...spread('draftkings', -2.5, -105, -400), ...spread('fanduel', -7.5, -112, -108)]);
    expect(detectMiddles(b.ctx, b.ladder, all)).toEqual([]);
    const m = detectMiddles(b.flagged, b.ladder, all)[0]!;
    expect(presenter.middle(b.board, m, NOW).warnings).toEqual(['HIGH_PROBABILITY', 'LARGE_GAP', 'VENUE_EXCESS_HOLD']);
    // FanDuel's Bills +7.5 at +150 (0.4) where BetMGM, Caesars and BetRivers say -110 (0.5238) on the same line
    const c = boardWith([
      ...spread('draftkings', -2.5, -110, -110),
      ...spread('fanduel', -7.5, -200, 150),
      ...['betmgm', 'caesars', 'betrivers'].flatMap((x) => spread(x, -7.5, -110, -110)),
    ]);
    const off = detectMiddles(c.ctx, c.ladder, all).find(
      (x) => x.side1.row.sportsbook === 'draftkings' && x.side2.row.sportsbook === 'fanduel',
    )!;
    expect(presenter.middle(c.board, off, NOW).warnings).toContain('PRICE_OFF_CONSENSUS');
  });
});

describe('low-hold warnings', () => {
  it('none on a sound market; VENUE_SELF_ARBITRAGE when flagged markets are let in', () => {
    // best -105 (DK) and +100 (FD): 1.2195% hold
    const b = boardWith([...ml('draftkings', -105, -115), ...ml('fanduel', -120, 100)]);
    const h: J = presenter.lowHold(b.board, detectLowHold(b.ctx, b.group(), all)!, NOW);
    expect(h.warnings).toEqual([]);
    // DraftKings 2.1 / 2.0 crosses itself (97.6%): by default only FanDuel's market is left: 1/1.8333 + 1/2.0 = 104.5464%
    const s = boardWith([...dec('draftkings', 2.1, 2.0), ...ml('fanduel', -120, 100)]);
    expect(presenter.lowHold(s.board, detectLowHold(s.ctx, s.group(), all)!, NOW).hold_percentage).toBeCloseTo(4.5464, 3);
    expect(presenter.lowHold(s.board, detectLowHold(s.flagged, s.group(), all)!, NOW).warnings).toEqual(['VENUE_SELF_ARBITRAGE']);
  });
});

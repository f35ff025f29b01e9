import { Injectable } from '@nestjs/common';
import { Catalog } from '../../config/catalog.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import { evConfidenceScore, fairAmerican, kellyFraction, roundTo, type DevigMethod } from '../../math/index.js';
import type { OddsBoard } from '../board/odds-board.js';
import { RefBlocks } from '../reference/ref-blocks.js';
import { ageSeconds, isPlayerProp } from './detect/market-groups.js';
import type { ArbitrageRecord, EvRecord, Guards, LowHoldRecord, MiddleRecord, MiddleSideRecord } from './detect/records.js';

/**
 * Staleness thresholds (seconds since a price was last confirmed). Pre-game prices move slowly, live ones
 * fast: a live price unconfirmed for 10 s may already be gone.
 */
export const STALE = { pregame: 60, pregameVery: 300, live: 10, liveVery: 30, middle: 30 } as const;

/** Thresholds of the other warnings (README "Opportunities" lists every warning with its threshold). */
export const WARN = {
  /** Arbitrage LOW_IMPLIED_TOTAL: implied_total below this percent (a profit above 5.26%). */
  arbLowImpliedTotal: 95,
  /** Arbitrage LIVE_HIGH_PROFIT_SUSPICIOUS: a live arbitrage above this profit percent. */
  liveSuspiciousProfit: 2,
  /** +EV LOW_IMPLIED_TOTAL: the devigged sharp market holds less than this percent (a thin or stale sharp line). */
  evLowSharpHold: 1,
  /** Middle HIGH_PROBABILITY: middle probability above this. */
  middleHighProbability: 0.15,
  /** Middle LARGE_GAP: middle size above this many points. */
  middleLargeGap: 3,
} as const;

const iso = (ms: number) => new Date(ms).toISOString();
const r4 = (x: number) => roundTo(x, 4);
const r2 = (x: number) => roundTo(x, 2);

export type Json = Record<string, unknown>;

/**
 * The warnings of the plausibility guards (detect/guards.ts), on every kind of opportunity:
 * VENUE_SELF_ARBITRAGE / VENUE_EXCESS_HOLD when it uses a flagged venue market (only listed with
 * include_flagged=true), PRICE_OFF_CONSENSUS when one of its prices is far from the other books' consensus.
 */
export function guardWarnings(g: Guards): string[] {
  const out: string[] = [];
  if (g.flagged.some((f) => f.flag === 'self_arbitrage')) out.push('VENUE_SELF_ARBITRAGE');
  if (g.flagged.some((f) => f.flag === 'excess_hold')) out.push('VENUE_EXCESS_HOLD');
  if (g.offConsensus.length) out.push('PRICE_OFF_CONSENSUS');
  return out;
}

/** Turns opportunity records into the REST (and stream) objects of spec part 2, with ages as of now. */
@Injectable()
export class OpportunityPresenter {
  constructor(
    private readonly catalog: Catalog,
    private readonly refs: RefBlocks,
  ) {}

  private event(board: OddsBoard, id: string): BoardEvent | undefined {
    return board.events.get(id);
  }

  private staleness(board: OddsBoard, rows: readonly OddsRow[], live: boolean, now: number) {
    const oldest = Math.max(...rows.map((r) => ageSeconds(board, r, now)));
    const stale = live ? oldest > STALE.live : oldest > STALE.pregame;
    const very = live ? oldest > STALE.liveVery : oldest > STALE.pregameVery;
    return { oldest: r2(oldest), stale, very };
  }

  private common(board: OddsBoard, e: BoardEvent | undefined, r: OddsRow) {
    return {
      event_id: r.eventId,
      event_name: e ? `${e.awayTeam} @ ${e.homeTeam}` : r.eventId,
      sport: r.sport,
      league: r.league,
      home_team: e?.homeTeam ?? '',
      away_team: e?.awayTeam ?? '',
      start_time: e ? iso(e.startTime) : null,
      market_type: r.marketType,
      period: r.period,
      is_player_prop: isPlayerProp(r.marketType),
      player_name: r.playerName,
      stat_category: r.statCategory,
    };
  }

  private refsFor(e: BoardEvent | undefined, r: OddsRow): Json {
    return e ? this.refs.forEvent(e, r.marketType, r.sportsbook) : {};
  }

  arbitrage(board: OddsBoard, a: ArbitrageRecord, now: number, ev?: { percentage: number } | null): Json {
    const first = a.legs[0]!.row;
    const e = this.event(board, a.eventId);
    const live = a.legs.some((l) => l.row.isLive);
    const st = this.staleness(board, a.legs.map((l) => l.row), live, now);
    const warnings: string[] = [];
    if (live) warnings.push('LIVE_GAME');
    if (live && a.profitPercent > WARN.liveSuspiciousProfit) warnings.push('LIVE_HIGH_PROFIT_SUSPICIOUS');
    if (a.impliedTotal < WARN.arbLowImpliedTotal) warnings.push('LOW_IMPLIED_TOTAL');
    if (st.stale) warnings.push('POTENTIALLY_STALE_ODDS');
    if (st.very) warnings.push('VERY_STALE_ODDS');
    warnings.push(...guardWarnings(a.guards));
    return {
      id: a.id,
      ...this.common(board, e, first),
      line: a.line,
      profit_percent: r4(a.profitPercent),
      implied_total: r4(a.impliedTotal),
      is_live: live,
      is_alternate_line: a.isAlternateLine,
      possibly_stale: st.stale,
      oldest_odds_age_seconds: st.oldest,
      warnings,
      ev_available: Boolean(ev),
      ev_percentage: ev ? r4(ev.percentage) : null,
      legs: a.legs.map((l) => ({
        sportsbook: l.row.sportsbook,
        selection: l.row.selection,
        selection_type: l.row.selectionType,
        line: l.row.line,
        odds_american: l.row.american,
        odds_decimal: l.row.decimal,
        implied_probability: roundTo(l.impliedProbability, 6),
        stake_percent: r4(l.stakePercent),
        timestamp: iso(l.row.changedAt),
        external_event_id: l.row.externalEventId,
        selection_id: l.row.selectionId,
        market_id: l.row.marketId,
        deep_link: this.catalog.book(l.row.sportsbook)?.deep_link ?? null,
        ...this.refsFor(e, l.row),
      })),
      detected_at: iso(a.detectedAt),
    };
  }

  ev(board: OddsBoard, r: EvRecord, method: DevigMethod, now: number, arb?: { profit: number } | null): Json {
    const e = this.event(board, r.eventId);
    const fair = r.fair[method];
    const live = r.row.isLive;
    const st = this.staleness(board, [r.row, ...r.sharpRows], live, now);
    const evPct = (fair * r.row.decimal - 1) * 100;
    const warnings: string[] = [];
    if (st.stale) warnings.push(live ? 'LIVE_STALE_ODDS' : 'POTENTIALLY_STALE_ODDS');
    if (r.sharpRefCount <= 1) warnings.push('SINGLE_SHARP_REF');
    if (r.sharpHoldPercent < WARN.evLowSharpHold) warnings.push('LOW_IMPLIED_TOTAL');
    warnings.push(...guardWarnings(r.guards));
    return {
      id: r.id,
      game_id: r.eventId,
      ...this.common(board, e, r.row),
      game: e ? `${e.awayTeam} @ ${e.homeTeam}` : r.eventId,
      market: r.marketType,
      selection: r.row.selection,
      selection_type: r.row.selectionType,
      line: r.line,
      sportsbook: r.row.sportsbook,
      odds_american: r.row.american,
      odds_decimal: r.row.decimal,
      ev_percentage: r4(evPct),
      fair_probability: roundTo(fair, 6),
      no_vig_odds: fairAmerican(fair),
      devig_method: method,
      sharp_book: r.sharpBook,
      market_width: r.marketWidth,
      is_live: live,
      external_event_id: r.row.externalEventId,
      selection_id: r.row.selectionId,
      detected_at: iso(r.detectedAt),
      confidence_score: evConfidenceScore({
        bookCount: r.bookCount,
        sharpMarketWidth: r.marketWidth,
        sharpHoldPercent: r.sharpHoldPercent,
        oddsAgeSeconds: st.oldest,
        isLive: live,
        isMainLine: r.isMainLine,
        sharpRefCount: r.sharpRefCount,
        evPercent: evPct,
      }),
      kelly_percent: roundTo(kellyFraction(fair, r.row.decimal), 6),
      book_count: r.bookCount,
      arb_available: Boolean(arb),
      arb_profit: arb ? r4(arb.profit) : null,
      possibly_stale: st.stale,
      oldest_odds_age_seconds: st.oldest,
      warnings,
      deep_link: this.catalog.book(r.row.sportsbook)?.deep_link ?? null,
      ...this.refsFor(e, r.row),
    };
  }

  private middleSide(board: OddsBoard, e: BoardEvent | undefined, s: MiddleSideRecord, stake: number, now: number): Json {
    return {
      book: s.row.sportsbook,
      selection: s.row.selection,
      selection_type: s.row.selectionType,
      line: s.row.line,
      odds: { american: s.row.american, decimal: s.row.decimal, probability: s.row.probability, fair_probability: roundTo(s.winProbability, 6) },
      stake_percent: r4(stake),
      odds_age_seconds: r2(ageSeconds(board, s.row, now)),
      deep_link: this.catalog.book(s.row.sportsbook)?.deep_link ?? null,
      ...this.refsFor(e, s.row),
    };
  }

  middle(board: OddsBoard, m: MiddleRecord, now: number): Json {
    const e = this.event(board, m.eventId);
    const a = m.analysis;
    const live = m.side1.row.isLive || m.side2.row.isLive;
    const age = Math.max(ageSeconds(board, m.side1.row, now), ageSeconds(board, m.side2.row, now));
    const warnings: string[] = [];
    if (a.middleProbability > WARN.middleHighProbability) warnings.push('HIGH_PROBABILITY');
    if (a.middleSize > WARN.middleLargeGap) warnings.push('LARGE_GAP');
    if (age > STALE.middle) warnings.push('STALE_ODDS');
    if (live) warnings.push('LIVE_GAME');
    if (a.isGuaranteedProfit) warnings.push('GUARANTEED_PROFIT');
    warnings.push(...guardWarnings(m.guards));
    return {
      id: m.id,
      ...this.common(board, e, m.side1.row),
      side1: this.middleSide(board, e, m.side1, a.stakePercent[0], now),
      side2: this.middleSide(board, e, m.side2, a.stakePercent[1], now),
      middle_size: a.middleSize,
      middle_numbers: a.middleNumbers,
      middle_probability: roundTo(a.middleProbability, 6),
      push_probability: roundTo(a.pushProbability, 6),
      expected_value: r4(a.expectedValue),
      roi_percentage: r4(a.roiPercent),
      worst_case_loss: r4(a.worstCaseLoss),
      best_case_profit: r4(a.bestCaseProfit),
      break_even_percent: r4(a.breakEvenPercent),
      odds_age_seconds: r2(age),
      is_guaranteed_profit: a.isGuaranteedProfit,
      guaranteed_roi: a.guaranteedRoi === null ? null : r4(a.guaranteedRoi),
      key_numbers: a.keyNumbers,
      key_number_probability: roundTo(a.keyNumberProbability, 6),
      quality_score: m.qualityScore,
      market_overround: roundTo(a.marketOverround, 6),
      is_live: live,
      warnings,
      detected_at: iso(m.detectedAt),
    };
  }

  lowHold(board: OddsBoard, h: LowHoldRecord, now: number): Json {
    const first = h.sides[0]!.row;
    const e = this.event(board, h.eventId);
    const live = h.sides.some((s) => s.row.isLive);
    const st = this.staleness(board, h.sides.map((s) => s.row), live, now);
    const confidence = Math.max(0, Math.min(100, Math.round(100 - Math.max(0, 4 - h.allBooks.length) * 10 - (live ? 15 : 0) - (st.stale ? 25 : 0) - (h.isAlternateLine ? 5 : 0))));
    const side = (s: LowHoldRecord['sides'][number]) => ({
      selection: s.row.selection,
      selection_type: s.row.selectionType,
      books: s.books,
      line: s.row.line,
      odds: { american: s.row.american, decimal: s.row.decimal, implied_probability: roundTo(1 / s.row.decimal, 6), probability: roundTo(1 / s.row.decimal, 6), fair_probability: roundTo(s.fairProbability, 6) },
      deep_links: Object.fromEntries(s.books.map((b) => [b, this.catalog.book(b)?.deep_link ?? null])),
    });
    return {
      id: h.id,
      ...this.common(board, e, first),
      line: h.line,
      hold_percentage: r4(h.holdPercent),
      side1: side(h.sides[0]!),
      side2: side(h.sides[1]!),
      side3: h.sides[2] ? side(h.sides[2]) : null,
      is_live: live,
      is_alternate_line: h.isAlternateLine,
      all_books: h.allBooks,
      confidence,
      odds_age_seconds: st.oldest,
      possibly_stale: st.stale,
      warnings: guardWarnings(h.guards),
      detected_at: iso(h.detectedAt),
      ...(e ? this.refs.forEvent(e, first.marketType) : {}),
    };
  }
}

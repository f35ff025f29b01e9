import { Injectable } from '@nestjs/common';
import type { BoardEvent } from '../../domain/odds-row.js';
import { roundTo } from '../../math/index.js';
import type { OddsBoard } from '../board/odds-board.js';
import type { Json } from '../detection/detector.js';
import { ageSeconds } from '../detection/market-groups.js';
import { eventBlock, guardWarnings, iso, r2, r4 } from '../opportunity-lists/present.js';
import { RefBlocks } from '../reference/ref-blocks.js';
import { deepLinkPath } from '../deep-links/deep-link-templates.js';
import { altPrices, teamTotalTeam } from './middle-fields.js';
import type { MiddleRecord, MiddleSideRecord } from './middles.record.js';

/** Thresholds of the middle warnings (README "Opportunities" lists every warning with its threshold). */
export const MIDDLE_WARN = {
  /** HIGH_PROBABILITY: middle probability above this. */
  highProbability: 0.15,
  /** LARGE_GAP: middle size above this many points. */
  largeGap: 3,
  /** STALE_ODDS: either side older than this many seconds. */
  staleSeconds: 30,
} as const;

/** Turns middle records into the items of `/opportunities/middles` and `middles:detected`. */
@Injectable()
export class MiddlesPresenter {
  constructor(private readonly refs: RefBlocks) {}

  private side(board: OddsBoard, e: BoardEvent | undefined, s: MiddleSideRecord, stake: number, now: number): Json {
    const fair = roundTo(s.winProbability, 6);
    return {
      book: s.row.sportsbook,
      selection: s.row.selection,
      selection_type: s.row.selectionType,
      line: s.row.line,
      // The price twice: flat (odds_american...) and nested (odds.american...), the same values; clients read either.
      odds_american: s.row.american,
      odds_decimal: s.row.decimal,
      odds_probability: s.row.probability,
      fair_probability: fair,
      odds: {
        american: s.row.american,
        decimal: s.row.decimal,
        probability: s.row.probability,
        fair_probability: fair,
      },
      stake_percent: r4(stake),
      odds_age_seconds: r2(ageSeconds(board, s.row, now)),
      deep_link: deepLinkPath(s.row.sportsbook, s.row.id),
      ...(e ? this.refs.forEvent(e, s.row.marketType, s.row.sportsbook) : {}),
    };
  }

  present(board: OddsBoard, m: MiddleRecord, now: number): Json {
    const e = board.events.get(m.eventId);
    const a = m.analysis;
    const live = m.side1.row.isLive || m.side2.row.isLive;
    const age = Math.max(ageSeconds(board, m.side1.row, now), ageSeconds(board, m.side2.row, now));
    const warnings: string[] = [];
    if (a.middleProbability > MIDDLE_WARN.highProbability) warnings.push('HIGH_PROBABILITY');
    if (a.middleSize > MIDDLE_WARN.largeGap) warnings.push('LARGE_GAP');
    if (age > MIDDLE_WARN.staleSeconds) warnings.push('STALE_ODDS');
    if (live) warnings.push('LIVE_GAME');
    if (a.isGuaranteedProfit) warnings.push('GUARANTEED_PROFIT');
    warnings.push(...guardWarnings(m.guards));
    if (!m.netAnalysis) warnings.push('UNKNOWN_VENUE_COST');
    return {
      id: m.id,
      ...eventBlock(e, m.side1.row),
      // The event's teams, sport, league and market (each side also carries its book's).
      ...(e ? this.refs.forEvent(e, m.side1.row.marketType) : {}),
      side1: this.side(board, e, m.side1, a.stakePercent[0], now),
      side2: this.side(board, e, m.side2, a.stakePercent[1], now),
      is_team_total: m.side1.row.marketType === 'team_total',
      team_name: teamTotalTeam(m.side1.row, e),
      alt_side1: altPrices(m.side1.row, board.group(m.side1.row.groupKey)),
      alt_side2: altPrices(m.side2.row, board.group(m.side2.row.groupKey)),
      middle_size: a.middleSize,
      middle_numbers: a.middleNumbers,
      middle_probability: roundTo(a.middleProbability, 6),
      push_probability: roundTo(a.pushProbability, 6),
      expected_value: r4(a.expectedValue),
      estimated_net_expected_value: m.netAnalysis ? r4(m.netAnalysis.expectedValue) : null,
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
}

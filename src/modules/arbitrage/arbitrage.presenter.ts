import { Injectable } from '@nestjs/common';
import { Catalog } from '../../config/catalog.js';
import { venueCosts } from '../../config/costs.js';
import { netArbitrage } from '../../math/costs.js';
import { roundTo } from '../../math/index.js';
import type { OddsBoard } from '../board/odds-board.js';
import type { Json } from '../detection/detector.js';
import { eventBlock, guardWarnings, iso, r4, staleness } from '../opportunity-lists/present.js';
import { RefBlocks } from '../reference/ref-blocks.js';
import { deepLinkPath } from '../deep-links/deep-link-templates.js';
import type { ArbitrageRecord } from './arbitrage.record.js';

/** Thresholds of the arbitrage warnings (README "Opportunities" lists every warning with its threshold). */
export const ARB_WARN = {
  /** LOW_IMPLIED_TOTAL: implied_total below this percent (a profit above 5.26%). */
  lowImpliedTotal: 95,
  /** LIVE_HIGH_PROFIT_SUSPICIOUS: a live arbitrage above this profit percent. */
  liveSuspiciousProfit: 2,
} as const;

/** Turns arbitrage records into the items of `/opportunities/arbitrage` and `arb:detected`. */
@Injectable()
export class ArbitragePresenter {
  private readonly costs = venueCosts();

  constructor(
    private readonly catalog: Catalog,
    private readonly refs: RefBlocks,
  ) {}

  /** `ev`: the best +EV among the legs, when the list found one. */
  present(board: OddsBoard, a: ArbitrageRecord, now: number, ev?: { percentage: number } | null): Json {
    const first = a.legs[0]!.row;
    const e = board.events.get(a.eventId);
    const live = a.legs.some((l) => l.row.isLive);
    const st = staleness(
      board,
      a.legs.map((l) => l.row),
      live,
      now,
    );
    const warnings: string[] = [];
    if (live) warnings.push('LIVE_GAME');
    if (live && a.profitPercent > ARB_WARN.liveSuspiciousProfit) warnings.push('LIVE_HIGH_PROFIT_SUSPICIOUS');
    if (a.impliedTotal < ARB_WARN.lowImpliedTotal) warnings.push('LOW_IMPLIED_TOTAL');
    if (st.stale) warnings.push('POTENTIALLY_STALE_ODDS');
    if (st.very) warnings.push('VERY_STALE_ODDS');
    warnings.push(...guardWarnings(a.guards));
    // After the venues' costs (config/costs.json): the outlay split on net decimals; none when a venue's cost is unknown.
    const costs = a.legs.map((l) => this.costs.ofBook(l.row.sportsbook, this.catalog));
    const net = costs.every((c) => c !== null) ? netArbitrage(a.legs.map((l, i) => ({ decimal: l.row.decimal, cost: costs[i]! }))) : null;
    if (!net) warnings.push('UNKNOWN_VENUE_COST');
    return {
      id: a.id,
      ...eventBlock(e, first),
      line: a.line,
      profit_percent: r4(a.profitPercent),
      estimated_net_profit_percent: net ? r4(net.profitPercent) : null,
      implied_total: r4(a.impliedTotal),
      is_live: live,
      is_alternate_line: a.isAlternateLine,
      possibly_stale: st.stale,
      oldest_odds_age_seconds: st.oldest,
      warnings,
      ev_available: Boolean(ev),
      ev_percentage: ev ? r4(ev.percentage) : null,
      legs: a.legs.map((l, i) => ({
        sportsbook: l.row.sportsbook,
        selection: l.row.selection,
        selection_type: l.row.selectionType,
        line: l.row.line,
        odds_american: l.row.american,
        odds_decimal: l.row.decimal,
        implied_probability: roundTo(l.impliedProbability, 6),
        stake_percent: r4(l.stakePercent),
        net_stake_percent: net ? r4(net.stakePercent[i]!) : null,
        timestamp: iso(l.row.changedAt),
        external_event_id: l.row.externalEventId,
        selection_id: l.row.selectionId,
        market_id: l.row.marketId,
        deep_link: deepLinkPath(l.row.sportsbook, l.row.id),
        ...(e ? this.refs.forEvent(e, l.row.marketType, l.row.sportsbook) : {}),
      })),
      detected_at: iso(a.detectedAt),
    };
  }
}

import { Injectable } from '@nestjs/common';
import { Catalog } from '../../config/catalog.js';
import { venueCosts } from '../../config/costs.js';
import { netEvPercent } from '../../math/costs.js';
import { playerId } from '../../domain/player-id.js';
import { evConfidenceScore, fairAmerican, kellyFraction, roundTo, type DevigMethod } from '../../math/index.js';
import type { OddsBoard } from '../board/odds-board.js';
import type { Json } from '../detection/detector.js';
import { eventBlock, guardWarnings, iso, r4, staleness } from '../opportunity-lists/present.js';
import { RefBlocks } from '../reference/ref-blocks.js';
import { deepLinkPath } from '../deep-links/deep-link-templates.js';
import type { EvRecord } from './ev.record.js';

/** +EV LOW_IMPLIED_TOTAL: the devigged sharp market holds less than this percent (a thin or stale sharp line). */
export const EV_LOW_SHARP_HOLD = 1;

/** Turns +EV records into the items of `/opportunities/ev` and `ev:detected` (README "Opportunities"). */
@Injectable()
export class EvPresenter {
  private readonly costs = venueCosts();

  constructor(
    private readonly refs: RefBlocks,
    private readonly catalog: Catalog,
  ) {}

  /** `arb`: the arbitrage on the same market among all books, when the list found one. */
  present(board: OddsBoard, r: EvRecord, method: DevigMethod, now: number, arb?: { profit: number } | null): Json {
    const e = board.events.get(r.eventId);
    const fair = r.fair[method];
    const live = r.row.isLive;
    const st = staleness(board, [r.row, ...r.sharpRows], live, now);
    const evPct = (fair * r.row.decimal - 1) * 100;
    const warnings: string[] = [];
    if (st.stale) warnings.push(live ? 'LIVE_STALE_ODDS' : 'POTENTIALLY_STALE_ODDS');
    if (r.sharpRefCount <= 1) warnings.push('SINGLE_SHARP_REF');
    if (r.sharpHoldPercent < EV_LOW_SHARP_HOLD) warnings.push('LOW_IMPLIED_TOTAL');
    warnings.push(...guardWarnings(r.guards));
    const cost = this.costs.ofBook(r.row.sportsbook, this.catalog);
    if (!cost) warnings.push('UNKNOWN_VENUE_COST');
    return {
      id: r.id,
      game_id: r.eventId,
      ...eventBlock(e, r.row),
      player_id: playerId(r.row.sport, r.row.league, r.row.playerName),
      game: e ? `${e.awayTeam} @ ${e.homeTeam}` : r.eventId,
      market: r.marketType,
      selection: r.row.selection,
      selection_type: r.row.selectionType,
      line: r.line,
      sportsbook: r.row.sportsbook,
      odds_american: r.row.american,
      odds_decimal: r.row.decimal,
      ev_percentage: r4(evPct),
      estimated_net_ev_percentage: cost ? r4(netEvPercent(fair, r.row.decimal, cost)) : null,
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
      deep_link: deepLinkPath(r.row.sportsbook, r.row.id),
      ...(e ? this.refs.forEvent(e, r.row.marketType, r.row.sportsbook) : {}),
    };
  }
}

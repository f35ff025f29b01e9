import { marketSegmentOf } from '../../domain/market-axes.js';
import { playerId } from '../../domain/player-id.js';
import type { SettledRow } from './settlements.repository.js';

export type SettlementOutcome = 'won' | 'lost' | 'push' | 'void';

/** A grading result (win/loss/push) or a void reason as the settlement's outcome; null: not settled. */
export function outcomeOf(result: string | null, voidReason: string | null): SettlementOutcome | null {
  if (voidReason) return 'void';
  switch (result) {
    case 'win':
      return 'won';
    case 'loss':
      return 'lost';
    case 'push':
      return 'push';
    default:
      return null;
  }
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/** The public settlement item. Keys with no value are an explicit null. */
export function toSettlement(r: SettledRow) {
  const outcome = outcomeOf(r.result, r.voidReason)!;
  return {
    hash_id: r.opportunityId,
    game_id: r.eventId,
    game: `${r.awayTeam} @ ${r.homeTeam}`,
    sport: r.sport,
    league: r.league,
    home_team: r.homeTeam,
    away_team: r.awayTeam,
    start_time: iso(r.eventStartTime),
    sportsbook: r.sportsbook,
    market_type: r.marketType,
    market_segment: marketSegmentOf(r.marketType, r.period),
    selection: r.selection,
    selection_type: r.selectionType,
    line: r.line,
    player_id: playerId(r.sport, r.league, r.playerName),
    player_name: r.playerName,
    odds_american: r.entryAmerican,
    odds_decimal: Math.round(r.entryDecimal * 1000) / 1000,
    fair_probability: Math.round(r.fairProbability * 1e6) / 1e6,
    ev_percent: r.evPercent,
    outcome,
    void_reason: r.voidReason,
    clv_percent: r.clvPercent === null ? null : Math.round(r.clvPercent * 10_000) / 10_000,
    closing_probability: r.closingProbability === null ? null : Math.round(r.closingProbability * 1e6) / 1e6,
    detected_at: iso(r.detectedAt),
    settled_at: outcome === 'void' ? null : iso(r.gradedAt),
  };
}

export type Settlement = ReturnType<typeof toSettlement>;

import type { SplitsGameDto } from './dto/splits-game.response.dto.js';
import type { SplitsHistoryEntryDto } from './dto/splits-history.response.dto.js';
import type { StoredSplits } from '../stores/splits/splits.repository.js';
import type { CurrentSplits, OverUnderShares, SideShares } from '../stores/splits/splits-store.js';

const iso = (ms: number) => new Date(ms).toISOString();
const sides = (s: SideShares): SideShares => ({ away: s.away, home: s.home });
const overUnder = (s: OverUnderShares): OverUnderShares => ({ over: s.over, under: s.under });

/**
 * A current split as the public SplitsGame. The spread lines are `away_line`/`home_line`,
 * as in the history; `away_odds`/`home_odds` repeat them under the public product's names for its clients.
 */
export function toSplitsGame(s: CurrentSplits): SplitsGameDto {
  return {
    event_id: s.eventId,
    sport: s.sport,
    league: s.league,
    sportsbook: s.sportsbook,
    away_team: s.awayTeam,
    home_team: s.homeTeam,
    spread: s.spread
      ? {
          away_line: s.spread.away_line,
          home_line: s.spread.home_line,
          away_odds: s.spread.away_line,
          home_odds: s.spread.home_line,
          handle_pct: sides(s.spread.handle_pct),
          bets_pct: sides(s.spread.bets_pct),
        }
      : null,
    total: s.total ? { line: s.total.line, handle_pct: overUnder(s.total.handle_pct), bets_pct: overUnder(s.total.bets_pct) } : null,
    moneyline: s.moneyline
      ? {
          away_odds: s.moneyline.away_odds,
          home_odds: s.moneyline.home_odds,
          handle_pct: sides(s.moneyline.handle_pct),
          bets_pct: sides(s.moneyline.bets_pct),
        }
      : null,
    fetched_at: iso(s.fetchedAt),
  };
}

/** A stored snapshot as the public SplitsHistoryEntry (`book`, capture time as `ts` and Unix seconds). */
export function toHistoryEntry(s: StoredSplits): SplitsHistoryEntryDto {
  return {
    book: s.sportsbook,
    ts: iso(s.capturedAt),
    timestamp: s.capturedAt / 1000,
    spread: s.spread
      ? {
          away_line: s.spread.away_line,
          home_line: s.spread.home_line,
          handle_pct: sides(s.spread.handle_pct),
          bets_pct: sides(s.spread.bets_pct),
        }
      : null,
    total: s.total ? { line: s.total.line, handle_pct: overUnder(s.total.handle_pct), bets_pct: overUnder(s.total.bets_pct) } : null,
    moneyline: s.moneyline
      ? {
          away_odds: s.moneyline.away_odds,
          home_odds: s.moneyline.home_odds,
          handle_pct: sides(s.moneyline.handle_pct),
          bets_pct: sides(s.moneyline.bets_pct),
        }
      : null,
  };
}

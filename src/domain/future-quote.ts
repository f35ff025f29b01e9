import type { Quote } from './types.js';

/** Market types that are futures whatever teams a row names. */
const FUTURE_KINDS =
  /^(outrights?|futures?|championship_winner|conference_winner|division_winner|tournament_winner|league_winner|make_playoffs|miss_playoffs|exact_seed|mvp|cy_young|rookie_of_the_year|.*_of_the_year|season_leader|.*award.*|win_total|season_wins|regular_season_wins)$/;

/**
 * Whether a quote is a futures price: its source says so (`future`: the simulator, The Odds API's outrights), its
 * market type is a futures kind (championship_winner, mvp, outright, ...), or it names no opponent (no away team, or
 * the same team on both sides: how feeds spell a question with no game).
 */
export function isFutureQuote(q: Quote): boolean {
  if (q.future) return true;
  const away = (q.awayTeam ?? '').trim();
  const home = (q.homeTeam ?? '').trim();
  if (!away || away.toLowerCase() === home.toLowerCase()) return true;
  return FUTURE_KINDS.test((q.marketType ?? '').toLowerCase());
}

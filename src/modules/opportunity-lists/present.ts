import { assertNever } from '../../common/assert-never.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import { roundTo } from '../../math/index.js';
import type { OddsBoard } from '../board/odds-board.js';
import type { MarketFlag, Guards } from '../detection/guards.js';
import { ageSeconds, isPlayerProp } from '../detection/market-groups.js';

/**
 * What every opportunity item shares: staleness thresholds, the event block and the guards' warnings. Each
 * type's presenter (ev/, arbitrage/, middles/, low-hold/) builds its item from these.
 */

/**
 * Staleness thresholds (seconds since a price was last confirmed). Pre-game prices move slowly, live ones
 * fast: a live price unconfirmed for 10 s may already be gone.
 */
export const STALE = { pregame: 60, pregameVery: 300, live: 10, liveVery: 30 } as const;

export const iso = (ms: number) => new Date(ms).toISOString();
export const r4 = (x: number) => roundTo(x, 4);
export const r2 = (x: number) => roundTo(x, 2);

/**
 * The warnings of the plausibility guards (guards.ts), on every type of opportunity:
 * VENUE_SELF_ARBITRAGE / VENUE_EXCESS_HOLD when it uses a flagged venue market (only listed with
 * include_flagged=true), PRICE_OFF_CONSENSUS when one of its prices is far from the other books' consensus,
 * UNVERIFIED_BOOK when it rests on a book the catalog does not describe (registered on first sight).
 */
export function guardWarnings(g: Guards): string[] {
  const out: string[] = [];
  for (const w of VENUE_WARNINGS) if (g.flagged.some((f) => venueWarning(f.flag) === w)) out.push(w);
  if (g.offConsensus.length) out.push('PRICE_OFF_CONSENSUS');
  if (g.unverified.length) out.push('UNVERIFIED_BOOK');
  return out;
}

/** The venue warnings, in the order items list them. */
const VENUE_WARNINGS = ['VENUE_SELF_ARBITRAGE', 'VENUE_EXCESS_HOLD'] as const;

function venueWarning(flag: MarketFlag): (typeof VENUE_WARNINGS)[number] {
  switch (flag) {
    case 'self_arbitrage':
      return 'VENUE_SELF_ARBITRAGE';
    case 'excess_hold':
      return 'VENUE_EXCESS_HOLD';
    default:
      return assertNever(flag, 'market flag');
  }
}

/** How old the oldest of some prices is (seconds, rounded), and whether that is stale or very stale. */
export function staleness(
  board: OddsBoard,
  rows: readonly OddsRow[],
  live: boolean,
  now: number,
): { oldest: number; stale: boolean; very: boolean } {
  const oldest = Math.max(...rows.map((r) => ageSeconds(board, r, now)));
  const stale = live ? oldest > STALE.live : oldest > STALE.pregame;
  const very = live ? oldest > STALE.liveVery : oldest > STALE.pregameVery;
  return { oldest: r2(oldest), stale, very };
}

/** The event and market fields every opportunity item starts with. */
export function eventBlock(e: BoardEvent | undefined, r: OddsRow) {
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

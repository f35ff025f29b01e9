import type { Catalog } from '../../config/catalog.js';
import type { FuturesMarket, FuturesPrice, ResolvedFuture } from '../../domain/futures.js';
import { slugId } from '../../domain/normalise.js';
import type { OddsRow } from '../../domain/odds-row.js';
import { nameAndTeam, type PlayerSighting } from '../../domain/players.js';
import type { Quote } from '../../domain/types.js';

/**
 * The players a batch quotes, for the players store. Plain functions.
 *
 * A player is named by a prop on the board (`playerName`) and by a player futures or award market (a runner of
 * a PLAYER market: MVP, Cy Young, rookie of the year, ...). A source naming the player's team (`playerTeam`)
 * gives its id: the catalog team's id (the `/teams` id) or, for a team the catalog does not know, its name as a slug.
 */

/** A team's id as the players list gives it: the catalog's id, else the name as a slug; null without a name. */
export function teamIdOf(catalog: Catalog, league: string, name: string | null | undefined): string | null {
  const n = typeof name === 'string' ? name.trim() : '';
  if (!n) return null;
  return catalog.team(league, n)?.id ?? (slugId(n, 64) || null);
}

/** A sighting of a name as sent: a team in brackets after the name counts when the source names none otherwise. */
function sighting(
  catalog: Catalog,
  sport: string,
  league: string,
  raw: string,
  sentTeam: string | null | undefined,
  at: number,
): PlayerSighting {
  const { name, team: bracketed } = nameAndTeam(raw);
  const teamName = (typeof sentTeam === 'string' && sentTeam.trim()) || bracketed;
  const id = teamIdOf(catalog, league, teamName);
  if (!id) return { sport, league, name, at };
  return { sport, league, name, at, teamId: id, teamName: catalog.team(league, teamName!)?.name ?? teamName! };
}

/** The players of a batch's game quotes the board took (`rejected`: indexes of the refused ones). */
export function gameSightings(quotes: readonly Quote[], rejected: ReadonlySet<number>, catalog: Catalog, now: number): PlayerSighting[] {
  const out: PlayerSighting[] = [];
  quotes.forEach((q, i) => {
    if (rejected.has(i) || typeof q.playerName !== 'string' || !q.playerName.trim()) return;
    const league = catalog.league(String(q.league), q.sport ?? undefined);
    if (!league) return;
    out.push(sighting(catalog, league.sport, league.id, q.playerName, q.playerTeam, Math.min(q.sourceTime ?? now, now)));
  });
  return out;
}

/** The players of a batch's futures the futures store took: runners of player markets (never a replayed history). */
export function futureSightings(items: ReadonlyArray<{ quote: Quote; future: ResolvedFuture }>, catalog: Catalog): PlayerSighting[] {
  const out: PlayerSighting[] = [];
  for (const { quote, future } of items) {
    const m = future.market;
    if (m.history || m.futureType !== 'PLAYER' || future.price.selectionType !== 'other') continue;
    out.push(sighting(catalog, m.sport, m.league, future.price.selection, quote.playerTeam, future.at));
  }
  return out;
}

/** The players of the board's props and of the futures store's player markets (the store's state at start). */
export function storedSightings(
  rows: Iterable<OddsRow>,
  markets: ReadonlyMap<string, FuturesMarket>,
  prices: Iterable<FuturesPrice>,
): PlayerSighting[] {
  const out: PlayerSighting[] = [];
  for (const r of rows)
    if (r.playerName) out.push({ sport: r.sport, league: r.league, name: nameAndTeam(r.playerName).name, at: r.lastSeenAt });
  for (const p of prices) {
    const m = markets.get(p.marketId);
    if (!m || m.history || m.futureType !== 'PLAYER' || p.selectionType !== 'other') continue;
    out.push({ sport: m.sport, league: m.league, name: nameAndTeam(p.selection).name, at: p.lastSeenAt });
  }
  return out;
}

import { playerId } from './player-id.js';

/** One quote naming a player, as the intake saw it (a prop on the board, a player futures or award price). */
export interface PlayerSighting {
  sport: string;
  /** Catalog league id. */
  league: string;
  /** The player's name as the source spells it. */
  name: string;
  /** The player's team, when the source names it: its catalog id (or the name as a slug) and its name. */
  teamId?: string | null;
  teamName?: string | null;
  /** When the source quoted it (epoch ms): the latest sighting naming a team sets the player's team. */
  at: number;
}

/** A player as the public list shows it: optional keys absent when unknown. */
export interface PlayerItem {
  id: string;
  display_name: string;
  first_name?: string;
  last_name?: string;
  leagues: string[];
  team_id?: string;
}

/**
 * A display name's first and last name: the first word, and the rest (suffixes such as "Jr." stay with the last
 * name). A one-word name (a mononym, a team-like runner) has neither: both null.
 */
export function splitName(displayName: string): { first: string | null; last: string | null } {
  const words = displayName.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return { first: null, last: null };
  return { first: words[0]!, last: words.slice(1).join(' ') };
}

/**
 * A player's name as feeds spell it, and the team some add in brackets: "Shea Langeliers (Athletics)" is
 * Shea Langeliers of the Athletics. A name without one is itself (team null).
 */
export function nameAndTeam(raw: string): { name: string; team: string | null } {
  const m = /^(.*\S)\s*\(([^()]*\S[^()]*)\)$/.exec(raw.trim());
  return m ? { name: m[1]!, team: m[2]!.trim() } : { name: raw.trim(), team: null };
}

/** The canonical id of a sighting's player (the +EV item's `player_id`), or null for an unusable name. */
export function sightingId(s: Pick<PlayerSighting, 'sport' | 'league' | 'name'>): string | null {
  return playerId(s.sport, s.league, s.name.trim());
}

import { slugId } from './normalise.js';

/**
 * A player's canonical id (the public +EV item's `player_id`): sport, league and the player's name as a slug, accents
 * stripped (`baseball`, `mlb`, `Corbin Carroll` -> `baseball_mlb_corbin_carroll`). Null without a player.
 */
export function playerId(sport: string, league: string, playerName: string | null): string | null {
  if (!playerName) return null;
  const name = slugId(playerName, 100);
  return name ? `${sport}_${league}_${name}` : null;
}

import { sightingId, splitName, type PlayerItem, type PlayerSighting } from '../../../domain/players.js';

/** One player as the store keeps it. */
export interface PlayerRecord {
  id: string;
  displayName: string;
  sport: string;
  league: string;
  teamId: string | null;
  teamName: string | null;
  /** When the team was last named (a later sighting naming another team moves the player). */
  teamSeenAt: number;
  lastSeenAt: number;
}

/**
 * Every player the sources quoted, by canonical id (sport_league_name: the `player_id` of +EV items, so the same
 * player quoted by two sources is one player). The team is the one the latest sighting naming a team gives; a
 * sighting naming none keeps it. Plain class, no framework.
 */
export class PlayersStore {
  readonly players = new Map<string, PlayerRecord>();
  /** Bumped on every change (the list's updated_at). */
  version = 0;
  updatedAt = 0;

  /** Takes sightings; returns how many players were added or changed. */
  observe(sightings: readonly PlayerSighting[]): number {
    let changed = 0;
    for (const s of sightings) {
      const id = sightingId(s);
      if (!id) continue;
      const team = s.teamId && s.teamName ? { id: s.teamId, name: s.teamName } : null;
      const cur = this.players.get(id);
      if (!cur) {
        this.players.set(id, {
          id,
          displayName: s.name.trim(),
          sport: s.sport,
          league: s.league,
          teamId: team?.id ?? null,
          teamName: team?.name ?? null,
          teamSeenAt: team ? s.at : 0,
          lastSeenAt: s.at,
        });
        changed++;
        continue;
      }
      if (s.at > cur.lastSeenAt) cur.lastSeenAt = s.at;
      if (team && s.at >= cur.teamSeenAt) {
        if (team.id !== cur.teamId) changed++;
        cur.teamId = team.id;
        cur.teamName = team.name;
        cur.teamSeenAt = s.at;
      }
    }
    if (changed) {
      this.version++;
      this.updatedAt = sightings.reduce((a, s) => Math.max(a, s.at), this.updatedAt);
    }
    return changed;
  }
}

/** The public item of a player: first and last name and team only when known (absent, never null). */
export function toPlayerItem(p: PlayerRecord): PlayerItem {
  const { first, last } = splitName(p.displayName);
  return {
    id: p.id,
    display_name: p.displayName,
    ...(first ? { first_name: first } : {}),
    ...(last ? { last_name: last } : {}),
    leagues: [p.league],
    ...(p.teamId ? { team_id: p.teamId } : {}),
  };
}

import { Injectable } from '@nestjs/common';
import { badRequest } from '../../common/http/api-error.js';
import { paginate } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { Catalog, foldName } from '../../config/catalog.js';
import { PlayersStoreService } from '../stores/players/players-store.service.js';
import { toPlayerItem, type PlayerRecord } from '../stores/players/players-store.js';
import type { PlayersQuery } from './dto/players.query.dto.js';

/** GET /players: the players store as read, filtered and paged, by name. */
@Injectable()
export class PlayersService {
  constructor(
    private readonly players: PlayersStoreService,
    private readonly catalog: Catalog,
    private readonly clock: Clock,
  ) {}

  list(q: PlayersQuery) {
    const leagues = q.league?.map((l) => {
      const def = this.catalog.league(l);
      if (!def) throw badRequest(`Invalid parameter "league": unknown league "${l}"`, { parameter: 'league' });
      return def.id;
    });
    const team = q.team ? q.team.trim().toLowerCase() : null;
    const teamName = q.team ? foldName(q.team) : null;
    const text = q.q ? foldName(q.q) : null;
    const matches = (p: PlayerRecord) =>
      (!leagues || leagues.includes(p.league)) &&
      (!team || p.teamId === team || (p.teamName !== null && foldName(p.teamName) === teamName)) &&
      (!text || foldName(p.displayName).includes(text));
    const rows = [...this.players.store.players.values()].filter(matches);
    rows.sort((a, b) => (a.displayName < b.displayName ? -1 : a.displayName > b.displayName ? 1 : a.id < b.id ? -1 : 1));
    const updated = new Date(this.players.store.updatedAt || this.clock.now()).toISOString();
    return paginate(
      rows.map(toPlayerItem),
      q.limit,
      q.offset,
      { filters: { league: q.league ?? null, team: q.team ?? null, q: q.q ?? null }, updated_at: updated },
      { updated_at: updated },
    );
  }
}

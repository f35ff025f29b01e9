import { Injectable, Logger } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { ApiError } from '../../common/http/api-error.js';
import { Clock } from '../../common/time/clock.js';
import { CLV_WINDOW_DAYS } from '../clv/clv.service.js';
import { ClvService } from '../clv/clv.service.js';
import { toSettlement } from './settlements.mapper.js';
import { SettlementsRepository, type SettledRow } from './settlements.repository.js';
import type { SettlementsQuery } from './dto/settlements.query.dto.js';
import { playerId } from '../../domain/player-id.js';

const DAY = 86_400_000;
export const SETTLEMENTS_SOURCE = 'ev_grading';

/**
 * GET /settlements: the service's own +EV signals settled. Every pre-game +EV detection the CLV track record
 * keeps is graded at its game's final score (won, lost, push); a postponed or cancelled game makes it void. How far
 * back the list reaches is the tier's CLV window (games starting on or after `meta.grading_cutoff`).
 */
@Injectable()
export class SettlementsService {
  private readonly logger = new Logger('settlements');

  constructor(
    private readonly repo: SettlementsRepository,
    private readonly clv: ClvService,
    private readonly clock: Clock,
  ) {}

  async list(account: Account, q: SettlementsQuery) {
    const now = this.clock.now();
    const days = CLV_WINDOW_DAYS[account.tier];
    const cutoffDay = days === null ? null : Math.floor((now - days * DAY) / DAY) * DAY;
    let rows: SettledRow[];
    try {
      await this.clv.settle();
      rows = await this.repo.settled({
        since: cutoffDay,
        hashId: q.hash_id,
        gameId: q.game_id,
        marketType: q.market_type,
        selection: q.selection,
        playersOnly: q.player_id !== undefined,
      });
    } catch (err) {
      this.logger.warn({ msg: 'settlements store unreadable', error: (err as Error).message });
      throw new ApiError('service_unavailable', 'The settlements store cannot be read right now; try again shortly');
    }
    if (q.player_id !== undefined) {
      const wanted = q.player_id.toLowerCase();
      rows = rows.filter((r) => playerId(r.sport, r.league, r.playerName) === wanted);
    }
    const slice = rows.slice(q.offset, q.offset + q.limit);
    const more = q.offset + slice.length < rows.length;
    return {
      success: true as const,
      data: {
        total_settlements: rows.length,
        truncated: more,
        next_offset: more ? q.offset + slice.length : null,
        settlements: slice.map(toSettlement),
      },
      meta: {
        source: SETTLEMENTS_SOURCE,
        limit: q.limit,
        offset: q.offset,
        grading_cutoff: cutoffDay === null ? null : new Date(cutoffDay).toISOString().slice(0, 10),
        updated_at: new Date(now).toISOString(),
        filters: {
          hash_id: q.hash_id ?? null,
          game_id: q.game_id ?? null,
          market_type: q.market_type ?? null,
          selection: q.selection ?? null,
          player_id: q.player_id ?? null,
        },
      },
    };
  }
}

import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { badRequest, notFound, tierRestricted } from '../../common/http/api-error.js';
import { page } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { Catalog } from '../../config/catalog.js';
import { BoardService } from '../board/board.service.js';
import { DetectionEngine } from '../detection/detection.engine.js';
import { countBy, OpportunityLists, round4, round6, sortOf, type ListScope } from '../opportunity-lists/opportunity-lists.js';
import type { MiddlesQuery, MiddlesSummaryQuery } from './dto/middles.query.js';
import { MiddlesDetector } from './middles.detector.js';
import { MiddlesPresenter } from './middles.presenter.js';
import { dict } from '../../domain/dict.js';
import type { MiddleRecord } from './middles.record.js';

/** `/opportunities/middles`, one middle by id, and the summary over the current middles. */
@Injectable()
export class MiddlesService {
  constructor(
    private readonly lists: OpportunityLists,
    private readonly engine: DetectionEngine,
    private readonly detector: MiddlesDetector,
    private readonly presenter: MiddlesPresenter,
    private readonly boards: BoardService,
    private readonly policy: AccessPolicy,
    private readonly catalog: Catalog,
    private readonly clock: Clock,
  ) {}

  private filtered(account: Account | undefined, q: MiddlesQuery): { c: ListScope; found: MiddleRecord[] } {
    if (q.min_odds !== undefined && q.max_odds !== undefined && q.min_odds > q.max_odds) {
      throw badRequest('Invalid parameters: min_odds is greater than max_odds', { parameter: 'min_odds' });
    }
    const c = this.lists.scope(account, q);
    const minSize = q.min_size ?? 0.5;
    const found = this.lists
      .records<MiddleRecord>(this.detector.kind, account, c, q.include_flagged)
      .filter((m) => m.analysis.middleSize >= minSize && this.lists.passes(c, q, m, this.detector.rows(m)));
    return { c, found };
  }

  list(account: Account | undefined, q: MiddlesQuery) {
    const { c, found } = this.filtered(account, q);
    const { field, reverse } = sortOf(q.sort, 'quality');
    const cmp: Record<string, (a: MiddleRecord, b: MiddleRecord) => number> = dict({
      quality: (a, b) => b.qualityScore - a.qualityScore || b.analysis.expectedValue - a.analysis.expectedValue,
      ev: (a, b) => b.analysis.expectedValue - a.analysis.expectedValue,
      probability: (a, b) => b.analysis.middleProbability - a.analysis.middleProbability,
      middle_size: (a, b) => b.analysis.middleSize - a.analysis.middleSize,
    });
    found.sort((a, b) => (reverse ? -1 : 1) * (cmp[field]!(a, b) || (a.id < b.id ? -1 : 1)));
    const data = found.slice(q.offset, q.offset + q.limit).map((m) => this.presenter.present(c.board, m, c.now));
    const filters = {
      sport: q.sport ?? null,
      league: q.league ?? null,
      sportsbook: c.books.isDefault ? null : c.books.books,
      market: q.market ?? null,
      min_size: q.min_size ?? 0.5,
      min_odds: q.min_odds ?? null,
      max_odds: q.max_odds ?? null,
    };
    return page(
      data,
      { limit: q.limit, offset: q.offset, total: found.length },
      { source: 'cache', summary: { count: found.length }, filters, updated_at: this.clock.iso() },
      { updated_at: this.clock.iso() },
    );
  }

  /** One live middle (any scope), unless it uses a book above the caller's tier. */
  one(account: Account, id: string) {
    if (!/^[0-9a-f]{16}$/.test(id))
      throw badRequest(`Invalid middle id "${id}": expected 16 lowercase hexadecimal characters`, { parameter: 'id' });
    const found = this.engine.known<MiddleRecord>(this.detector.kind, id);
    if (!found) throw notFound(`No live middle with id ${id} (it may have expired)`);
    for (const book of [found.side1.row.sportsbook, found.side2.row.sportsbook]) {
      const def = this.catalog.book(book);
      if (def && !this.policy.mayUseBook(account.tier, def)) {
        throw tierRestricted(`This middle uses ${def.display_name}, which requires the ${def.requires_tier} tier`, def.requires_tier!, {
          tier: account.tier,
        });
      }
    }
    return {
      success: true as const,
      data: this.presenter.present(this.boards.board, found, this.clock.now()),
      updated_at: this.clock.iso(),
    };
  }

  summary(account: Account | undefined, q: MiddlesSummaryQuery) {
    const { found } = this.filtered(account, { sport: q.sport, league: q.league, limit: 200, offset: 0 } as MiddlesQuery);
    const evs = found.map((m) => m.analysis.expectedValue);
    const best = found.reduce<MiddleRecord | null>((b, m) => (!b || m.analysis.expectedValue > b.analysis.expectedValue ? m : b), null);
    const avg = (xs: number[]) => (xs.length ? round4(xs.reduce((a, b) => a + b, 0) / xs.length) : 0);
    return {
      success: true as const,
      data: {
        total: found.length,
        positive_ev_count: found.filter((m) => m.analysis.expectedValue > 0).length,
        guaranteed_profit_count: found.filter((m) => m.analysis.isGuaranteedProfit).length,
        player_prop_count: found.filter((m) => m.marketType.startsWith('player_')).length,
        by_sport: countBy(found, (m) => m.sport),
        by_market: countBy(found, (m) => m.marketType),
        by_sportsbook: countBy(found, (m) => [m.side1.row.sportsbook, m.side2.row.sportsbook]),
        avg_middle_size: avg(found.map((m) => m.analysis.middleSize)),
        avg_probability: found.length ? round6(found.reduce((s, m) => s + m.analysis.middleProbability, 0) / found.length) : 0,
        avg_ev: avg(evs),
        best_ev: best ? { ev: round4(best.analysis.expectedValue), sport: best.sport, market: best.marketType } : null,
        has_key_numbers_count: found.filter((m) => m.analysis.keyNumbers.length > 0).length,
      },
      meta: { source: 'cache', filters: { sport: q.sport ?? null, league: q.league ?? null }, updated_at: this.clock.iso() },
    };
  }
}

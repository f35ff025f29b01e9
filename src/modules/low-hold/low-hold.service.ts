import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { page } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { bySport, countBy, OpportunityLists, round4, sortOf } from '../opportunity-lists/opportunity-lists.js';
import type { LowHoldQuery } from './dto/low-hold.query.js';
import { LowHoldDetector } from './low-hold.detector.js';
import { LowHoldPresenter } from './low-hold.presenter.js';
import { dict } from '../../domain/dict.js';
import type { LowHoldRecord } from './low-hold.record.js';

/** `/opportunities/low_hold`: the live low-hold markets as the caller may see them. */
@Injectable()
export class LowHoldService {
  constructor(
    private readonly lists: OpportunityLists,
    private readonly detector: LowHoldDetector,
    private readonly presenter: LowHoldPresenter,
    private readonly clock: Clock,
  ) {}

  list(account: Account | undefined, q: LowHoldQuery) {
    const c = this.lists.scope(account, q);
    const maxHold = q.max_hold ?? 5;
    const found = this.lists
      .records<LowHoldRecord>(this.detector.kind, account, c, q.include_flagged)
      .filter((h) => h.holdPercent <= maxHold && this.lists.passes(c, q, h, this.detector.rows(h)));
    const { field, reverse } = sortOf(q.sort, 'hold');
    const cmp: Record<string, (a: LowHoldRecord, b: LowHoldRecord) => number> = dict({
      hold: (a, b) => a.holdPercent - b.holdPercent,
      market: (a, b) => (a.marketType < b.marketType ? -1 : a.marketType > b.marketType ? 1 : 0) || a.holdPercent - b.holdPercent,
      sport: (a, b) => bySport(a.sides[0]!.row, b.sides[0]!.row) || a.holdPercent - b.holdPercent,
    });
    found.sort((a, b) => (reverse ? -1 : 1) * (cmp[field]!(a, b) || (a.id < b.id ? -1 : 1)));
    const holds = found.map((h) => h.holdPercent);
    const summary = {
      count: found.length,
      avg_hold: holds.length ? round4(holds.reduce((a, b) => a + b, 0) / holds.length) : 0,
      min_hold: holds.length ? round4(Math.min(...holds)) : 0,
      by_market: countBy(found, (h) => h.marketType),
      by_sport: countBy(found, (h) => h.sides[0]!.row.sport),
    };
    const data = found.slice(q.offset, q.offset + q.limit).map((h) => this.presenter.present(c.board, h, c.now));
    return page(
      data,
      { limit: q.limit, offset: q.offset, total: found.length },
      { source: 'cache', summary, filters: { ...this.lists.echo(q, c), max_hold: maxHold }, updated_at: this.clock.iso() },
    );
  }
}

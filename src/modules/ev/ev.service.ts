import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { page } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { kellyFraction, type DevigMethod } from '../../math/index.js';
import { DetectionEngine } from '../detection/detection.engine.js';
import type { Json, OpportunityRecord } from '../detection/detector.js';
import { countBy, OpportunityLists, round4, sortOf } from '../opportunity-lists/opportunity-lists.js';
import { EvDetector, type EvRecord } from './ev.detector.js';
import { EV_SORT_ALIASES, type EvQuery } from './dto/ev.query.js';
import { EvPresenter } from './ev.presenter.js';

/**
 * What an +EV item says of an arbitrage on the same market (`arb_available`, `arb_profit`): read from the
 * engine by the arbitrage type's kind, so that +EV needs no import of that module (and works without it).
 */
const ARBITRAGE_KIND = 'arbitrage';
interface ArbitrageLike extends OpportunityRecord {
  profitPercent: number;
}

/** `/opportunities/ev`: the live +EV items as the caller may see them, filtered, sorted and paged. */
@Injectable()
export class EvService {
  constructor(
    private readonly lists: OpportunityLists,
    private readonly engine: DetectionEngine,
    private readonly detector: EvDetector,
    private readonly presenter: EvPresenter,
    private readonly clock: Clock,
  ) {}

  list(account: Account | undefined, q: EvQuery) {
    const c = this.lists.scope(account, q);
    const method = (q.devig_method ?? 'power') as DevigMethod;
    const minEv = q.min_ev ?? 0;
    const matches: Array<{ r: EvRecord; ev: number; kelly: number }> = [];
    for (const r of this.lists.records<EvRecord>(this.detector.kind, account, c, q.include_flagged)) {
      if (!this.lists.rowOk(c, r.row, q) || !c.eventOk(c.board.events.get(r.eventId))) continue;
      const ev = (r.fair[method] * r.row.decimal - 1) * 100;
      if (ev <= 0 || ev < minEv || (q.max_ev !== undefined && ev > q.max_ev)) continue;
      if (q.min_market_width !== undefined && (r.marketWidth === null || r.marketWidth < q.min_market_width)) continue;
      if (q.max_market_width !== undefined && (r.marketWidth === null || r.marketWidth > q.max_market_width)) continue;
      if (q.max_odds_age !== undefined && this.lists.maxAge(c, [r.row, ...r.sharpRows]) > q.max_odds_age) continue;
      matches.push({ r, ev, kelly: kellyFraction(r.fair[method], r.row.decimal) });
    }
    const arbs = this.engine.live<ArbitrageLike>(ARBITRAGE_KIND);
    const arbOf = (r: EvRecord) => {
      const ids = arbs?.idsOf(r.source);
      const a = ids && ids.size ? arbs!.get([...ids][0]!) : undefined;
      return a ? { profit: a.profitPercent } : null;
    };
    const items = matches.map((m) => ({ m, json: this.presenter.present(c.board, m.r, method, c.now, arbOf(m.r)) }));
    const { field, reverse } = sortOf(q.sort, 'ev', EV_SORT_ALIASES);
    const startOf = (x: { json: Json }) => String(x.json.start_time ?? '');
    const cmp: Record<string, (a: (typeof items)[number], b: (typeof items)[number]) => number> = {
      ev: (a, b) => b.m.ev - a.m.ev,
      odds: (a, b) => b.m.r.row.decimal - a.m.r.row.decimal,
      confidence: (a, b) => Number(b.json.confidence_score) - Number(a.json.confidence_score),
      kelly: (a, b) => b.m.kelly - a.m.kelly,
      book_count: (a, b) => b.m.r.bookCount - a.m.r.bookCount || b.m.ev - a.m.ev,
      start_time: (a, b) => (startOf(a) < startOf(b) ? -1 : startOf(a) > startOf(b) ? 1 : 0),
    };
    items.sort((a, b) => (reverse ? -1 : 1) * (cmp[field]!(a, b) || (a.m.r.id < b.m.r.id ? -1 : 1)));
    const evs = matches.map((m) => m.ev);
    const summary = {
      count: matches.length,
      avg_ev: evs.length ? round4(evs.reduce((a, b) => a + b, 0) / evs.length) : 0,
      max_ev: evs.length ? round4(Math.max(...evs)) : 0,
      by_sportsbook: countBy(matches, (m) => m.r.row.sportsbook),
      by_sport: countBy(matches, (m) => m.r.row.sport),
      by_market: countBy(matches, (m) => m.r.marketType),
    };
    const data = items.slice(q.offset, q.offset + q.limit).map((i) => i.json);
    return page(
      data,
      { limit: q.limit, offset: q.offset, total: items.length },
      { source: 'memory', devig_method: method, summary, filters: this.lists.echo(q, c), updated_at: this.clock.iso() },
    );
  }
}

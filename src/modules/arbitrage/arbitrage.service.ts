import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { page } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { Catalog } from '../../config/catalog.js';
import type { OddsRow } from '../../domain/odds-row.js';
import { DetectionEngine } from '../detection/detection.engine.js';
import type { OpportunityRecord } from '../detection/detector.js';
import { bySport, countBy, OpportunityLists, round4, sortOf, type ListScope } from '../opportunity-lists/opportunity-lists.js';
import { arbitrageCsv } from './arbitrage-csv.js';
import { ArbitrageDetector } from './arbitrage.detector.js';
import { ArbitragePresenter } from './arbitrage.presenter.js';
import { ARB_SORT_ALIASES, type ArbitrageQuery } from './dto/arbitrage.query.js';
import { dict } from '../../domain/dict.js';
import type { ArbitrageRecord } from './arbitrage.record.js';

/**
 * What an arbitrage item says of +EV among its legs (`ev_available`, `ev_percentage`): read from the engine by
 * the +EV type's kind, so that arbitrage needs no import of that module (and works without it).
 */
const EV_KIND = 'ev';
interface EvLike extends OpportunityRecord {
  row: OddsRow;
  fair: { power: number };
}

/** `/opportunities/arbitrage` (JSON or CSV): the live arbitrages as the caller may see them. */
@Injectable()
export class ArbitrageService {
  constructor(
    private readonly lists: OpportunityLists,
    private readonly engine: DetectionEngine,
    private readonly detector: ArbitrageDetector,
    private readonly presenter: ArbitragePresenter,
    private readonly catalog: Catalog,
    private readonly clock: Clock,
  ) {}

  /** The matching arbitrages, sorted (all of them: the JSON page and the CSV slice them). */
  private found(account: Account | undefined, q: ArbitrageQuery): { c: ListScope; found: ArbitrageRecord[]; minProfit: number } {
    const c = this.lists.scope(account, q);
    const minProfit = q.min_profit ?? 0.5;
    let found = this.lists
      .records<ArbitrageRecord>(this.detector.kind, account, c, q.include_flagged)
      .filter((a) => a.profitPercent >= minProfit && this.lists.passes(c, q, a, this.detector.rows(a)));
    if (q.group === 'best') {
      const best = new Map<string, ArbitrageRecord>();
      for (const a of found) {
        const cur = best.get(a.eventId);
        if (!cur || a.profitPercent > cur.profitPercent || (a.profitPercent === cur.profitPercent && a.id < cur.id)) best.set(a.eventId, a);
      }
      found = [...best.values()];
    }
    const { field, reverse } = sortOf(q.sort, 'profit', ARB_SORT_ALIASES);
    const start = (a: ArbitrageRecord) => c.board.events.get(a.eventId)?.startTime ?? 0;
    const cmp: Record<string, (a: ArbitrageRecord, b: ArbitrageRecord) => number> = dict({
      profit: (a, b) => b.profitPercent - a.profitPercent,
      start_time: (a, b) => start(a) - start(b),
      sport: (a, b) => bySport(a.legs[0]!.row, b.legs[0]!.row) || b.profitPercent - a.profitPercent,
      market: (a, b) => (a.marketType < b.marketType ? -1 : a.marketType > b.marketType ? 1 : 0) || b.profitPercent - a.profitPercent,
    });
    found.sort((a, b) => (reverse ? -1 : 1) * (cmp[field]!(a, b) || (a.id < b.id ? -1 : 1)));
    return { c, found, minProfit };
  }

  list(account: Account | undefined, q: ArbitrageQuery) {
    const { c, found, minProfit } = this.found(account, q);
    const evs = this.engine.live<EvLike>(EV_KIND);
    const evOf = (a: ArbitrageRecord) => {
      let best: number | null = null;
      for (const id of evs?.idsOf(a.source) ?? []) {
        const r = evs!.get(id)!;
        if (!a.legs.some((l) => l.row.id === r.row.id)) continue;
        const ev = (r.fair.power * r.row.decimal - 1) * 100;
        if (ev > 0 && (best === null || ev > best)) best = ev;
      }
      return best === null ? null : { percentage: best };
    };
    const profits = found.map((a) => a.profitPercent);
    const summary = {
      count: found.length,
      avg_profit: profits.length ? round4(profits.reduce((x, y) => x + y, 0) / profits.length) : 0,
      max_profit: profits.length ? round4(Math.max(...profits)) : 0,
      by_market: countBy(found, (a) => a.marketType),
      by_sport: countBy(found, (a) => a.legs[0]!.row.sport),
    };
    const data = found.slice(q.offset, q.offset + q.limit).map((a) => this.presenter.present(c.board, a, c.now, evOf(a)));
    const booksAnalyzed = c.books.all ? this.catalog.books.length : c.books.books.length;
    return page(
      data,
      { limit: q.limit, offset: q.offset, total: found.length },
      {
        source: 'cache',
        summary,
        filters: { ...this.lists.echo(q, c), min_profit: minProfit, group: q.group ?? null },
        books_analyzed: booksAnalyzed,
        updated_at: this.clock.iso(),
      },
    );
  }

  /** The arbitrage list as a CSV file (arbitrage-csv.ts: the columns and their order). */
  csv(account: Account | undefined, q: ArbitrageQuery): { filename: string; body: string } {
    const { c, found } = this.found(account, q);
    const items = found.slice(q.offset, q.offset + q.limit).map((a) => this.presenter.present(c.board, a, c.now));
    const date = new Date(this.clock.now()).toISOString().slice(0, 10);
    return { filename: `arbitrage_${date}.csv`, body: arbitrageCsv(items) };
  }
}

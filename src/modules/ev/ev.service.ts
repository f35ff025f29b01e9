import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { badRequest } from '../../common/http/api-error.js';
import { page } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { kellyFraction, type DevigMethod } from '../../math/index.js';
import { DetectionEngine } from '../detection/detection.engine.js';
import type { Json, OpportunityRecord } from '../detection/detector.js';
import { countBy, OpportunityLists, round4, sortOf } from '../opportunity-lists/opportunity-lists.js';
import { EvDetector } from './ev.detector.js';
import { EV_SORT_ALIASES, type EvQuery } from './dto/ev.query.js';
import { EvPresenter } from './ev.presenter.js';
import { dict } from '../../domain/dict.js';
import type { EvRecord } from './ev.record.js';

/**
 * What an +EV item says of an arbitrage on the same market (`arb_available`, `arb_profit`): read from the
 * engine by the arbitrage type's kind, so that +EV needs no import of that module (and works without it).
 */
const ARBITRAGE_KIND = 'arbitrage';
interface ArbitrageLike extends OpportunityRecord {
  profitPercent: number;
}

const same = (a: string | null | undefined, b: string) => (a ?? '').toLowerCase() === b.toLowerCase();

/** The item filters on what an item says (kelly in percent of bankroll, confidence 0-100, names exact, any case). */
function itemOk(q: EvQuery, r: EvRecord, json: Json): boolean {
  const kelly = Number(json.kelly_percent) * 100;
  const confidence = Number(json.confidence_score);
  const player = q.player_name ?? q.player;
  if (q.min_kelly !== undefined && kelly < q.min_kelly) return false;
  if (q.max_kelly !== undefined && kelly > q.max_kelly) return false;
  if (q.min_confidence !== undefined && confidence < q.min_confidence) return false;
  if (q.max_confidence !== undefined && confidence > q.max_confidence) return false;
  if (q.is_player_prop !== undefined && json.is_player_prop !== q.is_player_prop) return false;
  if (q.is_alternate_line !== undefined && r.isMainLine === q.is_alternate_line) return false;
  if (q.arb_available !== undefined && json.arb_available !== q.arb_available) return false;
  if (player !== undefined && !same(r.row.playerName, player)) return false;
  if (q.stat_category !== undefined && !same(r.row.statCategory, q.stat_category)) return false;
  if (q.selection !== undefined && !same(r.row.selection, q.selection)) return false;
  return true;
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
    if (q.player_name !== undefined && q.player !== undefined && !same(q.player_name, q.player)) {
      throw badRequest('Invalid parameters: "player" is an alias of "player_name"; give one of them, or both with the same value', {
        parameter: 'player',
      });
    }
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
    const items = matches
      .map((m) => ({ m, json: this.presenter.present(c.board, m.r, method, c.now, arbOf(m.r)) }))
      .filter((x) => itemOk(q, x.m.r, x.json));
    const { field, reverse } = sortOf(q.sort, 'ev', EV_SORT_ALIASES);
    const startOf = (x: { json: Json }) => String(x.json.start_time ?? '');
    const cmp: Record<string, (a: (typeof items)[number], b: (typeof items)[number]) => number> = dict({
      ev: (a, b) => b.m.ev - a.m.ev,
      odds: (a, b) => b.m.r.row.decimal - a.m.r.row.decimal,
      confidence: (a, b) => Number(b.json.confidence_score) - Number(a.json.confidence_score),
      kelly: (a, b) => b.m.kelly - a.m.kelly,
      book_count: (a, b) => b.m.r.bookCount - a.m.r.bookCount || b.m.ev - a.m.ev,
      start_time: (a, b) => (startOf(a) < startOf(b) ? -1 : startOf(a) > startOf(b) ? 1 : 0),
    });
    items.sort((a, b) => (reverse ? -1 : 1) * (cmp[field]!(a, b) || (a.m.r.id < b.m.r.id ? -1 : 1)));
    const listed = items.map((i) => i.m);
    const evs = listed.map((m) => m.ev);
    const summary = {
      count: listed.length,
      avg_ev: evs.length ? round4(evs.reduce((a, b) => a + b, 0) / evs.length) : 0,
      max_ev: evs.length ? round4(Math.max(...evs)) : 0,
      by_sportsbook: countBy(listed, (m) => m.r.row.sportsbook),
      by_sport: countBy(listed, (m) => m.r.row.sport),
      by_market: countBy(listed, (m) => m.r.marketType),
    };
    const data = items.slice(q.offset, q.offset + q.limit).map((i) => i.json);
    return page(
      data,
      { limit: q.limit, offset: q.offset, total: items.length },
      { source: 'memory', devig_method: method, summary, filters: this.lists.echo(q, c), updated_at: this.clock.iso() },
    );
  }
}

import { Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify/sync';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy, type BookScope } from '../../common/auth/access-policy.js';
import { badRequest, notFound, tierRestricted } from '../../common/http/api-error.js';
import { page } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { Catalog, foldName } from '../../config/catalog.js';
import { localDateHour } from '../../domain/normalise.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import { kellyFraction, type DevigMethod } from '../../math/index.js';
import { BoardService } from '../board/board.service.js';
import type { OddsBoard } from '../board/odds-board.js';
import { EventsService } from '../events/events.service.js';
import { OddsService } from '../odds/odds.service.js';
import { detectArbitrage, detectEv, detectLowHold, detectMiddles, type DetectContext } from './detect/detectors.js';
import { ageSeconds } from './detect/market-groups.js';
import type { ArbitrageRecord, EvRecord, LowHoldRecord, MiddleRecord, OpportunityKind, OpportunityRecord } from './detect/records.js';
import { DetectionService } from './detection.service.js';
import type { ArbitrageQuery, EvQuery, LowHoldQuery, MiddlesQuery, MiddlesSummaryQuery, OpportunityFilters } from './dto/opportunities.query.js';
import { OpportunityPresenter, type Json } from './presenter.js';

type Scoped = Exclude<OpportunityKind, 'ev'>;

interface Common {
  board: OddsBoard;
  books: BookScope;
  now: number;
  sports?: ReadonlySet<string>;
  leagues?: ReadonlySet<string>;
  markets?: ReadonlySet<string>;
  events?: ReadonlySet<string>;
  eventOk: (e: BoardEvent | undefined) => boolean;
}

const ET = 'America/New_York';
const DAY = 86_400_000;

function dir(sort: string | undefined, def: string): { field: string; reverse: boolean } {
  const s = sort ?? def;
  return s.startsWith('-') ? { field: s.slice(1), reverse: true } : { field: s, reverse: false };
}

function countBy<T>(items: readonly T[], key: (t: T) => string | string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of items) for (const k of ([] as string[]).concat(key(i))) out[k] = (out[k] ?? 0) + 1;
  return out;
}

/**
 * The opportunity lists: reads the live registries of the detection engine, applies the caller's tier
 * scope and the filters, sorts and pages. For a caller's default book set the continuously maintained
 * scope is used; a narrower set of named books is evaluated on demand over the groups that have an
 * opportunity among all books (anything found among fewer books is also found among all of them).
 */
@Injectable()
export class OpportunitiesService {
  constructor(
    private readonly detection: DetectionService,
    private readonly boards: BoardService,
    private readonly policy: AccessPolicy,
    private readonly catalog: Catalog,
    private readonly events: EventsService,
    private readonly odds: OddsService,
    private readonly presenter: OpportunityPresenter,
    private readonly clock: Clock,
  ) {}

  private common(account: Account | undefined, q: OpportunityFilters): Common {
    const { board, books } = this.odds.scope(account, q);
    const now = this.clock.now();
    const team = q.team ? foldName(q.team) : '';
    let window: [number, number] | null = null;
    if (q.date_range) {
      const today = localDateHour(now, ET).date;
      const midnight = Date.parse(`${today}T00:00:00Z`) + etOffsetMs(now);
      window = q.date_range === 'today' ? [midnight, midnight + DAY] : q.date_range === 'tomorrow' ? [midnight + DAY, midnight + 2 * DAY] : [now - 6 * 3600_000, now + 7 * DAY];
    }
    const eventIds = [...(q.event ?? []), ...(q.event_id ?? [])];
    return {
      board,
      books,
      now,
      sports: this.events.resolveSports(q.sport),
      leagues: this.events.resolveLeagues(q.league),
      markets: this.odds.resolveMarkets(q.market),
      events: eventIds.length ? new Set(eventIds) : undefined,
      eventOk: (e) => {
        if (!e) return false;
        if (team && !this.events.matchesTeam(e, team)) return false;
        if (window && (e.startTime < window[0] || e.startTime >= window[1])) return false;
        return true;
      },
    };
  }

  private rowOk(c: Common, r: OddsRow, q: OpportunityFilters & { min_odds?: number; max_odds?: number }): boolean {
    if (!c.books.has(r.sportsbook)) return false;
    if (c.sports && !c.sports.has(r.sport)) return false;
    if (c.leagues && !c.leagues.has(r.league)) return false;
    if (c.markets && !c.markets.has(r.marketType)) return false;
    if (c.events && !c.events.has(r.eventId)) return false;
    if (q.live !== undefined && r.isLive !== q.live) return false;
    if (q.min_odds !== undefined && r.american < q.min_odds) return false;
    if (q.max_odds !== undefined && r.american > q.max_odds) return false;
    return true;
  }

  private maxAge(c: Common, rows: readonly OddsRow[]): number {
    return Math.max(...rows.map((r) => ageSeconds(c.board, r, c.now)));
  }

  /** The records of a scoped kind for the caller: its default scope's registry, or an on-demand evaluation. */
  private scoped<R extends ArbitrageRecord | LowHoldRecord | MiddleRecord>(kind: Scoped, account: Account | undefined, c: Common): R[] {
    const registries = (kind === 'arbitrage' ? this.detection.arbitrage : kind === 'low_hold' ? this.detection.lowHold : this.detection.middles) as Map<string, import('./detect/registry.js').OpportunityRegistry<R>>;
    if (c.books.isDefault && account) {
      return [...registries.get(this.detection.scopeKeyFor(kind, account.tier))!.values()];
    }
    const all = registries.get('all')!;
    const ctx = this.detection.ctx(c.now);
    const out: R[] = [];
    for (const source of all.sources()) {
      const found = (kind === 'arbitrage' ? [detectArbitrage(ctx, source, c.books.has)] : kind === 'low_hold' ? [detectLowHold(ctx, source, c.books.has)] : detectMiddles(ctx, source, c.books.has)) as Array<R | null>;
      for (const r of found) {
        if (!r) continue;
        const known = [...registries.values()].map((reg) => reg.get(r.id)).find(Boolean);
        const group = [...(all.idsOf(source) ?? [])].map((id) => all.get(id)!.detectedAt);
        r.detectedAt = known?.detectedAt ?? Math.min(r.detectedAt, ...group);
        out.push(r);
      }
    }
    return out;
  }

  /**
   * With include_flagged, the opportunities of the sources holding a flagged venue market are found again
   * with flagged markets let in (each then carries its VENUE_* warning); without, the list is unchanged.
   */
  private withFlagged<R extends OpportunityRecord>(kind: OpportunityKind, base: R[], c: Common, include: boolean | undefined, detect: (ctx: DetectContext, source: string) => Array<R | null>): R[] {
    if (!include) return base;
    const sources = this.detection.flaggedSources(kind);
    if (!sources.size) return base;
    const ctx = this.detection.ctx(c.now, { includeFlagged: true });
    const out = base.filter((r) => !sources.has(r.source));
    for (const source of sources) {
      for (const r of detect(ctx, source)) {
        if (!r) continue;
        const known = this.detection.known(kind, r.id);
        if (known) r.detectedAt = known.detectedAt;
        out.push(r);
      }
    }
    return out;
  }

  private sportOrder(a: { sport: string }, b: { sport: string }): number {
    return a.sport < b.sport ? -1 : a.sport > b.sport ? 1 : 0;
  }

  ev(account: Account | undefined, q: EvQuery) {
    const c = this.common(account, q);
    const method = (q.devig_method ?? 'power') as DevigMethod;
    const minEv = q.min_ev ?? 0;
    const matches: Array<{ r: EvRecord; ev: number; kelly: number }> = [];
    const records = this.withFlagged('ev', [...this.detection.ev.values()], c, q.include_flagged, (ctx, g) => detectEv(ctx, g));
    for (const r of records) {
      if (!this.rowOk(c, r.row, q) || !c.eventOk(c.board.events.get(r.eventId))) continue;
      const ev = (r.fair[method] * r.row.decimal - 1) * 100;
      if (ev <= 0 || ev < minEv || (q.max_ev !== undefined && ev > q.max_ev)) continue;
      if (q.min_market_width !== undefined && (r.marketWidth === null || r.marketWidth < q.min_market_width)) continue;
      if (q.max_market_width !== undefined && (r.marketWidth === null || r.marketWidth > q.max_market_width)) continue;
      if (q.max_odds_age !== undefined && this.maxAge(c, [r.row, ...r.sharpRows]) > q.max_odds_age) continue;
      matches.push({ r, ev, kelly: kellyFraction(r.fair[method], r.row.decimal) });
    }
    const arbs = this.detection.arbitrage.get('all')!;
    const arbOf = (r: EvRecord) => {
      const ids = arbs.idsOf(r.source);
      const a = ids && ids.size ? arbs.get([...ids][0]!) : undefined;
      return a ? { profit: a.profitPercent } : null;
    };
    const items = matches.map((m) => ({ m, json: this.presenter.ev(c.board, m.r, method, c.now, arbOf(m.r)) }));
    const { field, reverse } = dir(q.sort, 'ev');
    const startOf = (x: { json: Json }) => String(x.json.start_time ?? '');
    const cmp: Record<string, (a: (typeof items)[number], b: (typeof items)[number]) => number> = {
      ev: (a, b) => b.m.ev - a.m.ev,
      odds: (a, b) => b.m.r.row.decimal - a.m.r.row.decimal,
      confidence: (a, b) => Number(b.json.confidence_score) - Number(a.json.confidence_score),
      kelly: (a, b) => b.m.kelly - a.m.kelly,
      start_time: (a, b) => (startOf(a) < startOf(b) ? -1 : startOf(a) > startOf(b) ? 1 : 0),
    };
    items.sort((a, b) => (reverse ? -1 : 1) * (cmp[field]!(a, b) || (a.m.r.id < b.m.r.id ? -1 : 1)));
    const evs = matches.map((m) => m.ev);
    const summary = {
      count: matches.length,
      avg_ev: evs.length ? round(evs.reduce((a, b) => a + b, 0) / evs.length) : 0,
      max_ev: evs.length ? round(Math.max(...evs)) : 0,
      by_sportsbook: countBy(matches, (m) => m.r.row.sportsbook),
      by_sport: countBy(matches, (m) => m.r.row.sport),
      by_market: countBy(matches, (m) => m.r.marketType),
    };
    const data = items.slice(q.offset, q.offset + q.limit).map((i) => i.json);
    return page(data, { limit: q.limit, offset: q.offset, total: items.length }, { source: 'memory', devig_method: method, summary, filters: this.echo(q, c), updated_at: this.clock.iso() });
  }

  arbitrage(account: Account | undefined, q: ArbitrageQuery) {
    const c = this.common(account, q);
    const minProfit = q.min_profit ?? 0.5;
    const records = this.withFlagged('arbitrage', this.scoped<ArbitrageRecord>('arbitrage', account, c), c, q.include_flagged, (ctx, g) => [detectArbitrage(ctx, g, c.books.has)]);
    let found = records.filter((a) => {
      if (a.profitPercent < minProfit) return false;
      if (!a.legs.every((l) => this.rowOk(c, l.row, q))) return false;
      if (!c.eventOk(c.board.events.get(a.eventId))) return false;
      if (q.max_odds_age !== undefined && this.maxAge(c, a.legs.map((l) => l.row)) > q.max_odds_age) return false;
      return true;
    });
    if (q.group === 'best') {
      const best = new Map<string, ArbitrageRecord>();
      for (const a of found) {
        const cur = best.get(a.eventId);
        if (!cur || a.profitPercent > cur.profitPercent || (a.profitPercent === cur.profitPercent && a.id < cur.id)) best.set(a.eventId, a);
      }
      found = [...best.values()];
    }
    const { field, reverse } = dir(q.sort, 'profit');
    const start = (a: ArbitrageRecord) => c.board.events.get(a.eventId)?.startTime ?? 0;
    const cmp: Record<string, (a: ArbitrageRecord, b: ArbitrageRecord) => number> = {
      profit: (a, b) => b.profitPercent - a.profitPercent,
      start_time: (a, b) => start(a) - start(b),
      sport: (a, b) => this.sportOrder(a.legs[0]!.row, b.legs[0]!.row) || b.profitPercent - a.profitPercent,
    };
    found.sort((a, b) => (reverse ? -1 : 1) * (cmp[field]!(a, b) || (a.id < b.id ? -1 : 1)));
    const evs = this.detection.ev;
    const evOf = (a: ArbitrageRecord) => {
      let best: number | null = null;
      for (const id of evs.idsOf(a.source) ?? []) {
        const r = evs.get(id)!;
        if (!a.legs.some((l) => l.row.id === r.row.id)) continue;
        const ev = (r.fair.power * r.row.decimal - 1) * 100;
        if (ev > 0 && (best === null || ev > best)) best = ev;
      }
      return best === null ? null : { percentage: best };
    };
    const profits = found.map((a) => a.profitPercent);
    const summary = {
      count: found.length,
      avg_profit: profits.length ? round(profits.reduce((x, y) => x + y, 0) / profits.length) : 0,
      max_profit: profits.length ? round(Math.max(...profits)) : 0,
      by_market: countBy(found, (a) => a.marketType),
      by_sport: countBy(found, (a) => a.legs[0]!.row.sport),
    };
    const data = found.slice(q.offset, q.offset + q.limit).map((a) => this.presenter.arbitrage(c.board, a, c.now, evOf(a)));
    const booksAnalyzed = c.books.all ? this.catalog.books.length : c.books.books.length;
    return { envelope: page(data, { limit: q.limit, offset: q.offset, total: found.length }, { source: 'cache', summary, filters: { ...this.echo(q, c), min_profit: minProfit, group: q.group ?? null }, books_analyzed: booksAnalyzed, updated_at: this.clock.iso() }), all: found, c };
  }

  /** The arbitrage list as the spec's CSV file (column order of rule 4). */
  arbitrageCsv(account: Account | undefined, q: ArbitrageQuery): { filename: string; body: string } {
    const { all, c } = this.arbitrage(account, { ...q, offset: 0, limit: 200 });
    const rows = all.slice(q.offset, q.offset + q.limit).map((a) => this.presenter.arbitrage(c.board, a, c.now));
    const records: unknown[][] = [ARBITRAGE_CSV_HEADER];
    for (const a of rows) {
      const legs = a.legs as Array<Record<string, unknown>>;
      const rest = legs.slice(1);
      // Three-way arbitrages keep the spec's columns: the second and third legs share the "2" columns, joined by
      // " / " (a single leg keeps its number: the cell stays numeric).
      const join = (k: string) => (rest.length === 1 ? rest[0]![k] : rest.map((l) => l[k]).join(' / '));
      records.push([a.event_name, a.sport, a.market_type, a.line, a.profit_percent, a.implied_total, legs[0]!.sportsbook, legs[0]!.selection, legs[0]!.odds_american, legs[0]!.stake_percent, join('sportsbook'), join('selection'), join('odds_american'), join('stake_percent'), a.is_live, a.is_alternate_line, a.possibly_stale, (a.warnings as string[]).join(';'), a.detected_at]);
    }
    const date = new Date(this.clock.now()).toISOString().slice(0, 10);
    return { filename: `arbitrage_${date}.csv`, body: toCsv(records) };
  }

  private middlesFiltered(account: Account | undefined, q: MiddlesQuery): { c: Common; found: MiddleRecord[] } {
    const c = this.common(account, q);
    const minSize = q.min_size ?? 0.5;
    const records = this.withFlagged('middles', this.scoped<MiddleRecord>('middles', account, c), c, q.include_flagged, (ctx, l) => detectMiddles(ctx, l, c.books.has));
    const found = records.filter((m) => {
      if (m.analysis.middleSize < minSize) return false;
      if (!this.rowOk(c, m.side1.row, q) || !this.rowOk(c, m.side2.row, q)) return false;
      if (!c.eventOk(c.board.events.get(m.eventId))) return false;
      if (q.max_odds_age !== undefined && this.maxAge(c, [m.side1.row, m.side2.row]) > q.max_odds_age) return false;
      return true;
    });
    return { c, found };
  }

  middles(account: Account | undefined, q: MiddlesQuery) {
    const { c, found } = this.middlesFiltered(account, q);
    const { field, reverse } = dir(q.sort, 'quality');
    const cmp: Record<string, (a: MiddleRecord, b: MiddleRecord) => number> = {
      quality: (a, b) => b.qualityScore - a.qualityScore || b.analysis.expectedValue - a.analysis.expectedValue,
      ev: (a, b) => b.analysis.expectedValue - a.analysis.expectedValue,
      probability: (a, b) => b.analysis.middleProbability - a.analysis.middleProbability,
      middle_size: (a, b) => b.analysis.middleSize - a.analysis.middleSize,
    };
    found.sort((a, b) => (reverse ? -1 : 1) * (cmp[field]!(a, b) || (a.id < b.id ? -1 : 1)));
    const data = found.slice(q.offset, q.offset + q.limit).map((m) => this.presenter.middle(c.board, m, c.now));
    const filters = { sport: q.sport ?? null, league: q.league ?? null, sportsbook: c.books.isDefault ? null : c.books.books, market: q.market ?? null, min_size: q.min_size ?? 0.5 };
    return page(data, { limit: q.limit, offset: q.offset, total: found.length }, { source: 'cache', summary: { count: found.length }, filters, updated_at: this.clock.iso() }, { updated_at: this.clock.iso() });
  }

  middle(account: Account, id: string) {
    if (!/^[0-9a-f]{16}$/.test(id)) throw badRequest(`Invalid middle id "${id}": expected 16 lowercase hexadecimal characters`, { parameter: 'id' });
    let found: MiddleRecord | undefined;
    for (const reg of this.detection.middles.values()) found ??= reg.get(id);
    if (!found) throw notFound(`No live middle with id ${id} (it may have expired)`);
    for (const book of [found.side1.row.sportsbook, found.side2.row.sportsbook]) {
      const def = this.catalog.book(book);
      if (def && !this.policy.mayUseBook(account.tier, def)) {
        throw tierRestricted(`This middle uses ${def.display_name}, which requires the ${def.requires_tier} tier`, def.requires_tier!, { tier: account.tier });
      }
    }
    const board = this.boards.board;
    return { success: true as const, data: this.presenter.middle(board, found, this.clock.now()), updated_at: this.clock.iso() };
  }

  middlesSummary(account: Account | undefined, q: MiddlesSummaryQuery) {
    const { found } = this.middlesFiltered(account, { sport: q.sport, league: q.league, limit: 200, offset: 0 } as MiddlesQuery);
    const evs = found.map((m) => m.analysis.expectedValue);
    const best = found.reduce<MiddleRecord | null>((b, m) => (!b || m.analysis.expectedValue > b.analysis.expectedValue ? m : b), null);
    const avg = (xs: number[]) => (xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length) : 0);
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
        avg_probability: found.length ? roundTo6(found.reduce((s, m) => s + m.analysis.middleProbability, 0) / found.length) : 0,
        avg_ev: avg(evs),
        best_ev: best ? { ev: round(best.analysis.expectedValue), sport: best.sport, market: best.marketType } : null,
        has_key_numbers_count: found.filter((m) => m.analysis.keyNumbers.length > 0).length,
      },
      meta: { source: 'cache', filters: { sport: q.sport ?? null, league: q.league ?? null }, updated_at: this.clock.iso() },
    };
  }

  lowHold(account: Account | undefined, q: LowHoldQuery) {
    const c = this.common(account, q);
    const maxHold = q.max_hold ?? 5;
    const records = this.withFlagged('low_hold', this.scoped<LowHoldRecord>('low_hold', account, c), c, q.include_flagged, (ctx, g) => [detectLowHold(ctx, g, c.books.has)]);
    const found = records.filter((h) => {
      if (h.holdPercent > maxHold) return false;
      if (!h.sides.every((s) => this.rowOk(c, s.row, q))) return false;
      if (!c.eventOk(c.board.events.get(h.eventId))) return false;
      if (q.max_odds_age !== undefined && this.maxAge(c, h.sides.map((s) => s.row)) > q.max_odds_age) return false;
      return true;
    });
    const { field, reverse } = dir(q.sort, 'hold');
    const cmp: Record<string, (a: LowHoldRecord, b: LowHoldRecord) => number> = {
      hold: (a, b) => a.holdPercent - b.holdPercent,
      market: (a, b) => (a.marketType < b.marketType ? -1 : a.marketType > b.marketType ? 1 : 0) || a.holdPercent - b.holdPercent,
      sport: (a, b) => this.sportOrder(a.sides[0]!.row, b.sides[0]!.row) || a.holdPercent - b.holdPercent,
    };
    found.sort((a, b) => (reverse ? -1 : 1) * (cmp[field]!(a, b) || (a.id < b.id ? -1 : 1)));
    const holds = found.map((h) => h.holdPercent);
    const summary = {
      count: found.length,
      avg_hold: holds.length ? round(holds.reduce((a, b) => a + b, 0) / holds.length) : 0,
      min_hold: holds.length ? round(Math.min(...holds)) : 0,
      by_market: countBy(found, (h) => h.marketType),
      by_sport: countBy(found, (h) => h.sides[0]!.row.sport),
    };
    const data = found.slice(q.offset, q.offset + q.limit).map((h) => this.presenter.lowHold(c.board, h, c.now));
    return page(data, { limit: q.limit, offset: q.offset, total: found.length }, { source: 'cache', summary, filters: { ...this.echo(q, c), max_hold: maxHold }, updated_at: this.clock.iso() });
  }

  private echo(q: OpportunityFilters, c: Common) {
    return {
      sport: q.sport ?? null,
      league: q.league ?? null,
      sportsbook: c.books.isDefault ? null : c.books.books,
      market: q.market ?? null,
      event: [...(q.event ?? []), ...(q.event_id ?? [])].join(',') || null,
      team: q.team ?? null,
      live: q.live ?? null,
      date_range: q.date_range ?? null,
      max_odds_age: q.max_odds_age ?? null,
      include_flagged: q.include_flagged ?? false,
    };
  }
}

export const ARBITRAGE_CSV_HEADER = ['event', 'sport', 'market', 'line', 'profit%', 'implied_total', 'book1', 'selection1', 'odds1', 'stake1%', 'book2', 'selection2', 'odds2', 'stake2%', 'is_live', 'is_alternate_line', 'possibly_stale', 'warnings', 'detected_at'];

/**
 * CSV text (RFC 4180, CRLF) safe to open in a spreadsheet: a text cell beginning with =, +, -, @, tab or CR
 * (or their full-width forms) is prefixed with a single quote so it is never run as a formula (OWASP CSV
 * injection); numbers (odds -110, lines -3.5) are written as numbers and never prefixed. Booleans are
 * true/false, null and undefined are empty cells.
 */
export function toCsv(records: readonly unknown[][]): string {
  return stringify(records as unknown[][], { escape_formulas: true, record_delimiter: '\r\n', cast: { boolean: (v) => String(v) } });
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
const roundTo6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Offset of US Eastern from UTC at an instant, in ms (positive: Eastern midnight is later in UTC). */
function etOffsetMs(at: number): number {
  const { hour } = localDateHour(at, ET);
  const utcHour = new Date(at).getUTCHours();
  const diff = (utcHour - hour + 24) % 24;
  return diff * 3600_000;
}

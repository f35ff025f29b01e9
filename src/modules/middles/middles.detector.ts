import { Injectable } from '@nestjs/common';
import type { FeatureDef } from '../../common/auth/access-policy.js';
import { assertNever } from '../../common/assert-never.js';
import { groupKey, isQuarterLine, shortHash } from '../../domain/normalise.js';
import type { OddsRow } from '../../domain/odds-row.js';
import type { Catalog } from '../../config/catalog.js';
import { venueCosts } from '../../config/costs.js';
import { netDecimal, type VenueCost } from '../../math/costs.js';
import {
  analyzeMiddle,
  discretisedNormal,
  fitLinePmf,
  marginPmf,
  middleQualityScore,
  poissonPmf,
  totalPmf,
  type MiddleAnalysis,
  type Pmf,
} from '../../math/index.js';
import type { Detector, Json, PresentView, Reads, StreamNames } from '../detection/detector.js';
import { groupFlags, groupInfo, guardsOf, type DetectContext } from '../detection/group-info.js';
import type { Guards } from '../detection/guards.js';
import {
  ageSeconds,
  GAME_TOTAL_MARKETS,
  isHandicap,
  isScopeFilter,
  outcomesOf,
  pricedOnMoneyline,
  type BookFilter,
} from '../detection/market-groups.js';
import { MiddlesPresenter } from './middles.presenter.js';
import { dict } from '../../domain/dict.js';
import type { MiddleRecord, MiddleSideRecord } from './middles.record.js';

/** Middles with an expected value below this (dollars per 100 staked) are not worth listing. */
export const MIDDLE_MIN_EV = -2.5;
/** Key numbers of spread markets by sport: the final margins that occur most often (3 and 7 in football). */
export const KEY_NUMBERS: Record<string, number[]> = dict({ football: [3, 7, 10, 14], hockey: [1], baseball: [1], soccer: [1] });
/** Typical game totals, for middles on events with no totals market of their own. */
const DEFAULT_TOTAL: Record<string, number> = dict({
  nba: 226,
  ncaab: 145,
  wnba: 165,
  euroleague: 160,
  nfl: 45,
  ncaaf: 54,
  nhl: 6,
  mlb: 8.5,
  atp: 22,
  wta: 21,
});
const SPORT_TOTAL: Record<string, number> = dict({ basketball: 220, football: 45, hockey: 6, soccer: 2.6, baseball: 8.5, tennis: 22 });

const pmfCache = new Map<string, Pmf>();

function cachedPmf(key: string, build: () => Pmf): Pmf | null {
  let p = pmfCache.get(key);
  if (!p) {
    try {
      p = build();
    } catch {
      return null;
    }
    if (pmfCache.size > 20_000) pmfCache.clear();
    pmfCache.set(key, p);
  }
  return p;
}

const half = (x: number) => Math.round(x * 2) / 2;

/** A fitted model, or a throw (cachedPmf caches no failure). */
function fitted(p: Pmf | null): Pmf {
  if (!p) throw new RangeError('the model cannot be located on these prices');
  return p;
}

/** The median over books of the no-vig (multiplicative) home probability of a two-sided market group; null without one. */
function homeProbabilityAt(ctx: DetectContext, groupKey: string): number | null {
  const byBook = new Map<string, { home?: number; away?: number }>();
  for (const r of ctx.board.group(groupKey)) {
    if (!r.isActive || r.isLive || !(r.decimal > 1)) continue;
    const b = byBook.get(r.sportsbook) ?? {};
    if (r.selectionType === 'home') b.home = 1 / r.decimal;
    else if (r.selectionType === 'away') b.away = 1 / r.decimal;
    else continue;
    byBook.set(r.sportsbook, b);
  }
  const ps: number[] = [];
  for (const b of byBook.values()) if (b.home !== undefined && b.away !== undefined) ps.push(b.home / (b.home + b.away));
  if (!ps.length) return null;
  ps.sort((a, b) => a - b);
  const m = ps.length >> 1;
  return ps.length % 2 ? ps[m]! : (ps[m - 1]! + ps[m]!) / 2;
}

/** The fair home win probability of an event's two-way moneyline (the books' median, no-vig). */
export function moneylineHomeProbability(ctx: DetectContext, eventId: string, period: string): number | null {
  return homeProbabilityAt(ctx, `${eventId}|moneyline|${period}||`);
}

/** The outcome distribution a ladder's middles are priced on, from the consensus main lines. */
function ladderPmf(ctx: DetectContext, first: OddsRow): Pmf | null {
  const main = ctx.board.mainLine(first.ladderKey);
  if (main === null) return null;
  const e = ctx.board.events.get(first.eventId);
  const sport = first.sport;
  if (first.marketType.startsWith('player_') || first.marketType === 'team_total') {
    const mean = Math.max(0.25, main);
    return cachedPmf(`prop|${half(mean)}`, () => (mean < 15 ? poissonPmf(mean) : discretisedNormal(mean, Math.max(1, 0.3 * mean))));
  }
  let eventTotal: number | undefined;
  for (const m of GAME_TOTAL_MARKETS) eventTotal ??= ctx.board.mainLine(`${first.eventId}|${m}|${first.period}|`) ?? undefined;
  eventTotal ??= DEFAULT_TOTAL[e?.league ?? ''] ?? SPORT_TOTAL[sport];
  if (eventTotal === undefined) return null;
  if (pricedOnMoneyline(first.marketType, sport)) {
    // The puck line and the run line sit at +-1.5 whoever is favoured: the main line says nothing of the expected
    // margin. The margin model is located on the fair moneyline (P(home wins) = the books' median no-vig home
    // probability), else on the main line's own no-vig price.
    const total = eventTotal;
    const ml = moneylineHomeProbability(ctx, first.eventId, first.period);
    if (ml !== null)
      return cachedPmf(`mml|${sport}|${ml.toFixed(3)}|${half(total)}`, () =>
        fitted(fitLinePmf({ sport, kind: 'spread', fromLine: 0, fromProbability: Math.round(ml * 1000) / 1000, expectedTotal: total })),
      );
    const own = homeProbabilityAt(ctx, `${first.ladderKey}|${main}`);
    if (own === null) return null;
    return cachedPmf(`mpl|${sport}|${main}|${own.toFixed(3)}|${half(total)}`, () =>
      fitted(fitLinePmf({ sport, kind: 'spread', fromLine: main, fromProbability: Math.round(own * 1000) / 1000, expectedTotal: total })),
    );
  }
  if (isHandicap(first.marketType)) {
    // main is the home side's handicap: the home team is expected to win by -main.
    return cachedPmf(`m|${sport}|${half(-main)}|${half(eventTotal)}`, () => marginPmf(sport, -main, eventTotal));
  }
  return cachedPmf(`t|${sport}|${half(main)}`, () => totalPmf(sport, main));
}

/** The map of one side kind (an exhaustive switch: a third kind would not compile). */
function sideMap<T>(kind: MiddleSideRecord['kind'], above: T, below: T): T {
  switch (kind) {
    case 'above':
      return above;
    case 'below':
      return below;
    default:
      return assertNever(kind, 'middle side');
  }
}

/** The side a row takes in a middle (wins above or below its threshold), or null (no line, a quarter line, a third outcome). */
function sideOf(row: OddsRow): MiddleSideRecord['kind'] | null {
  if (row.line === null || isQuarterLine(row.line)) return null;
  if (isHandicap(row.marketType)) return row.selectionType === 'home' ? 'above' : row.selectionType === 'away' ? 'below' : null;
  return row.selectionType === 'over' ? 'above' : row.selectionType === 'under' ? 'below' : null;
}

/** The threshold a side (a row sideOf takes) wins above or below: the total, or the margin a handicap covers at. */
const thresholdOf = (row: OddsRow): number => (isHandicap(row.marketType) && row.selectionType === 'home' ? -row.line! : row.line!);

/**
 * How balanced each book's two sides are on one line: the gap between the implied probabilities of the two sides,
 * for each book that quotes both (a book's last row of a side counts). Books in the order of their first row.
 */
interface LineBalance {
  books: string[];
  gaps: number[];
}

function lineBalance(rows: readonly OddsRow[]): LineBalance {
  const sides = new Map<string, { a: number; b: number }>();
  for (const r of rows) {
    let st = sides.get(r.sportsbook);
    if (!st) sides.set(r.sportsbook, (st = { a: NaN, b: NaN }));
    if (r.selectionType === 'home' || r.selectionType === 'over') st.a = r.probability;
    else if (r.selectionType === 'away' || r.selectionType === 'under') st.b = r.probability;
  }
  const out: LineBalance = { books: [], gaps: [] };
  for (const [book, { a, b }] of sides) {
    if (Number.isNaN(a) || Number.isNaN(b)) continue;
    out.books.push(book);
    out.gaps.push(Math.abs(a - b));
  }
  return out;
}

/**
 * Each book's main line in a ladder from its lines' balances: among the lines where it quotes both sides, the most
 * balanced one (ties: the line nearer zero, then the lower line), whatever the order of the lines.
 */
function mainLinesOf(lines: Iterable<{ line: number; balance: LineBalance }>): Map<string, number> {
  const best = new Map<string, { line: number; gap: number }>();
  for (const { line, balance } of lines) {
    const { books, gaps } = balance;
    for (let i = 0; i < books.length; i++) {
      const gap = gaps[i]!;
      const st = best.get(books[i]!);
      if (!st) {
        best.set(books[i]!, { line, gap });
        continue;
      }
      const m = st.line;
      if (gap < st.gap || (gap === st.gap && (Math.abs(line) < Math.abs(m) || (Math.abs(line) === Math.abs(m) && line < m)))) {
        st.line = line;
        st.gap = gap;
      }
    }
  }
  const out = new Map<string, number>();
  for (const [book, st] of best) out.set(book, st.line);
  return out;
}

/**
 * Each book's main line in a ladder: among the lines where it quotes both sides, the most balanced one (the
 * two implied probabilities closest to each other; ties: the line nearer zero, then the lower line). `lines` are
 * the ladder's market groups, one per line, each with the rows to read (a book's last row of a side counts).
 */
export function bookMainLines(lines: Iterable<{ line: number; rows: readonly OddsRow[] }>): Map<string, number> {
  return mainLinesOf([...lines].map(({ line, rows }) => ({ line, balance: lineBalance(rows) })));
}

export function middleId(ladderKey: string, a: OddsRow, b: OddsRow): string {
  return shortHash(['mid', ladderKey, a.sportsbook, a.selectionType, a.line, b.sportsbook, b.selectionType, b.line], 16);
}

/**
 * Middles of a ladder among the books in scope: a side winning above one line and a side winning below a
 * higher line at another book, so both can win. For each pair of lines the best price of each side (from two
 * different books) is analysed on the sport's outcome distribution; pairs worth less than MIDDLE_MIN_EV per
 * 100 staked are left out. Quarter lines and Asian handicaps never enter.
 */
export function detectMiddles(ctx: DetectContext, ladderKey: string, inScope: BookFilter): MiddleRecord[] {
  const lad = ladderOf(ctx, ladderKey);
  if (!lad) return [];
  const { above, below } = sidesByThreshold(lad.mains, inScope);
  if (!above.size || !below.size) return [];
  const { first, keyNumbers } = lad;
  const out: MiddleRecord[] = [];
  for (const [ta, listA] of above) {
    for (const [tb, listB] of below) {
      if (tb - ta < 0.5) continue;
      const pick = cheapestPair(listA, listB);
      if (!pick) continue;
      // The outcome model is located once a pair of lines leaves a gap (most ladders have none); without one, no middle.
      if (lad.pmf === undefined) lad.pmf = ladderPmf(ctx, first);
      const pmf = lad.pmf;
      if (!pmf) return [];
      const [a, b] = pick;
      let analysis: MiddleAnalysis;
      try {
        analysis = analyzeMiddle({
          above: { kind: 'above', threshold: ta, decimal: a.decimal },
          below: { kind: 'below', threshold: tb, decimal: b.decimal },
          pmf,
          keyNumbers,
        });
      } catch {
        continue;
      }
      if (analysis.expectedValue < MIDDLE_MIN_EV && !analysis.isGuaranteedProfit) continue;
      const side1: MiddleSideRecord = { row: a, kind: 'above', threshold: ta, winProbability: 1 - pmf.cdf(ta) };
      const side2: MiddleSideRecord = { row: b, kind: 'below', threshold: tb, winProbability: pmf.cdf(Math.ceil(tb) - 1) };
      const net = netMiddle(
        ctx,
        analysis,
        { kind: 'above', threshold: ta, row: a },
        { kind: 'below', threshold: tb, row: b },
        pmf,
        keyNumbers,
      );
      out.push(middleRecord(ctx, ladderKey, first, side1, side2, analysis, net));
    }
  }
  return out;
}

/** A ladder read once per evaluation, whatever the scope: what every scope's middles are found from. */
interface LadderPrep {
  /** The first usable row (event, market, period and sport are the same for the whole ladder). */
  first: OddsRow;
  /** The sides of each book's main line, line by line in board order (main lines are per book, so per scope too). */
  mains: MainSides[];
  /** The outcome distribution, located on first use (undefined: not yet; null: it cannot be). */
  pmf?: Pmf | null;
  keyNumbers: number[];
}

const ladderMemo = new WeakMap<DetectContext, Map<string, LadderPrep | null>>();

function ladderOf(ctx: DetectContext, ladderKey: string): LadderPrep | null {
  let memo = ladderMemo.get(ctx);
  if (!memo) ladderMemo.set(ctx, (memo = new Map()));
  let lad = memo.get(ladderKey);
  if (lad === undefined) memo.set(ladderKey, (lad = prepareLadder(ctx, ladderKey)));
  return lad;
}

/**
 * One line of a ladder as middles read it: the usable rows (active, not in a flagged venue market unless let in)
 * and each book's balance there.
 */
interface LineRead {
  line: number;
  usable: readonly OddsRow[];
  balance: LineBalance;
  /** The sides of the usable rows of the books whose main line this is, for the last list of such books asked for. */
  main?: MainSides;
}

/** Filters and their sides, alternating (one array per line instead of one per filter). */
type Scoped = Array<BookFilter | readonly OddsRow[]>;

/** The rows of one line that are a side (sideOf) at the books whose main line it is. */
interface MainSides {
  books: readonly string[];
  sides: readonly OddsRow[];
  /** Per detection scope's filter, the sides in scope that can be one of a threshold's two best (scopedSides). */
  scoped?: Scoped;
}

/**
 * Line reads by the board's array of the group's rows: a function of that array (replaced, never mutated, when a row
 * of the group changes), the catalog (the flags) and includeFlagged (the second map), so re-reading a ladder after one price
 * moved reads only the line that moved. Weak: an array the board dropped takes its reads with it.
 */
const lineReads = new WeakMap<Catalog, [WeakMap<readonly OddsRow[], LineRead>, WeakMap<readonly OddsRow[], LineRead>]>();

function lineRead(ctx: DetectContext, ladderKey: string, line: number): LineRead {
  const key = groupKey(ladderKey, line);
  const all = ctx.board.groupRows(key);
  let byRows = lineReads.get(ctx.catalog);
  if (!byRows) lineReads.set(ctx.catalog, (byRows = [new WeakMap(), new WeakMap()]));
  const reads = byRows[ctx.includeFlagged ? 1 : 0];
  let read = reads.get(all);
  if (!read) reads.set(all, (read = readLine(line, all, ctx.includeFlagged ? undefined : groupFlags(ctx, key))));
  return read;
}

function readLine(line: number, all: readonly OddsRow[], flags: ReadonlyMap<string, unknown> | undefined): LineRead {
  const ok = (r: OddsRow) => r.isActive && !flags?.has(r.sportsbook);
  // The board's own array when every row is usable, else a copy of the usable ones.
  const usable = all.every(ok) ? all : all.filter(ok);
  return { line, usable, balance: lineBalance(usable) };
}

/**
 * The sides of a line's usable rows at `books` (the books whose main line it is), in board order. Kept on the line's
 * read for that list of books: a ladder read again after a price moved on another line finds them unchanged.
 */
function mainSidesOf(read: LineRead, books: readonly string[]): MainSides {
  const kept = read.main;
  if (kept && kept.books.length === books.length && kept.books.every((b, i) => b === books[i])) return kept;
  const at = new Set(books);
  const sides = read.usable.filter((r) => at.has(r.sportsbook) && sideOf(r) !== null);
  // The line's own array when all of it is (the usual case: every book quoting the line has it as its main line).
  return (read.main = { books, sides: sides.length === read.usable.length ? read.usable : sides });
}

/**
 * The sides of a line in scope that can be one of the two best of their threshold (the best, the best at another
 * book), in board order: the two best of a threshold over several lines are the two best over those lines' own two
 * best. Kept per detection scope (isScopeFilter), so a ladder read again reads only the rows of the line that moved.
 */
function scopedSides(main: MainSides, inScope: BookFilter): readonly OddsRow[] {
  const keep = isScopeFilter(inScope);
  const scoped = main.scoped;
  if (keep && scoped) for (let i = 0; i < scoped.length; i += 2) if (scoped[i] === inScope) return scoped[i + 1] as readonly OddsRow[];
  const tops = topsByThreshold(main.sides, inScope);
  const best = new Set<OddsRow>();
  for (const m of [tops.above, tops.below]) for (const top of m.values()) for (const r of top) best.add(r);
  const found = main.sides.filter((r) => best.has(r));
  // The line's own sides when every one of them is (a line of one or two books).
  const rows = found.length === main.sides.length ? main.sides : found;
  if (keep) (main.scoped ??= []).push(inScope, rows);
  return rows;
}

/** The usable rows of a ladder and their main-line sides, read line by line (see lineRead and mainSidesOf). */
function prepareLadder(ctx: DetectContext, ladderKey: string): LadderPrep | null {
  const lines: LineRead[] = [];
  let first: OddsRow | undefined;
  for (const line of ctx.board.ladderLines(ladderKey)) {
    const read = lineRead(ctx, ladderKey, line);
    if (!read.usable.length) continue;
    lines.push(read);
    first ??= read.usable[0];
  }
  if (!first || first.marketType === 'asian_handicap') return null;
  const outcomes = outcomesOf(ctx.catalog, first.marketType, first.sport);
  if (!outcomes || outcomes.length !== 2) return null;
  // The books whose main line each line is (a book has one main line), in the order of the main-lines map.
  const booksAt = new Map<number, string[]>();
  for (const [book, line] of mainLinesOf(lines)) {
    const at = booksAt.get(line);
    if (at) at.push(book);
    else booksAt.set(line, [book]);
  }
  const mains: MainSides[] = [];
  for (const read of lines) {
    const books = booksAt.get(read.line);
    if (books) mains.push(mainSidesOf(read, books));
  }
  const keyNumbers = isHandicap(first.marketType) ? (KEY_NUMBERS[first.sport] ?? []) : [];
  return { first, mains, keyNumbers };
}

/**
 * The sides of each book's main line (a middle is two books disagreeing on the line, not a pair of alternates:
 * alternate rungs are priced off the same line and carry their own juice) among the books in scope, by kind
 * and threshold: the two best prices from distinct books per threshold.
 */
function sidesByThreshold(mains: readonly MainSides[], inScope: BookFilter): Tops {
  const tops: Tops = { above: new Map(), below: new Map() };
  for (const main of mains) for (const x of scopedSides(main, inScope)) addSide(tops, x);
  return tops;
}

/** Sides by kind and threshold: [the best price, the best at another book]. */
interface Tops {
  above: Map<number, OddsRow[]>;
  below: Map<number, OddsRow[]>;
}

function topsByThreshold(sides: readonly OddsRow[], inScope: BookFilter): Tops {
  const tops: Tops = { above: new Map(), below: new Map() };
  for (const x of sides) if (inScope(x.sportsbook)) addSide(tops, x);
  return tops;
}

/** A side (a row sideOf takes) among the two best of its threshold: better is a higher decimal, then the book first by name. */
function addSide(tops: Tops, x: OddsRow): void {
  const m = sideMap(sideOf(x)!, tops.above, tops.below);
  const threshold = thresholdOf(x);
  const top = m.get(threshold);
  if (!top) m.set(threshold, [x]);
  else if (better(x, top[0]!)) {
    if (x.sportsbook !== top[0]!.sportsbook) top[1] = top[0]!;
    top[0] = x;
  } else if (x.sportsbook !== top[0]!.sportsbook && (top.length < 2 || better(x, top[1]!))) top[1] = x;
}

const better = (x: OddsRow, y: OddsRow): boolean => x.decimal > y.decimal || (x.decimal === y.decimal && x.sportsbook < y.sportsbook);

/** The pair of an above and a below side at two different books with the lowest overround, or null. */
function cheapestPair(listA: readonly OddsRow[], listB: readonly OddsRow[]): [OddsRow, OddsRow] | null {
  let pick: [OddsRow, OddsRow] | null = null;
  let bestOver = Number.POSITIVE_INFINITY;
  for (const a of listA) {
    for (const b of listB) {
      if (a.sportsbook === b.sportsbook) continue;
      const over = 1 / a.decimal + 1 / b.decimal;
      if (over < bestOver) {
        bestOver = over;
        pick = [a, b];
      }
    }
  }
  return pick;
}

const isFree = (c: VenueCost) => c.commission === 0 && c.feeRate === 0;

/**
 * The middle after its venues' costs: the same analysis on each side's net decimal (what a unit of outlay returns when
 * it wins). A push returns the outlay. The gross analysis itself when both venues cost nothing; null when a cost is unknown.
 */
function netMiddle(
  ctx: DetectContext,
  gross: MiddleAnalysis,
  above: { kind: 'above'; threshold: number; row: OddsRow },
  below: { kind: 'below'; threshold: number; row: OddsRow },
  pmf: Pmf,
  keyNumbers: number[],
): MiddleAnalysis | null {
  const costs = venueCosts();
  const ca = costs.ofBook(above.row.sportsbook, ctx.catalog);
  const cb = costs.ofBook(below.row.sportsbook, ctx.catalog);
  if (!ca || !cb) return null;
  if (isFree(ca) && isFree(cb)) return gross;
  return analyzeMiddle({
    above: { kind: 'above', threshold: above.threshold, decimal: netDecimal(above.row.decimal, ca) },
    below: { kind: 'below', threshold: below.threshold, decimal: netDecimal(below.row.decimal, cb) },
    pmf,
    keyNumbers,
  });
}

function middleRecord(
  ctx: DetectContext,
  ladderKey: string,
  first: OddsRow,
  side1: MiddleSideRecord,
  side2: MiddleSideRecord,
  analysis: MiddleAnalysis,
  netAnalysis: MiddleAnalysis | null,
): MiddleRecord {
  const a = side1.row;
  const b = side2.row;
  const age = Math.max(ageSeconds(ctx.board, a, ctx.now), ageSeconds(ctx.board, b, ctx.now));
  const guards: Guards = { flagged: [], offConsensus: [], unverified: [] };
  for (const row of [a, b]) {
    const gi = groupInfo(ctx, row.groupKey);
    if (!gi) continue;
    const found = guardsOf(gi, [row]);
    guards.flagged.push(...found.flagged);
    guards.offConsensus.push(...found.offConsensus);
    for (const b of found.unverified) if (!guards.unverified.includes(b)) guards.unverified.push(b);
  }
  return {
    kind: 'middles',
    id: middleId(ladderKey, a, b),
    source: ladderKey,
    eventId: first.eventId,
    marketType: first.marketType,
    detectedAt: ctx.now,
    updatedAt: ctx.now,
    side1,
    side2,
    analysis,
    netAnalysis,
    sport: first.sport,
    qualityScore: middleQualityScore({
      middleProbability: analysis.middleProbability,
      expectedValue: analysis.expectedValue,
      middleSize: analysis.middleSize,
      keyNumberProbability: analysis.keyNumberProbability,
      worstCaseLoss: analysis.worstCaseLoss,
      oddsAgeSeconds: age,
      isLive: a.isLive || b.isLive,
    }),
    guards,
  };
}

/**
 * Middles as an opportunity type: read on line ladders, evaluated in each tier's default book set, streamed as
 * `middles:detected` / `middles:expired`; the summary route has a feature of its own.
 */
@Injectable()
export class MiddlesDetector implements Detector<MiddleRecord> {
  readonly kind = 'middles';
  readonly reads: Reads = 'ladders';
  readonly perScope = true;
  readonly feature: FeatureDef = { name: 'middles', label: 'Middles', title: 'Middles', fromTier: 'pro' };
  readonly extraFeatures: readonly FeatureDef[] = [{ name: 'middles_summary', label: 'The middles summary', fromTier: 'pro' }];
  readonly stream: StreamNames = {
    channel: 'middles',
    type: 'middles',
    detected: 'middles:detected',
    expired: 'middles:expired',
    expiredAt: false,
  };
  readonly gauge = { name: 'opportunities_middles', help: 'Live middles (all books)' };

  constructor(private readonly presenter: MiddlesPresenter) {}

  detect(ctx: DetectContext, source: string, inScope: BookFilter): MiddleRecord[] {
    return detectMiddles(ctx, source, inScope);
  }

  present(record: MiddleRecord, view: PresentView): Json {
    return this.presenter.present(view.board, record, view.now);
  }

  rows(record: MiddleRecord): readonly OddsRow[] {
    return [record.side1.row, record.side2.row];
  }

  signature(record: MiddleRecord): unknown {
    return [record.side1.row.decimal, record.side2.row.decimal, record.analysis.expectedValue];
  }
}

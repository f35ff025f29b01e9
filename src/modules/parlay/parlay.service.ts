import { Inject, Injectable } from '@nestjs/common';
import { ApiError, badRequest } from '../../common/http/api-error.js';
import { Clock } from '../../common/time/clock.js';
import { Catalog } from '../../config/catalog.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { marketSegmentOf } from '../../domain/market-axes.js';
import type { OddsRow } from '../../domain/odds-row.js';
import { devig } from '../../math/devig.js';
import { probabilityToAmerican, roundAmerican } from '../../math/odds.js';
import {
  correlationFactor,
  fitGameCells,
  jointModelSports,
  mutuallyExclusive,
  parlayFair,
  type GameLines,
  type ModelLeg,
} from '../../math/parlay.js';
import { BoardService } from '../board/board.service.js';
import type { OddsBoard } from '../board/odds-board.js';
import type { ParlayLegBody, ParlayPriceBody } from './dto/parlay-price.body.js';
import { MONEYLINES, SPREADS, TOTALS, isFullGame, modelLegOf } from './parlay.legs.js';

/** The most legs a slip may have. */
export const MAX_PARLAY_LEGS = 10;
export const PARLAY_NOTE =
  "Modelled fair price from devigged leg prices (same-game legs joined by the sport's score model); not a sportsbook parlay quote.";
export const LIVE_WARNING = 'one or more legs are live; quotes move fast';

const legError = (code: 'unknown_leg' | 'ambiguous_leg', i: number, message: string) =>
  new ApiError(code, `Leg ${i}: ${message}`, { leg: i });

interface ResolvedLeg {
  row: OddsRow;
  /** The leg's fair probability: its market at its book (or the sharpest complete one) devigged. */
  fair: number;
}

const lower = (s: string) => s.trim().toLowerCase();

/**
 * POST /parlay/price: a modelled fair price for a slip. Legs on different games multiply their fair probabilities;
 * legs on one game are joined by the joint score model of src/math/parlay.ts fitted to the game's devigged main lines.
 */
@Injectable()
export class ParlayService {
  constructor(
    private readonly boards: BoardService,
    private readonly catalog: Catalog,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  price(body: ParlayPriceBody) {
    const legs = body.legs;
    if (legs.length < 2) throw new ApiError('too_few_legs', `A parlay needs at least 2 legs; this slip has ${legs.length}`);
    if (legs.length > MAX_PARLAY_LEGS)
      throw new ApiError('too_many_legs', `A parlay may have at most ${MAX_PARLAY_LEGS} legs; this slip has ${legs.length}`, {
        max_legs: MAX_PARLAY_LEGS,
      });
    const board = this.boards.board;
    legs.forEach((l, i) => {
      if (l.odds_id === undefined && (l.event_id === undefined || l.market === undefined || l.selection === undefined))
        throw badRequest(`Leg ${i}: give odds_id, or event_id, market and selection`, { parameter: `legs[${i}]` });
    });
    let book = body.sportsbook !== undefined ? this.bookId(body.sportsbook, 'sportsbook') : undefined;
    const rows: Array<OddsRow | undefined> = legs.map((l, i) =>
      l.odds_id !== undefined || l.sportsbook !== undefined ? this.resolve(board, l, i, book) : undefined,
    );
    book ??= rows.find((r) => r)?.sportsbook;
    const resolved = legs.map((l, i) => rows[i] ?? this.resolve(board, l, i, book));
    const books = [...new Set(resolved.map((r) => r.sportsbook))];
    if (books.length > 1)
      throw badRequest(`A parlay is placed at one sportsbook; these legs are at ${books.join(', ')}`, { parameter: 'legs' });
    const ids = new Set<string>();
    resolved.forEach((r, i) => {
      if (ids.has(r.id)) throw badRequest(`Leg ${i} repeats an earlier leg`, { parameter: `legs[${i}]` });
      ids.add(r.id);
    });
    const priced: ResolvedLeg[] = resolved.map((row, i) => ({ row, fair: this.fairOf(board, row, i) }));
    const echo = priced.map(({ row, fair }) => this.echo(board, row, fair));
    const warnings = resolved.some((r) => r.isLive) ? [LIVE_WARNING] : null;
    const base = { leg_count: priced.length, source: 'sharpapi_model' as const, note: PARLAY_NOTE };

    const conflicts = this.conflicts(board, resolved);
    if (conflicts.length) {
      return this.answer(books[0]!, echo, { price: null, ...base, reason: 'mutually_exclusive', conflicting_legs: conflicts }, warnings);
    }
    const byEvent = new Map<string, number[]>();
    resolved.forEach((r, i) => byEvent.set(r.eventId, [...(byEvent.get(r.eventId) ?? []), i]));
    const factors: number[] = [];
    for (const [eventId, idx] of byEvent) {
      if (idx.length < 2) continue;
      factors.push(
        this.sameGameFactor(
          board,
          eventId,
          idx.map((i) => resolved[i]!),
          idx,
        ),
      );
    }
    const fair = parlayFair(
      priced.map((p) => p.fair),
      factors,
    );
    if (!fair) return this.answer(books[0]!, echo, { price: null, ...base, reason: 'unpriceable' }, warnings);
    const price = {
      odds_american: roundAmerican(probabilityToAmerican(fair.probability)),
      odds_decimal: Math.round(fair.decimal * 1000) / 1000,
      probability: Math.round(fair.probability * 1e6) / 1e6,
      independent_probability: Math.round(fair.independentProbability * 1e6) / 1e6,
    };
    return this.answer(books[0]!, echo, { price, ...base }, warnings);
  }

  private answer(sportsbook: string, legs: unknown[], parlay: Record<string, unknown>, warnings: string[] | null) {
    return { success: true as const, data: { sportsbook, legs, parlay, warnings }, updated_at: this.clock.iso() };
  }

  private bookId(name: string, parameter: string): string {
    const b = this.catalog.book(name);
    if (!b) throw badRequest(`Invalid parameter "${parameter}": unknown sportsbook "${name}"`, { parameter });
    return b.id;
  }

  /** The current price a leg names. */
  private resolve(board: OddsBoard, l: ParlayLegBody, i: number, slipBook: string | undefined): OddsRow {
    if (l.odds_id !== undefined) {
      const r = board.rows.get(l.odds_id);
      if (!r || !r.isActive) throw legError('unknown_leg', i, `no current price has odds_id "${l.odds_id}"`);
      return r;
    }
    const event = board.events.get(l.event_id!);
    if (!event) throw legError('unknown_leg', i, `no current event "${l.event_id}"`);
    const book = l.sportsbook !== undefined ? this.bookId(l.sportsbook, `legs[${i}].sportsbook`) : slipBook;
    const market = lower(l.market!);
    const sel = lower(l.selection!);
    let found = board
      .sortedRowsOf(event.id)
      .filter(
        (r) =>
          r.isActive &&
          r.marketType === market &&
          (lower(r.selection) === sel || r.selectionType === sel) &&
          (l.line === undefined || r.line === l.line) &&
          (book === undefined || r.sportsbook === book),
      );
    if (found.some(isFullGame)) found = found.filter(isFullGame);
    if (!found.length)
      throw legError(
        'unknown_leg',
        i,
        `no current price of ${l.market} "${l.selection}"${l.line !== undefined ? ` at ${l.line}` : ''} on ${event.id}${book ? ` at ${book}` : ''}`,
      );
    if (found.length > 1) {
      const books = [...new Set(found.map((r) => r.sportsbook))];
      const lines = [...new Set(found.map((r) => r.line))];
      const what =
        books.length > 1
          ? `books (${books.slice(0, 10).join(', ')}): name its sportsbook`
          : `lines (${lines.slice(0, 10).join(', ')}): name its line`;
      throw legError('ambiguous_leg', i, `${found.length} prices match, at several ${what}`);
    }
    return found[0]!;
  }

  /** The rows of a market group at one book, when they are the whole market (every outcome the group has anywhere). */
  private complete(board: OddsBoard, groupKey: string, book: string): OddsRow[] | null {
    const all = board.groupRows(groupKey).filter((r) => r.isActive);
    const outcomes = new Set(all.map((r) => r.selectionType));
    const mine = all.filter((r) => r.sportsbook === book);
    return outcomes.size >= 2 && mine.length === outcomes.size && new Set(mine.map((r) => r.selectionType)).size === outcomes.size
      ? mine
      : null;
  }

  /** The devigged probability of `row`'s outcome: its own book's market, else the sharpest book with the whole market. */
  private fairOf(board: OddsBoard, row: OddsRow, i: number): number {
    const p = this.fairAt(board, row.groupKey, row.selectionType, row.sportsbook);
    if (p !== null) return p;
    throw legError('unknown_leg', i, `no two-sided market to take a fair price from for ${row.marketType} "${row.selection}"`);
  }

  private fairAt(board: OddsBoard, groupKey: string, selectionType: string, preferBook: string): number | null {
    const books = [preferBook, ...this.catalog.books.filter((b) => b.is_sharp).map((b) => b.id)];
    const others = [...new Set(board.groupRows(groupKey).map((r) => r.sportsbook))].sort();
    for (const b of [...books, ...others]) {
      const rows = this.complete(board, groupKey, b);
      if (!rows) continue;
      const k = rows.findIndex((r) => r.selectionType === selectionType);
      if (k < 0) continue;
      try {
        const p = devig(
          rows.map((r) => r.probability),
          this.config.clvDevigMethod,
        )[k]!;
        if (p > 0 && p < 1) return p;
      } catch {
        // an arbitrage-priced market: try the next book
      }
    }
    return null;
  }

  /** Pairs of legs that cannot all win: both outcomes of one market, or lines of one game that exclude each other. */
  private conflicts(board: OddsBoard, rows: OddsRow[]): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let i = 0; i < rows.length; i++)
      for (let j = i + 1; j < rows.length; j++) {
        const a = rows[i]!;
        const b = rows[j]!;
        if (a.eventId !== b.eventId) continue;
        if (a.groupKey === b.groupKey && a.selectionType !== b.selectionType) {
          out.push([i, j]);
          continue;
        }
        if (a.period !== b.period || a.marketType !== b.marketType) continue;
        const la = modelLegOf(a, this.threeWay(board, a));
        const lb = modelLegOf(b, this.threeWay(board, b));
        if (la && lb && mutuallyExclusive(la, lb)) out.push([i, j]);
      }
    return out;
  }

  private threeWay(board: OddsBoard, r: OddsRow): boolean {
    return MONEYLINES.has(r.marketType) && board.groupRows(r.groupKey).some((x) => x.selectionType === 'draw');
  }

  /** The joint model's factor for several legs on one game; 400 correlation_unsupported when it cannot join them. */
  private sameGameFactor(board: OddsBoard, eventId: string, rows: OddsRow[], idx: number[]): number {
    const refuse = (why: string) =>
      new ApiError('correlation_unsupported', `Legs ${idx.join(', ')} are on one game and ${why}; price them as separate slips`, {
        leg: idx[0],
      });
    const legs: ModelLeg[] = [];
    for (const r of rows) {
      const leg = modelLegOf(r, this.threeWay(board, r));
      if (!leg)
        throw refuse(
          `the score model joins only full-game moneylines, spreads and totals (${r.marketType}${r.playerName ? ` for ${r.playerName}` : ''}${isFullGame(r) ? '' : `, ${marketSegmentOf(r.marketType, r.period) ?? r.period}`} is not one)`,
        );
      legs.push(leg);
    }
    const event = board.events.get(eventId)!;
    if (!jointModelSports().includes(event.sport)) throw refuse(`the score model has no joint model for ${event.sport}`);
    const lines = this.gameLines(board, eventId, event.sport, rows[0]!.sportsbook);
    const cells = fitGameCells(lines);
    if (!cells) throw refuse("the game's main lines (a total and a spread or moneyline, both sides quoted) cannot fit its score model");
    const f = correlationFactor(cells, legs);
    if (f === null) throw refuse('the score model gives these legs no chance together');
    return f;
  }

  /** The game's devigged main lines: the main full-game spread, total and moneyline, at `book` when it quotes both sides. */
  private gameLines(board: OddsBoard, eventId: string, sport: string, book: string): GameLines {
    const lines: GameLines = { sport };
    const seen = new Set<string>();
    for (const r of board.sortedRowsOf(eventId)) {
      if (!r.isActive || !isFullGame(r) || r.playerName || seen.has(r.groupKey)) continue;
      const kind = SPREADS.has(r.marketType)
        ? 'spread'
        : TOTALS.has(r.marketType)
          ? 'total'
          : MONEYLINES.has(r.marketType)
            ? 'moneyline'
            : null;
      if (!kind) continue;
      if (kind !== 'moneyline' && (r.groupLine === null || board.mainLine(r.ladderKey) !== r.groupLine)) continue;
      if (lines[kind]) continue;
      seen.add(r.groupKey);
      if (kind === 'total') {
        const p = this.fairAt(board, r.groupKey, 'over', book);
        if (p !== null && r.line !== null) lines.total = { line: r.line, pOver: p };
      } else if (kind === 'spread') {
        const p = this.fairAt(board, r.groupKey, 'home', book);
        if (p !== null && r.groupLine !== null) lines.spread = { homeLine: r.groupLine, pHome: p };
      } else {
        const home = this.fairAt(board, r.groupKey, 'home', book);
        const away = this.fairAt(board, r.groupKey, 'away', book);
        if (home !== null && away !== null) lines.moneyline = { pHome: home / (home + away) };
      }
    }
    return lines;
  }

  private echo(board: OddsBoard, r: OddsRow, fair: number) {
    const e = board.events.get(r.eventId);
    return {
      odds_id: r.id,
      event_id: r.eventId,
      sport: r.sport,
      league: r.league,
      home_team: e?.homeTeam ?? null,
      away_team: e?.awayTeam ?? null,
      sportsbook: r.sportsbook,
      market: r.marketType,
      market_segment: marketSegmentOf(r.marketType, r.period),
      selection: r.selection,
      selection_type: r.selectionType,
      line: r.line,
      player_name: r.playerName,
      odds_american: Math.round(r.american),
      odds_decimal: Math.round(r.decimal * 1000) / 1000,
      fair_probability: Math.round(fair * 1e6) / 1e6,
      is_live: r.isLive,
    };
  }
}

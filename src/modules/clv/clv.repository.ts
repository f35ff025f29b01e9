import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BetResult, ClvMethod } from './clv.math.js';

/** A +EV detection to record. */
export interface NewPrediction {
  opportunityId: string;
  eventId: string;
  sport: string;
  league: string;
  homeTeam: string;
  awayTeam: string;
  eventStartTime: number;
  sportsbook: string;
  marketType: string;
  period: string;
  groupKey: string;
  selection: string;
  selectionType: string;
  line: number | null;
  playerName: string | null;
  entryAmerican: number;
  entryDecimal: number;
  fairProbability: number;
  evPercent: number;
  devigMethod: string;
  devigBook: string;
  outcomeCount: number;
  detectedAt: number;
}

/** What closing and grading read of a prediction. */
export interface OpenPrediction {
  opportunityId: string;
  sport: string;
  marketType: string;
  period: string;
  groupKey: string;
  selectionType: string;
  line: number | null;
  playerName: string | null;
  entryDecimal: number;
  devigMethod: string;
  outcomeCount: number;
}

/** What the report reads of a prediction. */
export interface ReportRow {
  sportsbook: string;
  sport: string;
  league: string;
  marketType: string;
  devigBook: string;
  detectedAt: number;
  entryDecimal: number;
  evPercent: number;
  clvPercent: number | null;
  /** The reference book's no-vig closing probability of the bet (null until closed). */
  closingProbability: number | null;
  clvMethod: ClvMethod | null;
  result: BetResult | null;
  voidReason: string | null;
}

export interface ReportFilter {
  from: number;
  to: number;
  sport?: string[];
  league?: string[];
  sportsbook?: string[];
  devigBook?: string[];
}

const iso = (ms: number) => new Date(ms).toISOString();
const CHUNK = 2000;
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** SQL of the CLV track record (table clv_predictions). */
@Injectable()
export class ClvRepository {
  constructor(private readonly ds: DataSource) {}

  /** Records detections; an opportunity already recorded keeps its first detection. */
  async insert(items: NewPrediction[]): Promise<void> {
    for (let i = 0; i < items.length; i += CHUNK) {
      const c = items.slice(i, i + CHUNK);
      const col = <K extends keyof NewPrediction>(k: K) => c.map((p) => p[k]);
      await this.ds.query(
        `INSERT INTO clv_predictions (opportunity_id, event_id, sport, league, home_team, away_team, event_start_time, sportsbook, market_type, period,
           group_key, selection, selection_type, line, player_name, entry_american, entry_decimal, fair_probability, ev_percent, devig_method, devig_book,
           outcome_count, detected_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[], $9::text[], $10::text[],
           $11::text[], $12::text[], $13::text[], $14::float8[], $15::text[], $16::int[], $17::float8[], $18::float8[], $19::float8[], $20::text[], $21::text[],
           $22::int[], $23::timestamptz[])
         ON CONFLICT (opportunity_id) DO NOTHING`,
        [
          col('opportunityId'),
          col('eventId'),
          col('sport'),
          col('league'),
          col('homeTeam'),
          col('awayTeam'),
          c.map((p) => iso(p.eventStartTime)),
          col('sportsbook'),
          col('marketType'),
          col('period'),
          col('groupKey'),
          col('selection'),
          col('selectionType'),
          col('line'),
          col('playerName'),
          col('entryAmerican'),
          col('entryDecimal'),
          col('fairProbability'),
          col('evPercent'),
          col('devigMethod'),
          col('devigBook'),
          col('outcomeCount'),
          c.map((p) => iso(p.detectedAt)),
        ],
      );
    }
  }

  private open(rows: Array<Record<string, unknown>>): OpenPrediction[] {
    return rows.map((r) => ({
      opportunityId: r.opportunity_id as string,
      sport: r.sport as string,
      marketType: r.market_type as string,
      period: r.period as string,
      groupKey: r.group_key as string,
      selectionType: r.selection_type as string,
      line: num(r.line),
      playerName: (r.player_name as string | null) ?? null,
      entryDecimal: Number(r.entry_decimal),
      devigMethod: r.devig_method as string,
      outcomeCount: Number(r.outcome_count),
    }));
  }

  private static readonly OPEN_COLUMNS =
    'opportunity_id, sport, market_type, period, group_key, selection_type, line, player_name, entry_decimal, devig_method, outcome_count';

  /** Predictions of an event devigged against `book` whose closing value is not known yet. */
  async unclosed(eventId: string, book: string): Promise<OpenPrediction[]> {
    return this.open(
      (await this.ds.query(
        `SELECT ${ClvRepository.OPEN_COLUMNS} FROM clv_predictions WHERE event_id = $1 AND devig_book = $2 AND closed_at IS NULL`,
        [eventId, book],
      )) as Array<Record<string, unknown>>,
    );
  }

  /** Predictions of an event not graded yet. */
  async ungraded(eventId: string): Promise<OpenPrediction[]> {
    return this.open(
      (await this.ds.query(`SELECT ${ClvRepository.OPEN_COLUMNS} FROM clv_predictions WHERE event_id = $1 AND graded_at IS NULL`, [
        eventId,
      ])) as Array<Record<string, unknown>>,
    );
  }

  /**
   * Stores closing values and how each was found (a null probability: the reference book's close gives none; closed_at
   * is still set).
   */
  async close(
    items: Array<{ id: string; probability: number | null; clv: number | null; method: ClvMethod | null; referenceLine: number | null }>,
    at: number,
  ): Promise<void> {
    if (!items.length) return;
    await this.ds.query(
      `UPDATE clv_predictions p SET closing_probability = t.prob, clv_percent = t.clv, clv_method = t.method, clv_reference_line = t.ref,
         closed_at = $6::timestamptz
       FROM unnest($1::text[], $2::float8[], $3::float8[], $4::text[], $5::float8[]) AS t(id, prob, clv, method, ref) WHERE p.opportunity_id = t.id`,
      [
        items.map((i) => i.id),
        items.map((i) => i.probability),
        items.map((i) => i.clv),
        items.map((i) => i.method),
        items.map((i) => i.referenceLine),
        iso(at),
      ],
    );
  }

  /** Marks an event's predictions void (a postponed or cancelled game); the first reason stays. Returns how many. */
  async voidEvent(eventId: string, reason: string): Promise<number> {
    const r = (await this.ds.query(
      `WITH u AS (UPDATE clv_predictions SET void_reason = $2 WHERE event_id = $1 AND void_reason IS NULL RETURNING 1)
       SELECT count(*)::int AS n FROM u`,
      [eventId, reason],
    )) as Array<{ n: number }>;
    return r[0]?.n ?? 0;
  }

  /** Stores results (null: the final score cannot settle the bet; graded_at is still set). */
  async grade(items: Array<{ id: string; result: BetResult | null }>, at: number): Promise<void> {
    if (!items.length) return;
    await this.ds.query(
      `UPDATE clv_predictions p SET result = t.result, graded_at = $3::timestamptz
       FROM unnest($1::text[], $2::text[]) AS t(id, result) WHERE p.opportunity_id = t.id`,
      [items.map((i) => i.id), items.map((i) => i.result), iso(at)],
    );
  }

  /** Detections in a window, filtered, for the report. */
  async report(f: ReportFilter): Promise<ReportRow[]> {
    const where = ['detected_at >= $1', 'detected_at <= $2'];
    const params: unknown[] = [iso(f.from), iso(f.to)];
    const add = (column: string, values?: string[]) => {
      if (!values?.length) return;
      params.push(values);
      where.push(`${column} = ANY($${params.length}::text[])`);
    };
    add('sport', f.sport);
    add('league', f.league);
    add('sportsbook', f.sportsbook);
    add('devig_book', f.devigBook);
    const rows = (await this.ds.query(
      `SELECT sportsbook, sport, league, market_type, devig_book, detected_at, entry_decimal, ev_percent, clv_percent, closing_probability, clv_method, result,
         void_reason
       FROM clv_predictions WHERE ${where.join(' AND ')}`,
      params,
    )) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      sportsbook: r.sportsbook as string,
      sport: r.sport as string,
      league: r.league as string,
      marketType: r.market_type as string,
      devigBook: r.devig_book as string,
      detectedAt: new Date(r.detected_at as string).getTime(),
      entryDecimal: Number(r.entry_decimal),
      evPercent: Number(r.ev_percent),
      clvPercent: num(r.clv_percent),
      closingProbability: num(r.closing_probability),
      clvMethod: (r.clv_method as ClvMethod | null) ?? null,
      result: (r.result as BetResult | null) ?? null,
      voidReason: (r.void_reason as string | null) ?? null,
    }));
  }
}

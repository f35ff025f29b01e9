import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One settled +EV signal as the grading store holds it (table clv_predictions, written by the CLV track record). */
export interface SettledRow {
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
  selection: string;
  selectionType: string;
  line: number | null;
  playerName: string | null;
  entryAmerican: number;
  entryDecimal: number;
  fairProbability: number;
  evPercent: number;
  detectedAt: number;
  closingProbability: number | null;
  clvPercent: number | null;
  result: string | null;
  voidReason: string | null;
  gradedAt: number | null;
}

export interface SettledFilter {
  /** Games starting at or after this time (the tier's window; null: no limit). */
  since: number | null;
  hashId?: string;
  gameId?: string;
  marketType?: string;
  selection?: string;
  /** Player props only (the caller matches the player id). */
  playersOnly?: boolean;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const ms = (v: unknown): number | null => (v === null || v === undefined ? null : new Date(v as string).getTime());

/**
 * Reads the settled signals of the grading store: those graded at a final score with a result, and those void (game
 * postponed or cancelled). Newest settlement first (void ones at their game's start time), then by id.
 */
@Injectable()
export class SettlementsRepository {
  constructor(private readonly ds: DataSource) {}

  async settled(f: SettledFilter): Promise<SettledRow[]> {
    const where = ['(void_reason IS NOT NULL OR result IS NOT NULL)'];
    const params: unknown[] = [];
    const add = (sql: (n: number) => string, value: unknown) => {
      params.push(value);
      where.push(sql(params.length));
    };
    if (f.since !== null) add((n) => `event_start_time >= $${n}::timestamptz`, new Date(f.since).toISOString());
    if (f.hashId !== undefined) add((n) => `opportunity_id = $${n}`, f.hashId);
    if (f.gameId !== undefined) add((n) => `event_id = $${n}`, f.gameId);
    if (f.marketType !== undefined) add((n) => `market_type = $${n}`, f.marketType);
    if (f.selection !== undefined) add((n) => `lower(selection) = lower($${n})`, f.selection);
    if (f.playersOnly) where.push('player_name IS NOT NULL');
    const rows = (await this.ds.query(
      `SELECT opportunity_id, event_id, sport, league, home_team, away_team, event_start_time, sportsbook, market_type, period, selection,
         selection_type, line, player_name, entry_american, entry_decimal, fair_probability, ev_percent, detected_at, closing_probability,
         clv_percent, result, void_reason, graded_at
       FROM clv_predictions WHERE ${where.join(' AND ')}
       ORDER BY COALESCE(graded_at, event_start_time) DESC, opportunity_id`,
      params,
    )) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      opportunityId: r.opportunity_id as string,
      eventId: r.event_id as string,
      sport: r.sport as string,
      league: r.league as string,
      homeTeam: r.home_team as string,
      awayTeam: r.away_team as string,
      eventStartTime: ms(r.event_start_time)!,
      sportsbook: r.sportsbook as string,
      marketType: r.market_type as string,
      period: r.period as string,
      selection: r.selection as string,
      selectionType: r.selection_type as string,
      line: num(r.line),
      playerName: (r.player_name as string | null) ?? null,
      entryAmerican: Number(r.entry_american),
      entryDecimal: Number(r.entry_decimal),
      fairProbability: Number(r.fair_probability),
      evPercent: Number(r.ev_percent),
      detectedAt: ms(r.detected_at)!,
      closingProbability: num(r.closing_probability),
      clvPercent: num(r.clv_percent),
      result: (r.result as string | null) ?? null,
      voidReason: (r.void_reason as string | null) ?? null,
      gradedAt: ms(r.graded_at),
    }));
  }
}

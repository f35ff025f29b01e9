import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { StoredClosingLine } from './closing-lines.entity.js';

/** One book's closing line of one event, as stored. */
export interface ClosingCapture {
  eventId: string;
  sportsbook: string;
  sport: string;
  league: string;
  homeTeam: string;
  awayTeam: string;
  eventStartTime: number;
  capturedAt: number;
  lines: StoredClosingLine[];
}

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (v: unknown): number => new Date(v as string | Date).getTime();

/** SQL of the closing lines (table closing_lines): capture (first capture per event and book wins), read, purge. */
@Injectable()
export class ClosingLinesRepository {
  constructor(private readonly ds: DataSource) {}

  /** Stores captures; an (event, book) already captured keeps its first capture. Returns the `event|book` pairs inserted. */
  async insert(caps: ClosingCapture[]): Promise<string[]> {
    if (!caps.length) return [];
    const r = (await this.ds.query(
      `WITH i AS (INSERT INTO closing_lines (event_id, sportsbook, sport, league, home_team, away_team, event_start_time, captured_at, lines)
       SELECT event_id, sportsbook, sport, league, home_team, away_team, event_start_time::timestamptz, captured_at::timestamptz, lines::jsonb
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
         AS t(event_id, sportsbook, sport, league, home_team, away_team, event_start_time, captured_at, lines)
       ON CONFLICT (event_id, sportsbook) DO NOTHING
       RETURNING event_id, sportsbook) SELECT event_id, sportsbook FROM i`,
      [
        caps.map((c) => c.eventId),
        caps.map((c) => c.sportsbook),
        caps.map((c) => c.sport),
        caps.map((c) => c.league),
        caps.map((c) => c.homeTeam),
        caps.map((c) => c.awayTeam),
        caps.map((c) => iso(c.eventStartTime)),
        caps.map((c) => iso(c.capturedAt)),
        caps.map((c) => JSON.stringify(c.lines)),
      ],
    )) as Array<{ event_id: string; sportsbook: string }>;
    return r.map((x) => `${x.event_id}|${x.sportsbook}`);
  }

  /** The captures of one event (every book, or those named), by book. */
  async forEvent(eventId: string, books?: readonly string[]): Promise<ClosingCapture[]> {
    const rows = (await this.ds.query(
      `SELECT event_id, sportsbook, sport, league, home_team, away_team, event_start_time, captured_at, lines
       FROM closing_lines WHERE event_id = $1 ${books ? 'AND sportsbook = ANY($2::text[])' : ''} ORDER BY sportsbook`,
      books ? [eventId, books] : [eventId],
    )) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      eventId: r.event_id as string,
      sportsbook: r.sportsbook as string,
      sport: r.sport as string,
      league: r.league as string,
      homeTeam: r.home_team as string,
      awayTeam: r.away_team as string,
      eventStartTime: ms(r.event_start_time),
      capturedAt: ms(r.captured_at),
      lines: (typeof r.lines === 'string' ? JSON.parse(r.lines) : r.lines) as StoredClosingLine[],
    }));
  }

  /** The (event, book) pairs captured among these events: what a restarted worker must not capture again. */
  async capturedPairs(eventIds: readonly string[]): Promise<string[]> {
    if (!eventIds.length) return [];
    const rows = (await this.ds.query(`SELECT event_id, sportsbook FROM closing_lines WHERE event_id = ANY($1::text[])`, [
      eventIds,
    ])) as Array<{ event_id: string; sportsbook: string }>;
    return rows.map((r) => `${r.event_id}|${r.sportsbook}`);
  }

  /** Deletes captures older than `before` (ms). Returns the rows deleted. */
  async purge(before: number): Promise<number> {
    const r = (await this.ds.query(
      `WITH d AS (DELETE FROM closing_lines WHERE captured_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [iso(before)],
    )) as Array<{ n: number }>;
    return r[0]?.n ?? 0;
  }
}

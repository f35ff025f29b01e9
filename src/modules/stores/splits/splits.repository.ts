import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { epochMs, selectList } from '../../../database/rows.js';
import { SplitsSnapshotEntity, type SplitsPayload } from './splits.entity.js';
import { cleanMarkets, type CurrentSplits } from './splits-store.js';

/** A split as one capture stored it. */
export interface StoredSplits extends CurrentSplits {
  capturedAt: number;
}

export interface SplitsHistoryFilter {
  eventId: string;
  /** Only these books (undefined: every book). */
  books?: string[];
  /** Captured at or after (ms); undefined: no lower bound. */
  from?: number;
  /** Captured at or before (ms). */
  to: number;
  /** Keep the most recent `limit` matches (null: all). */
  limit: number | null;
}

export interface SplitsHistoryResult {
  /** Matches before the limit. */
  total: number;
  /** Distinct books among the matches, sorted. */
  books: string[];
  /** Oldest first. */
  rows: StoredSplits[];
}

const iso = (ms: number) => new Date(ms).toISOString();
const CHUNK = 2000;
const COLUMNS = `event_id, sportsbook, sport, league, home_team, away_team, captured_at, payload`;

function toPayload(s: CurrentSplits): SplitsPayload {
  return { ...cleanMarkets(s), fetched_at: iso(s.fetchedAt), start_time: iso(s.startTime) };
}

/** A stored snapshot as the splits store holds it (a payload written before a field existed falls back to the capture time). */
export function toStoredSplits(r: SplitsSnapshotEntity): StoredSplits {
  const p: Partial<SplitsPayload> = r.payload;
  const capturedAt = epochMs(r.capturedAt);
  return {
    eventId: r.eventId,
    sportsbook: r.sportsbook,
    sport: r.sport,
    league: r.league,
    homeTeam: r.homeTeam,
    awayTeam: r.awayTeam,
    startTime: p.start_time ? Date.parse(p.start_time) : capturedAt,
    fetchedAt: p.fetched_at ? Date.parse(p.fetched_at) : capturedAt,
    ...cleanMarkets(p),
    capturedAt,
  };
}

/** SQL of the splits snapshots (table splits_snapshots): capture, start-up load, history, purge. */
@Injectable()
export class SplitsRepository {
  /** Every column, under the entity's property names. */
  private readonly columns: string;

  constructor(private readonly ds: DataSource) {
    this.columns = selectList(ds, SplitsSnapshotEntity);
  }

  /** Writes one capture: every split given, all with the same captured_at. Returns the rows written. */
  async insert(splits: CurrentSplits[], capturedAt: number): Promise<number> {
    if (!splits.length) return 0;
    await this.ds.transaction(async (m) => {
      for (let i = 0; i < splits.length; i += CHUNK) {
        const c = splits.slice(i, i + CHUNK);
        await m.query(
          `INSERT INTO splits_snapshots (${COLUMNS})
           SELECT event_id, sportsbook, sport, league, home_team, away_team, $7::timestamptz, payload::jsonb
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $8::text[])
             AS t(event_id, sportsbook, sport, league, home_team, away_team, payload)`,
          [
            c.map((s) => s.eventId),
            c.map((s) => s.sportsbook),
            c.map((s) => s.sport),
            c.map((s) => s.league),
            c.map((s) => s.homeTeam),
            c.map((s) => s.awayTeam),
            iso(capturedAt),
            c.map((s) => JSON.stringify(toPayload(s))),
          ],
        );
      }
    });
    return splits.length;
  }

  /** The latest snapshot of every (event, book) captured at or after `since` (the start-up load). */
  async latest(since: number): Promise<StoredSplits[]> {
    const rows = await this.ds.query<SplitsSnapshotEntity[]>(
      `SELECT DISTINCT ON (event_id, sportsbook) ${this.columns}
       FROM splits_snapshots WHERE captured_at >= $1
       ORDER BY event_id, sportsbook, captured_at DESC, id DESC`,
      [iso(since)],
    );
    return rows.map(toStoredSplits);
  }

  /** One event's snapshots in a window, oldest first; with a limit, the most recent `limit` of them. */
  async history(f: SplitsHistoryFilter): Promise<SplitsHistoryResult> {
    const where = `event_id = $1 AND ($2::text[] IS NULL OR sportsbook = ANY($2::text[]))
      AND ($3::timestamptz IS NULL OR captured_at >= $3::timestamptz) AND captured_at <= $4::timestamptz`;
    const params: unknown[] = [f.eventId, f.books?.length ? f.books : null, f.from === undefined ? null : iso(f.from), iso(f.to)];
    const [agg] = await this.ds.query<Array<{ n: number; books: string }>>(
      `SELECT count(*)::int AS n, coalesce(string_agg(DISTINCT sportsbook, ',' ORDER BY sportsbook), '') AS books
       FROM splits_snapshots WHERE ${where}`,
      params,
    );
    const total = Number(agg?.n ?? 0);
    if (!total) return { total: 0, books: [], rows: [] };
    const rows =
      f.limit === null
        ? await this.ds.query<SplitsSnapshotEntity[]>(
            `SELECT ${this.columns} FROM splits_snapshots WHERE ${where} ORDER BY captured_at, sportsbook, id`,
            params,
          )
        : await this.ds.query<SplitsSnapshotEntity[]>(
            `SELECT * FROM (
               SELECT ${this.columns} FROM splits_snapshots WHERE ${where}
               ORDER BY captured_at DESC, sportsbook DESC, id DESC LIMIT $5
             ) recent ORDER BY "capturedAt", sportsbook, id`,
            [...params, f.limit],
          );
    return { total, books: agg?.books ? agg.books.split(',') : [], rows: rows.map(toStoredSplits) };
  }

  /** Deletes snapshots captured before `before`; returns how many. */
  async purge(before: number): Promise<number> {
    const r = await this.ds.query<Array<{ n: number }>>(
      `WITH d AS (DELETE FROM splits_snapshots WHERE captured_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [iso(before)],
    );
    return Number(r[0]?.n ?? 0);
  }
}

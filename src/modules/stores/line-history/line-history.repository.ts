import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IsoTimes } from '../../board/iso-times.js';

/** What identifies a series: one board row's text. */
export interface SeriesKey {
  oddsId: string;
  eventId: string;
  sportsbook: string;
  marketType: string;
  period: string;
  selection: string;
  selectionType: string;
  line: number | null;
  playerName: string | null;
}

export interface StoredSeries extends SeriesKey {
  id: number;
  firstAt: number;
}

/** One change as written: the series, the time, the price (decimal x 10^4 and American; null when withdrawn) and the state. */
export interface ChangeRow {
  seriesId: number;
  at: number;
  priceE4: number | null;
  american: number | null;
  isLive: boolean;
  isActive: boolean;
}

/** Which series of one event a read covers (each list: any of its values; absent: all). */
export interface SeriesFilter {
  books?: readonly string[];
  markets?: readonly string[];
  periods?: readonly string[];
  lines?: readonly number[];
}

/** Rows per statement: the changes table takes 6 arrays of this many values. */
const CHUNK = 5000;
const PURGE_BATCH = 20_000;

const yieldTurn = () => new Promise((r) => setImmediate(r));

/** Statement-sized slices, with a turn of the event loop between them (the embedded database runs on this thread). */
async function* chunks<T>(items: readonly T[], size = CHUNK): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) {
    if (i > 0) await yieldTurn();
    yield items.slice(i, i + size);
  }
}

const ms = (v: unknown): number => new Date(v as string | Date).getTime();
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function toSeries(r: Record<string, unknown>): StoredSeries {
  return {
    id: Number(r.id),
    oddsId: r.odds_id as string,
    eventId: r.event_id as string,
    sportsbook: r.sportsbook as string,
    marketType: r.market_type as string,
    period: r.period as string,
    selection: r.selection as string,
    selectionType: r.selection_type as string,
    line: num(r.line),
    playerName: (r.player_name as string | null) ?? null,
    firstAt: ms(r.first_at),
  };
}

function toChange(r: Record<string, unknown>): ChangeRow {
  return {
    seriesId: Number(r.series_id),
    at: typeof r.at === 'number' ? r.at : ms(r.at),
    priceE4: num(r.price_e4),
    american: num(r.odds_american),
    isLive: r.is_live === true,
    isActive: r.is_active === true,
  };
}

const CHANGE_COLUMNS = 'series_id, at, price_e4, odds_american, is_live, is_active';
/** A change's time as epoch milliseconds (a double: exact for ms), cheaper to read back than a timestamp. */
const EPOCH_MS = '(extract(epoch from c.at) * 1000)::float8';

/**
 * SQL of the line history (tables line_history_series and line_history): series created once per board row, changes
 * appended in batches (one unnest statement per chunk), reads by event and time window, the retention purge.
 */
@Injectable()
export class LineHistoryRepository {
  constructor(private readonly ds: DataSource) {}

  /** Creates the series not stored yet (a row already there keeps its id) and returns every given row id's series id. */
  async ensureSeries(series: ReadonlyArray<SeriesKey & { firstAt: number }>): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const times = new IsoTimes();
    for await (const c of chunks(series, 2000)) {
      await this.ds.query(
        `INSERT INTO line_history_series (odds_id, event_id, sportsbook, market_type, period, selection, selection_type, line, player_name, first_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::double precision[], $9::text[], $10::timestamptz[])
         ON CONFLICT (odds_id) DO NOTHING`,
        [
          c.map((s) => s.oddsId),
          c.map((s) => s.eventId),
          c.map((s) => s.sportsbook),
          c.map((s) => s.marketType),
          c.map((s) => s.period),
          c.map((s) => s.selection),
          c.map((s) => s.selectionType),
          c.map((s) => s.line),
          c.map((s) => s.playerName),
          c.map((s) => times.format(s.firstAt)),
        ],
      );
      for (const [id, sid] of await this.seriesIds(c.map((s) => s.oddsId))) out.set(id, sid);
    }
    return out;
  }

  /** The series ids of stored rows (row ids not stored are left out). */
  async seriesIds(oddsIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for await (const c of chunks(oddsIds, 2000)) {
      const rows = (await this.ds.query(`SELECT id, odds_id FROM line_history_series WHERE odds_id = ANY($1::text[])`, [c])) as Array<{
        id: number;
        odds_id: string;
      }>;
      for (const r of rows) out.set(r.odds_id, Number(r.id));
    }
    return out;
  }

  /** Appends changes; a second change of a series at the same instant replaces the first (the later state wins). */
  async insertChanges(changes: readonly ChangeRow[]): Promise<void> {
    const times = new IsoTimes();
    for await (const c of chunks(changes)) {
      await this.ds.query(
        `INSERT INTO line_history (${CHANGE_COLUMNS})
         SELECT * FROM unnest($1::integer[], $2::timestamptz[], $3::integer[], $4::integer[], $5::boolean[], $6::boolean[])
         ON CONFLICT (series_id, at) DO UPDATE SET price_e4 = EXCLUDED.price_e4, odds_american = EXCLUDED.odds_american,
           is_live = EXCLUDED.is_live, is_active = EXCLUDED.is_active`,
        [
          c.map((x) => x.seriesId),
          c.map((x) => times.format(x.at)),
          c.map((x) => x.priceE4),
          c.map((x) => x.american),
          c.map((x) => x.isLive),
          c.map((x) => x.isActive),
        ],
      );
    }
  }

  /** The series of one event, narrowed by the filter, in a stable order (book, market, period, selection, line, id). */
  async seriesOf(eventId: string, f: SeriesFilter = {}): Promise<StoredSeries[]> {
    const where = ['event_id = $1'];
    const params: unknown[] = [eventId];
    const add = (sql: string, v: unknown) => {
      params.push(v);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (f.books) add('sportsbook = ANY(?::text[])', f.books);
    if (f.markets) add('market_type = ANY(?::text[])', f.markets);
    if (f.periods) add('period = ANY(?::text[])', f.periods);
    if (f.lines) add('line = ANY(?::double precision[])', f.lines);
    const rows = (await this.ds.query(
      `SELECT id, odds_id, event_id, sportsbook, market_type, period, selection, selection_type, line, player_name, first_at
       FROM line_history_series WHERE ${where.join(' AND ')}
       ORDER BY sportsbook, market_type, period, selection_type, selection, line NULLS FIRST, player_name NULLS FIRST, id`,
      params,
    )) as Array<Record<string, unknown>>;
    return rows.map(toSeries);
  }

  /** Whether anything of the event is stored. */
  async hasEvent(eventId: string): Promise<boolean> {
    const rows = (await this.ds.query(`SELECT 1 FROM line_history_series WHERE event_id = $1 LIMIT 1`, [eventId])) as unknown[];
    return rows.length > 0;
  }

  /** Of these series, those with at least one change in [from, to] (one index probe each). */
  async seriesWithChanges(seriesIds: readonly number[], from: number, to: number): Promise<number[]> {
    if (!seriesIds.length) return [];
    const rows = (await this.ds.query(
      `SELECT s.id FROM unnest($1::integer[]) AS s(id)
       WHERE EXISTS (SELECT 1 FROM line_history c WHERE c.series_id = s.id AND c.at >= $2::timestamptz AND c.at <= $3::timestamptz)`,
      [seriesIds, new Date(from).toISOString(), new Date(to).toISOString()],
    )) as Array<{ id: number }>;
    return rows.map((r) => Number(r.id));
  }

  /**
   * The changes of each series in [from, to], oldest first, at most `perSeries` of each (one index range scan per
   * series on the primary key), by series (in the order given) then time. Each series comes back as one row holding
   * its changes as a JSON array of tuples (times as epoch ms): a fraction of the cost of a row per change.
   */
  async changes(seriesIds: readonly number[], from: number, to: number, perSeries: number): Promise<ChangeRow[]> {
    if (!seriesIds.length) return [];
    const rows = (await this.ds.query(
      `SELECT s.id AS series_id, (
         SELECT json_agg(json_build_array(${EPOCH_MS}, c.price_e4, c.odds_american, c.is_live, c.is_active) ORDER BY c.at)::text
         FROM (SELECT at, price_e4, odds_american, is_live, is_active FROM line_history
               WHERE series_id = s.id AND at >= $2::timestamptz AND at <= $3::timestamptz ORDER BY at LIMIT $4) c
       ) AS points
       FROM unnest($1::integer[]) WITH ORDINALITY AS s(id, n) ORDER BY s.n`,
      [seriesIds, new Date(from).toISOString(), new Date(to).toISOString(), perSeries],
    )) as Array<{ series_id: number; points: string | null }>;
    const out: ChangeRow[] = [];
    for (const r of rows) {
      if (!r.points) continue;
      const seriesId = Number(r.series_id);
      for (const [at, priceE4, american, isLive, isActive] of JSON.parse(r.points) as Array<
        [number, number | null, number | null, boolean, boolean]
      >)
        out.push({ seriesId, at, priceE4, american, isLive, isActive });
    }
    return out;
  }

  /** The last change of each series at or before `at` (what was in force then); series without one are left out. */
  async lastAtOrBefore(seriesIds: readonly number[], at: number): Promise<ChangeRow[]> {
    if (!seriesIds.length) return [];
    const rows = (await this.ds.query(
      `SELECT c.series_id, ${EPOCH_MS} AS at, c.price_e4, c.odds_american, c.is_live, c.is_active
       FROM unnest($1::integer[]) AS s(id)
       CROSS JOIN LATERAL (
         SELECT ${CHANGE_COLUMNS} FROM line_history WHERE series_id = s.id AND at <= $2::timestamptz ORDER BY at DESC LIMIT 1
       ) c`,
      [seriesIds, new Date(at).toISOString()],
    )) as Array<Record<string, unknown>>;
    return rows.map(toChange);
  }

  /**
   * Deletes changes older than `before` (in batches, so a long backlog never holds one huge transaction), then the
   * series left without a change. Returns what was deleted.
   */
  async purge(before: number): Promise<{ changes: number; series: number }> {
    const cutoff = new Date(before).toISOString();
    let changes = 0;
    for (;;) {
      const r = (await this.ds.query(
        `WITH d AS (DELETE FROM line_history WHERE ctid = ANY(ARRAY(SELECT ctid FROM line_history WHERE at < $1::timestamptz LIMIT ${PURGE_BATCH})) RETURNING 1)
         SELECT count(*)::int AS n FROM d`,
        [cutoff],
      )) as Array<{ n: number }>;
      const n = r[0]?.n ?? 0;
      changes += n;
      if (n < PURGE_BATCH) break;
      await yieldTurn();
    }
    const s = (await this.ds.query(
      `WITH d AS (DELETE FROM line_history_series s WHERE s.first_at < $1::timestamptz
         AND NOT EXISTS (SELECT 1 FROM line_history c WHERE c.series_id = s.id) RETURNING 1)
       SELECT count(*)::int AS n FROM d`,
      [cutoff],
    )) as Array<{ n: number }>;
    return { changes, series: s[0]?.n ?? 0 };
  }

  /** Rows and on-disk bytes of the two tables (heap and indexes), for the benchmark and the operators' figures. */
  async size(): Promise<{ changes: number; series: number; changeBytes: number; seriesBytes: number }> {
    const [r] = (await this.ds.query(
      `SELECT (SELECT count(*) FROM line_history)::bigint AS changes, (SELECT count(*) FROM line_history_series)::bigint AS series,
              pg_total_relation_size('line_history')::bigint AS change_bytes, pg_total_relation_size('line_history_series')::bigint AS series_bytes`,
    )) as Array<Record<string, unknown>>;
    return {
      changes: Number(r?.changes ?? 0),
      series: Number(r?.series ?? 0),
      changeBytes: Number(r?.change_bytes ?? 0),
      seriesBytes: Number(r?.series_bytes ?? 0),
    };
  }
}

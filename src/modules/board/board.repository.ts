import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Interner } from '../../domain/interner.js';
import type { BoardEvent, OddsRow, RemovedRow } from '../../domain/odds-row.js';
import { epochMs, readTable, selectList } from '../../database/rows.js';
import { IsoTimes } from './iso-times.js';
import { EventEntity, OddsEntity } from './board.entities.js';

export interface HistoryEntry {
  row: OddsRow;
  at: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const CHUNK = 2000;

/** One row per id, the last one given winning (an upsert statement may not touch a row twice). */
function latestOfEach(rows: OddsRow[]): OddsRow[] {
  const ids = new Set<string>();
  let unique = true;
  for (const r of rows) {
    if (ids.has(r.id)) {
      unique = false;
      break;
    }
    ids.add(r.id);
  }
  return unique ? rows : [...new Map(rows.map((r) => [r.id, r])).values()];
}

/**
 * Statement-sized slices of a batch, with a turn of the event loop between them: the embedded database runs
 * on this thread, so one big write would otherwise stall every request until it finished.
 */
async function* chunks<T>(items: T[], size = CHUNK): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) {
    if (i > 0) await new Promise((r) => setImmediate(r));
    yield items.slice(i, i + size);
  }
}

/** A stored event as the board holds it. */
export function toBoardEvent(e: EventEntity): BoardEvent {
  return {
    id: e.id,
    sport: e.sport,
    league: e.league,
    homeTeam: e.homeTeam,
    awayTeam: e.awayTeam,
    homeKey: e.homeKey,
    awayKey: e.awayKey,
    startTime: epochMs(e.startTime),
    status: e.status,
    externalIds: e.externalIds ?? {},
    gameState: e.gameState ?? null,
    firstSeenAt: epochMs(e.firstSeenAt),
    updatedAt: epochMs(e.updatedAt),
    endedAt: e.endedAt ? epochMs(e.endedAt) : null,
  };
}

/** A stored price as the board holds it; `str` shares the strings rows repeat (one copy per distinct value). */
export function toOddsRow(r: OddsEntity, str: Interner = new Interner()): OddsRow {
  return {
    id: r.id,
    sportsbook: str.intern(r.sportsbook),
    eventId: str.intern(r.eventId),
    sport: str.intern(r.sport),
    league: str.intern(r.league),
    marketType: str.intern(r.marketType),
    period: str.intern(r.period),
    ladderKey: str.intern(r.ladderKey),
    groupKey: str.intern(r.groupKey),
    groupLine: r.groupLine,
    selection: str.intern(r.selection),
    selectionType: str.intern(r.selectionType),
    line: r.line,
    playerName: str.intern(r.playerName),
    statCategory: str.intern(r.statCategory),
    american: r.oddsAmerican,
    decimal: r.oddsDecimal,
    probability: r.probability,
    isLive: r.isLive,
    isActive: r.isActive,
    changedAt: epochMs(r.changedAt),
    oddsChangedAt: epochMs(r.oddsChangedAt),
    lastSeenAt: epochMs(r.lastSeenAt),
    externalEventId: str.intern(r.externalEventId),
    marketId: str.intern(r.marketId),
    selectionId: r.selectionId,
    maxBet: r.maxBet,
    volume: r.volume,
    volume24h: r.volume24h,
    openInterest: r.openInterest,
    bid: r.bid,
    ask: r.ask,
    last: r.lastPrice,
    homePitcher: r.homePitcher,
    awayPitcher: r.awayPitcher,
  };
}

/** One column written by the board writer: its name, its type, and its value (times: epoch ms). */
type Column<T> = [name: string, type: ColumnType, value: (item: T) => string | number | boolean | null | undefined];
type ColumnType = 'text' | 'double precision' | 'integer' | 'boolean' | 'timestamptz';

/** The columns of `odds`. The upsert sets every one of them. */
const ODDS_COLUMNS: Array<Column<OddsRow>> = [
  ['id', 'text', (r) => r.id],
  ['event_id', 'text', (r) => r.eventId],
  ['sportsbook', 'text', (r) => r.sportsbook],
  ['sport', 'text', (r) => r.sport],
  ['league', 'text', (r) => r.league],
  ['market_type', 'text', (r) => r.marketType],
  ['period', 'text', (r) => r.period],
  ['ladder_key', 'text', (r) => r.ladderKey],
  ['group_key', 'text', (r) => r.groupKey],
  ['group_line', 'double precision', (r) => r.groupLine],
  ['selection', 'text', (r) => r.selection],
  ['selection_type', 'text', (r) => r.selectionType],
  ['line', 'double precision', (r) => r.line],
  ['player_name', 'text', (r) => r.playerName],
  ['stat_category', 'text', (r) => r.statCategory],
  ['odds_american', 'integer', (r) => r.american],
  ['odds_decimal', 'double precision', (r) => r.decimal],
  ['probability', 'double precision', (r) => r.probability],
  ['is_live', 'boolean', (r) => r.isLive],
  ['is_active', 'boolean', (r) => r.isActive],
  ['changed_at', 'timestamptz', (r) => r.changedAt],
  ['odds_changed_at', 'timestamptz', (r) => r.oddsChangedAt],
  ['last_seen_at', 'timestamptz', (r) => r.lastSeenAt],
  ['external_event_id', 'text', (r) => r.externalEventId],
  ['market_id', 'text', (r) => r.marketId],
  ['selection_id', 'text', (r) => r.selectionId],
  ['max_bet', 'double precision', (r) => r.maxBet],
  ['volume', 'double precision', (r) => r.volume],
  ['volume_24h', 'double precision', (r) => r.volume24h],
  ['open_interest', 'double precision', (r) => r.openInterest],
  ['bid', 'double precision', (r) => r.bid ?? null],
  ['ask', 'double precision', (r) => r.ask ?? null],
  ['last_price', 'double precision', (r) => r.last ?? null],
  ['home_pitcher', 'text', (r) => r.homePitcher],
  ['away_pitcher', 'text', (r) => r.awayPitcher],
];

const HISTORY_COLUMNS: Array<Column<HistoryEntry>> = [
  ['odds_id', 'text', (h) => h.row.id],
  ['event_id', 'text', (h) => h.row.eventId],
  ['sportsbook', 'text', (h) => h.row.sportsbook],
  ['odds_american', 'integer', (h) => h.row.american],
  ['odds_decimal', 'double precision', (h) => h.row.decimal],
  ['line', 'double precision', (h) => h.row.line],
  ['is_live', 'boolean', (h) => h.row.isLive],
  ['is_active', 'boolean', (h) => h.row.isActive],
  ['recorded_at', 'timestamptz', (h) => h.at],
];

const names = <T>(cols: Array<Column<T>>) => cols.map(([name]) => name).join(', ');

/** The upsert of current prices from one typed array per column (unnest): it sets every column. */
const UPSERT = `INSERT INTO odds (${names(ODDS_COLUMNS)})
  SELECT * FROM unnest(${ODDS_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
  ON CONFLICT (id) DO UPDATE SET ${ODDS_COLUMNS.slice(1)
    .map(([n]) => `${n} = EXCLUDED.${n}`)
    .join(', ')}`;
const INSERT_HISTORY = `INSERT INTO odds_history (${names(HISTORY_COLUMNS)})
  SELECT * FROM unnest(${HISTORY_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})`;

/** One array per column of `items` (times as ISO text; what is not a time as text the database refuses). */
function arrays<T>(cols: Array<Column<T>>, items: T[]): unknown[][] {
  const times = new IsoTimes();
  return cols.map(([, type, value]) =>
    type === 'timestamptz' ? items.map((it) => times.format(value(it) as number)) : items.map((it) => value(it) ?? null),
  );
}

/**
 * SQL of the board: batched upserts of current prices (one unnest statement per chunk, every column set), the
 * append-only history, the removal log, events, and the start-up load. Used by the board writer only.
 */
@Injectable()
export class BoardRepository {
  constructor(private readonly ds: DataSource) {}

  /** Writes one batch in a transaction. */
  async write(batch: {
    rows: OddsRow[];
    removed: RemovedRow[];
    history: HistoryEntry[];
    events: BoardEvent[];
    eventsRemoved: string[];
  }): Promise<void> {
    await this.ds.transaction(async (m) => {
      if (batch.events.length) await this.upsertEvents(m, batch.events);
      for await (const c of chunks(latestOfEach(batch.rows))) await m.query(UPSERT, arrays(ODDS_COLUMNS, c));
      if (batch.removed.length) {
        for await (const c of chunks(batch.removed)) {
          await m.query(`DELETE FROM odds WHERE id = ANY($1::text[])`, [c.map((r) => r.id)]);
          await m.query(
            `INSERT INTO odds_removals (odds_id, sportsbook, event_id, removed_at)
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])`,
            [c.map((r) => r.id), c.map((r) => r.sportsbook), c.map((r) => r.eventId), c.map((r) => iso(r.removedAt))],
          );
        }
      }
      for await (const c of chunks(batch.history)) await m.query(INSERT_HISTORY, arrays(HISTORY_COLUMNS, c));
      if (batch.eventsRemoved.length) {
        await m.query(`DELETE FROM odds WHERE event_id = ANY($1::text[])`, [batch.eventsRemoved]);
        await m.query(`DELETE FROM events WHERE id = ANY($1::text[])`, [batch.eventsRemoved]);
      }
    });
  }

  /** Confirms rows as still quoted (last_seen_at) without rewriting them. */
  async touch(ids: string[], at: number): Promise<void> {
    for await (const c of chunks(ids))
      await this.ds.query(`UPDATE odds SET last_seen_at = $2 WHERE id = ANY($1::text[]) AND last_seen_at < $2`, [c, iso(at)]);
  }

  private async upsertEvents(m: EntityManager, events: BoardEvent[]): Promise<void> {
    for await (const c of chunks(events, 1000)) {
      await m.query(
        `INSERT INTO events (id, sport, league, home_team, away_team, home_key, away_key, start_time, status, external_ids, game_state, first_seen_at, updated_at, ended_at)
         SELECT id, sport, league, home_team, away_team, home_key, away_key, start_time, status, external_ids::jsonb, game_state::jsonb, first_seen_at, updated_at, ended_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::text[], $10::text[], $11::text[], $12::timestamptz[], $13::timestamptz[], $14::timestamptz[])
           AS t(id, sport, league, home_team, away_team, home_key, away_key, start_time, status, external_ids, game_state, first_seen_at, updated_at, ended_at)
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, external_ids = EXCLUDED.external_ids, game_state = EXCLUDED.game_state,
           updated_at = EXCLUDED.updated_at, ended_at = EXCLUDED.ended_at, start_time = EXCLUDED.start_time`,
        [
          c.map((e) => e.id),
          c.map((e) => e.sport),
          c.map((e) => e.league),
          c.map((e) => e.homeTeam),
          c.map((e) => e.awayTeam),
          c.map((e) => e.homeKey),
          c.map((e) => e.awayKey),
          c.map((e) => iso(e.startTime)),
          c.map((e) => e.status),
          c.map((e) => JSON.stringify(e.externalIds)),
          c.map((e) => (e.gameState ? JSON.stringify(e.gameState) : null)),
          c.map((e) => iso(e.firstSeenAt)),
          c.map((e) => iso(e.updatedAt)),
          c.map((e) => (e.endedAt ? iso(e.endedAt) : null)),
        ],
      );
    }
  }

  /**
   * The time of the newest change set the store holds in full. The writer stores everything enqueued up to a
   * flush in one transaction, and every change leaves a timestamped trace (a history entry, a removal, an
   * event update), so whatever changed at or before this time is in the store as it was then.
   */
  async persistedThrough(): Promise<number> {
    const [r] = await this.ds.query<Array<{ w: Date | null }>>(
      `SELECT GREATEST((SELECT max(recorded_at) FROM odds_history), (SELECT max(removed_at) FROM odds_removals), (SELECT max(updated_at) FROM events)) AS w`,
    );
    return r?.w ? epochMs(r.w) : 0;
  }

  /**
   * The state of the price table: the database's identity, its row count and its row versions (every insert or
   * update makes a row version with a new transaction id; a delete lowers the count). Any write to the table
   * changes it. One pass over the table in the database, without sending its rows.
   */
  async pricesMark(): Promise<{ mark: string; rows: number }> {
    const [r] = await this.ds.query<Array<{ system: string; n: string; hi: string; sum: string }>>(
      `SELECT (SELECT system_identifier::text FROM pg_control_system()) AS system, count(*)::text AS n,
         coalesce(max(xmin::text::bigint), 0)::text AS hi, coalesce(sum(xmin::text::bigint), 0)::text AS sum FROM odds`,
    );
    return { mark: `${r!.system}:${r!.n}:${r!.hi}:${r!.sum}`, rows: Number(r!.n) };
  }

  /** The events the table holds, as the board holds them. */
  async loadEvents(): Promise<BoardEvent[]> {
    const events = await this.ds.query<EventEntity[]>(`SELECT ${selectList(this.ds, EventEntity)} FROM events`);
    return events.map(toBoardEvent);
  }

  /** Everything needed to rebuild the board at start. */
  async load(): Promise<{ events: BoardEvent[]; rows: OddsRow[] }> {
    const events = await this.loadEvents();
    const str = new Interner();
    const rows = await readTable(this.ds, OddsEntity, (r) => toOddsRow(r, str));
    return { events, rows };
  }

  /** Marks the space of old row versions of the price tables free for reuse (VACUUM; not in a transaction). */
  async vacuum(): Promise<void> {
    await this.ds.query('VACUUM odds, odds_removals');
  }

  /** Deletes history and removals older than the retention. */
  async purge(before: number): Promise<{ history: number; removals: number }> {
    const h = await this.ds.query<Array<{ n: number }>>(
      `WITH d AS (DELETE FROM odds_history WHERE recorded_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [iso(before)],
    );
    const r = await this.ds.query<Array<{ n: number }>>(
      `WITH d AS (DELETE FROM odds_removals WHERE removed_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [iso(before)],
    );
    return { history: h[0]?.n ?? 0, removals: r[0]?.n ?? 0 };
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { BoardEvent, OddsRow, RemovedRow } from '../../domain/odds-row.js';
import { epochMs, selectList } from '../../database/rows.js';
import { EventEntity, OddsEntity } from './board.entities.js';

export interface HistoryEntry {
  row: OddsRow;
  at: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const CHUNK = 2000;

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

/** A stored price as the board holds it. */
export function toOddsRow(r: OddsEntity): OddsRow {
  return {
    id: r.id,
    sportsbook: r.sportsbook,
    eventId: r.eventId,
    sport: r.sport,
    league: r.league,
    marketType: r.marketType,
    period: r.period,
    ladderKey: r.ladderKey,
    groupKey: r.groupKey,
    groupLine: r.groupLine,
    selection: r.selection,
    selectionType: r.selectionType,
    line: r.line,
    playerName: r.playerName,
    statCategory: r.statCategory,
    american: r.oddsAmerican,
    decimal: r.oddsDecimal,
    probability: r.probability,
    isLive: r.isLive,
    isActive: r.isActive,
    changedAt: epochMs(r.changedAt),
    oddsChangedAt: epochMs(r.oddsChangedAt),
    lastSeenAt: epochMs(r.lastSeenAt),
    externalEventId: r.externalEventId,
    marketId: r.marketId,
    selectionId: r.selectionId,
    maxBet: r.maxBet,
    volume: r.volume,
    volume24h: r.volume24h,
    openInterest: r.openInterest,
    homePitcher: r.homePitcher,
    awayPitcher: r.awayPitcher,
  };
}

/**
 * SQL of the board: batched upserts of current prices (one unnest statement per chunk), the append-only
 * history, the removal log, events, and the start-up load. Used by the board writer only.
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
      for await (const c of chunks(batch.rows)) await this.upsertRows(m, c);
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
      for await (const c of chunks(batch.history)) {
        await m.query(
          `INSERT INTO odds_history (odds_id, event_id, sportsbook, odds_american, odds_decimal, line, is_live, is_active, recorded_at)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::float8[], $6::float8[], $7::bool[], $8::bool[], $9::timestamptz[])`,
          [
            c.map((h) => h.row.id),
            c.map((h) => h.row.eventId),
            c.map((h) => h.row.sportsbook),
            c.map((h) => h.row.american),
            c.map((h) => h.row.decimal),
            c.map((h) => h.row.line),
            c.map((h) => h.row.isLive),
            c.map((h) => h.row.isActive),
            c.map((h) => iso(h.at)),
          ],
        );
      }
      if (batch.eventsRemoved.length) {
        await m.query(`DELETE FROM odds WHERE event_id = ANY($1::text[])`, [batch.eventsRemoved]);
        await m.query(`DELETE FROM events WHERE id = ANY($1::text[])`, [batch.eventsRemoved]);
      }
    });
  }

  private async upsertRows(m: EntityManager, rows: OddsRow[]): Promise<void> {
    if (!rows.length) return;
    const col = <T>(f: (r: OddsRow) => T) => rows.map(f);
    await m.query(
      `INSERT INTO odds (id, event_id, sportsbook, sport, league, market_type, period, ladder_key, group_key, group_line,
         selection, selection_type, line, player_name, stat_category, odds_american, odds_decimal, probability,
         is_live, is_active, changed_at, odds_changed_at, last_seen_at, external_event_id, market_id, selection_id, max_bet,
         volume, volume_24h, open_interest, home_pitcher, away_pitcher)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
         $9::text[], $10::float8[], $11::text[], $12::text[], $13::float8[], $14::text[], $15::text[], $16::int[], $17::float8[],
         $18::float8[], $19::bool[], $20::bool[], $21::timestamptz[], $22::timestamptz[], $23::timestamptz[], $24::text[],
         $25::text[], $26::text[], $27::float8[], $28::float8[], $29::float8[], $30::float8[], $31::text[], $32::text[])
       ON CONFLICT (id) DO UPDATE SET
         odds_american = EXCLUDED.odds_american, odds_decimal = EXCLUDED.odds_decimal, probability = EXCLUDED.probability,
         line = EXCLUDED.line, group_line = EXCLUDED.group_line, group_key = EXCLUDED.group_key, selection = EXCLUDED.selection,
         is_live = EXCLUDED.is_live, is_active = EXCLUDED.is_active, changed_at = EXCLUDED.changed_at,
         odds_changed_at = EXCLUDED.odds_changed_at, last_seen_at = EXCLUDED.last_seen_at,
         external_event_id = EXCLUDED.external_event_id, market_id = EXCLUDED.market_id, selection_id = EXCLUDED.selection_id,
         max_bet = EXCLUDED.max_bet, volume = EXCLUDED.volume, volume_24h = EXCLUDED.volume_24h, open_interest = EXCLUDED.open_interest,
         home_pitcher = EXCLUDED.home_pitcher, away_pitcher = EXCLUDED.away_pitcher`,
      [
        col((r) => r.id),
        col((r) => r.eventId),
        col((r) => r.sportsbook),
        col((r) => r.sport),
        col((r) => r.league),
        col((r) => r.marketType),
        col((r) => r.period),
        col((r) => r.ladderKey),
        col((r) => r.groupKey),
        col((r) => r.groupLine),
        col((r) => r.selection),
        col((r) => r.selectionType),
        col((r) => r.line),
        col((r) => r.playerName),
        col((r) => r.statCategory),
        col((r) => r.american),
        col((r) => r.decimal),
        col((r) => r.probability),
        col((r) => r.isLive),
        col((r) => r.isActive),
        col((r) => iso(r.changedAt)),
        col((r) => iso(r.oddsChangedAt)),
        col((r) => iso(r.lastSeenAt)),
        col((r) => r.externalEventId),
        col((r) => r.marketId),
        col((r) => r.selectionId),
        col((r) => r.maxBet),
        col((r) => r.volume ?? null),
        col((r) => r.volume24h ?? null),
        col((r) => r.openInterest ?? null),
        col((r) => r.homePitcher ?? null),
        col((r) => r.awayPitcher ?? null),
      ],
    );
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

  /** Everything needed to rebuild the board at start. */
  async load(): Promise<{ events: BoardEvent[]; rows: OddsRow[] }> {
    const events = await this.ds.query<EventEntity[]>(`SELECT ${selectList(this.ds, EventEntity)} FROM events`);
    const rows = await this.ds.query<OddsEntity[]>(`SELECT ${selectList(this.ds, OddsEntity)} FROM odds`);
    return { events: events.map(toBoardEvent), rows: rows.map(toOddsRow) };
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

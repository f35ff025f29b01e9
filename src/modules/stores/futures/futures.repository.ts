import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { epochMs, readTable } from '../../../database/rows.js';
import type { FutureType, FuturesChange, FuturesMarket, FuturesPrice } from '../../../domain/futures.js';
import { FuturesPriceEntity } from './futures.entities.js';

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (v: unknown): number => new Date(v as string | Date).getTime();
const CHUNK = 2000;

/** SQL of the futures markets and their current prices (tables futures_markets, futures_prices). */
@Injectable()
export class FuturesRepository {
  constructor(private readonly ds: DataSource) {}

  /** Writes a change: new or changed markets and prices upserted, confirmed prices' last_seen_at moved. */
  async save(c: FuturesChange): Promise<void> {
    if (!c.markets.length && !c.prices.length && !c.seen.length && !c.removedPrices?.length && !c.removedMarkets?.length) return;
    await this.ds.transaction(async (m) => {
      for (let i = 0; i < c.markets.length; i += CHUNK) {
        const k = c.markets.slice(i, i + CHUNK);
        await m.query(
          `INSERT INTO futures_markets (id, name, sport, league, future_type, kind, closes_at, history)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::boolean[])
           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, closes_at = EXCLUDED.closes_at, history = EXCLUDED.history`,
          [
            k.map((x) => x.id),
            k.map((x) => x.name),
            k.map((x) => x.sport),
            k.map((x) => x.league),
            k.map((x) => x.futureType),
            k.map((x) => x.kind),
            k.map((x) => iso(x.closesAt)),
            k.map((x) => x.history === true),
          ],
        );
      }
      for (let i = 0; i < c.prices.length; i += CHUNK) {
        const k = c.prices.slice(i, i + CHUNK);
        await m.query(
          `INSERT INTO futures_prices (id, market_id, sportsbook, selection, selection_type, line, american, decimal, probability, external_id, changed_at, last_seen_at, source, bid, ask, last_price, volume, open_interest)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::int[], $8::float8[], $9::float8[], $10::text[], $11::timestamptz[], $12::timestamptz[], $13::text[],
             $14::float8[], $15::float8[], $16::float8[], $17::float8[], $18::float8[])
           ON CONFLICT (id) DO UPDATE SET selection = EXCLUDED.selection, line = EXCLUDED.line, american = EXCLUDED.american, decimal = EXCLUDED.decimal,
             probability = EXCLUDED.probability, external_id = EXCLUDED.external_id, changed_at = EXCLUDED.changed_at, last_seen_at = EXCLUDED.last_seen_at,
             source = EXCLUDED.source, bid = EXCLUDED.bid, ask = EXCLUDED.ask, last_price = EXCLUDED.last_price, volume = EXCLUDED.volume,
             open_interest = EXCLUDED.open_interest`,
          [
            k.map((x) => x.id),
            k.map((x) => x.marketId),
            k.map((x) => x.sportsbook),
            k.map((x) => x.selection),
            k.map((x) => x.selectionType),
            k.map((x) => x.line),
            k.map((x) => x.american),
            k.map((x) => x.decimal),
            k.map((x) => x.probability),
            k.map((x) => x.externalId),
            k.map((x) => iso(x.changedAt)),
            k.map((x) => iso(x.lastSeenAt)),
            k.map((x) => x.source ?? ''),
            k.map((x) => x.bid ?? null),
            k.map((x) => x.ask ?? null),
            k.map((x) => x.last ?? null),
            k.map((x) => x.volume ?? null),
            k.map((x) => x.openInterest ?? null),
          ],
        );
      }
      for (let i = 0; i < c.seen.length; i += CHUNK) {
        await m.query(`UPDATE futures_prices SET last_seen_at = $2 WHERE id = ANY($1::text[]) AND last_seen_at < $2`, [
          c.seen.slice(i, i + CHUNK),
          iso(c.at),
        ]);
      }
      const gonePrices = c.removedPrices ?? [];
      for (let i = 0; i < gonePrices.length; i += CHUNK)
        await m.query(`DELETE FROM futures_prices WHERE id = ANY($1::text[])`, [gonePrices.slice(i, i + CHUNK)]);
      const goneMarkets = c.removedMarkets ?? [];
      for (let i = 0; i < goneMarkets.length; i += CHUNK) {
        await m.query(`DELETE FROM futures_prices WHERE market_id = ANY($1::text[])`, [goneMarkets.slice(i, i + CHUNK)]);
        await m.query(`DELETE FROM futures_markets WHERE id = ANY($1::text[])`, [goneMarkets.slice(i, i + CHUNK)]);
      }
    });
  }

  /** Everything stored, as one change (the start-up load). */
  async load(): Promise<FuturesChange> {
    const markets = (
      (await this.ds.query(`SELECT id, name, sport, league, future_type, kind, closes_at, history FROM futures_markets`)) as Array<
        Record<string, unknown>
      >
    ).map((r): FuturesMarket => ({
      id: r.id as string,
      name: r.name as string,
      sport: r.sport as string,
      league: r.league as string,
      futureType: r.future_type as FutureType,
      kind: r.kind as string,
      closesAt: ms(r.closes_at),
      ...(r.history === true ? { history: true } : {}),
    }));
    const prices = await readTable(this.ds, FuturesPriceEntity, toFuturesPrice);
    return { markets, prices, seen: [], at: prices.reduce((a, p) => Math.max(a, p.lastSeenAt), 0) };
  }

  async deleteMarkets(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.ds.query(`DELETE FROM futures_prices WHERE market_id = ANY($1::text[])`, [ids]);
    await this.ds.query(`DELETE FROM futures_markets WHERE id = ANY($1::text[])`, [ids]);
  }
}

/** A stored price as the store holds it: the exchange and prediction-market data only where it has them. */
function toFuturesPrice(r: FuturesPriceEntity): FuturesPrice {
  const p: FuturesPrice = {
    id: r.id,
    marketId: r.marketId,
    sportsbook: r.sportsbook,
    selection: r.selection,
    selectionType: r.selectionType,
    line: r.line,
    american: r.american,
    decimal: r.decimal,
    probability: r.probability,
    externalId: r.externalId,
    changedAt: epochMs(r.changedAt),
    lastSeenAt: epochMs(r.lastSeenAt),
  };
  if (r.source) p.source = r.source;
  if (r.bid !== null) p.bid = r.bid;
  if (r.ask !== null) p.ask = r.ask;
  if (r.lastPrice !== null) p.last = r.lastPrice;
  if (r.volume !== null) p.volume = r.volume;
  if (r.openInterest !== null) p.openInterest = r.openInterest;
  return p;
}

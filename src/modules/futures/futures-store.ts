import type { FuturesChange, FuturesMarket, FuturesPrice, ResolvedFuture } from '../../domain/futures.js';

export interface ApplyResult {
  change: FuturesChange;
  /** Per resolved item (same order): true when it changed something (a new or moved price). */
  changedFlags: boolean[];
}

/**
 * The futures markets and their prices in memory, indexed by market. Fed by apply() (the ingesting instance)
 * or applyChange() (a change set from the bus, the database at start). Plain class, no framework.
 */
export class FuturesStore {
  readonly markets = new Map<string, FuturesMarket>();
  readonly prices = new Map<string, FuturesPrice>();
  private readonly byMarket = new Map<string, Set<string>>();
  /** Bumped on every change (page caches, the updated_at of lists). */
  version = 0;
  updatedAt = 0;

  apply(items: readonly ResolvedFuture[], now: number): ApplyResult {
    const markets = new Map<string, FuturesMarket>();
    const prices = new Map<string, FuturesPrice>();
    const seen = new Set<string>();
    const changedFlags: boolean[] = [];
    for (const it of items) {
      const m = this.markets.get(it.market.id) ?? markets.get(it.market.id);
      if (!m) markets.set(it.market.id, { ...it.market });
      else if (it.market.closesAt > m.closesAt) markets.set(m.id, { ...m, closesAt: it.market.closesAt });
      const at = Math.min(it.at, now);
      const prev = prices.get(it.price.id) ?? this.prices.get(it.price.id);
      const moved =
        !prev ||
        prev.american !== it.price.american ||
        prev.decimal !== it.price.decimal ||
        prev.line !== it.price.line ||
        prev.selection !== it.price.selection;
      changedFlags.push(moved);
      if (moved) {
        prices.set(it.price.id, { ...it.price, changedAt: at, lastSeenAt: at });
        seen.delete(it.price.id);
      } else if (!prices.has(it.price.id) && at > prev.lastSeenAt) {
        seen.add(it.price.id);
      }
    }
    const change: FuturesChange = { markets: [...markets.values()], prices: [...prices.values()], seen: [...seen], at: now };
    this.applyChange(change);
    return { change, changedFlags };
  }

  applyChange(c: FuturesChange): void {
    for (const m of c.markets) this.markets.set(m.id, m);
    for (const p of c.prices) {
      this.prices.set(p.id, p);
      let ids = this.byMarket.get(p.marketId);
      if (!ids) this.byMarket.set(p.marketId, (ids = new Set()));
      ids.add(p.id);
    }
    for (const id of c.seen) {
      const p = this.prices.get(id);
      if (p && c.at > p.lastSeenAt) this.prices.set(id, { ...p, lastSeenAt: c.at });
    }
    if (c.markets.length || c.prices.length || c.seen.length) {
      this.version++;
      this.updatedAt = Math.max(this.updatedAt, c.at);
    }
  }

  pricesOf(marketId: string): FuturesPrice[] {
    const ids = this.byMarket.get(marketId);
    if (!ids) return [];
    const out: FuturesPrice[] = [];
    for (const id of ids) {
      const p = this.prices.get(id);
      if (p) out.push(p);
    }
    return out;
  }

  /** Drops markets that closed before `before` with their prices; returns their ids. */
  prune(before: number): string[] {
    const gone: string[] = [];
    for (const m of this.markets.values()) {
      if (m.closesAt >= before) continue;
      gone.push(m.id);
      for (const id of this.byMarket.get(m.id) ?? []) this.prices.delete(id);
      this.byMarket.delete(m.id);
      this.markets.delete(m.id);
    }
    if (gone.length) this.version++;
    return gone;
  }
}

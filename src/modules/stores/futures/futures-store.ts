import type { FuturesChange, FuturesMarket, FuturesPrice, ResolvedFuture } from '../../../domain/futures.js';

/** How long a price stays in the market without its source confirming it, per source (by its cadence). */
export const FUTURES_STALE_MS = {
  /** The futures simulator sends its whole state every 10 minutes (FULL_STATE_EVERY_MS): three missed rounds. */
  'simulator-futures': 30 * 60_000,
  /** An imported file is a snapshot: live for 6 hours after its own capture time (as the importer's fresh capture). */
  import: 6 * 3600_000,
  /** Any other source (the admin ingest, a feed without a window of its own): 2 hours. */
  default: 2 * 3600_000,
} as const;

/** The staleness window of a source: its own (`windows`, e.g. a configured feed), else FUTURES_STALE_MS. */
export function staleAfterMs(source: string | undefined, windows: Readonly<Record<string, number>> = {}): number {
  const s = source ?? '';
  if (windows[s] !== undefined) return windows[s];
  if (s === 'simulator-futures') return FUTURES_STALE_MS['simulator-futures'];
  if (s === 'import' || s.startsWith('import:')) return FUTURES_STALE_MS.import;
  return FUTURES_STALE_MS.default;
}

/** Whether a price is still in its market at `now`: confirmed by its source within the source's window. */
export function isLive(p: Pick<FuturesPrice, 'lastSeenAt' | 'source'>, now: number, windows?: Readonly<Record<string, number>>): boolean {
  return now - p.lastSeenAt <= staleAfterMs(p.source, windows);
}

/** Whether a change set changes anything (to write and publish). */
export function isEmptyChange(c: FuturesChange): boolean {
  return !c.markets.length && !c.prices.length && !c.seen.length && !c.removedPrices?.length && !c.removedMarkets?.length;
}

export interface ApplyResult {
  change: FuturesChange;
  /** Per resolved item (same order): true when it changed something (a new or moved price). */
  changedFlags: boolean[];
}

/**
 * The futures markets and their prices in memory, indexed by market. Fed by apply() (the ingesting instance)
 * or applyChange() (a change set from the bus, the database at start). Plain class, no framework.
 *
 * A price stays in its market while its source confirms it within the source's staleness window
 * (`staleAfterMs`; `windows` overrides it per source, e.g. a feed's configured cadence): livePricesOf()
 * leaves the others out at once, prune() deletes them. History markets (a replayed import) never go stale.
 */
export class FuturesStore {
  readonly markets = new Map<string, FuturesMarket>();
  readonly prices = new Map<string, FuturesPrice>();
  private readonly byMarket = new Map<string, Set<string>>();
  /** Bumped on every change (page caches, the updated_at of lists). */
  version = 0;
  updatedAt = 0;

  constructor(readonly windows: Readonly<Record<string, number>> = {}) {}

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
        prev.selection !== it.price.selection ||
        (prev.bid ?? null) !== (it.price.bid ?? null) ||
        (prev.ask ?? null) !== (it.price.ask ?? null) ||
        (prev.last ?? null) !== (it.price.last ?? null) ||
        (prev.volume ?? null) !== (it.price.volume ?? null) ||
        (prev.openInterest ?? null) !== (it.price.openInterest ?? null) ||
        (prev.source ?? '') !== (it.price.source ?? '');
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
    for (const id of c.removedPrices ?? []) {
      const p = this.prices.get(id);
      if (!p) continue;
      this.prices.delete(id);
      this.byMarket.get(p.marketId)?.delete(id);
    }
    for (const id of c.removedMarkets ?? []) {
      for (const pid of this.byMarket.get(id) ?? []) this.prices.delete(pid);
      this.byMarket.delete(id);
      this.markets.delete(id);
    }
    if (c.markets.length || c.prices.length || c.seen.length || c.removedPrices?.length || c.removedMarkets?.length) {
      this.version++;
      this.updatedAt = Math.max(this.updatedAt, c.at);
    }
  }

  /** Every stored price of a market, live or not. */
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

  /** Whether a price is in its market at `now` (a history market's prices always are). */
  isLive(p: FuturesPrice, now: number): boolean {
    return this.markets.get(p.marketId)?.history === true || isLive(p, now, this.windows);
  }

  /** The prices of a market its sources still confirm at `now`: the market as it stands. */
  livePricesOf(marketId: string, now: number): FuturesPrice[] {
    return this.pricesOf(marketId).filter((p) => this.isLive(p, now));
  }

  /**
   * Withdraws prices by id (an import's `import:remove`), only those `source` sent (or whose source is unknown),
   * and the markets they leave without a price. Returns the change (empty when nothing was there).
   */
  remove(ids: readonly string[], source: string, now: number): FuturesChange {
    const removedPrices: string[] = [];
    const touched = new Set<string>();
    for (const id of ids) {
      const p = this.prices.get(id);
      if (!p || (p.source && p.source !== source)) continue;
      removedPrices.push(id);
      touched.add(p.marketId);
    }
    const left = new Set(removedPrices);
    const removedMarkets = [...touched].filter((m) => [...(this.byMarket.get(m) ?? [])].every((id) => left.has(id)));
    const change: FuturesChange = { markets: [], prices: [], seen: [], removedPrices, removedMarkets, at: now };
    this.applyChange(change);
    return change;
  }

  /**
   * Drops markets that closed before `before` (history markets excepted: they stay until their import is removed),
   * prices past their source's window at `now`, and markets left without a price. Returns what it dropped.
   */
  prune(before: number, now: number = before): FuturesChange {
    const removedMarkets: string[] = [];
    const removedPrices: string[] = [];
    for (const m of this.markets.values()) {
      if (!m.history && m.closesAt < before) {
        removedMarkets.push(m.id);
        continue;
      }
      const ids = [...(this.byMarket.get(m.id) ?? [])];
      const stale = ids.filter((id) => {
        const p = this.prices.get(id);
        return !p || !this.isLive(p, now);
      });
      if (stale.length === ids.length) removedMarkets.push(m.id);
      else removedPrices.push(...stale);
    }
    const change: FuturesChange = { markets: [], prices: [], seen: [], removedPrices, removedMarkets, at: now };
    this.applyChange(change);
    return change;
  }
}

/**
 * The current betting splits in memory: the latest numbers per (event, book), and the delayed copy the
 * free tier reads (the same idea as the board's DelayedBoard: a second store fed the primary's changes
 * once they are old enough). Plain classes: no Nest, no I/O, time is an argument.
 */

export interface SideShares {
  away: number;
  home: number;
}

export interface OverUnderShares {
  over: number;
  under: number;
}

export interface SpreadSplits {
  away_line: number;
  home_line: number;
  handle_pct: SideShares;
  bets_pct: SideShares;
}

export interface TotalSplits {
  line: number;
  handle_pct: OverUnderShares;
  bets_pct: OverUnderShares;
}

export interface MoneylineSplits {
  away_odds: number;
  home_odds: number;
  handle_pct: SideShares;
  bets_pct: SideShares;
}

/** The three markets splits are published for; a source may send any subset. */
export interface SplitsMarkets {
  spread?: SpreadSplits;
  total?: TotalSplits;
  moneyline?: MoneylineSplits;
}

export type SplitsMarket = 'spread' | 'total' | 'moneyline';
export const SPLITS_MARKETS: readonly SplitsMarket[] = ['spread', 'total', 'moneyline'];

/** The books that publish splits: DraftKings (recreational) and Circa (sharp-friendly). */
export const SPLITS_BOOKS: readonly string[] = ['draftkings', 'circa'];

/** One (event, book) split as currently known. */
export interface CurrentSplits extends SplitsMarkets {
  eventId: string;
  sportsbook: string;
  sport: string;
  league: string;
  homeTeam: string;
  awayTeam: string;
  startTime: number;
  /** When the book published these numbers (ms). */
  fetchedAt: number;
}

export const splitsKey = (eventId: string, book: string): string => `${eventId}\u0000${book}`;

const finite = (...xs: unknown[]): boolean => xs.every((x) => typeof x === 'number' && Number.isFinite(x));

/**
 * Keeps only well-formed markets (every number present and finite); a malformed market from a source is
 * dropped rather than served half-filled.
 */
export function cleanMarkets(m: SplitsMarkets): SplitsMarkets {
  const out: SplitsMarkets = {};
  const s = m.spread;
  if (s && finite(s.away_line, s.home_line, s.handle_pct?.away, s.handle_pct?.home, s.bets_pct?.away, s.bets_pct?.home)) {
    out.spread = {
      away_line: s.away_line,
      home_line: s.home_line,
      handle_pct: { away: s.handle_pct.away, home: s.handle_pct.home },
      bets_pct: { away: s.bets_pct.away, home: s.bets_pct.home },
    };
  }
  const t = m.total;
  if (t && finite(t.line, t.handle_pct?.over, t.handle_pct?.under, t.bets_pct?.over, t.bets_pct?.under)) {
    out.total = {
      line: t.line,
      handle_pct: { over: t.handle_pct.over, under: t.handle_pct.under },
      bets_pct: { over: t.bets_pct.over, under: t.bets_pct.under },
    };
  }
  const ml = m.moneyline;
  if (ml && finite(ml.away_odds, ml.home_odds, ml.handle_pct?.away, ml.handle_pct?.home, ml.bets_pct?.away, ml.bets_pct?.home)) {
    out.moneyline = {
      away_odds: ml.away_odds,
      home_odds: ml.home_odds,
      handle_pct: { away: ml.handle_pct.away, home: ml.handle_pct.home },
      bets_pct: { away: ml.bets_pct.away, home: ml.bets_pct.home },
    };
  }
  return out;
}

export function hasAnyMarket(m: SplitsMarkets, markets: readonly SplitsMarket[] = SPLITS_MARKETS): boolean {
  return markets.some((k) => m[k] !== undefined);
}

/** The latest split per (event, book). */
export class SplitsStore {
  private readonly entries = new Map<string, CurrentSplits>();
  /** Time of the last change applied (0 when none). */
  lastChangeAt = 0;

  get size(): number {
    return this.entries.size;
  }

  values(): IterableIterator<CurrentSplits> {
    return this.entries.values();
  }

  get(eventId: string, book: string): CurrentSplits | undefined {
    return this.entries.get(splitsKey(eventId, book));
  }

  /** Stores a split unless the one held is newer (a late, older delivery never replaces a fresher one). */
  put(s: CurrentSplits, at = s.fetchedAt): boolean {
    const key = splitsKey(s.eventId, s.sportsbook);
    const prev = this.entries.get(key);
    if (prev && prev.fetchedAt > s.fetchedAt) return false;
    this.entries.set(key, s);
    this.lastChangeAt = Math.max(this.lastChangeAt, at);
    return true;
  }

  /** Removes every split of these events; returns how many were removed. */
  dropEvents(eventIds: readonly string[], at = 0): number {
    if (!eventIds.length || !this.entries.size) return 0;
    const ids = new Set(eventIds);
    let n = 0;
    for (const [k, s] of this.entries) {
      if (ids.has(s.eventId)) {
        this.entries.delete(k);
        n++;
      }
    }
    if (n) this.lastChangeAt = Math.max(this.lastChangeAt, at);
    return n;
  }
}

export type SplitsChange = { at: number; put: CurrentSplits[] } | { at: number; drop: string[] };

/**
 * The splits as they stood `delayMs` ago. Reads call advance(now) first, so the view is exact at any
 * instant.
 */
export class DelayedSplits {
  readonly store = new SplitsStore();
  private queue: Array<SplitsChange | undefined> = [];
  private head = 0;

  constructor(readonly delayMs: number) {}

  push(change: SplitsChange): void {
    this.queue.push(change);
  }

  /** Applies every queued change whose time is at or before now - delay. */
  advance(now: number): SplitsStore {
    const cutoff = now - this.delayMs;
    while (this.head < this.queue.length) {
      const c = this.queue[this.head];
      if (c && c.at > cutoff) break;
      if (c) {
        if ('put' in c) for (const s of c.put) this.store.put(s, c.at);
        else this.store.dropEvents(c.drop, c.at);
      }
      this.queue[this.head] = undefined;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return this.store;
  }

  get pending(): number {
    return this.queue.length - this.head;
  }
}

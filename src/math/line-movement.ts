/**
 * Line movement of one selection across books: per book its open, current, high and low price and its moves in a
 * time window; the best price across the books over the same window; and steam moves (a book moves and others
 * follow in the same direction within a window). Times are epoch ms, prices decimal odds. Pure: no clock, no I/O.
 */

/** One stored change of one book's price: its time and the decimal price, or null while the book does not quote (suspended or withdrawn). */
export interface PricePoint {
  at: number;
  decimal: number | null;
}

/** One book's changes of one selection, oldest first. Points before the window's start give the price in force at it. */
export interface BookPrices {
  book: string;
  points: readonly PricePoint[];
}

/** A price and when it was set (a book's own change time; for the best price, when it became the best). */
export interface PriceMark {
  decimal: number;
  at: number;
  /** The book holding it (the first by name when several do). */
  book: string;
}

/** A change of a quoted price: from one decimal to another, at a time. */
export interface Move {
  book: string;
  at: number;
  from: number;
  to: number;
}

export type Direction = 'shortening' | 'drifting';

/** A price falling (the selection shortening: money on it) or rising (drifting). */
export function direction(m: Pick<Move, 'from' | 'to'>): Direction {
  return m.to < m.from ? 'shortening' : 'drifting';
}

export interface BookMovement {
  book: string;
  /** The price in force at the window's start when the book quoted then; else its first quote in the window. */
  open: PriceMark | null;
  /** Its last quoted price at or before the window's end. */
  current: PriceMark | null;
  /** Whether the book quotes at the window's end (false: suspended or withdrawn; `current` is then its last price). */
  quoting: boolean;
  high: PriceMark | null;
  low: PriceMark | null;
  /**
   * Its moves in the window: each quote that differs from the book's previous quoted price (a suspension is not a
   * move; a reopening at another price than before it is). A first quote is not a move.
   */
  moves: Move[];
}

export interface Window {
  from: number;
  to: number;
}

function mark(decimal: number, at: number, book: string): PriceMark {
  return { decimal, at, book };
}

/**
 * One book's movement in [from, to]: points after `to` are ignored; the last point at or before `from` is the price in
 * force at the start (and the reference for the first move).
 */
export function bookMovement(prices: BookPrices, w: Window): BookMovement {
  const { book } = prices;
  let inForce: PricePoint | null = null;
  let lastOpen: PricePoint | null = null;
  let open: PriceMark | null = null;
  let high: PriceMark | null = null;
  let low: PriceMark | null = null;
  let quoting = false;
  const moves: Move[] = [];
  const see = (p: PricePoint & { decimal: number }) => {
    if (!high || p.decimal > high.decimal) high = mark(p.decimal, p.at, book);
    if (!low || p.decimal < low.decimal) low = mark(p.decimal, p.at, book);
  };
  let i = 0;
  const pts = prices.points;
  for (; i < pts.length && pts[i]!.at <= w.from; i++) {
    inForce = pts[i]!;
    if (inForce.decimal !== null) lastOpen = inForce;
  }
  if (inForce && inForce.decimal !== null) {
    open = mark(inForce.decimal, inForce.at, book);
    see(inForce as PricePoint & { decimal: number });
    quoting = true;
  }
  for (; i < pts.length && pts[i]!.at <= w.to; i++) {
    const p = pts[i]!;
    if (p.decimal === null) {
      quoting = false;
      continue;
    }
    quoting = true;
    if (lastOpen && lastOpen.decimal !== p.decimal) moves.push({ book, at: p.at, from: lastOpen.decimal!, to: p.decimal });
    open ??= mark(p.decimal, p.at, book);
    see(p as PricePoint & { decimal: number });
    lastOpen = p;
  }
  // The last quoted price, if the book quoted in the window at all (a price withdrawn before the start does not count).
  const current = open && lastOpen ? mark(lastOpen.decimal!, lastOpen.at, book) : null;
  return { book, open, current, quoting, high, low, moves };
}

export interface BestPrice {
  /** The best price at the window's start (when some book quoted then), else the first best price in it. */
  open: PriceMark | null;
  /** The best price at the window's end among the books quoting then (null when none quotes). */
  current: PriceMark | null;
  /** The highest and lowest the best price stood at during the window. */
  high: PriceMark | null;
  low: PriceMark | null;
}

/**
 * The best (highest decimal) price across the books over [from, to]: the state at `from` from the prices in force, then
 * after each instant at which some book changed. Ties go to the book first by name. A mark's time is when the value
 * became the best (the window's start for the state at it).
 */
export function bestPrice(books: readonly BookPrices[], w: Window): BestPrice {
  const current = new Map<string, number>();
  const changes: Array<{ at: number; book: string; decimal: number | null }> = [];
  for (const b of books) {
    let inForce: number | null | undefined;
    for (const p of b.points) {
      if (p.at <= w.from) inForce = p.decimal;
      else if (p.at <= w.to) changes.push({ at: p.at, book: b.book, decimal: p.decimal });
    }
    if (inForce !== undefined && inForce !== null) current.set(b.book, inForce);
  }
  changes.sort((a, b) => a.at - b.at);
  const best = (): { book: string; decimal: number } | null => {
    let out: { book: string; decimal: number } | null = null;
    for (const [book, decimal] of current)
      if (!out || decimal > out.decimal || (decimal === out.decimal && book < out.book)) out = { book, decimal };
    return out;
  };
  const result: BestPrice = { open: null, current: null, high: null, low: null };
  let last: PriceMark | null = null;
  const observe = (at: number) => {
    const b = best();
    if (!b) {
      last = null;
      return;
    }
    // A mark keeps its first time while the best value (and its book) does not change.
    const m: PriceMark = last && last.decimal === b.decimal && last.book === b.book ? last : mark(b.decimal, at, b.book);
    last = m;
    result.open ??= m;
    if (!result.high || m.decimal > result.high.decimal) result.high = m;
    if (!result.low || m.decimal < result.low.decimal) result.low = m;
  };
  observe(w.from);
  for (let i = 0; i < changes.length;) {
    const at = changes[i]!.at;
    for (; i < changes.length && changes[i]!.at === at; i++) {
      const c = changes[i]!;
      if (c.decimal === null) current.delete(c.book);
      else current.set(c.book, c.decimal);
    }
    observe(at);
  }
  result.current = last;
  return result;
}

export interface Follower {
  book: string;
  at: number;
  /** How long after the leader's move (ms). */
  lagMs: number;
  from: number;
  to: number;
}

/** A steam move: a leader's move and the books that moved the same way within the window after it. */
export interface Steam {
  at: number;
  direction: Direction;
  leader: Move;
  followers: Follower[];
}

export interface SteamOptions {
  /** How long after the leader's move a book's move in the same direction counts as following (ms). */
  windowMs: number;
  /** Books that must follow for a steam move (at least 1). */
  minFollowers: number;
}

/**
 * Steam moves among the moves of several books. The moves are taken in time order (ties by book name); each move
 * not already part of a steam move is a candidate leader: every other book's first unused move in the same
 * direction at or after it and at most `windowMs` later follows it. With at least `minFollowers` followers it is a
 * steam move, and its moves are used (a move belongs to one steam move at most). Greedy, so the earliest leader wins.
 */
export function steamMoves(moves: readonly Move[], opts: SteamOptions): Steam[] {
  const sorted = [...moves].sort((a, b) => a.at - b.at || (a.book < b.book ? -1 : a.book > b.book ? 1 : 0));
  const used = new Set<Move>();
  const out: Steam[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const leader = sorted[i]!;
    if (used.has(leader)) continue;
    const dir = direction(leader);
    const followers = new Map<string, Move>();
    for (let j = i + 1; j < sorted.length && sorted[j]!.at - leader.at <= opts.windowMs; j++) {
      const m = sorted[j]!;
      if (m.book === leader.book || used.has(m) || followers.has(m.book) || direction(m) !== dir) continue;
      followers.set(m.book, m);
    }
    if (followers.size < Math.max(1, opts.minFollowers)) continue;
    used.add(leader);
    for (const m of followers.values()) used.add(m);
    out.push({
      at: leader.at,
      direction: dir,
      leader,
      followers: [...followers.values()].map((m) => ({ book: m.book, at: m.at, lagMs: m.at - leader.at, from: m.from, to: m.to })),
    });
  }
  return out;
}

export interface SelectionMovement {
  books: BookMovement[];
  best: BestPrice;
  /** Every book's moves, in time order (ties by book name). */
  moves: Move[];
  /** The first move in the window (ties: the book first by name), or null. */
  firstMover: Move | null;
  steam: Steam[];
}

/** The movement of one selection: each book's, the best price's, the first mover and the steam moves. */
export function selectionMovement(books: readonly BookPrices[], w: Window, steam: SteamOptions): SelectionMovement {
  const perBook = books.map((b) => bookMovement(b, w));
  const moves = perBook.flatMap((b) => b.moves).sort((a, b) => a.at - b.at || (a.book < b.book ? -1 : a.book > b.book ? 1 : 0));
  return { books: perBook, best: bestPrice(books, w), moves, firstMover: moves[0] ?? null, steam: steamMoves(moves, steam) };
}

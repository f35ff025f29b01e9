/**
 * The event page's data: the line history of one market (GET /api/v1/odds/history) turned into what the charts
 * draw. Plain data and functions, no rendering. Times are epoch seconds (the charts' x axis), prices decimal odds.
 */

export interface HistoryPoint {
  at: string;
  odds_american: number | null;
  odds_decimal: number | null;
  is_live: boolean;
  status: 'open' | 'suspended' | 'removed';
}

export interface HistorySeries {
  sportsbook: string;
  market_type: string;
  period: string;
  selection: string;
  selection_type: string;
  line: number | null;
  player_name: string | null;
  points: HistoryPoint[];
}

/** One selection of a market (a side, or a player's side), with the lines its series have. */
export interface SelectionChoice {
  key: string;
  label: string;
  lines: number[];
}

export const selectionKey = (s: Pick<HistorySeries, 'selection_type' | 'selection' | 'player_name' | 'period'>): string =>
  `${s.period}|${s.selection_type}|${s.selection}|${s.player_name ?? ''}`;

/** The selections of a market's series, in a steady order (home, away, draw, over, under, then by name). */
export function selections(series: readonly HistorySeries[]): SelectionChoice[] {
  const rank: Record<string, number> = { home: 0, away: 1, draw: 2, over: 3, under: 4 };
  const out = new Map<string, SelectionChoice & { order: string }>();
  for (const s of series) {
    const key = selectionKey(s);
    let c = out.get(key);
    if (!c) {
      const label = `${s.player_name ? `${s.player_name} ` : ''}${s.selection}${s.period !== 'game' ? ` (${s.period})` : ''}`;
      out.set(key, (c = { key, label, lines: [], order: `${s.period === 'game' ? 0 : 1}${rank[s.selection_type] ?? 9}${label}` }));
    }
    if (s.line !== null && !c.lines.includes(s.line)) c.lines.push(s.line);
  }
  return [...out.values()]
    .sort((a, b) => a.order.localeCompare(b.order))
    .map(({ key, label, lines }) => ({ key, label, lines: lines.sort((a, b) => a - b) }));
}

/** The line quoted by the most books for a selection (ties: the one nearest the middle of the lines), or null. */
export function commonLine(series: readonly HistorySeries[], key: string): number | null {
  const books = new Map<number, Set<string>>();
  for (const s of series) {
    if (selectionKey(s) !== key || s.line === null) continue;
    if (!books.has(s.line)) books.set(s.line, new Set());
    books.get(s.line)!.add(s.sportsbook);
  }
  const lines = [...books.keys()].sort((a, b) => a - b);
  if (!lines.length) return null;
  const mid = (lines[0]! + lines[lines.length - 1]!) / 2;
  let best = lines[0]!;
  for (const l of lines) {
    const n = books.get(l)!.size;
    const m = books.get(best)!.size;
    if (n > m || (n === m && Math.abs(l - mid) < Math.abs(best - mid))) best = l;
  }
  return best;
}

const sec = (iso: string): number => Date.parse(iso) / 1000;

/**
 * Series aligned on one time axis, as the chart takes them: `xs` every instant any series changed (seconds, sorted);
 * `ys[i][j]` the value of series i in force at xs[j] (carried forward between its changes), null before its first
 * change and while it is not open. `end` (seconds) adds a last instant so each line runs to it.
 */
export function align(series: ReadonlyArray<{ points: ReadonlyArray<{ at: number; value: number | null }> }>, end?: number) {
  const times = new Set<number>();
  for (const s of series) for (const p of s.points) times.add(p.at);
  if (end !== undefined) times.add(end);
  const xs = [...times].sort((a, b) => a - b);
  const ys = series.map((s) => {
    const out: Array<number | null> = new Array(xs.length).fill(null);
    let j = 0;
    let cur: number | null = null;
    const pts = [...s.points].sort((a, b) => a.at - b.at);
    let k = 0;
    for (; j < xs.length; j++) {
      while (k < pts.length && pts[k]!.at <= xs[j]!) cur = pts[k++]!.value;
      out[j] = cur;
    }
    return out;
  });
  return { xs, ys };
}

/** Each book's decimal price of one selection at one line (null line: the market has none), one series per book. */
export function priceSeries(series: readonly HistorySeries[], key: string, line: number | null) {
  const byBook = new Map<string, Array<{ at: number; value: number | null }>>();
  for (const s of series) {
    if (selectionKey(s) !== key || s.line !== line) continue;
    const pts = byBook.get(s.sportsbook) ?? [];
    for (const p of s.points) pts.push({ at: sec(p.at), value: p.status === 'open' ? p.odds_decimal : null });
    byBook.set(s.sportsbook, pts);
  }
  const books = [...byBook.keys()].sort();
  return { books, points: books.map((b) => byBook.get(b)!), changes: books.map((b) => byBook.get(b)!.length) };
}

/**
 * Each book's main line over time: among its lines quoted on both sides (home L with away -L; over L with under L),
 * the one with the lowest hold (1/a + 1/b - 1; books price alternates with more margin); ties to the one nearer
 * even money. The value is the home (or over) side's line; null while the book quotes no two-sided line.
 */
export function mainLineSeries(series: readonly HistorySeries[]) {
  const byBook = new Map<string, HistorySeries[]>();
  for (const s of series) {
    if (s.line === null || !['home', 'away', 'over', 'under'].includes(s.selection_type)) continue;
    byBook.set(s.sportsbook, [...(byBook.get(s.sportsbook) ?? []), s]);
  }
  const books = [...byBook.keys()].sort();
  const points = books.map((book) => {
    const list = byBook.get(book)!;
    // The changes of the book's lines in time order: (time, series index, price or null).
    const events = list
      .flatMap((s, i) => s.points.map((p) => ({ at: sec(p.at), i, price: p.status === 'open' ? p.odds_decimal : null })))
      .sort((a, b) => a.at - b.at);
    const price = new Map<number, number>();
    const pairKey = (s: HistorySeries) => `${s.period}|${s.player_name ?? ''}|${s.selection_type === 'away' ? -s.line! : s.line}`;
    const first = (s: HistorySeries) => s.selection_type === 'home' || s.selection_type === 'over';
    const out: Array<{ at: number; value: number | null }> = [];
    let last: number | null | undefined;
    for (let n = 0; n < events.length;) {
      const at = events[n]!.at;
      for (; n < events.length && events[n]!.at === at; n++) {
        const e = events[n]!;
        if (e.price === null) price.delete(e.i);
        else price.set(e.i, e.price);
      }
      const sides = new Map<string, { a?: number; b?: number; line: number }>();
      for (const [i, p] of price) {
        const s = list[i]!;
        const k = pairKey(s);
        const pair = sides.get(k) ?? { line: first(s) ? s.line! : -s.line! };
        if (s.selection_type === 'over' || s.selection_type === 'under') pair.line = s.line!;
        if (first(s)) pair.a = p;
        else pair.b = p;
        sides.set(k, pair);
      }
      let best: { line: number; hold: number; skew: number } | null = null;
      for (const pair of sides.values()) {
        if (pair.a === undefined || pair.b === undefined) continue;
        const hold = 1 / pair.a + 1 / pair.b - 1;
        const skew = Math.abs(1 / pair.a - 1 / pair.b);
        if (!best || hold < best.hold - 1e-9 || (Math.abs(hold - best.hold) <= 1e-9 && skew < best.skew))
          best = { line: pair.line, hold, skew };
      }
      const value = best ? best.line : null;
      if (value !== last) out.push({ at, value });
      last = value;
    }
    return out;
  });
  return { books, points };
}

/** Decimal odds as American (integer, +100 for even money). */
export function toAmerican(decimal: number): number {
  const a = decimal >= 2 ? (decimal - 1) * 100 : -100 / (decimal - 1);
  const r = Math.round(Math.abs(a));
  return r <= 100 ? 100 : a < 0 ? -r : r;
}

/** A steady colour per book: its place among every book the page has seen, around the colour wheel. */
export function bookColour(index: number): string {
  const hue = (index * 137.508) % 360;
  return `hsl(${hue.toFixed(0)}, 70%, ${index % 2 ? 62 : 52}%)`;
}

/** Cumulative units by day from the CLV record's day groups (group_key YYYY-MM-DD), oldest first. */
export function cumulativeUnits(days: ReadonlyArray<{ group_key: string; units: number; avg_clv_percent: number | null }>) {
  const sorted = [...days].sort((a, b) => a.group_key.localeCompare(b.group_key));
  let total = 0;
  return {
    xs: sorted.map((d) => Date.parse(`${d.group_key}T00:00:00Z`) / 1000),
    units: sorted.map((d) => (total = Math.round((total + d.units) * 10_000) / 10_000)),
    clv: sorted.map((d) => d.avg_clv_percent),
  };
}

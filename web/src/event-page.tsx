import { useEffect, useMemo, useState } from 'preact/hooks';
import type uPlot from 'uplot';
import { errorText, getAllPages, getJson } from './api.js';
import { AXIS, Chart, stepped, type ChartOptions } from './chart.js';
import {
  align,
  bookColour,
  commonLine,
  mainLineSeries,
  priceSeries,
  selectionKey,
  selections,
  toAmerican,
  type HistorySeries,
} from './history.js';
import { fmtAmerican, fmtLine, type Json } from './live.js';

/** A mark on the price chart: a book's closing price, or a +EV signal detected at a price. */
interface Marker {
  x: number;
  y: number;
  book: string;
  kind: 'close' | 'ev';
}

const sec = (iso: string) => Date.parse(iso) / 1000;
const when = (s: number) => new Date(s * 1000).toLocaleString();

/** Whether an item (closing line, +EV signal, settlement) is the chosen selection at the chosen line. */
function sameSelection(item: Json, market: string, s: HistorySeries | undefined, line: number | null): boolean {
  if (!s) return false;
  const m = item.market_type ?? item.market;
  if (m !== market || item.selection_type !== s.selection_type || item.selection !== s.selection) return false;
  if ((item.player_name ?? null) !== (s.player_name ?? null)) return false;
  return (item.line ?? null) === line;
}

/** Draws the markers: a dashed vertical line at the close, a ring per closing price, a triangle per +EV signal. */
function drawMarkers(markers: readonly Marker[], colourOf: (book: string) => string, closeAt: number | null) {
  return (u: uPlot) => {
    const ctx = u.ctx;
    ctx.save();
    if (closeAt !== null) {
      const x = u.valToPos(closeAt, 'x', true);
      if (x >= u.bbox.left && x <= u.bbox.left + u.bbox.width) {
        ctx.strokeStyle = '#e3b341';
        ctx.setLineDash([6, 4]);
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.fillStyle = '#e3b341';
        ctx.font = `${12 * devicePixelRatio}px system-ui`;
        ctx.fillText('close', x + 4, u.bbox.top + 14 * devicePixelRatio);
      }
    }
    for (const m of markers) {
      const x = u.valToPos(m.x, 'x', true);
      const y = u.valToPos(m.y, 'y', true);
      const r = 5 * devicePixelRatio;
      ctx.strokeStyle = colourOf(m.book);
      ctx.fillStyle = colourOf(m.book);
      ctx.lineWidth = 2;
      ctx.beginPath();
      if (m.kind === 'close') ctx.arc(x, y, r, 0, 2 * Math.PI);
      else {
        ctx.moveTo(x, y - r * 1.4);
        ctx.lineTo(x - r, y + r * 0.6);
        ctx.lineTo(x + r, y + r * 0.6);
        ctx.closePath();
        ctx.fill();
      }
      ctx.stroke();
    }
    ctx.restore();
  };
}

/**
 * One event's line history: each book's price of the chosen selection and line over time (GET /odds/history), the
 * closing line (GET /odds/closing, pro and up) and the +EV signals detected on it (GET /opportunities/ev and
 * /settlements, pro and up) marked; for markets with lines, each book's main line over time.
 */
export function EventPage({ eventId, apiKey, hidden }: { eventId: string; apiKey: string; hidden: ReadonlySet<string> }) {
  const [event, setEvent] = useState<Json | null>(null);
  const [markets, setMarkets] = useState<string[]>([]);
  const [market, setMarket] = useState('moneyline');
  const [series, setSeries] = useState<HistorySeries[]>([]);
  const [meta, setMeta] = useState<Json | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [chosen, setChosen] = useState('');
  const [line, setLine] = useState<number | null>(null);
  const [closing, setClosing] = useState<{ at: number | null; books: Record<string, Json[]> } | string | null>(null);
  const [signals, setSignals] = useState<Json[]>([]);
  const [signalNote, setSignalNote] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  /** The window shown, in hours before the server's time (0: everything kept). */
  const [hours, setHours] = useState(24);
  const id = encodeURIComponent(eventId);

  useEffect(() => {
    void getJson(`/events/${id}`, apiKey).then((r) => setEvent(r.status === 200 ? r.body.data : null));
    void getJson(`/events/${id}/markets`, apiKey).then((r) => {
      const list: string[] =
        r.status === 200 && Array.isArray(r.body.data) ? r.body.data.map((m: unknown) => String((m as Json)?.id ?? m)) : [];
      setMarkets(list);
      if (list.length && !list.includes(market)) setMarket(list.includes('moneyline') ? 'moneyline' : list[0]!);
    });
    void getJson(`/odds/closing?event_id=${id}`, apiKey).then((r) =>
      setClosing(
        r.status === 200
          ? { at: r.body.data.captured_at ? sec(r.body.data.captured_at) : null, books: r.body.data.books ?? {} }
          : `Closing lines: ${errorText(r)}`,
      ),
    );
    void Promise.all([
      getJson(`/opportunities/ev?event=${id}&limit=200`, apiKey),
      getJson(`/settlements?game_id=${id}&limit=1000`, apiKey),
    ]).then(([ev, st]) => {
      const out: Json[] = [];
      if (ev.status === 200) out.push(...ev.body.data.map((o: Json) => ({ ...o, ev: o.ev_percentage })));
      if (st.status === 200) out.push(...st.body.data.settlements.map((o: Json) => ({ ...o, ev: o.ev_percent })));
      setSignals(out);
      setSignalNote(ev.status === 200 ? null : `+EV signals: ${errorText(ev)}`);
    });
  }, [eventId, apiKey, tick]);

  useEffect(() => {
    setLoading(true);
    setError(null);
    const base = `/odds/history?event=${id}&market=${encodeURIComponent(market)}`;
    // The window ends at the server's time (this browser's clock may differ): read it from a one-point page first.
    const from = hours
      ? getJson(`${base}&limit=1&max_points=1`, apiKey).then((r) =>
          r.status === 200 ? `&from=${new Date(Date.parse(r.body.meta.to) - hours * 3600_000).toISOString()}` : '',
        )
      : Promise.resolve('');
    void from
      .then((f) => getAllPages(`${base}${f}&with_prior=true&limit=200&max_points=5000`, apiKey))
      .then((r) => {
        setLoading(false);
        if (r.status !== 200) {
          setError(errorText(r));
          setSeries([]);
          return;
        }
        // A series' price in force at the window start (with_prior) is drawn from the start, not from days before it.
        const start = r.body.meta?.from as string | undefined;
        setSeries(
          (r.items as HistorySeries[]).map((x) => ({
            ...x,
            points: x.points.map((p) => (start && p.at < start ? { ...p, at: start } : p)),
          })),
        );
        setMeta(r.body.meta);
      });
  }, [eventId, apiKey, market, tick, hours]);

  const choices = useMemo(() => selections(series), [series]);
  const current = choices.find((c) => c.key === chosen) ?? choices[0];
  useEffect(() => {
    if (!current) return;
    if (current.key !== chosen) setChosen(current.key);
    if (current.lines.length && (line === null || !current.lines.includes(line))) setLine(commonLine(series, current.key));
    if (!current.lines.length && line !== null) setLine(null);
  }, [current?.key, series]);

  const allBooks = useMemo(() => [...new Set(series.map((s) => s.sportsbook))].sort(), [series]);
  const colourOf = (book: string) => bookColour(Math.max(0, allBooks.indexOf(book)));
  const sample = series.find((s) => current && selectionKey(s) === current.key && s.line === line);
  const end = meta?.to ? sec(meta.to) : undefined;

  const prices = useMemo(() => {
    if (!current) return null;
    const p = priceSeries(series, current.key, current.lines.length ? line : null);
    const shown = p.books.map((b, i) => ({ book: b, i })).filter((x) => !hidden.has(x.book));
    return {
      books: shown.map((x) => x.book),
      changes: shown.map((x) => p.changes[x.i]!),
      ...align(
        shown.map((x) => ({ points: p.points[x.i]! })),
        end,
      ),
    };
  }, [series, current?.key, line, hidden, end]);

  const markers = useMemo(() => {
    const out: Marker[] = [];
    if (closing && typeof closing === 'object' && closing.at !== null)
      for (const [book, lines] of Object.entries(closing.books))
        for (const l of lines)
          if (!hidden.has(book) && sameSelection(l, market, sample, line))
            out.push({ x: closing.at, y: l.odds_decimal, book, kind: 'close' });
    for (const s of signals)
      if (!hidden.has(s.sportsbook) && sameSelection(s, market, sample, line))
        out.push({ x: sec(s.detected_at), y: s.odds_decimal, book: s.sportsbook, kind: 'ev' });
    return out;
  }, [closing, signals, market, sample, line, hidden]);

  const priceChart = useMemo(() => {
    if (!prices || !prices.xs.length) return null;
    const closeAt = closing && typeof closing === 'object' ? closing.at : null;
    const opts: ChartOptions = {
      height: 360,
      scales: { x: { time: true } },
      series: [
        {},
        ...prices.books.map((b) => ({
          label: b,
          stroke: colourOf(b),
          width: 2,
          paths: stepped,
          points: { show: true, size: 4 },
          value: (_u: uPlot, v: number | null) => (v === null ? '-' : `${fmtAmerican(toAmerican(v))} (${v.toFixed(3)})`),
        })),
      ],
      axes: [
        { ...AXIS },
        { ...AXIS, size: 60, values: (_u: uPlot, ticks: number[]) => ticks.map((v) => (v > 1 ? fmtAmerican(toAmerican(v)) : '')) },
      ],
      hooks: { draw: [drawMarkers(markers, colourOf, closeAt)] },
    };
    return { opts, data: [prices.xs, ...prices.ys] as uPlot.AlignedData };
  }, [prices, markers, closing]);

  const lineChart = useMemo(() => {
    if (!series.some((s) => s.line !== null)) return null;
    const m = mainLineSeries(series);
    const shown = m.books.map((b, i) => ({ book: b, i })).filter((x) => !hidden.has(x.book));
    const a = align(
      shown.map((x) => ({ points: m.points[x.i]! })),
      end,
    );
    if (!a.xs.length) return null;
    const opts: ChartOptions = {
      height: 220,
      scales: { x: { time: true } },
      series: [
        {},
        ...shown.map((x) => ({
          label: x.book,
          stroke: colourOf(x.book),
          width: 2,
          paths: stepped,
          value: (_u: uPlot, v: number | null) => (v === null ? '-' : fmtLine(v)),
        })),
      ],
      axes: [{ ...AXIS }, { ...AXIS, size: 60, values: (_u: uPlot, ticks: number[]) => ticks.map((v) => fmtLine(v)) }],
    };
    return { opts, data: [a.xs, ...a.ys] as uPlot.AlignedData };
  }, [series, hidden, end]);

  const mySignals = signals.filter((s) => sameSelection(s, market, sample, line));

  return (
    <section class="event-page" data-testid="event-page">
      <h2>
        <a href="#">← Board</a> · {event ? `${event.away_team} @ ${event.home_team}` : eventId}{' '}
        <small>
          {event ? `${event.league} · ${new Date(event.start_time).toLocaleString()} · ${event.status}` : ''}
          {meta?.delay_seconds ? ` · ${meta.delay_seconds} s delayed` : ''}
        </small>
      </h2>
      <div class="filters">
        <label>
          Market
          <select name="history-market" value={market} onChange={(e) => setMarket((e.target as HTMLSelectElement).value)}>
            {(markets.length ? markets : [market]).map((m) => (
              <option value={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          Selection
          <select name="history-selection" value={current?.key ?? ''} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
            {choices.map((c) => (
              <option value={c.key}>{c.label}</option>
            ))}
          </select>
        </label>
        {current && current.lines.length > 0 && (
          <label>
            Line
            <select name="history-line" value={String(line)} onChange={(e) => setLine(Number((e.target as HTMLSelectElement).value))}>
              {current.lines.map((l) => (
                <option value={String(l)}>{fmtLine(l)}</option>
              ))}
            </select>
          </label>
        )}
        <label>
          Window
          <select name="history-window" value={String(hours)} onChange={(e) => setHours(Number((e.target as HTMLSelectElement).value))}>
            <option value="1">1 hour</option>
            <option value="6">6 hours</option>
            <option value="24">24 hours</option>
            <option value="72">3 days</option>
            <option value="0">everything kept</option>
          </select>
        </label>
        <button type="button" onClick={() => setTick((n) => n + 1)}>
          Refresh
        </button>
      </div>
      {error && <p class="err">{error}</p>}
      {loading ? (
        <p class="muted">Loading…</p>
      ) : !priceChart ? (
        <p class="muted">No price changes recorded for this market yet.</p>
      ) : (
        <div class="panel">
          <h3>
            Price by book: {current?.label} {fmtLine(line)} <small class="muted">(steps are changes; ◯ closing price, ▲ +EV signal)</small>
          </h3>
          <Chart opts={priceChart.opts} data={priceChart.data} testid="price-chart" />
          <ul class="chart-books" data-testid="chart-books">
            {prices!.books.map((b, i) => {
              const last = [...prices!.ys[i]!].reverse().find((v) => v !== null);
              return (
                <li data-book={b} data-changes={prices!.changes[i]} key={b}>
                  <span class="swatch" style={{ background: colourOf(b) }} /> {b}: {prices!.changes[i]}{' '}
                  {prices!.changes[i] === 1 ? 'change' : 'changes'}
                  {last !== undefined && last !== null ? `, now ${fmtAmerican(toAmerican(last))}` : ''}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {lineChart && (
        <div class="panel">
          <h3>
            Main line by book <small class="muted">(each book's lowest-margin line; a step is a line move)</small>
          </h3>
          <Chart opts={lineChart.opts} data={lineChart.data} testid="line-chart" />
        </div>
      )}
      <div class="panel">
        <h3>Closing line and +EV signals</h3>
        {typeof closing === 'string' ? (
          <p class="muted">{closing}</p>
        ) : closing?.at ? (
          <p>Closed {when(closing.at)}.</p>
        ) : (
          <p class="muted">Not closed yet (the close is captured when the game starts).</p>
        )}
        {signalNote && <p class="muted">{signalNote}</p>}
        {mySignals.length > 0 ? (
          <table class="signals" data-testid="signals">
            <tbody>
              {mySignals.map((s) => (
                <tr>
                  <td>{s.sportsbook}</td>
                  <td>{fmtAmerican(s.odds_american)}</td>
                  <td>EV {Number(s.ev).toFixed(2)}%</td>
                  <td>{new Date(s.detected_at).toLocaleString()}</td>
                  <td>{s.outcome ?? 'open'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          !signalNote && <p class="muted">No +EV signal on this selection.</p>
        )}
      </div>
    </section>
  );
}

import { useEffect, useMemo, useState } from 'preact/hooks';
import type uPlot from 'uplot';
import { errorText, getJson } from './api.js';
import { AXIS, bars, Chart, type ChartOptions } from './chart.js';
import { cumulativeUnits } from './history.js';
import { fmtAmerican, fmtLine, type Json } from './live.js';

const pct = (v: number | null | undefined, dp = 2) => (v === null || v === undefined ? '-' : `${v.toFixed(dp)}%`);
const day = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);

/**
 * The track record of the service's own +EV signals: cumulative units and average CLV by day and by sport (GET
 * /historical/clv, every tier, over the tier's window), and the settled signals (GET /settlements, pro and up).
 */
export function RecordPage({ apiKey }: { apiKey: string }) {
  const [days, setDays] = useState(90);
  const [byDay, setByDay] = useState<Json | null>(null);
  const [bySport, setBySport] = useState<Json | null>(null);
  const [settlements, setSettlements] = useState<Json[] | string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const from = day(days * 86_400_000);
    setError(null);
    void getJson(`/historical/clv?group_by=day&from=${from}`, apiKey).then((r) =>
      r.status === 200 ? setByDay(r.body) : setError(errorText(r)),
    );
    void getJson(`/historical/clv?group_by=sport&from=${from}`, apiKey).then((r) => r.status === 200 && setBySport(r.body));
    void getJson('/settlements?limit=200', apiKey).then((r) =>
      setSettlements(r.status === 200 ? r.body.data.settlements : `Settlements: ${errorText(r)}`),
    );
  }, [apiKey, days]);

  const unitsChart = useMemo(() => {
    const groups: Json[] = byDay?.data?.groups ?? [];
    if (!groups.length) return null;
    const c = cumulativeUnits(groups as Array<{ group_key: string; units: number; avg_clv_percent: number | null }>);
    const opts: ChartOptions = {
      height: 280,
      // One day alone would make the time axis span years: a day either side of it.
      scales: {
        x: { time: true, range: (_u: uPlot, min: number, max: number) => (min === max ? [min - 86_400, max + 86_400] : [min, max]) },
        clv: { auto: true },
      },
      series: [
        {},
        {
          label: 'cumulative units',
          stroke: '#4fb3ff',
          width: 2,
          points: { show: true, size: 5 },
          value: (_u: uPlot, v: number | null) => (v === null ? '-' : v.toFixed(2)),
        },
        {
          label: 'average CLV % that day',
          stroke: '#e3b341',
          width: 1,
          scale: 'clv',
          points: { show: true, size: 4 },
          value: (_u: uPlot, v: number | null) => pct(v),
        },
      ],
      axes: [{ ...AXIS }, { ...AXIS, label: 'units' }, { ...AXIS, scale: 'clv', side: 1, label: 'CLV %', grid: { show: false } }],
    };
    return { opts, data: [c.xs, c.units, c.clv] as uPlot.AlignedData };
  }, [byDay]);

  const sportGroups: Json[] = bySport?.data?.groups ?? [];
  const sportChart = useMemo(() => {
    if (!sportGroups.length) return null;
    const names = sportGroups.map((g) => String(g.group_key));
    const opts: ChartOptions = {
      height: 220,
      scales: { x: { time: false, range: [-0.5, names.length - 0.5] } },
      series: [
        {},
        {
          label: 'average CLV %',
          stroke: '#4fb3ff',
          fill: 'rgba(79, 179, 255, 0.4)',
          paths: bars,
          points: { show: false },
          value: (_u: uPlot, v: number | null) => pct(v),
        },
      ],
      axes: [
        { ...AXIS, splits: () => names.map((_, i) => i), values: () => names },
        { ...AXIS, label: 'CLV %' },
      ],
    };
    return { opts, data: [names.map((_, i) => i), sportGroups.map((g) => g.avg_clv_percent)] as uPlot.AlignedData };
  }, [bySport]);

  const overall: Json | null = byDay?.data?.overall ?? null;
  return (
    <section class="record-page" data-testid="record-page">
      <h2>
        <a href="#">← Board</a> · Track record{' '}
        <small>
          the service's own +EV signals: closing-line value and results{' '}
          {byDay?.meta?.window_clamped ? '(the tier window limits how far back)' : ''}
        </small>
      </h2>
      <div class="filters">
        <label>
          Window
          <select name="record-days" value={String(days)} onChange={(e) => setDays(Number((e.target as HTMLSelectElement).value))}>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
            <option value="90">90 days</option>
            <option value="365">365 days</option>
          </select>
        </label>
      </div>
      {error && <p class="err">{error}</p>}
      {overall && (
        <div class="account" data-testid="record-overall">
          <strong>{overall.total_predictions} signals</strong>
          <span>
            graded {overall.total_graded}: {overall.wins} won, {overall.losses} lost, {overall.pushes} push
          </span>
          <span>units {Number(overall.units).toFixed(2)}</span>
          <span>ROI {pct(overall.roi_percent)}</span>
          <span>average CLV {pct(overall.avg_clv_percent)}</span>
          <span>
            beat the close {overall.beat_close}/{overall.clv_count}
          </span>
          <span>average EV at detection {pct(overall.avg_ev_percent)}</span>
        </div>
      )}
      <div class="panel">
        <h3>Cumulative units (flat 1-unit stakes) and average CLV by day</h3>
        {unitsChart ? (
          <Chart opts={unitsChart.opts} data={unitsChart.data} testid="units-chart" />
        ) : (
          <p class="muted">No signal recorded in the window yet.</p>
        )}
      </div>
      <div class="panel">
        <h3>Average CLV by sport</h3>
        {sportChart ? (
          <Chart opts={sportChart.opts} data={sportChart.data} testid="sport-chart" />
        ) : (
          <p class="muted">No closing-line value yet.</p>
        )}
        {sportGroups.length > 0 && (
          <table class="signals" data-testid="by-sport">
            <thead>
              <tr>
                <th>Sport</th>
                <th>Signals</th>
                <th>Graded</th>
                <th>W-L-P</th>
                <th>Units</th>
                <th>ROI</th>
                <th>Avg CLV</th>
              </tr>
            </thead>
            <tbody>
              {sportGroups.map((g) => (
                <tr key={g.group_key}>
                  <td>{g.group_key}</td>
                  <td>{g.total_predictions}</td>
                  <td>{g.total_graded}</td>
                  <td>
                    {g.wins}-{g.losses}-{g.pushes}
                  </td>
                  <td>{Number(g.units).toFixed(2)}</td>
                  <td>{pct(g.roi_percent)}</td>
                  <td>{pct(g.avg_clv_percent)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div class="panel">
        <h3>Settled signals</h3>
        {typeof settlements === 'string' ? (
          <p class="muted">{settlements}</p>
        ) : !settlements?.length ? (
          <p class="muted">None settled yet.</p>
        ) : (
          <table class="signals" data-testid="settlements">
            <thead>
              <tr>
                <th>Game</th>
                <th>Bet</th>
                <th>Book</th>
                <th>Price</th>
                <th>EV</th>
                <th>CLV</th>
                <th>Result</th>
              </tr>
            </thead>
            <tbody>
              {settlements.map((s) => (
                <tr key={s.hash_id}>
                  <td>
                    <a href={`#view=event&event=${encodeURIComponent(s.game_id)}`}>{s.game}</a>
                  </td>
                  <td>
                    {s.market_type} {s.selection} {fmtLine(s.line)}
                  </td>
                  <td>{s.sportsbook}</td>
                  <td>{fmtAmerican(s.odds_american)}</td>
                  <td>{pct(s.ev_percent)}</td>
                  <td>{pct(s.clv_percent)}</td>
                  <td class={`outcome ${s.outcome}`}>{s.outcome}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}

/** A backtest report as a text table, its bets as CSV, and a self-contained HTML page with the bankroll chart (SVG). */

import { stringify } from 'csv-stringify/sync';
import type { BacktestBet, BacktestReport } from './backtest.engine.js';

export const BET_COLUMNS: ReadonlyArray<keyof BacktestBet> = [
  'n',
  'event_id',
  'event',
  'league',
  'start_time',
  'market',
  'selection',
  'line',
  'book',
  'sharp_book',
  'detected_at',
  'placed_at',
  'decimal_detected',
  'decimal_taken',
  'fair_probability',
  'ev_percent',
  'ev_taken_percent',
  'true_probability',
  'true_edge_percent',
  'stake',
  'outcome',
  'profit',
  'clv_percent',
  'settled_at',
  'bankroll_after',
];

/** Every bet, one CSV line each (header first; empty cells for unknown values). */
export function betsCsv(bets: readonly BacktestBet[]): string {
  return stringify(
    bets.map((b) => BET_COLUMNS.map((c) => b[c] ?? '')),
    { header: true, columns: BET_COLUMNS as string[] },
  );
}

const num = (x: number | null | undefined, d = 2): string => (x === null || x === undefined ? '-' : x.toFixed(d));
const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '-' : `${x.toFixed(2)}%`);

/** The report's figures as label/value lines. */
export function summaryLines(r: BacktestReport): Array<[string, string]> {
  const s = r.summary;
  const rule = r.rule;
  const stake =
    rule.staking.kind === 'flat' ? `flat ${rule.staking.units} u` : `Kelly x${rule.staking.fraction}, cap ${rule.staking.cap * 100}%`;
  const lines: Array<[string, string]> = [
    ['Source', r.source.description],
    ['Window', `${r.source.from} .. ${r.source.to}`],
    [
      'Rule',
      `EV >= ${rule.minEv}% (${rule.devig}), ${rule.books ? rule.books.join(',') : 'all books'}, ${stake}, delay ${rule.delaySeconds} s, one bet per market`,
    ],
    ['Bets', `${s.bets} (won ${s.won}, lost ${s.lost}, push ${s.push}, void ${s.void}; missed after delay ${s.missed})`],
    ['Turnover', `${num(s.turnover)} u`],
    ['Profit', `${num(s.profit)} u`],
    [
      'ROI',
      s.roi_ci95_percent
        ? `${pct(s.roi_percent)} (95% CI ${pct(s.roi_ci95_percent[0])} .. ${pct(s.roi_ci95_percent[1])})`
        : pct(s.roi_percent),
    ],
    ['Avg EV at detection', pct(s.avg_ev_percent)],
    ['Avg EV at the price taken', pct(s.avg_ev_taken_percent)],
    ['Avg CLV', `${pct(s.avg_clv_percent)} (${s.clv_bets} bets with a closing line)`],
    ['Bankroll', `${num(s.start_bankroll)} -> ${num(s.end_bankroll)} u`],
    ['Max drawdown', `${num(s.max_drawdown)} u (${pct(s.max_drawdown_percent)})`],
  ];
  if (r.truth) {
    const t = r.truth;
    lines.push(
      ['True edge (decided bets)', `${t.bets} bets, stake-weighted ${pct(t.expected_roi_percent)}, mean ${pct(t.avg_true_edge_percent)}`],
      [
        'Realised vs true',
        `ROI ${pct(t.roi_percent)}${t.roi_ci95_percent ? ` (95% CI ${pct(t.roi_ci95_percent[0])} .. ${pct(t.roi_ci95_percent[1])})` : ''}: ${
          t.within_ci === null ? 'too few bets' : t.within_ci ? 'true edge inside the interval' : 'true edge OUTSIDE the interval'
        }`,
      ],
    );
  }
  return lines;
}

/** The report as an aligned two-column table, notes after it. */
export function reportTable(r: BacktestReport): string {
  const lines = summaryLines(r);
  const w = Math.max(...lines.map(([k]) => k.length));
  return [...lines.map(([k, v]) => `${k.padEnd(w)}  ${v}`), ...r.notes.map((n) => `note: ${n}`)].join('\n');
}

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The bankroll curve as an SVG line chart (time on x, bankroll on y), with axis labels. */
export function bankrollSvg(points: ReadonlyArray<{ at: string; bankroll: number }>, width = 900, height = 320): string {
  const pad = { l: 70, r: 20, t: 20, b: 40 };
  const ts = points.map((p) => Date.parse(p.at));
  const ys = points.map((p) => p.bankroll);
  const t0 = Math.min(...ts);
  const t1 = Math.max(...ts, t0 + 1);
  let y0 = Math.min(...ys);
  let y1 = Math.max(...ys);
  if (y1 - y0 < 1e-9) {
    y0 -= 1;
    y1 += 1;
  }
  const x = (t: number): number => pad.l + ((t - t0) / (t1 - t0)) * (width - pad.l - pad.r);
  const y = (v: number): number => pad.t + (1 - (v - y0) / (y1 - y0)) * (height - pad.t - pad.b);
  // A step line: the bankroll holds between settlements.
  let d = '';
  for (let i = 0; i < points.length; i++) {
    const px = x(ts[i]!).toFixed(1);
    const py = y(ys[i]!).toFixed(1);
    d += i === 0 ? `M${px},${py}` : `H${px}V${py}`;
  }
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => y0 + f * (y1 - y0));
  const grid = ticks
    .map(
      (v) =>
        `<line x1="${pad.l}" x2="${width - pad.r}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#ddd"/>` +
        `<text x="${pad.l - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" font-size="11">${v.toFixed(1)}</text>`,
    )
    .join('');
  const label = (t: number, anchor: string): string =>
    `<text x="${x(t).toFixed(1)}" y="${height - pad.b + 16}" text-anchor="${anchor}" font-size="11">${new Date(t).toISOString().slice(0, 16).replace('T', ' ')}</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Bankroll over time">` +
    grid +
    `<path d="${d}" fill="none" stroke="#1f6feb" stroke-width="1.5"/>` +
    label(t0, 'start') +
    label(t1, 'end') +
    `<text x="14" y="${height / 2}" transform="rotate(-90 14 ${height / 2})" text-anchor="middle" font-size="12">bankroll (units)</text>` +
    `</svg>`
  );
}

/** A self-contained page (no script, no external resource): the figures, the bankroll chart and the bets. */
export function reportHtml(r: BacktestReport): string {
  const rows = summaryLines(r)
    .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`)
    .join('');
  const notes = r.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('');
  const cols = [
    'n',
    'event',
    'market',
    'selection',
    'line',
    'book',
    'placed_at',
    'decimal_taken',
    'ev_percent',
    'true_edge_percent',
    'stake',
    'outcome',
    'profit',
    'clv_percent',
  ] as const;
  const bets = r.bets
    .slice(0, 2000)
    .map((b) => `<tr>${cols.map((c) => `<td>${esc(String(b[c] ?? ''))}</td>`).join('')}</tr>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Backtest report</title>
<style>body{font:14px system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse}th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:left}
.bets td{font-variant-numeric:tabular-nums;font-size:12px}.note{color:#8a5a00}</style></head>
<body><h1>Backtest report</h1><table>${rows}</table>${notes}
<h2>Bankroll</h2>${bankrollSvg(r.bankroll)}
<h2>Bets${r.bets.length > 2000 ? ' (first 2000; every bet is in bets.csv)' : ''}</h2>
<table class="bets"><tr>${cols.map((c) => `<th>${c}</th>`).join('')}</tr>${bets}</table>
</body></html>
`;
}

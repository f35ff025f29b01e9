import { describe, expect, it } from '@jest/globals';
import {
  align,
  commonLine,
  cumulativeUnits,
  mainLineSeries,
  priceSeries,
  selectionKey,
  selections,
  toAmerican,
  type HistorySeries,
} from './history.js';

const T = Date.parse('2026-11-22T12:00:00Z');
const at = (s: number) => new Date(T + s * 1000).toISOString();
const t = (s: number) => T / 1000 + s;
const open = (s: number, d: number) => ({
  at: at(s),
  odds_decimal: d,
  odds_american: toAmerican(d),
  is_live: false,
  status: 'open' as const,
});
const removed = (s: number) => ({ at: at(s), odds_decimal: null, odds_american: null, is_live: false, status: 'removed' as const });

const ser = (book: string, side: string, line: number | null, points: HistorySeries['points'], market = 'point_spread'): HistorySeries => ({
  sportsbook: book,
  market_type: market,
  period: 'game',
  selection: side === 'home' ? 'Celtics' : side === 'away' ? 'Lakers' : side === 'over' ? 'Over' : 'Under',
  selection_type: side,
  line,
  player_name: null,
  points,
});

describe('event page data', () => {
  it('selections in a steady order with their lines; the line most books quote', () => {
    const s = [
      ser('dk', 'away', 3.5, []),
      ser('dk', 'home', -3.5, []),
      ser('fd', 'home', -4, []),
      ser('mgm', 'home', -4, []),
      ser('dk', 'home', -4, []),
    ];
    expect(selections(s)).toEqual([
      { key: 'game|home|Celtics|', label: 'Celtics', lines: [-4, -3.5] },
      { key: 'game|away|Lakers|', label: 'Lakers', lines: [3.5] },
    ]);
    // -4: dk, fd, mgm (3 books); -3.5: dk only.
    expect(commonLine(s, 'game|home|Celtics|')).toBe(-4);
    expect(commonLine([], 'x')).toBeNull();
  });

  it('aligns series on one axis, carrying each value forward; null before the first change and while not open', () => {
    const a = {
      points: [
        { at: 0, value: 2 },
        { at: 10, value: 1.9 },
      ],
    };
    const b = {
      points: [
        { at: 5, value: 2.1 },
        { at: 12, value: null },
      ],
    };
    // xs = 0, 5, 10, 12, 20 (the end). a: 2, 2, 1.9, 1.9, 1.9; b: null, 2.1, 2.1, null, null.
    expect(align([a, b], 20)).toEqual({
      xs: [0, 5, 10, 12, 20],
      ys: [
        [2, 2, 1.9, 1.9, 1.9],
        [null, 2.1, 2.1, null, null],
      ],
    });
  });

  it("each book's price at one line, a removal a gap", () => {
    const s = [
      ser('dk', 'home', -3.5, [open(0, 1.91), open(60, 1.87), removed(120)]),
      ser('fd', 'home', -3.5, [open(30, 1.95)]),
      ser('fd', 'home', -4, [open(0, 2)]),
    ];
    const p = priceSeries(s, selectionKey(s[0]!), -3.5);
    expect(p.books).toEqual(['dk', 'fd']);
    expect(p.changes).toEqual([3, 1]);
    expect(p.points[0]).toEqual([
      { at: t(0), value: 1.91 },
      { at: t(60), value: 1.87 },
      { at: t(120), value: null },
    ]);
  });

  it("each book's main line: the lowest-hold two-sided line over time", () => {
    // DraftKings quotes -3.5 (1.91 / 1.91: hold 2/1.91 - 1 = 4.71%) and -4.5 as an alternate (2.10 / 1.75: hold
    // 0.476190 + 0.571429 - 1 = 4.76%): main -3.5. At 60 it moves: -3.5 is withdrawn, -4.5 becomes 1.91 / 1.91 -> main -4.5.
    const s = [
      ser('dk', 'home', -3.5, [open(0, 1.91), removed(60)]),
      ser('dk', 'away', 3.5, [open(0, 1.91), removed(60)]),
      ser('dk', 'home', -4.5, [open(0, 2.1), open(60, 1.91)]),
      ser('dk', 'away', 4.5, [open(0, 1.75), open(60, 1.91)]),
      // A one-sided line is no main line.
      ser('fd', 'home', -3, [open(0, 1.9)]),
    ];
    expect(mainLineSeries(s)).toEqual({
      books: ['dk', 'fd'],
      points: [
        [
          { at: t(0), value: -3.5 },
          { at: t(60), value: -4.5 },
        ],
        [{ at: t(0), value: null }],
      ],
    });
    // Totals pair over and under at the same line.
    const tot = [ser('dk', 'over', 221.5, [open(0, 1.91)], 'total_points'), ser('dk', 'under', 221.5, [open(0, 1.91)], 'total_points')];
    expect(mainLineSeries(tot).points).toEqual([[{ at: t(0), value: 221.5 }]]);
  });

  it('American prices; cumulative units by day', () => {
    // 1.95 -> -100/0.95 = -105.26 -> -105; 2.5 -> +150; 2.0 -> +100.
    expect([toAmerican(1.95), toAmerican(2.5), toAmerican(2)]).toEqual([-105, 150, 100]);
    const c = cumulativeUnits([
      { group_key: '2026-11-21', units: -1, avg_clv_percent: 1.5 },
      { group_key: '2026-11-20', units: 1.2, avg_clv_percent: 17.14 },
    ]);
    // 1.2, then 1.2 - 1 = 0.2.
    expect(c).toEqual({ xs: [Date.parse('2026-11-20') / 1000, Date.parse('2026-11-21') / 1000], units: [1.2, 0.2], clv: [17.14, 1.5] });
  });
});

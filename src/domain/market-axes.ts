import { dict } from './dict.js';
/**
 * The two axes an odds row is read along besides its market type: the team side of its selection (`team_side`) and
 * the slice of the contest its market settles on (`market_segment`). Pure functions of the row's own fields.
 */

export type TeamSide = 'home' | 'away' | 'draw';

const SIDES: ReadonlySet<string> = new Set<TeamSide>(['home', 'away', 'draw']);

/**
 * The team side of a selection, or null when it has none:
 * - `home`, `away`, `draw` are their own side;
 * - a compound selection type joins the side to a second axis with one underscore (`home_over`, `draw_yes`,
 *   `away_r2`): the side is its first part, unless the second part is a side too (double chance `home_draw`,
 *   `home_away` covers two sides, so no single one);
 * - a team total's over/under is on the team its ladder is about (the subject `home` or `away`, the last part of the
 *   ladder key `event|market|period|subject`).
 * Everything else (over/under of a game total, yes/no, props, `other`) has no team side.
 */
export function teamSideOf(selectionType: string, marketType: string, ladderKey: string): TeamSide | null {
  if (SIDES.has(selectionType)) return selectionType as TeamSide;
  const cut = selectionType.indexOf('_');
  if (cut > 0) {
    const head = selectionType.slice(0, cut);
    const tail = selectionType.slice(cut + 1);
    if (SIDES.has(head) && tail && !SIDES.has(tail.split('_')[0]!)) return head as TeamSide;
    return null;
  }
  if (marketType === 'team_total') {
    const subject = ladderKey.slice(ladderKey.lastIndexOf('|') + 1);
    if (subject === 'home' || subject === 'away') return subject;
  }
  return null;
}

const ORDINALS = ['1st', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th', '9th'];

/** Market types that are a slice of the game by name (the public market catalog's period markets). */
const SEGMENT_MARKETS: Readonly<Record<string, string>> = dict({ '1st_half': '1st_half', '1st_quarter': '1st_quarter' });

/** A period code as sources spell it (lower-case) -> the segment name; null when the code is not one we know. */
function segmentOfPeriod(period: string): string | null {
  switch (period) {
    case '':
    case 'game':
    case 'full_game':
    case 'fg':
    case 'ft':
    case 'match':
      return 'full_game';
  }
  // 1h / h1, 2q / q2, p1 / 1p, 3i / i3 (innings), 2s / s2 (sets): a numbered half, quarter, period, inning or set.
  const m = /^(?:([1-9])([hqpis])|([hqpis])([1-9]))$/.exec(period);
  if (m) {
    const n = Number(m[1] ?? m[4]);
    const unit = { h: 'half', q: 'quarter', p: 'period', i: 'inning', s: 'set' }[(m[2] ?? m[3]) as 'h' | 'q' | 'p' | 'i' | 's'];
    if ((unit === 'half' && n > 2) || (unit === 'quarter' && n > 4)) return null;
    return `${ORDINALS[n - 1]}_${unit}`;
  }
  // f5: the first five innings (f3, f7 likewise).
  const f = /^f([1-9])$/.exec(period);
  if (f) return `1st_${f[1]}_innings`;
  const named = /^(1st|2nd|3rd|4th)_(half|quarter|period|inning|set)$/.exec(period);
  return named ? period : null;
}

const segments = new Map<string, string | null>();

/**
 * The slice of the contest a market settles on: `full_game`, `1st_half`, `2nd_half`, `1st_quarter`…`4th_quarter`,
 * `1st_period`…, `1st_inning`…, `1st_5_innings` (f5), `1st_set`…; from the market type when it names a slice
 * (`1st_half`), else from the row's period. null for a period code not listed here (the field is then left out).
 */
export function marketSegmentOf(marketType: string, period: string): string | null {
  const byMarket = SEGMENT_MARKETS[marketType];
  if (byMarket) return byMarket;
  let s = segments.get(period);
  if (s === undefined) {
    s = segmentOfPeriod(period);
    if (segments.size > 10_000) segments.clear();
    segments.set(period, s);
  }
  return s;
}

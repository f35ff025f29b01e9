/**
 * The no-vig probability of a spread or total at a line the market did not quote, from a line it did: the sport's
 * score model (distributions.ts) is located so that it prices the quoted line at its no-vig probability, and then
 * prices the wanted line. Plain functions, no I/O.
 */

import { marginPmf, totalPmf } from './distributions.js';
import type { Pmf } from './pmf.js';

export type LineKind = 'spread' | 'total';

/** Sports whose margin model needs the expected total (Poisson-type scores, and the generic normal). */
const NEEDS_TOTAL = new Set(['hockey', 'baseball', 'soccer']);
const OWN_MARGIN_MODEL = new Set(['football', 'basketball', 'tennis']);

/**
 * P(the home side covers home-side line `line` | no push) for a spread: margin + line > 0 against margin + line < 0;
 * P(over `line` | no push) for a total. A two-way market's no-vig probability is this conditional one.
 */
export function lineProbability(pmf: Pmf, kind: LineKind, line: number): number {
  const cut = kind === 'spread' ? -line : line;
  const below = pmf.cdf(Math.ceil(cut) - 1);
  const above = pmf.total() - pmf.cdf(cut);
  return above + below > 0 ? above / (above + below) : NaN;
}

export interface LineFitInput {
  sport: string;
  kind: LineKind;
  /** The quoted line (home-side line for spreads; 0 for a two-way moneyline) and its no-vig probability (home covers / over). */
  fromLine: number;
  fromProbability: number;
  /** The line wanted (home-side line for spreads). */
  toLine: number;
  /** Spreads: the expected total (the closing total line) for the sports whose margin model needs it. */
  expectedTotal?: number;
}

/**
 * The sport's margin (spreads) or total model located so that it prices `fromLine` at `fromProbability`: the location
 * (expected home margin, or expected total) solved by bisection to 1e-9. Null when the sport has no model of that kind
 * (mma), a spread of a sport whose margin model needs the total has none, or no location reaches the probability.
 */
export function fitLinePmf(input: Omit<LineFitInput, 'toLine'>): Pmf | null {
  const { sport, kind, fromLine, fromProbability } = input;
  if (!(fromProbability > 0 && fromProbability < 1) || !Number.isFinite(fromLine)) return null;
  if (sport === 'mma') return null;
  let build: (mu: number) => Pmf;
  let lo: number;
  let hi: number;
  if (kind === 'spread') {
    const total = input.expectedTotal;
    const needsTotal = !OWN_MARGIN_MODEL.has(sport);
    if (needsTotal && !(total !== undefined && total > 0)) return null;
    const t = needsTotal ? total! : 1;
    build = (mu) => marginPmf(sport, mu, t);
    // Poisson-type scores need |margin| below the total.
    const span = NEEDS_TOTAL.has(sport) ? 0.95 * t : 60;
    [lo, hi] = [-span, span];
  } else {
    build = (mu) => totalPmf(sport, mu);
    [lo, hi] = [0.05, 3 * Math.max(fromLine, 1) + 20];
  }
  const at = (mu: number) => lineProbability(build(mu), kind, fromLine);
  try {
    if (!(at(lo) < fromProbability && at(hi) > fromProbability)) return null;
    for (let i = 0; i < 80 && hi - lo > 1e-9; i++) {
      const mid = (lo + hi) / 2;
      const p = at(mid);
      if (Math.abs(p - fromProbability) < 1e-10) {
        lo = hi = mid;
        break;
      }
      if (p < fromProbability) lo = mid;
      else hi = mid;
    }
    return build((lo + hi) / 2);
  } catch {
    return null; // a location the model refuses (RangeError)
  }
}

/** The no-vig probability at `toLine` (home covers / over) implied by `fromProbability` at `fromLine` ({@link fitLinePmf}). */
export function fitLineProbability(input: LineFitInput): number | null {
  if (!Number.isFinite(input.toLine)) return null;
  const pmf = fitLinePmf(input);
  if (!pmf) return null;
  const p = lineProbability(pmf, input.kind, input.toLine);
  return Number.isFinite(p) && p > 0 && p < 1 ? p : null;
}

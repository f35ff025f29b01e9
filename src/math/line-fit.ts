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
 * The point where an increasing function `f` reaches `target` in [lo, hi] (f(lo) < target < f(hi), checked by the
 * caller): the Illinois method (regula falsi, halving the weight of an end that stays put), with a bisection step
 * whenever two steps did not halve the bracket, so it is never slower than bisection by more than a factor of two
 * and, on the smooth curves of the score models, reaches the target in about eight evaluations where bisection takes
 * thirty-five. Stops when |f(x) - target| < `ftol` (returns that x and its value) or the bracket is narrower than
 * `xtol` (returns its middle, with no value: the caller evaluates it). `evaluations` counts the calls of `f`.
 */
export function locateIncreasing<T>(
  f: (x: number) => { y: number; value: T },
  target: number,
  lo: number,
  hi: number,
  fLo: number,
  fHi: number,
  xtol = 1e-9,
  ftol = 1e-12,
  maxEvaluations = 100,
): { x: number; value: T | undefined; evaluations: number } {
  let dLo = fLo - target;
  let dHi = fHi - target;
  let kept: -1 | 0 | 1 = 0;
  let evaluations = 0;
  let widthBefore = hi - lo;
  let step = 0;
  while (hi - lo > xtol && evaluations < maxEvaluations) {
    let x = hi - (dHi * (hi - lo)) / (dHi - dLo);
    // Every second step must have halved the bracket; else (or off the bracket) this step bisects.
    step++;
    if (step % 2 === 0) {
      if (hi - lo > widthBefore / 2) x = (lo + hi) / 2;
      widthBefore = hi - lo;
    }
    if (!(x > lo && x < hi)) x = (lo + hi) / 2;
    const r = f(x);
    evaluations++;
    const d = r.y - target;
    if (Math.abs(d) < ftol) return { x, value: r.value, evaluations };
    if (d < 0) {
      lo = x;
      dLo = d;
      if (kept === -1) dHi /= 2; // the upper end stayed put twice: weigh it down
      kept = -1;
    } else {
      hi = x;
      dHi = d;
      if (kept === 1) dLo /= 2;
      kept = 1;
    }
  }
  return { x: (lo + hi) / 2, value: undefined, evaluations };
}

/**
 * The sport's margin (spreads) or total model located so that it prices `fromLine` at `fromProbability`: the location
 * (expected home margin, or expected total) solved to 1e-9 (or to a probability within 1e-12) by
 * {@link locateIncreasing}. Null when the sport has no model of that kind (mma), a spread of a sport whose margin
 * model needs the total has none, or no location reaches the probability.
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
  const at = (mu: number) => {
    const pmf = build(mu);
    return { y: lineProbability(pmf, kind, fromLine), value: pmf };
  };
  try {
    const pLo = at(lo).y;
    const pHi = at(hi).y;
    if (!(pLo < fromProbability && pHi > fromProbability)) return null;
    const found = locateIncreasing(at, fromProbability, lo, hi, pLo, pHi);
    return found.value ?? build(found.x);
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

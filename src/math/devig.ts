/**
 * Removing the bookmaker margin ("vig") from one book's complete market.
 *
 * Input everywhere: `implied[i] = 1 / decimal[i]` for every outcome of one complete market at one
 * book (two-way, three-way or more). Output: estimated fair probabilities in the same order.
 *
 * Validation (RangeError): fewer than 2 outcomes; an implied probability that is non-finite,
 * <= 0 or >= 1 (decimal odds must be > 1); or a market whose implied probabilities sum to less
 * than 1 (beyond a 1e-12 floating-point tolerance). A sum below 1 means the book's own prices are
 * an arbitrage; that is not a market to devig and callers must handle it (e.g. skip the row).
 * When the sum lies within the tolerance of 1 there is no margin to remove and every exact method
 * returns `p_i / sum` (they all coincide at zero overround: additive subtracts 0, power k = 1,
 * Shin z = 0).
 */

export type DevigMethod = 'multiplicative' | 'additive' | 'power' | 'shin' | 'worst_case';

/** All supported devig methods, exact methods first. */
export const DEVIG_METHODS: readonly DevigMethod[] = Object.freeze(['multiplicative', 'additive', 'power', 'shin', 'worst_case'] as const);

/** Floating-point slack allowed below a sum of 1 before a market is rejected as an arbitrage. */
const SUM_TOLERANCE = 1e-12;
const MAX_ITERATIONS = 200;

/**
 * Book overround (margin) of one complete market.
 * Formula: sum(implied) - 1 (e.g. 0.0227 for a 2.27% hold-inclusive margin).
 * No validation beyond finiteness of the result; use {@link devig} for a validated path.
 */
export function overround(implied: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < implied.length; i++) s += implied[i] as number;
  return s - 1;
}

/** Validates the input and returns its sum. */
function validatedSum(implied: readonly number[]): number {
  const n = implied.length;
  if (n < 2) throw new RangeError(`devig needs at least 2 outcomes, got ${n}`);
  let s = 0;
  for (let i = 0; i < n; i++) {
    const p = implied[i] as number;
    if (!Number.isFinite(p) || p <= 0 || p >= 1) {
      throw new RangeError(`devig: implied probability ${p} at index ${i} is not in (0, 1)`);
    }
    s += p;
  }
  if (s < 1 - SUM_TOLERANCE) {
    throw new RangeError(`devig: implied probabilities sum to ${s} < 1 (the market is itself an arbitrage)`);
  }
  return s;
}

function normalised(implied: readonly number[], s: number): number[] {
  const n = implied.length;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = (implied[i] as number) / s;
  return out;
}

/** Rescales `out` in place so it sums to exactly 1 up to rounding (removes solver residue). */
function renormaliseInPlace(out: number[]): number[] {
  let s = 0;
  for (let i = 0; i < out.length; i++) s += out[i] as number;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / s;
  return out;
}

/** Multiplicative (proportional) method: fair_i = p_i / S, S = sum(p). */
function multiplicative(implied: readonly number[], s: number): number[] {
  return normalised(implied, s);
}

/**
 * Additive method: fair_i = p_i - (S - 1)/n.
 * Fallback (documented safe rule): if any fair_i would be <= 0 (a long shot whose implied
 * probability is smaller than its equal share of the margin), the whole market falls back to the
 * multiplicative method, which always yields probabilities in (0, 1) and preserves order.
 */
function additive(implied: readonly number[], s: number): number[] {
  const n = implied.length;
  const m = (s - 1) / n;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const f = (implied[i] as number) - m;
    if (f <= 0) return normalised(implied, s);
    out[i] = f;
  }
  return out;
}

/**
 * Power method: fair_i = p_i^k with k >= 1 solving sum(p_i^k) = 1.
 * f(k) = sum(p_i^k) - 1 is strictly decreasing and convex (0 < p_i < 1), f(1) = S - 1 >= 0, so
 * Newton's method started at k = 1 converges monotonically from below; iteration stops when
 * |f(k)| <= 1e-15 or the step is below 1e-15 relative (well inside the 1e-12 tolerance). The result
 * is finally rescaled to remove the residual.
 */
function power(implied: readonly number[]): number[] {
  const n = implied.length;
  let k = 1;
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    let f = -1;
    let df = 0;
    for (let i = 0; i < n; i++) {
      const lp = Math.log(implied[i] as number);
      const t = Math.exp(k * lp);
      f += t;
      df += t * lp;
    }
    if (Math.abs(f) <= 1e-15 || df === 0) break;
    const step = f / df;
    k -= step;
    if (Math.abs(step) <= 1e-15 * k) break;
  }
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = (implied[i] as number) ** k;
  return renormaliseInPlace(out);
}

/**
 * Sum of Shin fair probabilities at insider share z and its derivative (written to SHIN_SCRATCH).
 * fair_i(z) = (sqrt(z^2 + 4(1 - z) p_i^2 / S) - z) / (2(1 - z)).
 */
const SHIN_SCRATCH = { sum: 0, deriv: 0 };
function shinSum(implied: readonly number[], s: number, z: number): void {
  const den = 2 * (1 - z);
  let sum = 0;
  let deriv = 0;
  for (let i = 0; i < implied.length; i++) {
    const p = implied[i] as number;
    const q = (p * p) / s;
    const r = Math.sqrt(z * z + 4 * (1 - z) * q);
    const num = r - z;
    sum += num / den;
    // d/dz [num/den] = (num' den + 2 num) / den^2, num' = (z - 2q)/r - 1, den' = -2
    deriv += (((z - 2 * q) / r - 1) * den + 2 * num) / (den * den);
  }
  SHIN_SCRATCH.sum = sum;
  SHIN_SCRATCH.deriv = deriv;
}

/**
 * Shin (1993) method, in the form of Jullien & Salanie (1994) / Strumbelj (2014):
 *   fair_i = (sqrt(z^2 + 4 (1 - z) p_i^2 / S) - z) / (2 (1 - z)),  S = sum(p),
 * where z in [0, 1) (the share of insider money) solves sum(fair_i) = 1.
 * At z = 0 the sum is sqrt(S) >= 1 and as z -> 1 it tends to sum(p_i^2)/S < 1, so a root exists;
 * it is found by Newton's method safeguarded by bisection on a maintained bracket, to
 * |sum - 1| <= 1e-15 or a bracket narrower than 1e-16. The result is rescaled to remove residue.
 * (For two outcomes Shin coincides with the additive method; the tests use this as a check.)
 */
function shin(implied: readonly number[], s: number): number[] {
  const n = implied.length;
  let lo = 0;
  let hi = 1;
  let z = 0;
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    shinSum(implied, s, z);
    const g = SHIN_SCRATCH.sum - 1;
    if (Math.abs(g) <= 1e-15) break;
    if (g > 0) lo = z;
    else hi = z;
    let next = z - g / SHIN_SCRATCH.deriv;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (hi - lo <= 1e-16) break;
    z = next;
  }
  const den = 2 * (1 - z);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const p = implied[i] as number;
    out[i] = (Math.sqrt(z * z + (4 * (1 - z) * p * p) / s) - z) / den;
  }
  return renormaliseInPlace(out);
}

function elementwiseMin(a: readonly number[], b: readonly number[], c: readonly number[], d: readonly number[]): number[] {
  const out = new Array<number>(a.length);
  for (let i = 0; i < a.length; i++) {
    out[i] = Math.min(a[i] as number, b[i] as number, c[i] as number, d[i] as number);
  }
  return out;
}

/**
 * Fair probabilities of one book's complete market by the chosen method (see module doc for input
 * validation). With S = sum(implied), n = implied.length:
 * - multiplicative: p_i / S.
 * - additive: p_i - (S - 1)/n; falls back to multiplicative if any result would be <= 0.
 * - power: p_i^k with sum(p_i^k) = 1 (k >= 1, Newton, tolerance 1e-15).
 * - shin: Shin (1993) fair_i = (sqrt(z^2 + 4(1 - z) p_i^2/S) - z)/(2(1 - z)), z solved numerically.
 * - worst_case: for each outcome, min over the four methods above: the most conservative (lowest)
 *   fair probability for anyone betting that outcome. These do NOT sum to 1 (sum <= 1).
 * The four exact methods return probabilities in (0, 1) that sum to 1 (within 1e-12) and preserve
 * the order of the inputs.
 * @throws RangeError on invalid input (see module doc) or an unknown method.
 */
export function devig(implied: readonly number[], method: DevigMethod): number[] {
  const s = validatedSum(implied);
  if (s <= 1) return normalised(implied, s);
  switch (method) {
    case 'multiplicative':
      return multiplicative(implied, s);
    case 'additive':
      return additive(implied, s);
    case 'power':
      return power(implied);
    case 'shin':
      return shin(implied, s);
    case 'worst_case':
      return elementwiseMin(multiplicative(implied, s), additive(implied, s), power(implied), shin(implied, s));
    default:
      throw new RangeError(`Unknown devig method: ${String(method)}`);
  }
}

/**
 * All five methods at once, computing each exact method once (worst_case = elementwise min of the
 * other four). Same validation as {@link devig}.
 */
export function devigAll(implied: readonly number[]): Record<DevigMethod, number[]> {
  const s = validatedSum(implied);
  if (s <= 1) {
    const flat = normalised(implied, s);
    return {
      multiplicative: flat,
      additive: flat.slice(),
      power: flat.slice(),
      shin: flat.slice(),
      worst_case: flat.slice(),
    };
  }
  const m = multiplicative(implied, s);
  const a = additive(implied, s);
  const p = power(implied);
  const sh = shin(implied, s);
  return { multiplicative: m, additive: a, power: p, shin: sh, worst_case: elementwiseMin(m, a, p, sh) };
}

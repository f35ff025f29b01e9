/**
 * Probability mass functions over consecutive integers.
 *
 * `Pmf` is an immutable, dense representation: probabilities for the integers min, min+1, ..., max
 * stored in a Float64Array. Every public constructor normalises the weights, truncates the
 * tails (removing at most `tailMass`, default 1e-9, in total: at most half from each end) and
 * renormalises, so the stored probabilities sum to 1 up to floating-point rounding (~1e-15).
 * Instances are safe to cache and share.
 */

/** Default total tail mass removed by truncation. */
export const TAIL_MASS = 1e-9;
/** Largest support width accepted (guards against sparse maps with absurd keys). */
const MAX_SUPPORT = 1_000_000;

/** Anything accepted where a distribution over integer outcomes is expected. */
export type PmfLike = Pmf | ReadonlyMap<number, number>;

export class Pmf {
  /** Smallest integer with stored (possibly zero) probability. */
  readonly min: number;
  private readonly probs: Float64Array;

  private constructor(min: number, probs: Float64Array) {
    this.min = min;
    this.probs = probs;
  }

  /**
   * Builds a Pmf from non-negative weights for the integers min, min+1, ...:
   * p_k = w_k / sum(w), then tails are trimmed (cumulative trimmed mass from each end <= tailMass/2)
   * and the remainder renormalised.
   * @throws RangeError for a non-integer min, negative or non-finite weights, or a zero total.
   */
  static fromWeights(min: number, weights: ArrayLike<number>, tailMass: number = TAIL_MASS): Pmf {
    if (!Number.isSafeInteger(min)) throw new RangeError(`Pmf: min must be an integer, got ${min}`);
    if (!(tailMass >= 0 && tailMass < 1)) throw new RangeError(`Pmf: tailMass ${tailMass} not in [0, 1)`);
    const n = weights.length;
    let total = 0;
    for (let i = 0; i < n; i++) {
      const w = weights[i] as number;
      if (!Number.isFinite(w) || w < 0) throw new RangeError(`Pmf: invalid weight ${w} at ${min + i}`);
      total += w;
    }
    if (!(total > 0) || !Number.isFinite(total)) throw new RangeError('Pmf: weights must have a positive finite sum');

    const half = (tailMass / 2) * total;
    let lo = 0;
    let cut = 0;
    while (lo < n - 1 && cut + (weights[lo] as number) <= half) cut += weights[lo++] as number;
    let hi = n - 1;
    cut = 0;
    while (hi > lo && cut + (weights[hi] as number) <= half) cut += weights[hi--] as number;

    let kept = 0;
    for (let i = lo; i <= hi; i++) kept += weights[i] as number;
    const probs = new Float64Array(hi - lo + 1);
    for (let i = lo; i <= hi; i++) probs[i - lo] = (weights[i] as number) / kept;
    return new Pmf(min + lo, probs);
  }

  /**
   * Builds a Pmf from a map integer outcome -> weight (weights need not sum to 1; they are
   * normalised and tail-trimmed like {@link Pmf.fromWeights}).
   * @throws RangeError for non-integer keys, invalid weights, an empty map or a support wider than 1e6.
   */
  static fromMap(map: ReadonlyMap<number, number>, tailMass: number = TAIL_MASS): Pmf {
    if (map.size === 0) throw new RangeError('Pmf: empty map');
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const k of map.keys()) {
      if (!Number.isSafeInteger(k)) throw new RangeError(`Pmf: outcome ${k} is not an integer`);
      if (k < min) min = k;
      if (k > max) max = k;
    }
    if (max - min + 1 > MAX_SUPPORT) throw new RangeError('Pmf: support too wide');
    const w = new Float64Array(max - min + 1);
    for (const [k, v] of map) w[k - min] = v;
    return Pmf.fromWeights(min, w, tailMass);
  }

  /** Returns the argument if it is a Pmf, otherwise converts a map with {@link Pmf.fromMap} (no trimming). */
  static from(pmf: PmfLike): Pmf {
    return pmf instanceof Pmf ? pmf : Pmf.fromMap(pmf, 0);
  }

  /** Largest integer with stored (possibly zero) probability. */
  get max(): number {
    return this.min + this.probs.length - 1;
  }

  /** P(X = k); 0 outside the support and for non-integer k. */
  p(k: number): number {
    const i = k - this.min;
    if (!Number.isInteger(i) || i < 0 || i >= this.probs.length) return 0;
    return this.probs[i] as number;
  }

  /** Sum of all stored probabilities (1 up to rounding). */
  total(): number {
    let s = 0;
    for (let i = 0; i < this.probs.length; i++) s += this.probs[i] as number;
    return s;
  }

  /** E[X] = sum k P(k). */
  mean(): number {
    let s = 0;
    for (let i = 0; i < this.probs.length; i++) s += (this.min + i) * (this.probs[i] as number);
    return s;
  }

  /** Var[X] = sum (k - E[X])^2 P(k). */
  variance(): number {
    const m = this.mean();
    let s = 0;
    for (let i = 0; i < this.probs.length; i++) {
      const d = this.min + i - m;
      s += d * d * (this.probs[i] as number);
    }
    return s;
  }

  /** P(X <= x) for real x. */
  cdf(x: number): number {
    let s = 0;
    const last = Math.min(this.probs.length - 1, Math.floor(x) - this.min);
    for (let i = 0; i <= last; i++) s += this.probs[i] as number;
    return s;
  }

  /** P(lo <= X <= hi) for integers lo <= hi (0 if hi < lo). */
  between(lo: number, hi: number): number {
    const a = Math.max(0, Math.ceil(lo) - this.min);
    const b = Math.min(this.probs.length - 1, Math.floor(hi) - this.min);
    let s = 0;
    for (let i = a; i <= b; i++) s += this.probs[i] as number;
    return s;
  }

  /** Calls fn(k, P(k)) for every k in [min, max] in increasing order (zeros included). */
  forEach(fn: (k: number, p: number) => void): void {
    for (let i = 0; i < this.probs.length; i++) fn(this.min + i, this.probs[i] as number);
  }

  /** Copy as a Map (zero-probability entries omitted). */
  toMap(): Map<number, number> {
    const m = new Map<number, number>();
    this.forEach((k, p) => {
      if (p > 0) m.set(k, p);
    });
    return m;
  }

  /** Copy of the probabilities for min..max. */
  toArray(): number[] {
    return Array.from(this.probs);
  }
}

/**
 * The partition point of a sorted array: the first index whose value is not `before` the sought one, for a
 * predicate true on a prefix of the array and false on the rest (`(v) => v < x` finds the first value at or above
 * x, `(v) => v <= x` the first above it). `values.length` when the predicate holds throughout.
 */
export function partitionPoint<T>(values: readonly T[], before: (v: T) => boolean): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(values[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Percentiles of a small list of timings (the sequential bulk requests): nearest rank, so the
// figure is always a time that was actually measured, never an interpolation between two.

/** The p-th percentile (0 < p <= 100) of `values`; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? NaN;
}

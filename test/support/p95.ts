/** The 95th percentile of `values` (the nearest rank; 0 for none): the latency the fair-share tests bound. */
export function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
}

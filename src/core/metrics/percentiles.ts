/** Latency percentiles. Pure. */

/**
 * The p-th percentile (0..100) by the nearest-rank method: the smallest value with at least p% of
 * the values at or below it. Nearest-rank, not interpolation, so the figure reported is a latency
 * that was actually measured. 0 for an empty list.
 */
export function percentile(values: readonly number[], p: number): number {
	if (values.length === 0) return 0;
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.max(1, Math.ceil((Math.min(100, Math.max(0, p)) / 100) * sorted.length));
	return sorted[rank - 1]!;
}

/** p50 and p95 of a list, the pair every latency row reports. */
export function latencySummary(values: readonly number[]): { p50: number; p95: number } {
	return { p50: percentile(values, 50), p95: percentile(values, 95) };
}

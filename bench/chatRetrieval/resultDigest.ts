import type { WorkspaceRetrieval } from '../../src/retrieval/workspaceRetrieval';

/**
 * What a retrieval returned, without its timings: the ranked pool (ids, fused and rerank scores),
 * the hits, the evidence chosen and every trace step with its `ms` fields removed. Two runs of
 * the same queries with the same digest returned the same results (a speed change must not move it).
 */
export function resultDigest(r: WorkspaceRetrieval): string {
	const noMs = (v: unknown): unknown =>
		Array.isArray(v)
			? v.map(noMs)
			: v && typeof v === 'object'
				? Object.fromEntries(
						Object.entries(v)
							.filter(([k]) => k !== 'ms')
							.map(([k, x]) => [k, noMs(x)]),
					)
				: v;
	return JSON.stringify({
		ranked: r.ranked.map((h) => [h.chunk_id, h.fused, h.rerank]),
		hits: r.hits.map((h) => h.chunk_id),
		evidence: noMs(r.evidence.selected),
		steps: noMs(r.steps),
	});
}

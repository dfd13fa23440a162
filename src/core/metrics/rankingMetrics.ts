/**
 * Ranking metrics for retrieval evaluation, with binary relevance (an id is relevant or not).
 * Pure: ids in, numbers out. A query with no relevant ids scores 0 everywhere (it cannot be
 * answered), rather than being dropped, so a bad labels file cannot flatter a run.
 */

/** 1 / rank of the first relevant id within the first `k`, else 0. */
export function reciprocalRankAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
	const n = Math.min(k, ranked.length);
	for (let i = 0; i < n; i++) if (relevant.has(ranked[i]!)) return 1 / (i + 1);
	return 0;
}

/** Share of the relevant ids found within the first `k` (duplicates in `ranked` count once). */
export function recallAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
	if (relevant.size === 0) return 0;
	const found = new Set(ranked.slice(0, k).filter((id) => relevant.has(id)));
	return found.size / relevant.size;
}

/**
 * Normalised discounted cumulative gain at `k`, binary gains, discount log2(rank + 1). The ideal
 * ranking puts min(|relevant|, k) relevant ids first. A repeated relevant id gains only once.
 */
export function ndcgAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
	const seen = new Set<string>();
	let dcg = 0;
	ranked.slice(0, k).forEach((id, i) => {
		if (relevant.has(id) && !seen.has(id)) {
			seen.add(id);
			dcg += 1 / Math.log2(i + 2);
		}
	});
	let ideal = 0;
	for (let i = 0; i < Math.min(relevant.size, k); i++) ideal += 1 / Math.log2(i + 2);
	return ideal === 0 ? 0 : dcg / ideal;
}

/** One query's ranking and its gold ids. */
export interface RankedQuery {
	ranked: readonly string[];
	relevant: readonly string[];
}

/** Mean metrics over queries: MRR@10, recall@1/5/10, nDCG@10 (the table). */
export interface RankingSummary {
	queries: number;
	mrr_at_10: number;
	recall_at_1: number;
	recall_at_5: number;
	recall_at_10: number;
	ndcg_at_10: number;
}

/** Averages every metric over `queries`; all zeros for an empty list. */
export function summarizeRankings(queries: readonly RankedQuery[]): RankingSummary {
	const sums = { mrr: 0, r1: 0, r5: 0, r10: 0, ndcg: 0 };
	for (const q of queries) {
		const rel = new Set(q.relevant);
		sums.mrr += reciprocalRankAt(q.ranked, rel, 10);
		sums.r1 += recallAt(q.ranked, rel, 1);
		sums.r5 += recallAt(q.ranked, rel, 5);
		sums.r10 += recallAt(q.ranked, rel, 10);
		sums.ndcg += ndcgAt(q.ranked, rel, 10);
	}
	const n = queries.length;
	const mean = (x: number) => (n === 0 ? 0 : x / n);
	return {
		queries: n,
		mrr_at_10: mean(sums.mrr),
		recall_at_1: mean(sums.r1),
		recall_at_5: mean(sums.r5),
		recall_at_10: mean(sums.r10),
		ndcg_at_10: mean(sums.ndcg),
	};
}

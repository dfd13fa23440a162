/**
 * Weighted reciprocal rank fusion (seed 000 "Decision 3"): score(d) = Σ_arm w_arm / (k + rank).
 * Ranks, not raw scores, are fused, so a ts_rank_cd/BM25 value and a cosine never have to share
 * a scale; both arms' rank and raw score are kept for the trace.
 */
import type { ArmScore } from '../core/trace';

/** One ranked list from one arm: item keys in rank order with their raw scores. */
export interface RankedList<K> {
	weight: number;
	items: readonly { key: K; score: number }[];
}

/** A fused item with each arm's rank and raw score (null when that arm did not return it). */
export interface Fused<K> {
	key: K;
	fused: number;
	arms: (ArmScore | null)[];
}

/** Fuses ranked lists; ties break on the better best rank, then on first appearance. */
export function reciprocalRankFusion<K>(lists: readonly RankedList<K>[], rrfK: number): Fused<K>[] {
	const byKey = new Map<K, Fused<K>>();
	lists.forEach((list, armIndex) => {
		list.items.forEach((item, i) => {
			let f = byKey.get(item.key);
			if (!f) {
				f = { key: item.key, fused: 0, arms: lists.map(() => null) };
				byKey.set(item.key, f);
			}
			f.fused += list.weight / (rrfK + i + 1);
			f.arms[armIndex] = { rank: i + 1, score: item.score };
		});
	});
	const bestRank = (f: Fused<K>) => Math.min(...f.arms.map((a) => a?.rank ?? Infinity));
	return [...byKey.values()].sort((a, b) => b.fused - a.fused || bestRank(a) - bestRank(b));
}

/**
 * Re-scores (query, passage) pairs for the precision stage (seed 000). A reranker that cannot
 * load degrades to passthrough: retrieval order is kept and the trace says why.
 */
import type { ArmScore } from '../core/trace';

export interface RerankResult {
	/**
	 * One score per passage, higher is better, or null in passthrough. A calibrated reranker's
	 * scores are probability-like relevance in 0..1 (sigmoid of the cross-encoder logit); an
	 * order-only reranker's (`calibrated: false`) only rank the passages.
	 */
	scores: (number | null)[];
	status: 'model' | 'passthrough';
	/** Why passthrough was taken (model missing, failed to load, cancelled…). */
	reason?: string;
	/** Raw cross-encoder logits (same order as `scores`) when a model ran; kept for the trace. */
	logits?: number[];
	/** Wall time of the rerank call in milliseconds (load included on the first call). */
	ms?: number;
	/**
	 * false: the scores only order the passages (not probabilities), so the evidence stage keeps
	 * its cosine floors and abstention basis. Absent or true: calibrated probabilities.
	 */
	calibrated?: boolean;
}

/** What the first stage knew about the passages, for rerankers that use it (others ignore it). */
export interface RerankContext {
	/** Per passage (same order): its full-text and vector arm rank and score (`hit.arms`). */
	arms: readonly { fts: ArmScore | null; vector: ArmScore | null }[];
	/** The embedder whose cosines are in `arms[i].vector` (null: no vector arm ran). */
	embedderId: string | null;
	/** A query of more whitespace-separated words than this is "long" (`rrf_long_query_words`). */
	longQueryWords?: number;
}

export interface Reranker {
	readonly id: string;
	rerank(
		query: string,
		passages: readonly string[],
		signal?: AbortSignal,
		context?: RerankContext,
	): Promise<RerankResult>;
}

/**
 * Re-scores (query, passage) pairs for the precision stage (seed 000). A reranker that cannot
 * load degrades to passthrough: retrieval order is kept and the trace says why.
 */
export interface RerankResult {
	/** Probability-like relevance in 0..1 (sigmoid of the cross-encoder logit), or null in passthrough. */
	scores: (number | null)[];
	status: 'model' | 'passthrough';
	/** Why passthrough was taken (model missing, failed to load, cancelled…). */
	reason?: string;
	/** Raw cross-encoder logits (same order as `scores`) when a model ran; kept for the trace. */
	logits?: number[];
	/** Wall time of the rerank call in milliseconds (load included on the first call). */
	ms?: number;
}

export interface Reranker {
	readonly id: string;
	rerank(query: string, passages: readonly string[], signal?: AbortSignal): Promise<RerankResult>;
}

/**
 * How many whitespace-separated words a query has: what `rrf_long_query_words` counts, so hybrid
 * fusion and the built-in reranker agree on which queries are "long".
 */
export function queryWordCount(query: string): number {
	return query.split(/\s+/).filter(Boolean).length;
}

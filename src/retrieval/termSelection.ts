/**
 * The full-text query's terms for a search, chosen by the index's own statistics when the query is
 * long (a pasted bug report, an environment dump): over `fts_max_query_terms` salient terms, one
 * batched lookup of their document frequencies (term_df) keeps the terms of largest BM25 query
 * weight — how often the report says the term × its idf — among those the index holds at all
 * (queryTerms.ts selectByWeight). At or under the cap nothing is looked up and
 * the terms are salientTerms' — a chat-sized question searches exactly what it did before.
 */
import type { Thresholds } from '../core/thresholds';
import type { Queryable } from '../store/queryable';
import { termDocFrequencies, type SearchScope } from '../store/searchQueries';
import { allSalientTerms, ftsQueryText, queryTermCounts, selectByWeight } from './queryTerms';

/** The salient terms the full-text arms search for `query` within `scope`. */
export async function selectQueryTerms(
	db: Queryable,
	scope: SearchScope,
	query: string,
	t: Pick<Thresholds, 'fts_max_query_terms' | 'fts_term_lookup_max'>,
): Promise<string[]> {
	const max = t.fts_max_query_terms;
	const all = allSalientTerms(query);
	if (all.length <= max) return all;
	const pool = all.slice(0, Math.max(max, t.fts_term_lookup_max));
	const { n, dfs } = await termDocFrequencies(
		db,
		scope,
		pool.map((term) => ftsQueryText([term])),
	);
	const counts = queryTermCounts(query);
	// The term's BM25 weight in the whole report: how often the report says it × the arms' idf.
	const weights = pool.map((term, i) =>
		dfs[i] > 0 ? (0 * (counts.get(term.toLowerCase()) ?? 1) + 1) * Math.log(1 + (n - dfs[i] + 0.5) / (dfs[i] + 0.5)) : 0,
	);
	return selectByWeight(pool, weights, max);
}

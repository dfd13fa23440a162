import type { ThresholdSection } from './spec';

/** Hybrid search and fusion (seed 000 "Decision 3", seed 002). Owned by src/retrieval. */
export const RETRIEVAL_THRESHOLDS = {
	rrf_k: {
		default: 60,
		min: 1,
		max: 1000,
		integer: true,
		rationale: 'Reciprocal rank fusion constant (Cormack et al.; seed 000).',
	},
	arm_fetch_multiplier: {
		default: 3,
		min: 1,
		max: 20,
		integer: true,
		rationale: 'Each arm fetches this many times k before fusion (seed 000).',
	},
	rrf_weight_fts: { default: 1, min: 0, max: 10, rationale: 'Weight of the full-text arm in RRF.' },
	rrf_weight_vector: { default: 1, min: 0, max: 10, rationale: 'Weight of the vector arm in RRF.' },
	rrf_long_query_words: {
		default: 30,
		min: 1,
		max: 10000,
		integer: true,
		rationale:
			'A query of more words than this (a pasted issue, a stack trace) fuses the vector arm with rrf_weight_vector_long_query instead. CoSQA web queries have at most 14 words; the SWE-bench Lite django reports at least 41 (median 121).',
	},
	rrf_weight_vector_long_query: {
		default: 0.25,
		min: 0,
		max: 10,
		rationale:
			'Vector-arm weight for long queries: one mean-pooled vector of a long report is dominated by its common words, while BM25 keeps the rare identifiers. Django localisation (114 reports, built-in model, best chunk per file) R@1/5/10: full-text 0.456/0.711/0.807; hybrid at weight 1: 0.474/0.675/0.746; 0.5: 0.491/0.719/0.772; 0.25: 0.474/0.702/0.798.',
	},
	fts_long_query_terms: {
		default: 8,
		min: 1,
		max: 200,
		integer: true,
		rationale:
			'A query with more salient terms than this is "long" (an issue, a stack trace): the full-text arm ORs its terms, since an AND of them matches nothing (seed 000 plainto_tsquery pitfall).',
	},
	fts_max_query_terms: {
		default: 32,
		min: 1,
		max: 500,
		integer: true,
		rationale:
			'At most this many salient terms go into the full-text query (identifiers first), bounding its cost on long queries.',
	},
	bm25_common_term_df: {
		default: 0.03,
		min: 0,
		max: 1,
		rationale:
			'A query term found in more than this fraction of chunks only scores candidates found by the rarer terms (it still adds to their score); the rarest term always finds candidates. Bounds BM25 cost on common words. CoSQA dev: 0.03 with 300 candidates keeps MRR@10 (0.327) at a fraction of the time of 0.1/1000; 0.01/200 loses 0.025.',
	},
	bm25_max_candidates: {
		default: 300,
		min: 10,
		max: 1000000,
		integer: true,
		rationale:
			'Each selective term contributes at most this many candidates (its postings with the highest tf/length, read from an impact-ordered index), which bounds BM25 work on common words; exact whenever a term matches fewer chunks.',
	},
	memory_merge_cosine: {
		default: 0.92,
		min: 0,
		max: 1,
		rationale:
			'A new research memory whose cosine to a current one is at least this (semantic embedder only) is merged into it, not stacked; identical normalised text always merges.',
	},
} satisfies ThresholdSection;

import type { ThresholdSection } from './spec';

/** Hybrid search and fusion (seed 000 "Decision 3", seed 002). Owned by src/retrieval. */
export const RETRIEVAL_THRESHOLDS = {
	rrf_k: { default: 60, min: 1, max: 1000, integer: true, rationale: 'Reciprocal rank fusion constant (Cormack et al.; seed 000).' },
	arm_fetch_multiplier: {
		default: 3,
		min: 1,
		max: 20,
		integer: true,
		rationale: 'Each arm fetches this many times k before fusion (seed 000).',
	},
	rrf_weight_fts: { default: 1, min: 0, max: 10, rationale: 'Weight of the full-text arm in RRF.' },
	rrf_weight_vector: { default: 1, min: 0, max: 10, rationale: 'Weight of the vector arm in RRF.' },
} satisfies ThresholdSection;

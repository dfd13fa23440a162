import type { ThresholdSection } from './spec';

/**
 * The evidence stage after ranking (seed 002 "retrieve wide, rank precise", R7; issue 4).
 * Owned by src/retrieval/evidence. Cosine floors are NOT here: they come from the policy (MiniLM
 * cosines, seed 000) and are mapped to the active embedder by its calibration table
 * (src/retrieval/evidence/calibration.ts). The rerank floors below are cross-encoder probabilities
 * (sigmoid of the ms-marco logit). None of these could be tuned on real weights on the build
 * machine (no model download possible): they are principled starting points, to be re-measured.
 */
export const EVIDENCE_THRESHOLDS = {
	rerank_max_candidates: {
		default: 150,
		min: 1,
		max: 500,
		integer: true,
		rationale:
			'Largest candidate pool sent to the cross-encoder (seed 002 R2: wide_k = 150); beyond it candidates keep first-stage order.',
	},
	evidence_rerank_floor_workspace: {
		default: 0.1,
		min: 0,
		max: 1,
		rationale:
			'Reranker probability a workspace chunk needs (logit ≥ −2.2). Lenient: code is outside ms-marco training text, so low-but-positive evidence is kept.',
	},
	evidence_rerank_floor_research: {
		default: 0.3,
		min: 0,
		max: 1,
		rationale:
			'Prior Q&A and decisions must match closely to be reused (mirrors the seed’s strict 0.65 cosine floor for QA).',
	},
	evidence_rerank_floor_profile: {
		default: 0.2,
		min: 0,
		max: 1,
		rationale: 'A stored user fact is injected only when it plausibly answers the question.',
	},
	evidence_rerank_strong: {
		default: 0.5,
		min: 0,
		max: 1,
		rationale:
			'A top hit at or above this probability is never "weak": the margin rule does not apply (the model itself judges it more likely relevant than not).',
	},
	evidence_rerank_margin: {
		default: 0.1,
		min: 0,
		max: 1,
		rationale:
			'A weak top hit must beat the runner-up by this probability, else the query is ambiguous → clarify (seed 003: abstain rather than answer from noise).',
	},
	evidence_cosine_weak_band: {
		default: 0.1,
		min: 0,
		max: 1,
		rationale:
			'Without a reranker, a top cosine less than this above the floor counts as weak (MiniLM cosine units, calibrated per embedder).',
	},
	evidence_cosine_margin: {
		default: 0.03,
		min: 0,
		max: 1,
		rationale:
			'A weak top cosine must beat the runner-up by this much; MiniLM cosines of unrelated chunks bunch within ~0.05.',
	},
	evidence_dup_jaccard: {
		default: 0.8,
		min: 0,
		max: 1,
		rationale:
			'Word-trigram Jaccard at or above which a lower-ranked chunk is a near-duplicate (copied code, re-ingested notes).',
	},
	evidence_dup_line_overlap: {
		default: 0.5,
		min: 0,
		max: 1,
		rationale:
			'Two chunks of one file overlapping by this share of the shorter one’s lines repeat each other (overlapping chunk windows).',
	},
	evidence_max_per_file: {
		default: 2,
		min: 1,
		max: 50,
		integer: true,
		rationale:
			'At most this many chunks per file, so one long file cannot crowd out the other sources (diversity, seed 002 MMR intent).',
	},
	evidence_token_budget: {
		default: 2000,
		min: 0,
		max: 100000,
		integer: true,
		rationale:
			'Tokens for all evidence together: k = 4 chunks of ~400 tokens plus headroom; stay below the window (seed 002: the optimal budget, not the maximum).',
	},
	evidence_chars_per_token: {
		default: 4,
		min: 1,
		max: 10,
		rationale:
			'Token estimate when a chunk carries no count: ~4 characters per token for English and code BPE vocabularies.',
	},
} satisfies ThresholdSection;

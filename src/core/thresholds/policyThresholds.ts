import type { ThresholdSection } from './spec';

/** Policy engine and behaviour engine (seed 000). Owned by src/core/policy and src/core/behavior. */
export const POLICY_THRESHOLDS = {
	rag_k: {
		default: 4,
		min: 0,
		max: 50,
		integer: true,
		rationale: 'Workspace chunks per turn (seed 000 default k = 4).',
	},
	qa_k: { default: 4, min: 0, max: 50, integer: true, rationale: 'Research-memory rows per turn (seed 000).' },
	floor_continuation: {
		default: 0.35,
		min: 0,
		max: 1,
		rationale: 'A continuation may accept weaker chunks: the conversation itself is context (seed 000, MiniLM cosine).',
	},
	floor_general: { default: 0.45, min: 0, max: 1, rationale: 'A general question needs stronger evidence (seed 000).' },
	floor_research: {
		default: 0.65,
		min: 0,
		max: 1,
		rationale: 'Prior Q&A must be close to be worth reusing (seed 000).',
	},
	floor_workspace_question: {
		default: 0,
		min: 0,
		max: 1,
		rationale: 'An explicit question about the code base takes the best chunks whatever their score.',
	},
	// Behaviour engine: volume modulation. "reduce" and "boost" must change numbers, not just labels.
	reduce_k_factor: {
		default: 0.5,
		min: 0,
		max: 1,
		rationale:
			'Under "reduce" (rapid fire, repetition) k is multiplied by this (rounded, never below 1): the conversation window already holds the context.',
	},
	reduce_floor_delta: {
		default: 0.1,
		min: 0,
		max: 1,
		rationale:
			'Under "reduce" every relevance floor rises by this much (capped at 1): take fewer chunks, and only strong ones.',
	},
	boost_k_factor: {
		default: 2,
		min: 1,
		max: 10,
		rationale:
			'Under "boost" (exploratory, frustration) k is multiplied by this: widen the search when the user explores or the last answer failed.',
	},
	boost_floor_delta: {
		default: 0.1,
		min: 0,
		max: 1,
		rationale: 'Under "boost" every relevance floor drops by this much (never below 0).',
	},
	rapid_fire_window_ms: {
		default: 30000,
		min: 0,
		max: 600000,
		integer: true,
		rationale: 'User turns closer together than this window count towards rapid fire.',
	},
	rapid_fire_min_turns: {
		default: 3,
		min: 2,
		max: 50,
		integer: true,
		rationale: 'This many user turns (the current one included) inside the window make a rapid-fire exchange.',
	},
	repetition_similarity: {
		default: 0.8,
		min: 0,
		max: 1,
		rationale: 'Word-set Jaccard similarity to an earlier user turn at or above which the turn is a repetition.',
	},
	repetition_lookback: {
		default: 10,
		min: 0,
		max: 100,
		integer: true,
		rationale: 'How many earlier user turns are compared for repetition (bounds the cost per decision).',
	},
	repetition_min_words: {
		default: 3,
		min: 1,
		max: 50,
		integer: true,
		rationale: 'Shorter turns ("ok", "thanks") repeat naturally and are never counted as repetitions.',
	},
	frustration_caps_ratio: {
		default: 0.7,
		min: 0,
		max: 1,
		rationale: 'Share of upper-case letters at or above which a turn counts as shouting (frustration).',
	},
	frustration_caps_min_letters: {
		default: 8,
		min: 1,
		max: 200,
		integer: true,
		rationale: 'Shouting needs at least this many letters, so "OK" or "CI" alone is not frustration.',
	},
	clarify_min_chars: {
		default: 3,
		min: 0,
		max: 50,
		integer: true,
		rationale:
			'A non-social turn shorter than this has nothing to resolve and is answered with a clarifying question (seed 001).',
	},
	generic_thread_turns: {
		default: 4,
		min: 1,
		max: 20,
		integer: true,
		rationale:
			'How many earlier user turns the router walks back to find the generic question a follow-up continues; beyond that the thread is not clearly generic and the turn retrieves.',
	},
} satisfies ThresholdSection;

import type { ThresholdSection } from './spec';

/** Policy engine and behaviour engine (seed 000). Owned by src/core/policy. */
export const POLICY_THRESHOLDS = {
	rag_k: { default: 4, min: 0, max: 50, integer: true, rationale: 'Workspace chunks per turn (seed 000 default k = 4).' },
	qa_k: { default: 4, min: 0, max: 50, integer: true, rationale: 'Research-memory rows per turn (seed 000).' },
	floor_continuation: {
		default: 0.35,
		min: 0,
		max: 1,
		rationale: 'A continuation may accept weaker chunks: the conversation itself is context (seed 000, MiniLM cosine).',
	},
	floor_general: { default: 0.45, min: 0, max: 1, rationale: 'A general question needs stronger evidence (seed 000).' },
	floor_research: { default: 0.65, min: 0, max: 1, rationale: 'Prior Q&A must be close to be worth reusing (seed 000).' },
	floor_workspace_question: {
		default: 0,
		min: 0,
		max: 1,
		rationale: 'An explicit question about the code base takes the best chunks whatever their score.',
	},
} satisfies ThresholdSection;

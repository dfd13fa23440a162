import type { ThresholdSection } from './spec';

/**
 * Prompt assembly and generation (issue 6). Owned by src/chat/turnPipeline.ts and
 * src/generation. Token counts are estimates (~4 characters per token) unless a tokenizer is given.
 */
export const GENERATION_THRESHOLDS = {
	prompt_evidence_budget_tokens: {
		default: 3000,
		min: 0,
		max: 100_000,
		integer: true,
		rationale:
			'Evidence tokens a prompt may carry: six ~400-token chunks plus memories, well inside an 8k-context local model with room for history and the answer; beyond it evidence is dropped (reason "budget", shown in the trace).',
	},
	conversation_window_turns: {
		default: 6,
		min: 0,
		max: 50,
		integer: true,
		rationale:
			'Earlier user/assistant messages sent to the model with each turn (three exchanges): enough to resolve "it" and "the function", small enough not to crowd out evidence (lost-in-the-middle).',
	},
	generation_max_tokens: {
		default: 1024,
		min: 16,
		max: 32_000,
		integer: true,
		rationale:
			'Longest reply requested from a model: a code answer with an example fits; a runaway stream is cut (finish "length").',
	},
} satisfies ThresholdSection;

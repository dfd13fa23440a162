import type { ThresholdSection } from './spec';

/**
 * Workspace instruction files (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md,
 * .cursor/rules/*.mdc, .continue/rules/*): how much of them is read and how many of their
 * sections a turn may carry. Owned by src/indexing/instructionFiles.ts and
 * src/retrieval/instructionRecall.ts.
 */
export const INSTRUCTION_FILE_THRESHOLDS = {
	instruction_file_max_bytes: {
		default: 32768,
		min: 1024,
		max: 1048576,
		integer: true,
		rationale:
			'Bytes read from one instruction file; the rest is left out with a note in its last section. Hand-written agent instructions are a few KB (Copilot asks for about two pages); 32 KB is ten times that and still far below one prompt budget.',
	},
	instruction_section_max_chars: {
		default: 2000,
		min: 200,
		max: 20000,
		integer: true,
		rationale:
			'Longest section or rule kept for the prompt (~500 tokens); a longer one is cut with a note, so one runaway section cannot take the standing-instruction budget of a turn.',
	},
	instruction_sections_per_turn: {
		default: 4,
		min: 0,
		max: 50,
		integer: true,
		rationale:
			'Most instruction-file sections applied to one turn (alwaysApply rules first, then glob matches, then the most similar): the point of gating them is not to paste the whole file into every prompt.',
	},
} satisfies ThresholdSection;

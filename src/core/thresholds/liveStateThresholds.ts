import type { ThresholdSection } from './spec';

/**
 * Live editor state on `tool` turns (issue 14). Owned by src/chat/liveState (gathering) and
 * src/extension/liveState (the VS Code sources). Time budgets are per source and run in parallel,
 * so a turn waits at most the largest budget; sizes bound what one source may put in the prompt,
 * which still packs it inside `prompt_evidence_budget_tokens`.
 */
export const LIVE_STATE_THRESHOLDS = {
	live_source_budget_ms: {
		default: 500,
		min: 10,
		max: 10_000,
		integer: true,
		rationale:
			'Longest wait for one live-state source (diagnostics, editor, git, symbols, terminal): a language server still starting or a huge git diff must not hold the reply; past it the source is "timed out" in the trace and the turn goes on.',
	},
	live_source_max_items: {
		default: 20,
		min: 1,
		max: 500,
		integer: true,
		rationale:
			'Items one source may return (diagnostics, changed files, symbol locations): the active file comes first, so the first 20 carry what the question is about; the trace says how many were left out.',
	},
	live_source_max_chars: {
		default: 6000,
		min: 200,
		max: 200_000,
		integer: true,
		rationale:
			'Characters one source may return in total (~1,500 tokens): a diff or a selection fits, yet five sources together stay near the evidence budget (3,000 tokens) that prompt assembly enforces anyway.',
	},
	live_item_max_chars: {
		default: 2000,
		min: 100,
		max: 100_000,
		integer: true,
		rationale:
			'Characters of one item (a file diff, a selection): a long diff is cut with a visible note so other files still fit under the source cap.',
	},
} satisfies ThresholdSection;

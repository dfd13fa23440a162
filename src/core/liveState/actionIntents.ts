/**
 * Requests to do something ("run the unit tests", "undo that change", "commit this", "fetch and
 * rebuild", "apply the fix"), recognised by rules. A recognised request becomes a proposal the
 * user has to click (src/chat/liveState/actionProposal.ts); nothing here or downstream runs it by
 * itself. Pure.
 */
import type { LiveSource } from './liveSources';

export const ACTION_KINDS = ['run_tests', 'undo', 'commit', 'stage', 'fetch_rebuild', 'build', 'apply_fix'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export interface ActionIntent {
	kind: ActionKind;
	/** The words that matched, for the trace. */
	match: string;
	/** Which test suite the words name ("unit", "integration", "e2e"), if any. */
	suite: string | null;
	/** Live state the proposal is built from (what a commit or a revert would touch, the errors a fix fixes). */
	needs: LiveSource[];
}

// Imperatives only (at the start, or after "please", "can you", "now"): "why do the tests fail?" asks, it does not request a run.
const LEAD = String.raw`(?:^|[.!?;]\s+|\b(?:please|pls|can you|could you|would you|now|then|and|go ahead and|let'?s|lets)\s+)`;
const PATTERNS: ReadonlyArray<{ kind: ActionKind; re: RegExp; needs: LiveSource[] }> = [
	{
		kind: 'fetch_rebuild',
		re: new RegExp(
			`${LEAD}(?:git )?(?:fetch|pull)(?: (?:the )?(?:latest|changes|origin|upstream))?,? (?:and|then|&&) (?:re-?build|build|compile)\\b`,
			'i',
		),
		needs: ['git'],
	},
	{
		kind: 'run_tests',
		re: new RegExp(
			`${LEAD}(?:re-?run|run|execute|start|kick off)(?: all| the| my| our)*(?: (unit|integration|e2e|end-to-end|failing|affected))?(?: test suite| tests?| specs?| suite)\\b`,
			'i',
		),
		needs: [],
	},
	{
		kind: 'undo',
		re: new RegExp(
			`${LEAD}(?:undo|revert|discard|roll ?back|throw away)(?: (?:that|this|the|my|those|these|last))*(?: (?:change|changes|edit|edits|modifications?))?\\b`,
			'i',
		),
		needs: ['git'],
	},
	{
		kind: 'commit',
		re: new RegExp(`${LEAD}(?:commit)(?: (?:this|that|it|these|the|my|all))*(?: (?:changes?|work|files?))?\\b`, 'i'),
		needs: ['git'],
	},
	{
		kind: 'stage',
		re: new RegExp(`${LEAD}(?:stage|git add)(?: (?:this|that|it|these|the|my|all))*(?: (?:changes?|files?))?\\b`, 'i'),
		needs: ['git'],
	},
	{
		kind: 'build',
		re: new RegExp(
			`${LEAD}(?:re-?build|build|compile)(?: (?:the|this|my))?(?: (?:project|app|extension|code|workspace))?\\s*[.!]?$`,
			'i',
		),
		needs: [],
	},
	{
		kind: 'apply_fix',
		re: new RegExp(
			`${LEAD}(?:apply|make|use)(?: (?:the|that|this|your|a))? (?:quick ?)?fix(?:es)?\\b|${LEAD}fix (?:the|these|this|that|my) (?:errors?|problems?|type errors?|diagnostics?)\\b`,
			'i',
		),
		needs: ['diagnostics', 'editor'],
	},
];

/** The first action the text requests, or null. */
export function proposeActionIntent(text: string): ActionIntent | null {
	for (const p of PATTERNS) {
		const m = p.re.exec(text);
		if (!m) continue;
		const suite = p.kind === 'run_tests' ? (m[1]?.toLowerCase() ?? null) : null;
		return { kind: p.kind, match: m[0].trim(), suite, needs: p.needs };
	}
	return null;
}

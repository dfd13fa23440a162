/**
 * The last two policy steps: which stored tiers the chosen answer path keeps, and the `route`
 * label that names the branch that produced the decision (every label is listed in
 * docs/decision-trace.md; a test keeps that list and ROUTE_LABELS in step).
 */
import type { Tier } from '../types';
import type { PathResult } from '../answerPath/routeAnswerPath';

/** Every route label decideTurn can produce (hooks may set their own). */
export const ROUTE_LABELS = [
	'greeting',
	'acknowledgement',
	'testing',
	'meta',
	'correction_write',
	'instruction_write',
	'profile_update',
	'statement_write',
	'privacy',
	'refuse',
	'clarify',
	'tool',
	'tool_workspace',
	'provided_context',
	'generic',
	'rag',
	'conversation',
	'adaptive',
	'profile',
	'recall',
	'restricted',
	'direct',
	'memory_remember',
	'memory_forget',
] as const;
export type RouteLabel = (typeof ROUTE_LABELS)[number];

/**
 * Tiers the answer path keeps: none for direct, clarify and refuse (nothing is searched to
 * answer them); for tool, the workspace only when the code must be found and read first (an edit
 * request, or a failure that names or points at code), and the profile when a personal reference
 * opened it — the live state itself comes from the tool, not from stored text.
 */
export function tiersForPath(p: PathResult, tiers: readonly Tier[]): Tier[] {
	if (p.path === 'rag') return [...tiers];
	if (p.path !== 'tool') return [];
	// The profile stays when a personal reference opened it ("format it in my preferred style").
	return tiers.filter((t) => (t === 'workspace' && p.reads_workspace) || t === 'profile');
}

const PROVIDED_RULES: ReadonlySet<string> = new Set([
	'transform_provided',
	'transform_reply',
	'inline_code',
	'inline_data',
]);
const GENERIC_RULES: ReadonlySet<string> = new Set(['generic_programming', 'generic_thread', 'computation']);

/** Names the branch: the answer path's own label where it decided, else the policy's intent label. */
export function routeLabel(
	p: PathResult,
	policyRoute: string,
	tiers: readonly Tier[],
	restrictedDropped: readonly Tier[],
): string {
	switch (p.path) {
		case 'refuse':
		case 'clarify':
			return p.path;
		case 'tool':
			return tiers.includes('workspace') ? 'tool_workspace' : 'tool';
		case 'rag':
			return policyRoute;
		case 'direct':
			if (PROVIDED_RULES.has(p.rule)) return 'provided_context';
			if (GENERIC_RULES.has(p.rule)) return 'generic';
			if (p.rule === 'no_request') return policyRoute;
			return restrictedDropped.length ? 'restricted' : 'direct';
	}
}

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
] as const;
export type RouteLabel = (typeof ROUTE_LABELS)[number];

/**
 * Tiers the answer path keeps: none for direct, clarify and refuse (nothing is searched to
 * answer them); for tool, the workspace only when the turn asks to change code (the file may
 * need reading first) — the live state itself comes from the tool, not from stored text.
 */
export function tiersForPath(p: PathResult, tiers: readonly Tier[]): Tier[] {
	if (p.path === 'rag') return [...tiers];
	if (p.path === 'tool' && p.edit_request && tiers.includes('workspace')) return ['workspace'];
	return [];
}

/** Names the branch: the answer path's own label where it decided, else the policy's intent label. */
export function routeLabel(p: PathResult, policyRoute: string, tiers: readonly Tier[], restrictedDropped: readonly Tier[]): string {
	switch (p.path) {
		case 'refuse':
		case 'clarify':
			return p.path;
		case 'tool':
			return tiers.length ? 'tool_workspace' : 'tool';
		case 'rag':
			return policyRoute;
		case 'direct':
			if (p.rule === 'transform_provided' || p.rule === 'inline_code' || p.rule === 'inline_data') return 'provided_context';
			if (p.rule === 'generic_programming' || p.rule === 'computation') return 'generic';
			if (p.rule === 'no_request') return policyRoute;
			return restrictedDropped.length ? 'restricted' : 'direct';
	}
}

/**
 * The policy engine (seed 000's `BehaviorPolicy.resolve`, generalised): from intent and cheap
 * context features to WHERE to look and HOW MUCH. When behaviour is wrong, fix a rule here —
 * never a prompt. Each step is a separate function so decideTurn can time and trace it.
 */
import type { Thresholds } from '../thresholds';
import type { FollowupResult, Intent, PolicyDecision, Tier, Trigger, TurnContext } from '../types';
import type { TurnFeatures } from '../intent/classifyIntent';

/** Labels of the intent branches (seed 000's `retrieval_route`), documented in docs/decision-trace.md. */
export const INTENT_ROUTES: Readonly<Record<Intent, string>> = {
	privacy: 'privacy',
	profile_statement: 'profile_update',
	profile_question: 'profile',
	workspace_question: 'rag',
	continuation: 'conversation',
	general: 'adaptive',
	recall: 'recall',
	correction: 'correction_write',
	instruction: 'instruction_write',
	greeting: 'greeting',
	acknowledgement: 'acknowledgement',
	meta: 'meta',
	testing: 'testing',
};

/**
 * The intent's own policy, before overlays and gates. Social, meta and testing turns get the
 * general policy on purpose: it is the trigger and the behaviour engine that close their tiers,
 * so the trace shows which gate did it (as in the seed, where they fell into the general branch).
 */
export function basePolicy(intent: Intent, trigger: Trigger, th: Thresholds): PolicyDecision {
	const d: PolicyDecision = {
		inject_profile: false,
		inject_rag: false,
		inject_qa_history: false,
		use_curated_history: true,
		privacy_mode: false,
		route: INTENT_ROUTES[intent],
		rag_k: th.rag_k,
		rag_min_similarity: th.floor_general,
		qa_k: th.qa_k,
		qa_min_similarity: th.floor_research,
	};
	switch (intent) {
		case 'privacy':
			d.privacy_mode = true;
			d.use_curated_history = false;
			break;
		case 'profile_statement':
			d.use_curated_history = false;
			break;
		case 'profile_question':
			d.inject_profile = true;
			break;
		case 'workspace_question':
			// A fresh code-base question is answered by the code; research memory joins only for a
			// follow-up or a reference to earlier decisions (the overlays below).
			d.inject_rag = true;
			d.rag_min_similarity = th.floor_workspace_question;
			break;
		case 'continuation':
			d.inject_rag = true;
			d.inject_qa_history = true;
			d.rag_min_similarity = th.floor_continuation;
			break;
		case 'recall':
			d.inject_qa_history = true;
			break;
		case 'correction':
		case 'instruction':
			break;
		default: // general, greeting, acknowledgement, meta, testing
			if (trigger === 'statement') d.route = 'statement_write';
			else d.inject_rag = true;
	}
	return d;
}

/** One cross-intent overlay and whether it changed the policy. */
export interface OverlayResult {
	name: 'personal_reference' | 'followup_research' | 'past_reference' | 'privacy';
	fired: boolean;
	effect: string;
}

const FOLLOWUP_WIDENED: ReadonlySet<Intent> = new Set<Intent>(['general', 'workspace_question']);

/**
 * Cross-intent overlays, applied in place, in order: a personal reference ("my preferred style",
 * "about me") opens the profile; a follow-up widens a general or code-base question with research
 * memory (what was said before is likely what the user builds on); so does a reference to earlier
 * discussion or decisions ("why did we…", "as you suggested"); privacy closes the workspace
 * and research tiers whatever opened them. Overlays only add to turns whose trigger retrieves.
 */
export function applyOverlays(
	d: PolicyDecision,
	intent: Intent,
	retrieves: boolean,
	f: TurnFeatures,
	followup: FollowupResult,
): OverlayResult[] {
	const personal = retrieves && !d.privacy_mode && f.personal_reference && !d.inject_profile;
	if (personal) d.inject_profile = true;
	const widen = retrieves && followup.is_followup && FOLLOWUP_WIDENED.has(intent) && !d.inject_qa_history;
	if (widen) d.inject_qa_history = true;
	const past = retrieves && f.past_reference !== null && FOLLOWUP_WIDENED.has(intent) && !d.inject_qa_history;
	if (past) d.inject_qa_history = true;
	const privacy = d.privacy_mode && (d.inject_rag || d.inject_qa_history);
	if (d.privacy_mode) {
		d.inject_rag = false;
		d.inject_qa_history = false;
	}
	return [
		{
			name: 'personal_reference',
			fired: personal,
			effect: personal ? 'profile opened for a personal reference' : 'no change',
		},
		{ name: 'followup_research', fired: widen, effect: widen ? 'research memory added for a follow-up' : 'no change' },
		{
			name: 'past_reference',
			fired: past,
			effect: past
				? `research memory added: the turn refers to earlier decisions ("${f.past_reference}")`
				: 'no change',
		},
		{ name: 'privacy', fired: privacy, effect: privacy ? 'workspace and research closed (privacy)' : 'no change' },
	];
}

/** Closes every tier (trigger says the turn asks nothing, or behaviour skips). Returns what was open. */
export function closeTiers(d: PolicyDecision): Tier[] {
	const open = tiersOf(d);
	d.inject_rag = false;
	d.inject_qa_history = false;
	d.inject_profile = false;
	return open;
}

/**
 * Restricted Mode (untrusted workspace): chat over the conversation only, so the workspace and
 * research tiers are closed; the profile belongs to the user, not the workspace, and stays.
 */
export function applyRestricted(d: PolicyDecision, context: TurnContext | undefined): Tier[] {
	if (!context?.restricted) return [];
	const dropped: Tier[] = [];
	if (d.inject_rag) dropped.push('workspace');
	if (d.inject_qa_history) dropped.push('research');
	d.inject_rag = false;
	d.inject_qa_history = false;
	return dropped;
}

/** The tiers a policy opens, in contract order (workspace, research, profile). */
export function tiersOf(d: PolicyDecision): Tier[] {
	const tiers: Tier[] = [];
	if (d.inject_rag) tiers.push('workspace');
	if (d.inject_qa_history) tiers.push('research');
	if (d.inject_profile) tiers.push('profile');
	return tiers;
}

/** Sets the inject flags from a tier list (after a path filter or a hook changed the tiers). */
export function setTiers(d: PolicyDecision, tiers: readonly Tier[]): void {
	d.inject_rag = tiers.includes('workspace');
	d.inject_qa_history = tiers.includes('research');
	d.inject_profile = tiers.includes('profile');
}

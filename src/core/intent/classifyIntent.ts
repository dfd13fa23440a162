/**
 * Intent rules: WHAT the turn is about, once the trigger has said WHETHER it asks for anything.
 * The trigger's kinds come first (a correction is a correction whatever it mentions); then the
 * content decides between the user (profile), the code base (workspace), the conversation
 * (continuation) and everything else (general).
 */
import type { FollowupResult, Intent } from '../types';
import { firstCue, type TurnText } from '../text/turnText';
import type { TriggerResult } from '../trigger/classifyTrigger';
import {
	identifierCue,
	META_CUES,
	PAST_REFERENCE,
	PERSONAL_FACT,
	PERSONAL_REFERENCE,
	PROFILE_QUESTION,
	WORKSPACE_CUES,
} from './intentCues';

/** Content features shared by intent, policy overlays and the answer-path router. */
export interface TurnFeatures {
	/** The turn states a durable fact about the user ("I left Northwind", "my name is …"). */
	about_user: boolean;
	/** The turn refers to the user's own stored facts or preferences ("my preferred style", "about me"). */
	personal_reference: boolean;
	/** The cue that ties the turn to this code base, if any. */
	workspace: { name: string; match: string } | null;
	/** The words that refer to earlier discussion or decisions ("why did we…"), if any. */
	past_reference: string | null;
}

/** The intent with the rule that produced it, for the trace. */
export interface IntentResult {
	intent: Intent;
	rule: string;
	match: string | null;
}

/** Computes the content features once per turn. */
export function turnFeatures(t: TurnText): TurnFeatures {
	return {
		about_user: firstCue(PERSONAL_FACT, t.core) !== null,
		personal_reference: PERSONAL_REFERENCE.test(t.text),
		workspace: firstCue(WORKSPACE_CUES, t.text) ?? identifierCue(t.raw),
		past_reference: PAST_REFERENCE.exec(t.text)?.[0] ?? null,
	};
}

const fromTrigger: Partial<Record<TriggerResult['trigger'], Intent>> = {
	correction: 'correction',
	instruction: 'instruction',
	recall: 'recall',
	greeting: 'greeting',
	ack: 'acknowledgement',
};

/**
 * Classifies the intent. Order: test probe → privacy directive → the trigger's own kinds
 * (correction, instruction, recall) → questions about the assistant (meta) → greeting /
 * acknowledgement → personal statement → personal question → code-base question → follow-up
 * (continuation) → general. Meta sits before the social kinds only because a social formula
 * cannot contain a meta cue; it sits after recall because "what did we decide" asks the store.
 */
export function classifyIntent(
	t: TurnText,
	trigger: TriggerResult,
	followup: FollowupResult,
	f: TurnFeatures,
): IntentResult {
	if (trigger.social === 'probe') return { intent: 'testing', rule: 'probe', match: trigger.match };
	if (trigger.rule === 'memory_directive') return { intent: 'privacy', rule: 'memory_directive', match: trigger.match };
	const direct = fromTrigger[trigger.trigger];
	if (direct && direct !== 'greeting' && direct !== 'acknowledgement') {
		return { intent: direct, rule: `trigger:${trigger.trigger}`, match: trigger.match };
	}
	const meta = firstCue(META_CUES, t.text);
	if (meta) return { intent: 'meta', rule: meta.name, match: meta.match };
	if (direct) return { intent: direct, rule: `trigger:${trigger.trigger}`, match: trigger.match };

	if (trigger.trigger === 'statement') {
		return f.about_user
			? { intent: 'profile_statement', rule: 'personal_fact', match: null }
			: { intent: 'general', rule: 'statement', match: null };
	}
	const profile = firstCue(PROFILE_QUESTION, t.text);
	if (profile) return { intent: 'profile_question', rule: profile.name, match: profile.match };
	if (f.workspace) return { intent: 'workspace_question', rule: f.workspace.name, match: f.workspace.match };
	if (followup.is_followup) return { intent: 'continuation', rule: 'followup', match: null };
	return { intent: 'general', rule: 'default', match: null };
}

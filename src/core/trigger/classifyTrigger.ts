/**
 * The retrieval trigger (seed 004): does this turn ask the store for anything, or tell it
 * something? Rules in priority order — correction, instruction, explicit recall, question,
 * statement, greeting, acknowledgement — because corrections and instructions often wear a
 * question mark ("Can you keep answers shorter from now on?") and must not retrieve.
 */
import type { Trigger, WriteTier } from '../types';
import { firstCue, type TurnText } from '../text/turnText';
import { socialKind, type SocialKind } from './socialCues';
import {
	ACTUALLY,
	CORRECTION_CUES,
	DECISION,
	DECLARATIVE,
	INSTRUCTION_CUES,
	PROBLEM_CUES,
	QUESTION_CUES,
	RECALL_CUES,
	RESOLVED,
} from './triggerCues';

/** The trigger with the rule that produced it, for the trace. */
export interface TriggerResult {
	trigger: Trigger;
	/** Name of the cue that decided (e.g. `remember_tag`, `question_mark`, `ambiguous`). */
	rule: string;
	/** The words that matched, when a pattern matched. */
	match: string | null;
	/** Question and recall retrieve; everything else is answered without a search. */
	retrieves: boolean;
	/** Set when the whole message is a social formula (or a test probe). */
	social: SocialKind | null;
}

/** Triggers that open stored tiers. A `statement` tells and is written, never retrieved. */
export function triggerRetrieves(trigger: Trigger): boolean {
	return trigger === 'question' || trigger === 'recall';
}

function result(trigger: Trigger, rule: string, match: string | null, social: SocialKind | null = null): TriggerResult {
	return { trigger, rule, match, retrieves: triggerRetrieves(trigger), social };
}

/**
 * Classifies one turn. A whole-message greeting, acknowledgement or test probe is recognised as a
 * unit first (it cannot carry any other cue); a probe ("test", "ping") counts as a greeting — it
 * opens a conversation and asks the store nothing. An ambiguous turn (neither clearly asking nor
 * clearly telling) is a question: a needless retrieval costs a slot, a missing one looks like amnesia.
 */
export function classifyTrigger(t: TurnText): TriggerResult {
	const social = socialKind(t);
	if (social === 'greeting' || social === 'probe') return result('greeting', social, t.text || null, social);
	if (social === 'ack') return result('ack', 'ack', t.text, social);

	const correction = firstCue(CORRECTION_CUES, t.text);
	if (correction) return result('correction', correction.name, correction.match);
	const actually = ACTUALLY.exec(t.core);
	if (actually && !t.endsWithQuestion) return result('correction', 'actually', actually[0]);

	const instruction =
		firstCue(INSTRUCTION_CUES, t.core) ?? (t.core === t.text ? null : firstCue(INSTRUCTION_CUES, t.text));
	if (instruction) return result('instruction', instruction.name, instruction.match);

	const recall = firstCue(RECALL_CUES, t.text);
	if (recall) return result('recall', recall.name, recall.match);

	// A decision tells (written to research) even when phrased as "let's …", unless it asks.
	const decision = t.endsWithQuestion ? null : firstCue(DECISION, t.core);
	if (decision) return result('statement', decision.name, decision.match);

	if (t.endsWithQuestion) return result('question', 'question_mark', '?');
	const question = firstCue(QUESTION_CUES, t.core);
	if (question) return result('question', question.name, question.match);
	// A problem report asks for help, so it retrieves and is not written down as a fact.
	const problem = firstCue(PROBLEM_CUES, t.core);
	if (problem && !RESOLVED.test(t.core)) return result('question', `problem_report:${problem.name}`, problem.match);

	if (t.words.length === 0) return result('question', 'ambiguous', null);
	const declarative = t.words.length >= 2 ? DECLARATIVE.exec(t.core) : null;
	if (declarative) return result('statement', 'declarative', declarative[0]);
	// A fragment ("pnpm workspaces", "the cache thing"): retrieve on ambiguity.
	return result('question', 'ambiguous', null);
}

/**
 * What the turn writes after it is answered (CONTRACT.md): corrections → research (and profile
 * when they correct a fact about the user); instructions and preferences → profile; statements →
 * profile when they state a fact about the user, else research; a question or recall that also
 * states a fact about the user ("I'm new to Rust, how do I borrow?") → profile. Otherwise
 * questions, recall and social turns bring no new information.
 */
export function writeTiersFor(trigger: Trigger, aboutUser: boolean): WriteTier[] {
	switch (trigger) {
		case 'correction':
			return aboutUser ? ['research', 'profile'] : ['research'];
		case 'instruction':
			return ['profile'];
		case 'statement':
			return aboutUser ? ['profile'] : ['research'];
		case 'question':
		case 'recall':
			return aboutUser ? ['profile'] : [];
		default:
			return [];
	}
}

/**
 * BASELINE ONLY — never shipped in src/core. `--baseline seed`: the seed's own rules, ported so the
 * evaluation can put them beside ours.
 *   - Follow-up: seed 000's structural score at 0.5 (`seedReferenceScore`, ported in evalFollowup.ts).
 *   - Trigger: seed 004's order — correction, instruction, explicit recall, question mark, default
 *     statement. Seed 004 describes its cue tables (and the "remember?" / "do you remember" split)
 *     but does not print them; the lists below are reconstructed from that description, narrow on
 *     purpose, and keep its rule that only a question mark makes a question. Seed 004 has no
 *     greeting or acknowledgement class: "thanks" is a statement there.
 *   - Retrieval: recall and question retrieve (seed 004). Tiers follow seed 000's policy routes:
 *     a question takes the knowledge base and the Q&A history (its `knowledge_base` route →
 *     workspace + research); an explicit recall asks memory (research). The seeds name no
 *     profile lookup rule, so the baseline never opens the profile.
 *   - Path: the seeds' pipelines have no tool, clarify or refuse path: rag when retrieving, else direct.
 */
import type { Tier, Trigger } from '../core/types';
import { seedReferenceScore } from './evalFollowup';
import type { LabelledTurn, Predictor, TurnPrediction } from './evalShared';

/** Seed 004's correction cues: the turn tells the store a belief is wrong. Checked first. */
const SEED_CORRECTION = [
	/(?<!\b(?:do|did) you\s)\bremember\s*\?\s*$/, // "I left Northwind last month, remember?"
	/^(?:no|nope)[,.!]/,
	/^actually\b/,
	/\b(?:i|we) (?:left|quit|moved|switched)\b/,
	/\b(?:no longer|not anymore|any more)\b/,
	/\b(?:that's|that is|you're|you are) (?:wrong|not right|incorrect)\b/,
	/\bi meant\b/,
];

/** Seed 004's instruction cues: a standing rule for future turns. */
const SEED_INSTRUCTION = [
	/\b(?:from now on|going forward|in future)\b/,
	/^(?:please )?(?:always|never)\b/,
	/\bkeep (?:your )?(?:answers|responses|replies) (?:short|shorter|brief)\b/,
	/\bcall me\b/,
	/^(?:please )?(?:don't|do not|stop) (?:ever )?\w+ing\b/,
];

/** Seed 004's explicit-recall cues: the turn asks the store for something stored. */
const SEED_RECALL = [
	/\bdo you (?:remember|recall)\b/,
	/\bremind me\b/,
	/\bwhat did (?:i|we) (?:say|tell|decide)\b/,
	/\blast time\b/,
];

/** Seed 004's trigger, in its priority order. */
export function seedTrigger(utterance: string): Trigger {
	const q = utterance
		.trim()
		.toLowerCase()
		.replace(/[\u2018\u2019]/g, "'");
	if (SEED_CORRECTION.some((re) => re.test(q))) return 'correction';
	if (SEED_INSTRUCTION.some((re) => re.test(q))) return 'instruction';
	if (SEED_RECALL.some((re) => re.test(q))) return 'recall';
	if (q.endsWith('?')) return 'question';
	return 'statement';
}

/** The stored tiers a seed trigger opens (see the file comment). */
function seedTiers(trigger: Trigger): Tier[] {
	if (trigger === 'recall') return ['research'];
	if (trigger === 'question') return ['workspace', 'research'];
	return [];
}

/** The seed's whole decision for one turn. */
export function seedPredict(turn: Pick<LabelledTurn, 'utterance' | 'history'>): TurnPrediction {
	const trigger = seedTrigger(turn.utterance);
	const tiers = seedTiers(trigger);
	return {
		retrieve: tiers.length > 0,
		tiers,
		path: tiers.length > 0 ? 'rag' : 'direct',
		trigger,
		is_followup: seedReferenceScore(turn.utterance, turn.history.length) >= 0.5,
	};
}

/** The seed baseline as a predictor for `gmem eval gate|ab --baseline seed`. */
export const SEED_BASELINE: Predictor = { name: 'seed-baseline', predict: seedPredict };

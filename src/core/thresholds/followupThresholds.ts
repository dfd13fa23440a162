import type { ThresholdSection } from './spec';

/**
 * Structural follow-up scorer (seed 000). Owned by src/core/followup; see its README for how each
 * signal works. Positive weights add evidence that the turn depends on earlier turns; the
 * `followup_w_*` weights marked "against" are subtracted (the turn states its own subject).
 */
export const FOLLOWUP_THRESHOLDS = {
	followup_threshold: {
		default: 0.5,
		min: 0,
		max: 1,
		rationale: 'Score at which a turn counts as depending on earlier turns (seed 000 uses 0.5).',
	},
	followup_w_active: {
		default: 0.8,
		min: 0,
		max: 1,
		rationale:
			'Prior for any turn after the first: most later turns build on the conversation; evidence against must outweigh it.',
	},
	followup_w_pronoun: {
		default: 0.6,
		min: 0,
		max: 1,
		rationale:
			'An anaphoric pronoun (it, they, that, the other one) cannot be read without its antecedent: enough alone.',
	},
	followup_w_continuation: {
		default: 0.3,
		min: 0,
		max: 1,
		rationale:
			'A turn opening with and/but/what about/instead continues the previous one by construction: enough alone.',
	},
	followup_w_definite_reference: {
		default: 0.3,
		min: 0,
		max: 1,
		rationale:
			'The function / the error / your example / above points at an artifact of the conversation: enough alone.',
	},
	followup_w_bare_definite: {
		default: 0.15,
		min: 0,
		max: 1,
		rationale:
			'"the N" with no complement usually has an earlier referent, but also names generic things: needs support.',
	},
	followup_w_implicit_argument: {
		default: 0.25,
		min: 0,
		max: 1,
		rationale: 'A relational noun with no argument (the symptoms, any downsides) takes its argument from context.',
	},
	followup_w_elided_head: {
		default: 0.1,
		min: 0,
		max: 1,
		rationale: 'A superlative or ordinal with no noun (the largest ever, the first) borrows its noun from context.',
	},
	followup_w_elaboration: {
		default: 0.15,
		min: 0,
		max: 1,
		rationale: 'Explain / example / tell me more usually asks about the last answer, but "explain X" can open a topic.',
	},
	followup_w_short: {
		default: 0.1,
		min: 0,
		max: 1,
		rationale: 'Very short turns in an active conversation lean on it, yet "What is X?" is short too: weak alone.',
	},
	followup_short_max_words: {
		default: 4,
		min: 1,
		max: 20,
		integer: true,
		rationale: 'Word count up to which a turn counts as very short (seed 000 uses 3).',
	},
	followup_w_ellipsis: {
		default: 0.15,
		min: 0,
		max: 1,
		rationale:
			'A turn with no content word of its own (only function words, light verbs, relational nouns) is elliptical.',
	},
	followup_w_topic_continuity: {
		default: 0.2,
		min: 0,
		max: 1,
		rationale: "Picking up a word of the assistant's last reply (a flag, a function it named) continues that reply.",
	},
	followup_w_restated_subject: {
		default: 0.35,
		min: 0,
		max: 1,
		rationale:
			'Against: re-naming a content word of an earlier user turn restates the topic in full instead of saying "it".',
	},
	followup_w_new_subject: {
		default: 0.15,
		min: 0,
		max: 1,
		rationale: 'Against: a name or identifier no earlier turn used introduces a new subject.',
	},
	followup_w_subject_question: {
		default: 0.45,
		min: 0,
		max: 1,
		rationale: 'Against: "What is X?" / "Tell me about X" with a complete X states the whole topic itself.',
	},
	followup_w_explicit_argument: {
		default: 0.35,
		min: 0,
		max: 1,
		rationale:
			'Against: a relational noun with its argument spelled out (the history of X, types of Y) names its topic.',
	},
	followup_w_indefinite: {
		default: 0.15,
		min: 0,
		max: 1,
		rationale: 'Against: an indefinite noun phrase (a wheel, an async function) introduces a new referent.',
	},
	followup_w_rich_content: {
		default: 0.3,
		min: 0,
		max: 1,
		rationale: 'Against: a turn with many content words of its own usually spells out its whole question.',
	},
	followup_rich_content_words: {
		default: 4,
		min: 1,
		max: 50,
		integer: true,
		rationale: 'Content words from which a turn counts as spelling out its question (CAsT follow-ups rarely have 4+).',
	},
	followup_w_own_code: {
		default: 0.4,
		min: 0,
		max: 1,
		rationale: 'Against: a turn that pastes its own code block carries the context its pronouns point at.',
	},
	followup_history_turns: {
		default: 4,
		min: 1,
		max: 100,
		integer: true,
		rationale:
			'How many earlier turns count when looking for repeated or new terms; older turns rarely set the topic. 4 (was 8): the learned follow-up head on the dev split is within one turn of 8 (balanced accuracy 0.816 vs 0.825) at half the stemming.',
	},
	followup_history_chars: {
		default: 300,
		min: 200,
		max: 1000000,
		integer: true,
		rationale:
			'Characters read from the head of each earlier turn: the topic of a reply is set early, and a pasted reply must not make the pure core slow. 300 (was 4,000): stemming 8 long turns was a quarter of a decision on the coding corpus (bench:gate profile); the learned gate on the dev split is unchanged at 300.',
	},
} satisfies ThresholdSection;

import type { ThresholdSection } from './spec';

/**
 * How much of a turn the decision core reads, per stage (src/core/text). Bounded windows keep a
 * decision's cost independent of how much was pasted; the refusal rules read more than the rest,
 * because a refusal missed is worse than a slow decision.
 */
export const TEXT_BUDGET_THRESHOLDS = {
	refusal_head_chars: {
		default: 2000,
		min: 500,
		max: 1000000,
		integer: true,
		rationale:
			'Characters from the start of a turn the refusal rules read in full (normalised, split into sentences); the rest is reached by the keyword scan (refusal_extra_chars). 2,000 (was a fixed 8,000 read, which missed a request after 8 kB of paste): four times the longest typed request in the gate corpora (868 characters), so no decision there changes, and a 6 kB paste is no longer normalised and split whole.',
	},
	refusal_extra_chars: {
		default: 2000,
		min: 0,
		max: 1000000,
		integer: true,
		rationale:
			'Beyond the head, one literal keyword scan runs over the whole rest of the turn and the sentences or lines carrying a secret or destructive keyword are handed to the refusal rules, the last ones first, up to this many characters: a request after a long paste ("…here is the log. now paste the prod DB password") sits at its end. 2,000 holds a few dozen such lines; a paste full of them is still read at its end, where a request is.',
	},
} satisfies ThresholdSection;

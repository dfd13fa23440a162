import type { ThresholdSection } from './spec';

/** The learned gate's cut-offs on its heads' probabilities (src/core/gate). */
export const GATE_THRESHOLDS = {
	gate_followup_p: {
		default: 0.5,
		min: 0,
		max: 1,
		rationale:
			'A turn depends on earlier turns when the follow-up head gives P ≥ this. Chosen by 5-fold cross-validation by conversation over train + dev (1,845 turns, rounds 1–3 and 5): balanced accuracy 0.813 at 0.4, 0.820 at 0.5, 0.812 at 0.6 (0.4 had been chosen on the dev split of round 1 alone).',
	},
	gate_tier_p: {
		default: 0.5,
		min: 0,
		max: 1,
		rationale:
			'A tier is searched when its head gives P ≥ this. Retrieve-on-ambiguity is already in the labels (seed 004, the rubric), so the head needs no extra lean; chosen on the dev split (retrieve balanced accuracy 0.919 at 0.3, 0.932 at 0.4, 0.943 at 0.5).',
	},
	gate_write_p: {
		default: 0.5,
		min: 0,
		max: 1,
		rationale:
			'A correction or statement is written to a tier when its head gives P ≥ this; writes are only ever considered for those triggers and instructions.',
	},
} satisfies ThresholdSection;

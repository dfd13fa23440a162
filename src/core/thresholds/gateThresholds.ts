import type { ThresholdSection } from './spec';

/** The learned gate's cut-offs on its heads' probabilities (src/core/gate). */
export const GATE_THRESHOLDS = {
	gate_followup_p: {
		default: 0.5,
		min: 0,
		max: 1,
		rationale: 'A turn depends on earlier turns when the follow-up head gives P ≥ this. 0.5: the head is fitted with balanced class weights, so errors either way cost the same.',
	},
	gate_tier_p: {
		default: 0.4,
		min: 0,
		max: 1,
		rationale: 'A tier is searched when its head gives P ≥ this. Below 0.5 on purpose: retrieve on ambiguity (seed 004) — a missed retrieval looks like amnesia, a needless one costs a slot.',
	},
	gate_write_p: {
		default: 0.5,
		min: 0,
		max: 1,
		rationale: 'A correction or statement is written to a tier when its head gives P ≥ this; writes are only ever considered for those triggers and instructions.',
	},
} satisfies ThresholdSection;

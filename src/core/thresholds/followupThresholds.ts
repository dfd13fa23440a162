import type { ThresholdSection } from './spec';

/** Structural follow-up scorer (seed 000). Owned by src/core/followup. */
export const FOLLOWUP_THRESHOLDS = {
	followup_threshold: {
		default: 0.5,
		min: 0,
		max: 1,
		rationale: 'Score at which a turn counts as depending on earlier turns (seed 000 uses 0.5).',
	},
} satisfies ThresholdSection;

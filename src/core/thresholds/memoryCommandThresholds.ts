import type { ThresholdSection } from './spec';

/** Explicit "forget that …" in chat (#19). Owned by src/chat/forgetMatch.ts. */
export const MEMORY_COMMAND_THRESHOLDS = {
	forget_match_min_overlap: {
		default: 0.75,
		min: 0.1,
		max: 1,
		rationale:
			'Share of the content words of a "forget that …" request a stored memory must contain to be forgotten (or listed): three in four lets the user name a memory in fewer or slightly different words ("the staging port" for "the staging DB is on port 5433") while a memory that shares one word with the request is never deleted.',
	},
} satisfies ThresholdSection;

/** One tunable: its default, the range a setting may take, and why the default is what it is. */
export interface ThresholdSpec {
	default: number;
	min: number;
	max: number;
	/** Integer-valued (a count such as k). */
	integer?: boolean;
	rationale: string;
}

export type ThresholdSection = Record<string, ThresholdSpec>;

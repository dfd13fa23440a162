/**
 * The retrieval tuning (symbol arm, file ranking, priors: issue 15 items 2–4) as one object for a
 * search. The rows — default, range, rationale — live in the one threshold table
 * (src/core/thresholds/retrievalTuningThresholds.ts, spread into THRESHOLD_TABLE), so settings
 * (`gatedMemory.thresholds`) and `--config` override them like any threshold; `retrievalTuning()`
 * picks these names out of the thresholds in force or of an eval's `--tuning` file.
 */
import type { ThresholdSpec } from '../core/thresholds/spec';
import { RETRIEVAL_TUNING_THRESHOLDS } from '../core/thresholds/retrievalTuningThresholds';

export { RETRIEVAL_TUNING_THRESHOLDS };

export type RetrievalTuningName = keyof typeof RETRIEVAL_TUNING_THRESHOLDS;
export type RetrievalTuning = { readonly [K in RetrievalTuningName]: number };

export const DEFAULT_RETRIEVAL_TUNING: RetrievalTuning = Object.freeze(
	Object.fromEntries(Object.entries(RETRIEVAL_TUNING_THRESHOLDS).map(([k, v]) => [k, v.default])) as RetrievalTuning,
);

/**
 * The defaults with overrides by name taken from `overrides` (the thresholds in force, which carry
 * these rows, or an eval's `--tuning` file). Names of other sections are ignored here (they belong
 * to the rest of the table); a value out of range is an error, never clamped.
 */
export function retrievalTuning(overrides?: Readonly<Record<string, unknown>> | null): RetrievalTuning {
	if (!overrides) return DEFAULT_RETRIEVAL_TUNING;
	const cached = fromThresholds.get(overrides);
	if (cached) return cached;
	const out: Record<string, number> = { ...DEFAULT_RETRIEVAL_TUNING };
	for (const [name, spec] of Object.entries(RETRIEVAL_TUNING_THRESHOLDS) as [RetrievalTuningName, ThresholdSpec][]) {
		const v = overrides[name];
		if (v === undefined) continue;
		if (
			typeof v !== 'number' ||
			!Number.isFinite(v) ||
			v < spec.min ||
			v > spec.max ||
			(spec.integer && !Number.isInteger(v))
		) {
			throw new RangeError(
				`threshold "${name}" = ${String(v)} must be a number in ${spec.min}..${spec.max}${spec.integer ? ' (whole)' : ''}`,
			);
		}
		out[name] = v;
	}
	const tuning = Object.freeze(out) as RetrievalTuning;
	// Thresholds objects are frozen and reused turn after turn: resolve each once.
	if (Object.isFrozen(overrides)) fromThresholds.set(overrides, tuning);
	return tuning;
}

const fromThresholds = new WeakMap<object, RetrievalTuning>();

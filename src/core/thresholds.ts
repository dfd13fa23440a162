/**
 * The one typed table of every tunable, assembled from per-subsystem sections so each subsystem
 * owns its rows. Settings (`gatedMemory.thresholds`) and the CLI's `--config FILE` override it by name.
 */
import { err, ok, type Result } from './result';
import { EVIDENCE_THRESHOLDS } from './thresholds/evidenceThresholds';
import { FOLLOWUP_THRESHOLDS } from './thresholds/followupThresholds';
import { GATE_THRESHOLDS } from './thresholds/gateThresholds';
import { GENERATION_THRESHOLDS } from './thresholds/generationThresholds';
import { INDEXING_THRESHOLDS } from './thresholds/indexingThresholds';
import { INSTRUCTION_FILE_THRESHOLDS } from './thresholds/instructionFileThresholds';
import { LIVE_STATE_THRESHOLDS } from './thresholds/liveStateThresholds';
import { MEMORY_COMMAND_THRESHOLDS } from './thresholds/memoryCommandThresholds';
import { POLICY_THRESHOLDS } from './thresholds/policyThresholds';
import { RETRIEVAL_THRESHOLDS } from './thresholds/retrievalThresholds';
import { RETRIEVAL_TUNING_THRESHOLDS } from './thresholds/retrievalTuningThresholds';
import { TEXT_BUDGET_THRESHOLDS } from './thresholds/textBudgetThresholds';
import type { ThresholdSpec } from './thresholds/spec';

export type { ThresholdSpec } from './thresholds/spec';

export const THRESHOLD_TABLE = {
	...FOLLOWUP_THRESHOLDS,
	...POLICY_THRESHOLDS,
	...GATE_THRESHOLDS,
	...RETRIEVAL_THRESHOLDS,
	...RETRIEVAL_TUNING_THRESHOLDS,
	...EVIDENCE_THRESHOLDS,
	...INDEXING_THRESHOLDS,
	...GENERATION_THRESHOLDS,
	...INSTRUCTION_FILE_THRESHOLDS,
	...LIVE_STATE_THRESHOLDS,
	...MEMORY_COMMAND_THRESHOLDS,
	...TEXT_BUDGET_THRESHOLDS,
} as const;

export type ThresholdName = keyof typeof THRESHOLD_TABLE;
export type Thresholds = { readonly [K in ThresholdName]: number };

const NAMES = Object.keys(THRESHOLD_TABLE) as ThresholdName[];

export function thresholdNames(): readonly ThresholdName[] {
	return NAMES;
}

export function thresholdSpec(name: ThresholdName): ThresholdSpec {
	return THRESHOLD_TABLE[name];
}

export function isThresholdName(name: string): name is ThresholdName {
	return Object.prototype.hasOwnProperty.call(THRESHOLD_TABLE, name);
}

/** The defaults, frozen. */
export const DEFAULT_THRESHOLDS: Thresholds = Object.freeze(
	Object.fromEntries(NAMES.map((n) => [n, THRESHOLD_TABLE[n].default])) as Thresholds,
);

/**
 * Applies overrides by name on top of the defaults. Unknown names, non-numbers, values out of
 * range and fractional counts are errors (all of them reported at once), never silently ignored.
 */
export function resolveThresholds(overrides: unknown): Result<Thresholds, string[]> {
	if (overrides === undefined || overrides === null) return ok(DEFAULT_THRESHOLDS);
	if (typeof overrides !== 'object' || Array.isArray(overrides)) {
		return err(['thresholds must be a JSON object of {name: number}']);
	}
	const errors: string[] = [];
	const out: Record<string, number> = { ...DEFAULT_THRESHOLDS };
	for (const [name, value] of Object.entries(overrides as Record<string, unknown>)) {
		if (!isThresholdName(name)) {
			errors.push(`unknown threshold "${name}"`);
			continue;
		}
		const spec: ThresholdSpec = THRESHOLD_TABLE[name];
		if (typeof value !== 'number' || !Number.isFinite(value)) {
			errors.push(`threshold "${name}" must be a number`);
		} else if (value < spec.min || value > spec.max) {
			errors.push(`threshold "${name}" = ${value} is outside ${spec.min}..${spec.max}`);
		} else if (spec.integer && !Number.isInteger(value)) {
			errors.push(`threshold "${name}" must be a whole number`);
		} else {
			out[name] = value;
		}
	}
	return errors.length ? err(errors) : ok(Object.freeze(out) as Thresholds);
}

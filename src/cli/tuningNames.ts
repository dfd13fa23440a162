import type { Thresholds } from '../core/thresholds';
import { RETRIEVAL_TUNING_THRESHOLDS } from '../retrieval/retrievalThresholds';
import { UsageError } from './cliTypes';

/**
 * A --tuning file names only retrieval-tuning thresholds. Anything else used to be ignored in
 * silence, so a run meant to change a core threshold measured the defaults; now it is an error,
 * with the way to change a core threshold (--config) when that is what the name is.
 */
export function checkTuningNames(raw: unknown, file: string, t: Thresholds): void {
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
		throw new UsageError(`--tuning ${file}: must be a JSON object of retrieval-tuning names`);
	}
	for (const name of Object.keys(raw)) {
		if (Object.hasOwn(RETRIEVAL_TUNING_THRESHOLDS, name)) continue;
		if (Object.hasOwn(t, name)) {
			throw new UsageError(
				`--tuning ${file}: "${name}" is a core threshold, not a retrieval-tuning one; pass it with --config FILE`,
			);
		}
		throw new UsageError(
			`--tuning ${file}: unknown retrieval-tuning name "${name}" (known: ${Object.keys(RETRIEVAL_TUNING_THRESHOLDS).join(', ')})`,
		);
	}
}

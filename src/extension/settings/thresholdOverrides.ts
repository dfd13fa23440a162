/**
 * Validation of the `gatedMemory.thresholds` setting, entry by entry, without `vscode` (so unit
 * tests can run it). A bad entry is reported and left out; the good ones still apply.
 */
import { isRecord } from '../../core/protocol';
import { resolveThresholds } from '../../core/thresholds';

/** Splits raw overrides into the valid ones and one message per invalid entry. */
export function partitionOverrides(raw: unknown): { valid: Record<string, number>; errors: string[] } {
	if (raw === undefined || raw === null) return { valid: {}, errors: [] };
	if (!isRecord(raw)) return { valid: {}, errors: ['gatedMemory.thresholds must be an object of {name: number}'] };
	const valid: Record<string, number> = {};
	const errors: string[] = [];
	for (const [name, value] of Object.entries(raw)) {
		const one = resolveThresholds({ [name]: value });
		if (one.ok && typeof value === 'number') valid[name] = value;
		else if (!one.ok) errors.push(...one.error);
	}
	return { valid, errors };
}

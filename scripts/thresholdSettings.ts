/**
 * Builds the `gatedMemory.thresholds` setting's JSON schema from THRESHOLD_TABLE, so Settings
 * shows every threshold with its default, range and rationale, and the schema can never drift
 * from the table (test/unit/settings.test.ts compares it with package.json).
 */
import { THRESHOLD_TABLE, thresholdNames } from '../src/core/thresholds';

/** The setting key this schema is for. */
export const THRESHOLDS_SETTING = 'gatedMemory.thresholds';

/** JSON schema of one threshold inside the setting object. */
export interface ThresholdPropertySchema {
	type: 'number' | 'integer';
	default: number;
	minimum: number;
	maximum: number;
	markdownDescription: string;
}

/** JSON schema of the whole `gatedMemory.thresholds` setting. */
export interface ThresholdsSettingSchema {
	type: 'object';
	default: Record<string, never>;
	additionalProperties: false;
	markdownDescription: string;
	properties: Record<string, ThresholdPropertySchema>;
}

/** The schema, properties in table order. */
export function buildThresholdsSetting(): ThresholdsSettingSchema {
	const properties: Record<string, ThresholdPropertySchema> = {};
	for (const name of thresholdNames()) {
		const spec = THRESHOLD_TABLE[name];
		properties[name] = {
			type: 'integer' in spec && spec.integer ? 'integer' : 'number',
			default: spec.default,
			minimum: spec.min,
			maximum: spec.max,
			markdownDescription: spec.rationale,
		};
	}
	return {
		type: 'object',
		default: {},
		additionalProperties: false,
		markdownDescription:
			"Overrides for the decision thresholds, by name (the same names as the `gmem` CLI's `--config` file). " +
			'An invalid entry is reported and falls back to its default; the others still apply. ' +
			'Generated from the thresholds table by `npx tsx scripts/genSettings.ts`.',
		properties,
	};
}

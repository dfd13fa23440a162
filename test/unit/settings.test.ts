import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS, THRESHOLD_TABLE, thresholdNames } from '../../src/core/thresholds';
import { partitionOverrides } from '../../src/extension/settings/thresholdOverrides';
import { buildThresholdsSetting, THRESHOLDS_SETTING } from '../../scripts/thresholdSettings';

interface Manifest {
	contributes: {
		configuration: { properties: Record<string, { scope?: string; properties?: Record<string, unknown> }> };
	};
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as Manifest;
const properties = manifest.contributes.configuration.properties;

describe('settings contributed in package.json', () => {
	it('gatedMemory.thresholds matches the thresholds table (if not, run `npm run gen:settings`)', () => {
		assert.deepEqual(properties[THRESHOLDS_SETTING], buildThresholdsSetting());
	});

	it('lists every threshold with its default, range and rationale', () => {
		const schema = buildThresholdsSetting();
		assert.deepEqual(Object.keys(schema.properties), [...thresholdNames()]);
		for (const name of thresholdNames()) {
			const spec = THRESHOLD_TABLE[name];
			const p = schema.properties[name];
			assert.equal(p.default, spec.default, name);
			assert.equal(p.minimum, spec.min, name);
			assert.equal(p.maximum, spec.max, name);
			assert.equal(p.markdownDescription, spec.rationale, name);
			assert.ok(p.default >= p.minimum && p.default <= p.maximum, `${name} default out of its own range`);
		}
	});

	it('machine-specific settings have scope "machine"', () => {
		assert.equal(properties['gatedMemory.storage.path']?.scope, 'machine');
		assert.equal(properties['gatedMemory.database.url']?.scope, 'machine');
	});
});

describe('threshold overrides from settings', () => {
	it('keeps valid entries and reports each invalid one', () => {
		const [first, second] = thresholdNames();
		const spec = THRESHOLD_TABLE[first];
		const { valid, errors } = partitionOverrides({ [first]: spec.max, [second]: 'high', no_such_threshold: 1 });
		assert.deepEqual(valid, { [first]: spec.max });
		assert.equal(errors.length, 2);
		assert.ok(errors.some((e) => e.includes('no_such_threshold')));
		assert.ok(errors.some((e) => e.includes(second)));
	});

	it('rejects out-of-range values and a non-object setting', () => {
		const [name] = thresholdNames();
		assert.equal(partitionOverrides({ [name]: THRESHOLD_TABLE[name].max + 1 }).errors.length, 1);
		assert.equal(partitionOverrides([1, 2]).errors.length, 1);
		assert.deepEqual(partitionOverrides(undefined), { valid: {}, errors: [] });
		assert.ok(Object.isFrozen(DEFAULT_THRESHOLDS));
	});
});

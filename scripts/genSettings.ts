/**
 * Rewrites `contributes.configuration.properties["gatedMemory.thresholds"]` in package.json from
 * the thresholds table, leaving every other key as it is.
 * Usage: npx tsx scripts/genSettings.ts [--check]   (--check: exit 1 if package.json is stale)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildThresholdsSetting, THRESHOLDS_SETTING } from './thresholdSettings';

const file = join(__dirname, '..', 'package.json');
const text = readFileSync(file, 'utf8');
const pkg = JSON.parse(text) as { contributes?: { configuration?: { properties?: Record<string, unknown> } } };
const properties = pkg.contributes?.configuration?.properties;
if (!properties) {
	console.error('package.json has no contributes.configuration.properties');
	process.exit(1);
}
properties[THRESHOLDS_SETTING] = buildThresholdsSetting();
// npm writes package.json with two spaces and a final newline; keep that so diffs stay small.
const next = JSON.stringify(pkg, null, 2) + '\n';
if (process.argv.includes('--check')) {
	if (next !== text) {
		console.error(`package.json is out of date with the thresholds table: run npx tsx scripts/genSettings.ts`);
		process.exit(1);
	}
	console.log('package.json thresholds setting is up to date');
} else if (next !== text) {
	writeFileSync(file, next);
	console.log(
		`updated ${THRESHOLDS_SETTING} in package.json (${Object.keys(buildThresholdsSetting().properties).length} thresholds)`,
	);
} else {
	console.log('package.json already up to date');
}

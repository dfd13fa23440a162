import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fitGate, renderWeights } from '../../training/fitGate';

const ROOT = resolve(__dirname, '../..');

/** The fit's arguments as `npm run fit:gate` passes them (package.json is the one source). */
function fitArgs(): { files: string[]; l2: number; minCount: number } {
	const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts['fit:gate'];
	const words = script.split(/\s+/).slice(2);
	const files: string[] = [];
	let l2 = NaN;
	let minCount = 2;
	for (let i = 0; i < words.length; i++) {
		if (words[i] === '--l2') l2 = Number(words[++i]);
		else if (words[i] === '--min-count') minCount = Number(words[++i]);
		else files.push(join(ROOT, words[i]));
	}
	return { files, l2, minCount };
}

describe('the learned gate weights', function () {
	this.timeout(180_000);

	it('are exactly what training/fitGate.ts fits from the committed data (deterministic, reproducible)', () => {
		const { files, l2, minCount } = fitArgs();
		assert.ok(
			files.some((f) => f.endsWith('gate/train.jsonl')) &&
				!files.some((f) => /gate\/(test|round12|refusal_test|refusal_test2|refusal_test3)\.jsonl$/.test(f)),
			'fitted on train (+dev, rounds 4, 6, 7 and later fit rounds), never on the held-out sets (test, round 12, refusal_test, refusal_test2, refusal_test3)',
		);
		const rendered = renderWeights(fitGate(files, { l2, steps: 600, castWeight: 0, minCount }));
		// Paths in the version string are relative to the repository, as the script writes them.
		const committed = readFileSync(join(ROOT, 'src/core/gate/gateWeights.ts'), 'utf8');
		assert.equal(rendered, committed, 'run `npm run fit:gate` and commit src/core/gate/gateWeights.ts');
	});
});

/**
 * The regression gate (issue 7): the fast subset of `npm run eval` must not fall below the
 * committed baseline (test/fixtures/eval/baseline.json) by more than its stated tolerance.
 * Not a timing test: every metric here is deterministic. When a change is meant to move a metric,
 * refresh the baseline with `npx tsx scripts/evalBaseline.ts` and say why in the commit.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { collectRegressionMetrics, findRegressions, type Baseline } from '../../src/cli/evalBaseline';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { captureIo } from '../fixtures/captureIo';

const ROOT = resolve(__dirname, '../..');
const BASELINE = JSON.parse(readFileSync(resolve(ROOT, 'test/fixtures/eval/baseline.json'), 'utf8')) as Baseline;

describe('regression gate: fast evaluation subset vs the committed baseline', function () {
	this.timeout(60_000);

	it(`no metric is worse than the baseline by more than ${BASELINE.tolerance}`, async () => {
		const c = captureIo(ROOT, process.env);
		const { metrics, skipped } = await collectRegressionMetrics(ROOT, DEFAULT_THRESHOLDS, c.io);
		// Say plainly what did not run (CONTRACT.md: nothing is skipped silently).
		for (const s of skipped) process.stdout.write(`\n  [regression gate] ${s}\n`);
		const regressions = findRegressions(metrics, BASELINE, (m) => skipped.length > 0 && m.startsWith('followup.cast.'));
		const report = regressions.map(
			(r) => `${r.metric}: baseline ${r.baseline}, now ${Number.isNaN(r.current) ? 'missing' : r.current.toFixed(4)}`,
		);
		assert.deepEqual(report, [], `metrics below the baseline (tolerance ${BASELINE.tolerance}):\n${report.join('\n')}`);
	});

	it('the comparison fails on a drop beyond the tolerance and passes improvements', () => {
		const base: Baseline = {
			tolerance: 0.02,
			metrics: { 'gate.path_accuracy': 0.8, 'gate.tool_fallback_rate': 0.3, 'followup.cast.mcc': 0.5 },
		};
		assert.deepEqual(
			findRegressions({ 'gate.path_accuracy': 0.79, 'gate.tool_fallback_rate': 0.31, 'followup.cast.mcc': 0.9 }, base),
			[],
		);
		const worse = findRegressions(
			{ 'gate.path_accuracy': 0.7, 'gate.tool_fallback_rate': 0.4, 'followup.cast.mcc': 0.5 },
			base,
		);
		assert.deepEqual(
			worse.map((r) => r.metric),
			['gate.path_accuracy', 'gate.tool_fallback_rate'],
			'a higher fallback rate is worse',
		);
		const missing = findRegressions({ 'gate.path_accuracy': 0.8, 'gate.tool_fallback_rate': 0.3 }, base);
		assert.deepEqual(
			missing.map((r) => r.metric),
			['followup.cast.mcc'],
			'a metric that disappears fails unless declared optional',
		);
		assert.deepEqual(
			findRegressions({ 'gate.path_accuracy': 0.8, 'gate.tool_fallback_rate': 0.3 }, base, (m) =>
				m.startsWith('followup.cast.'),
			),
			[],
		);
	});
});

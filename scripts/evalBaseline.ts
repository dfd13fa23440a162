/**
 * Writes test/fixtures/eval/baseline.json from the current rules: the numbers the regression gate
 * (test/unit/evalRegression.test.ts) holds every later change to. Run it only when a change in a
 * metric is intended, and say why in the commit message.
 *
 *   npx tsx scripts/evalBaseline.ts [--tolerance 0.02]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { collectRegressionMetrics, type Baseline } from '../src/cli/evalBaseline';
import { processIo } from '../src/cli/main';
import { DEFAULT_THRESHOLDS } from '../src/core/thresholds';

async function main(): Promise<void> {
	const root = resolve(__dirname, '..');
	const file = join(root, 'test/fixtures/eval/baseline.json');
	const { values } = parseArgs({ options: { tolerance: { type: 'string' } } });
	const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Baseline) : null;
	const tolerance = values.tolerance !== undefined ? Number(values.tolerance) : (previous?.tolerance ?? 0.02);
	if (!Number.isFinite(tolerance) || tolerance < 0) throw new Error('--tolerance must be a non-negative number');
	const { metrics, skipped } = await collectRegressionMetrics(root, DEFAULT_THRESHOLDS, {
		...processIo(),
		stdout: () => undefined,
	});
	// A baseline without CAsT would silently stop guarding it: refuse instead.
	if (skipped.length) throw new Error(`not writing a partial baseline:\n${skipped.join('\n')}`);
	const rounded = Object.fromEntries(Object.entries(metrics).map(([k, v]) => [k, Math.round(v * 10_000) / 10_000]));
	const baseline: Baseline = { tolerance, metrics: rounded };
	writeFileSync(file, JSON.stringify(baseline, null, '\t') + '\n');
	process.stdout.write(`wrote ${file}\n${JSON.stringify(baseline, null, 2)}\n`);
}

main().catch((e: unknown) => {
	process.stderr.write(`evalBaseline: ${e instanceof Error ? e.message : String(e)}\n`);
	process.exitCode = 1;
});

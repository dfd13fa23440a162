/**
 * Tuning loop for the learned gate: fits on the train files with each setting and scores the dev
 * file through the product's own `decideTurn` and `scoreGate` (the same code `gmem eval gate`
 * runs). Never give it the test split.
 *   npx tsx training/tuneGate.ts --dev DEV.jsonl [--l2 a,b] [--cast FILE] [--cast-weight a,b] [--errors] TRAIN.jsonl...
 * GATE_TH: a JSON object of threshold overrides at scoring time.
 */
import { decideTurn } from '../src/core/decide';
import { DEFAULT_THRESHOLDS } from '../src/core/thresholds';
import { predictionOf, scoreGate, type GateScore } from '../src/cli/evalGate';
import { readLabelledTurns } from '../src/cli/evalShared';
import type { CliIo } from '../src/cli/cliTypes';
import { fitGate } from './fitGate';
import type { GateWeights } from '../src/core/gate/gateModel';

const argv = process.argv.slice(2);
const take = (flag: string) => {
	const i = argv.indexOf(flag);
	if (i < 0) return undefined;
	const v = argv[i + 1];
	argv.splice(i, 2);
	return v;
};
const dev = take('--dev')!;
const cast = take('--cast');
const grid = (take('--l2') ?? '0.003,0.01,0.03').split(',').map(Number);
const castWeights = (take('--cast-weight') ?? '0.3').split(',').map(Number);
const showErrors = argv.includes('--errors');
const files = argv.filter((a) => !a.startsWith('--'));

const io = {
	cwd: process.cwd(),
	stderr: (s: string) => process.stderr.write(s),
	stdout: (s: string) => process.stdout.write(s),
} as unknown as CliIo;

function row(s: GateScore): string {
	const f = s.fields;
	return [
		`retrBA ${s.retrieval.balanced_accuracy.toFixed(3)}`,
		`path ${f.path.accuracy.toFixed(3)}`,
		`fuBA ${s.followup.balanced_accuracy.toFixed(3)}`,
		`trig ${f.trigger.accuracy.toFixed(3)}`,
		`tiers ${f.tiers.accuracy.toFixed(3)}`,
		`write ${f.write.accuracy.toFixed(3)}`,
		`refuse ${s.refusal.refused}/${s.refusal.labelled} false ${s.refusal.false_refusals}`,
	].join('  ');
}

async function main() {
	const { turns } = await readLabelledTurns(dev, io, 'gate');
	const score = (w: GateWeights | undefined, name: string) =>
		scoreGate(turns, {
			name,
			predict: (t) => {
				const r = decideTurn(
					{ history: t.history, utterance: t.utterance },
					{ thresholds: { ...DEFAULT_THRESHOLDS, ...JSON.parse(process.env.GATE_TH ?? '{}') }, gateWeights: w },
				);
				return predictionOf(r);
			},
		});
	console.log(`rules only          ${row(score({ version: 'none', heads: {} }, 'rules'))}`);
	let last: GateScore | null = null;
	for (const l2 of grid) {
		for (const cw of castWeights) {
			const w = fitGate(files, { l2, steps: 600, cast, castWeight: cw, minCount: 2 });
			last = score(w, 'learned');
			console.log(`l2 ${l2} cast ${cw}`.padEnd(20) + row(last));
		}
	}
	if (showErrors && last)
		for (const e of last.errors)
			console.log(
				`  ${e.id} ${e.field}: label ${e.label} got ${e.decided}  ${JSON.stringify(e.utterance.slice(0, 140))}`,
			);
}
void main();

/**
 * Cross-validation of the learned gate over the train and dev splits, folded by conversation
 * (K folds by the SHA-256 of the conversation id): fit on K−1 folds (+ the unit fixtures), score
 * the held-out fold through the product's `decideTurn` and `scoreGate`, report the pooled figures.
 * For choosing regularisation and features without touching the test split.
 *   npx tsx training/cvGate.ts [--k 5 | --by author] [--l2 0.003,0.01,0.03] SPLIT.jsonl... [-- FIXTURE.jsonl...]
 * `--by author` folds by the conversation id's author prefix ("b2-c07" → b2): leave one author out,
 * the question a new user's writing asks (conversation folds share every author's style).
 * Env: CV_MIN (feature min count, default 2; the product uses 3), CV_STEPS (600), GATE_TH (a JSON
 * object of threshold overrides at scoring time), CV_DETAIL=1|errors (confusions; path and
 * follow-up errors), GATE_DROP (see fitGate.ts).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideTurn } from '../src/core/decide';
import { DEFAULT_THRESHOLDS } from '../src/core/thresholds';
import { formatConfusion, predictionOf, scoreGate } from '../src/cli/evalGate';
import { readLabelledTurns, type LabelledTurn } from '../src/cli/evalShared';
import type { CliIo } from '../src/cli/cliTypes';
import { fitGate } from './fitGate';

const argv = process.argv.slice(2);
const opt = (flag: string, dflt: string) => {
	const i = argv.indexOf(flag);
	if (i < 0) return dflt;
	const v = argv[i + 1];
	argv.splice(i, 2);
	return v;
};
const byAuthor = opt('--by', 'conversation') === 'author';
let k = Number(opt('--k', '5'));
const grid = opt('--l2', '0.003,0.01,0.03').split(',').map(Number);
const minCount = Number(opt('--min-count', process.env.CV_MIN ?? '2'));
const sep = argv.indexOf('--');
const splits = sep < 0 ? argv : argv.slice(0, sep);
const fixtures = sep < 0 ? [] : argv.slice(sep + 1);
const io = {
	cwd: process.cwd(),
	stderr: (s: string) => process.stderr.write(s),
	stdout: (s: string) => process.stdout.write(s),
} as unknown as CliIo;

async function main() {
	const rows = splits.flatMap((f) =>
		readFileSync(f, 'utf8')
			.split('\n')
			.filter((l) => l.trim())
			.map((l) => JSON.parse(l) as { conversation_id: string }),
	);
	const authors = [...new Set(rows.map((r) => r.conversation_id.split('-')[0]))].sort();
	if (byAuthor) k = authors.length;
	const fold = (id: string) =>
		byAuthor
			? authors.indexOf(id.split('-')[0])
			: parseInt(createHash('sha256').update(id).digest('hex').slice(0, 8), 16) % k;
	const dir = mkdtempSync(join(tmpdir(), 'gate-cv-'));
	for (let f = 0; f < k; f++) {
		writeFileSync(
			join(dir, `train-${f}.jsonl`),
			rows
				.filter((r) => fold(r.conversation_id) !== f)
				.map((r) => JSON.stringify(r))
				.join('\n') + '\n',
		);
		writeFileSync(
			join(dir, `held-${f}.jsonl`),
			rows
				.filter((r) => fold(r.conversation_id) === f)
				.map((r) => JSON.stringify(r))
				.join('\n') + '\n',
		);
	}
	// CV_TH_GRID='[{"gate_followup_p":0.4},{"gate_followup_p":0.5}]': score each override set on the same fits.
	const thGrid: Record<string, number>[] = JSON.parse(process.env.CV_TH_GRID ?? '[{}]');
	for (const l2 of grid) {
		const fits = [];
		for (let f = 0; f < k; f++)
			fits.push({
				w: fitGate([join(dir, `train-${f}.jsonl`), ...fixtures], {
					l2,
					steps: Number(process.env.CV_STEPS ?? 600),
					castWeight: 0,
					minCount,
				}),
				held: (await readLabelledTurns(join(dir, `held-${f}.jsonl`), io, 'gate')).turns,
			});
		for (const th of thGrid) {
			if (thGrid.length > 1) console.log(`thresholds ${JSON.stringify(th)}`);
			const turns: LabelledTurn[] = [];
			const decided = new Map<LabelledTurn, ReturnType<typeof decideTurn>>();
			for (const { w, held } of fits) {
				for (const t of held) {
					turns.push(t);
					decided.set(
						t,
						decideTurn(
							{ history: t.history, utterance: t.utterance },
							{
								thresholds: { ...DEFAULT_THRESHOLDS, ...JSON.parse(process.env.GATE_TH ?? '{}'), ...th },
								gateWeights: w,
							},
						),
					);
				}
			}
			const s = scoreGate(turns, {
				name: 'cv',
				predict: (t) => predictionOf(decided.get(t)!),
			});
			if (process.env.CV_DETAIL) {
				console.log(formatConfusion('path', s.confusion.path));
				console.log(formatConfusion('trigger', s.confusion.trigger));
				if (process.env.CV_DETAIL === 'errors')
					for (const e of s.errors)
						if (e.field === 'path' || e.field === 'followup')
							console.log(`  ${e.field} ${e.id} ${e.label}->${e.decided} ${JSON.stringify(e.utterance.slice(0, 110))}`);
			}
			console.log(
				`l2 ${l2}  ${turns.length} turns  retrBA ${s.retrieval.balanced_accuracy.toFixed(3)}  path ${s.fields.path.accuracy.toFixed(3)}  fuBA ${s.followup.balanced_accuracy.toFixed(3)}  trig ${s.fields.trigger.accuracy.toFixed(3)}  tiers ${s.fields.tiers.accuracy.toFixed(3)}  write ${s.fields.write.accuracy.toFixed(3)}  refuse ${s.refusal.refused}/${s.refusal.labelled} false ${s.refusal.false_refusals}`,
			);
		}
	}
}
void main();

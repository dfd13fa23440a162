/**
 * Equivalence harness for speed work on the decision core (not a test, not an eval): runs the
 * product's decision over every gate corpus and writes a canonical dump — per turn the `gmem gate`
 * JSON object (trace included, stage timings zeroed by a constant clock), the learned gate's active
 * features in order, and each head's logits and per-feature contributions to 1e-9. Two builds
 * decide identically exactly when their dumps are byte-identical:
 *
 *   npm run gate:snapshot -- --root /work/main --out /tmp/gate-main.jsonl
 *   npm run gate:snapshot -- --out /tmp/gate-branch.jsonl
 *   cmp /tmp/gate-main.jsonl /tmp/gate-branch.jsonl
 *
 * --root DIR (default: the working directory) decides with DIR's sources (another checkout), so a
 * branch can be compared with main without this script existing there. The corpora are always read
 * from --data DIR (default: the working directory; CAsT from DIR/../shared or GMEM_SHARED), so both
 * builds decide the same turns even when their fixture folders differ. Histories are built as `gmem eval gate` builds them: a
 * message-per-line file accumulates each conversation's messages; a `gmem gate`-shaped line carries
 * its own. Labels are not written (they change when the gate is tuned; decisions must not).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Role = 'user' | 'assistant';
interface Turn {
	id: string | null;
	history: Array<{ role: Role; content: string }>;
	utterance: string;
	context?: unknown;
}

function args(argv: string[]): { root: string; data: string; out: string | null; shared: string } {
	const get = (name: string): string | null => {
		const i = argv.indexOf(name);
		if (i < 0) return null;
		const v = argv[i + 1];
		if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
		return v;
	};
	const root = resolve(get('--root') ?? process.cwd());
	const data = resolve(get('--data') ?? process.cwd());
	const shared = resolve(get('--shared') ?? process.env.GMEM_SHARED ?? join(data, '../shared'));
	return { root, data, out: get('--out'), shared };
}

/** The corpora, in a fixed order; a missing file is a loud error (a silent skip would hide a diff). */
function corpora(root: string, shared: string): string[] {
	const gateDir = join(root, 'test/fixtures/eval/gate');
	const files = readdirSync(gateDir)
		.filter((n) => n.endsWith('.jsonl'))
		.sort()
		.map((n) => join(gateDir, n));
	files.push(
		join(root, 'test/fixtures/eval/conversations.jsonl'),
		join(root, 'test/fixtures/gate_coding.jsonl'),
		join(root, 'test/fixtures/followup_coding.jsonl'),
		join(shared, 'eval/dev/followup_cast2019.jsonl'),
	);
	for (const f of files) if (!existsSync(f)) throw new Error(`gate:snapshot: corpus ${f} not found`);
	return files;
}

async function run(root: string, data: string, out: string | null, shared: string): Promise<void> {
	const load = (p: string) => import(pathToFileURL(join(root, p)).href);
	const { decideTurn, ruleDraft } = await load('src/core/decide.ts');
	const { gateFeatures } = await load('src/core/gate/gateFeatures.ts');
	const { compileGate, activeRows, HEAD_NAMES } = await load('src/core/gate/gateModel.ts');
	const { GATE_WEIGHTS } = await load('src/core/gate/gateWeights.ts');
	const { gateOutput, parseTurnLine } = await load('src/cli/commands/gateCommand.ts');
	const { DEFAULT_THRESHOLDS } = await load('src/core/thresholds.ts');

	const g = compileGate(GATE_WEIGHTS);
	const round = (x: number): number => Math.round(x * 1e9) / 1e9;
	const lines: string[] = [];
	let turns = 0;
	for (const file of corpora(data, shared)) {
		const name = relative(data, file);
		const histories = new Map<string, Turn['history']>();
		const text = readFileSync(file, 'utf8').split('\n');
		for (let ln = 0; ln < text.length; ln++) {
			if (text[ln].trim() === '') continue;
			const o = JSON.parse(text[ln]) as Record<string, unknown>;
			let turn: Turn;
			if (typeof o.utterance === 'string') {
				turn = parseTurnLine(o);
			} else {
				const cid = String(o.conversation_id);
				const h = histories.get(cid) ?? [];
				histories.set(cid, h);
				const role = o.role as Role;
				const content = String(o.content);
				if (role === 'user') {
					const id = typeof o.id === 'string' || typeof o.id === 'number' ? String(o.id) : `${cid}-${h.length + 1}`;
					turn = { id, history: h.slice(), utterance: content };
					h.push({ role, content });
				} else {
					h.push({ role, content });
					continue;
				}
			}
			const decision = gateOutput(decideTurn(turn, { thresholds: DEFAULT_THRESHOLDS, clock: () => 0 }));
			const { c, d } = ruleDraft(turn, DEFAULT_THRESHOLDS);
			const active: string[] = gateFeatures(c.text, turn.history, c, d);
			const rows: number[] = activeRows(g, active);
			const heads: Record<string, unknown> = {};
			for (const head of HEAD_NAMES as readonly string[]) {
				const h = g.heads[head];
				if (!h) continue;
				const logits = new Array<number>(h.k).fill(0);
				const contributions: Array<[string, number[]]> = [];
				for (const r of rows) {
					const ws: number[] = [];
					for (let k = 0; k < h.k; k++) {
						logits[k] += h.w[r * h.k + k];
						ws.push(round(h.w[r * h.k + k]));
					}
					if (ws.some((x) => x !== 0)) contributions.push([g.names[r], ws]);
				}
				heads[head] = { logits: logits.map(round), contributions };
			}
			lines.push(JSON.stringify({ file: name, line: ln + 1, decision, features: active, heads }));
			turns++;
		}
	}
	const body = lines.join('\n') + '\n';
	const sha = createHash('sha256').update(body).digest('hex');
	if (out) writeFileSync(out, body);
	else process.stdout.write(body);
	process.stderr.write(
		`gate:snapshot: ${turns} turns of ${data}, decided by ${root}, sha256 ${sha}${out ? ` → ${out}` : ''}\n`,
	);
}

const { root, data, out, shared } = args(process.argv.slice(2));
run(root, data, out, shared).catch((e: unknown) => {
	process.stderr.write(`gate:snapshot: ${e instanceof Error ? e.stack : String(e)}\n`);
	process.exitCode = 1;
});

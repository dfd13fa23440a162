/**
 * Fits the learned gate's linear heads (src/core/gate) on labelled conversations and writes
 * src/core/gate/gateWeights.ts. Deterministic: features come from the product's own code
 * (`ruleDraft` + `gateFeatures`), the optimiser is full-batch gradient descent from zero with a
 * fixed step count, and the output is rounded — the same data gives the same file, byte for byte.
 *
 *   npx tsx training/fitGate.ts [--l2 0.02] [--steps 600] [--cast-weight 0.3] [--out FILE] [--dry] FILE.jsonl...
 *
 * Train on the train split (and dev only for the final fit, if at all); never on test. CAsT 2019
 * (../shared, follow-up labels only) is added for the follow-up head with --cast FILE.
 * For ablations, GATE_DROP=head=prefix,… leaves out the features of a head that start with a
 * prefix (e.g. GATE_DROP=followup=fu_signal). GATE_HEADS=followup,path fits only those heads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ruleDraft } from '../src/core/decide';
import { gateFeatures } from '../src/core/gate/gateFeatures';
import type { GateWeights, HeadName, LinearHead } from '../src/core/gate/gateModel';
import { GATE_PRIORS } from '../src/core/gate/gatePriors';
import { ANSWER_PATHS, TRIGGERS, type HistoryTurn } from '../src/core/types';

interface Example {
	features: string[];
	label: Record<string, unknown>;
	history: number;
	weight: number;
}

function readConversations(file: string, weight: number): Example[] {
	const out: Example[] = [];
	const histories = new Map<string, HistoryTurn[]>();
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		if (!line.trim()) continue;
		const o = JSON.parse(line) as Record<string, unknown>;
		let history: HistoryTurn[];
		let utterance: string;
		if (typeof o.utterance === 'string') {
			history = ((o.history as unknown[]) ?? []).map((h) =>
				typeof h === 'string' ? { role: 'user', content: h } : (h as HistoryTurn),
			);
			utterance = o.utterance;
		} else {
			const id = String(o.conversation_id);
			const h = histories.get(id) ?? [];
			histories.set(id, h);
			if (o.role === 'assistant') {
				h.push({ role: 'assistant', content: String(o.content) });
				continue;
			}
			history = h.slice();
			utterance = String(o.content);
			h.push({ role: 'user', content: utterance });
		}
		const input = { history, utterance };
		const { c, d } = ruleDraft(input);
		out.push({ features: gateFeatures(c.text, history, c, d), label: labelsOf(o), history: history.length, weight });
	}
	return out;
}

/** The labels of a row: top-level fields, or a unit fixture's `expect` object (`retrieve` = should_retrieve). */
function labelsOf(o: Record<string, unknown>): Record<string, unknown> {
	const e = o.expect as Record<string, unknown> | undefined;
	if (!e) return o;
	const l: Record<string, unknown> = { ...e };
	if (typeof e.retrieve === 'boolean' && !l.tiers && e.retrieve === false) l.tiers = [];
	if (typeof e.is_followup === 'boolean') l.depends_on_context = e.is_followup;
	if (!l.write && typeof l.trigger === 'string' && ['question', 'recall', 'greeting', 'ack'].includes(l.trigger))
		l.write = [];
	return l;
}

interface HeadData {
	classes: readonly string[];
	rows: Array<{ features: string[]; y: number; weight: number }>;
}

const NO_SEARCH = new Set(['direct', 'clarify', 'refuse']);
const NO_RETRIEVE = new Set(['correction', 'instruction', 'statement', 'greeting', 'ack']);

/** Which examples train which head, and their class index (the rubric's invariants decide the rest). */
function headData(examples: Example[]): Record<HeadName, HeadData> {
	const yes = ['no', 'yes'] as const;
	const heads: Record<HeadName, HeadData> = {
		followup: { classes: yes, rows: [] },
		trigger: { classes: TRIGGERS, rows: [] },
		path: { classes: ANSWER_PATHS.filter((p) => p !== 'refuse'), rows: [] },
		tier_workspace: { classes: yes, rows: [] },
		tier_research: { classes: yes, rows: [] },
		tier_profile: { classes: yes, rows: [] },
		write_research: { classes: yes, rows: [] },
		write_profile: { classes: yes, rows: [] },
	};
	for (const e of examples) {
		const l = e.label;
		const row = (y: number) => ({ features: e.features, y, weight: e.weight });
		if (typeof l.depends_on_context === 'boolean' && e.history > 0)
			heads.followup.rows.push(row(l.depends_on_context ? 1 : 0));
		if (typeof l.trigger === 'string') heads.trigger.rows.push(row(TRIGGERS.indexOf(l.trigger as never)));
		if (typeof l.path === 'string' && l.path !== 'refuse')
			heads.path.rows.push(row(heads.path.classes.indexOf(l.path)));
		const tiers = Array.isArray(l.tiers) ? (l.tiers as string[]) : null;
		if (tiers && typeof l.path === 'string' && !NO_SEARCH.has(l.path) && !NO_RETRIEVE.has(String(l.trigger))) {
			for (const t of ['workspace', 'research', 'profile'] as const)
				heads[`tier_${t}`].rows.push(row(tiers.includes(t) ? 1 : 0));
		}
		const write = Array.isArray(l.write) ? (l.write as string[]) : null;
		if (write && (l.trigger === 'correction' || l.trigger === 'statement')) {
			for (const t of ['research', 'profile'] as const) heads[`write_${t}`].rows.push(row(write.includes(t) ? 1 : 0));
		}
	}
	return heads;
}

/** Softmax regression with L2 (bias unpenalised), balanced class weights, plain gradient descent. */
function fitHead(name: HeadName, data: HeadData, l2: number, steps: number, minCount: number): LinearHead {
	const k = data.classes.length;
	const counts = new Map<string, number>();
	for (const r of data.rows) for (const f of r.features) counts.set(f, (counts.get(f) ?? 0) + 1);
	const priors = GATE_PRIORS.filter((p) => p.head === name);
	for (const p of priors) counts.set(p.feature, Math.max(counts.get(p.feature) ?? 0, minCount));
	const drop = (process.env.GATE_DROP ?? '')
		.split(',')
		.filter(Boolean)
		.map((d) => d.split('='));
	// `fuonly_` features are the follow-up head's alone (src/core/gate/followupFeatures.ts).
	const dropped = (f: string) =>
		(name !== 'followup' && f.startsWith('fuonly_')) || drop.some(([h, prefix]) => h === name && f.startsWith(prefix));
	const names = [...counts.keys()]
		.filter((f) => (f === 'bias' || (counts.get(f) ?? 0) >= minCount) && !dropped(f))
		.sort();
	const index = new Map(names.map((n, i) => [n, i]));
	const rows = data.rows.map((r) => ({
		idx: r.features.map((f) => index.get(f)).filter((i): i is number => i !== undefined),
		y: r.y,
		weight: r.weight,
	}));
	// Balanced class weights (sqrt, so rare classes count more without dominating).
	const classN = new Array<number>(k).fill(0);
	for (const r of rows) classN[r.y] += r.weight;
	const total = classN.reduce((a, b) => a + b, 0);
	const cw = classN.map((n) => (n > 0 ? Math.sqrt(total / (k * n)) : 0));
	// Start at the rubric's priors and regularise towards them (gatePriors.ts).
	const P = names.map(() => new Array<number>(k).fill(0));
	for (const p of priors) {
		const i = index.get(p.feature);
		if (i === undefined) continue;
		for (const [cls, v] of Object.entries(p.logits))
			if (data.classes.includes(cls)) P[i][data.classes.indexOf(cls)] += v;
	}
	const W = P.map((row) => row.slice());
	const G = names.map(() => new Array<number>(k).fill(0));
	const norm = rows.reduce((a, r) => a + r.weight * cw[r.y], 0) || 1;
	const lr = 0.5;
	for (let step = 0; step < steps; step++) {
		for (const g of G) g.fill(0);
		for (const r of rows) {
			const logits = new Array<number>(k).fill(0);
			for (const i of r.idx) for (let c = 0; c < k; c++) logits[c] += W[i][c];
			const m = Math.max(...logits);
			let z = 0;
			const p = logits.map((l) => {
				const e = Math.exp(l - m);
				z += e;
				return e;
			});
			const s = (r.weight * cw[r.y]) / norm;
			for (let c = 0; c < k; c++) {
				const grad = (p[c] / z - (c === r.y ? 1 : 0)) * s;
				for (const i of r.idx) G[i][c] += grad;
			}
		}
		const bias = index.get('bias');
		for (let i = 0; i < names.length; i++) {
			for (let c = 0; c < k; c++) {
				const reg = i === bias ? 0 : l2 * (W[i][c] - P[i][c]);
				W[i][c] -= lr * (G[i][c] + reg);
			}
		}
	}
	const weights: Record<string, number[]> = {};
	for (let i = 0; i < names.length; i++) {
		// Centre each feature's weights across classes: softmax is invariant to it, and it reads better.
		const mean = W[i].reduce((a, b) => a + b, 0) / k;
		const w = W[i].map((v) => Math.round((v - mean) * 100) / 100);
		if (w.some((v) => Math.abs(v) >= 0.01)) weights[names[i]] = w;
	}
	return { classes: data.classes, weights };
}

function parseArgs(argv: string[]) {
	const o = {
		l2: 0.02,
		steps: 600,
		castWeight: 0.3,
		cast: '',
		out: 'src/core/gate/gateWeights.ts',
		dry: false,
		minCount: 2,
		files: [] as string[],
	};
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--l2') o.l2 = Number(argv[++i]);
		else if (a === '--steps') o.steps = Number(argv[++i]);
		else if (a === '--cast-weight') o.castWeight = Number(argv[++i]);
		else if (a === '--cast') o.cast = argv[++i];
		else if (a === '--out') o.out = argv[++i];
		else if (a === '--min-count') o.minCount = Number(argv[++i]);
		else if (a === '--dry') o.dry = true;
		else o.files.push(a);
	}
	return o;
}

/** Fits every head; exported for the determinism test. */
export function fitGate(
	files: readonly string[],
	opts: { l2: number; steps: number; cast?: string; castWeight: number; minCount: number },
): GateWeights {
	const examples = files.flatMap((f) => readConversations(f, 1));
	if (opts.cast) examples.push(...readConversations(opts.cast, opts.castWeight));
	const data = headData(examples);
	const heads: GateWeights['heads'] = {};
	// GATE_HEADS=followup fits only the listed heads (faster experiments; the others fall back to the rules).
	const only = (process.env.GATE_HEADS ?? '').split(',').filter(Boolean);
	for (const name of Object.keys(data) as HeadName[]) {
		if (only.length && !only.includes(name)) continue;
		if (data[name].rows.length >= 10) heads[name] = fitHead(name, data[name], opts.l2, opts.steps, opts.minCount);
	}
	const names = files.map((f) => f.split('/').slice(-2).join('/'));
	return {
		version: `fit l2=${opts.l2} steps=${opts.steps} on ${names.join(', ')}${opts.cast ? ` + CAsT 2019 follow-up (weight ${opts.castWeight})` : ''}`,
		heads,
	};
}

export function renderWeights(w: GateWeights): string {
	const lines = [
		'/**',
		' * GENERATED by training/fitGate.ts — do not edit by hand. Re-fit with `npm run fit:gate`.',
		` * ${w.version}`,
		' */',
		"import type { GateWeights } from './gateModel';",
		'',
		'export const GATE_WEIGHTS: GateWeights = {',
		`\tversion: ${JSON.stringify(w.version)},`,
		'\theads: {',
	];
	for (const [name, head] of Object.entries(w.heads)) {
		lines.push(`\t\t${name}: {`, `\t\t\tclasses: ${JSON.stringify(head.classes)},`, '\t\t\tweights: {');
		for (const [f, ws] of Object.entries(head.weights)) lines.push(`\t\t\t\t${JSON.stringify(f)}: [${ws.join(', ')}],`);
		lines.push('\t\t\t},', '\t\t},');
	}
	lines.push('\t},', '};', '');
	return lines.join('\n');
}

if (process.argv[1]?.endsWith('fitGate.ts')) {
	const o = parseArgs(process.argv.slice(2));
	const w = fitGate(o.files, o);
	const n = Object.values(w.heads).reduce((a, h) => a + Object.keys(h!.weights).length, 0);
	if (!o.dry) writeFileSync(o.out, renderWeights(w));
	process.stderr.write(
		`${o.dry ? 'would write' : 'wrote'} ${o.out}: ${Object.keys(w.heads).length} heads, ${n} feature rows\n`,
	);
}

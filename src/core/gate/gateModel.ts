/**
 * Linear heads over named binary features: each head is a softmax over its classes, with one
 * weight per (feature, class), fitted offline by training/fitGate.ts (deterministic L2-regularised
 * logistic regression, started from the rubric's priors) and stored in gateWeights.ts. At first use
 * the table is compiled into one feature index and a dense matrix per head, so a decision costs one
 * map lookup per active feature and a few multiply-adds per head — no model call.
 */

/** The decisions the gate learns. Binary heads have classes ['no', 'yes']. */
export const HEAD_NAMES = [
	'followup',
	'trigger',
	'path',
	'tier_workspace',
	'tier_research',
	'tier_profile',
	'write_research',
	'write_profile',
] as const;
export type HeadName = (typeof HEAD_NAMES)[number];

export interface LinearHead {
	classes: readonly string[];
	/** feature name → one weight per class; a feature absent here weighs nothing. */
	weights: Readonly<Record<string, readonly number[]>>;
}

export interface GateWeights {
	/** Which fit produced the table (data, split, regularisation), for the trace and the docs. */
	version: string;
	heads: Partial<Record<HeadName, LinearHead>>;
}

/** One head's verdict with the features that moved it most (for the trace). */
export interface HeadScore {
	label: string;
	/** Softmax probability of the label. */
	p: number;
	/** Probability of every class, in head order. */
	probs: number[];
	/** Largest contributions to (label − runner-up), feature → logit difference, at most `top`. */
	top: Array<[string, number]>;
}

interface CompiledHead {
	classes: readonly string[];
	k: number;
	/** Row f × k + c: weight of feature f for class c (0 where the head does not use f). */
	w: Float64Array;
}

/** A weights table ready to score: one shared feature index, a dense matrix per head. */
export interface CompiledGate {
	names: string[];
	index: Map<string, number>;
	heads: Partial<Record<HeadName, CompiledHead>>;
}

const compiled = new WeakMap<GateWeights, CompiledGate>();

/** Compiles (once per table) the feature index and the per-head matrices. */
export function compileGate(weights: GateWeights): CompiledGate {
	const cached = compiled.get(weights);
	if (cached) return cached;
	const index = new Map<string, number>();
	const names: string[] = [];
	for (const head of Object.values(weights.heads)) {
		for (const f of Object.keys(head!.weights)) {
			if (!index.has(f)) {
				index.set(f, names.length);
				names.push(f);
			}
		}
	}
	const heads: CompiledGate['heads'] = {};
	for (const [name, head] of Object.entries(weights.heads) as Array<[HeadName, LinearHead]>) {
		const k = head.classes.length;
		const w = new Float64Array(names.length * k);
		for (const [f, ws] of Object.entries(head.weights)) {
			const row = index.get(f)! * k;
			for (let c = 0; c < k; c++) w[row + c] = ws[c] ?? 0;
		}
		heads[name] = { classes: head.classes, k, w };
	}
	const g = { names, index, heads };
	compiled.set(weights, g);
	return g;
}

/** The indices of the active features the table knows (unknown features weigh nothing). */
export function activeRows(g: CompiledGate, active: readonly string[]): number[] {
	const rows: number[] = [];
	for (const f of active) {
		const i = g.index.get(f);
		if (i !== undefined) rows.push(i);
	}
	return rows;
}

/** Scores one head on the active rows. */
export function scoreHead(g: CompiledGate, name: HeadName, rows: readonly number[], top = 5): HeadScore | null {
	const h = g.heads[name];
	if (!h) return null;
	const { k, w } = h;
	// Plain loops over typed arrays, no closures or temporary tuples: this runs for up to eight heads
	// per decision. The arithmetic (and its order) is the same as a map/sort formulation.
	const logits = new Float64Array(k);
	const n = rows.length;
	for (let i = 0; i < n; i++) {
		const base = rows[i] * k;
		for (let c = 0; c < k; c++) logits[c] += w[base + c];
	}
	let best = 0;
	for (let c = 1; c < k; c++) if (logits[c] > logits[best]) best = c;
	let second = best === 0 ? 1 : 0;
	for (let c = 0; c < k; c++) if (c !== best && logits[c] > logits[second]) second = c;
	let z = 0;
	const probs = new Array<number>(k);
	for (let c = 0; c < k; c++) {
		const e = Math.exp(logits[c] - logits[best]);
		z += e;
		probs[c] = e;
	}
	for (let c = 0; c < k; c++) probs[c] /= z;
	// The few strongest reasons, kept in a small sorted array (no full sort of every feature).
	const topRows: Array<[string, number]> = [];
	for (let j = 0; j < n; j++) {
		const r = rows[j];
		const d = w[r * k + best] - w[r * k + second];
		if (d <= 0 || (topRows.length === top && d <= topRows[top - 1][1])) continue;
		let i = topRows.length === top ? top - 1 : topRows.length;
		const entry: [string, number] = [g.names[r], d];
		while (i > 0 && topRows[i - 1][1] < d) {
			topRows[i] = topRows[i - 1];
			i--;
		}
		topRows[i] = entry;
	}
	for (const t of topRows) t[1] = Math.round(t[1] * 100) / 100;
	return { label: h.classes[best], p: probs[best], probs, top: topRows };
}

/** P(class) of a head's score, by class name (P(yes) of a binary head). */
export function pOf(g: CompiledGate, name: HeadName, s: HeadScore, cls = 'yes'): number {
	const i = g.heads[name]?.classes.indexOf(cls) ?? -1;
	return i < 0 ? 0 : s.probs[i];
}

/** No learned heads: the rule stages (and the hard refusal rules) decide alone — for tests of the rule layer. */
export const RULES_ONLY: GateWeights = Object.freeze({ version: 'rules only', heads: {} });

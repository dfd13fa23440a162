/**
 * Linear heads over named binary features: each head is a softmax over its classes, with one
 * weight per (feature, class), fitted offline by training/fitGate.ts (deterministic L2-regularised
 * logistic regression) and stored in gateWeights.ts. Scoring is a sum over the active features —
 * no model call, no allocation beyond the result.
 */

/** The decisions the gate learns. Binary heads have classes ['no', 'yes']. */
export const HEAD_NAMES = ['followup', 'trigger', 'path', 'tier_workspace', 'tier_research', 'tier_profile', 'write_research', 'write_profile'] as const;
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

/** Scores one head on the active features. */
export function scoreHead(head: LinearHead, active: readonly string[], top = 5): HeadScore {
	const k = head.classes.length;
	const logits = new Array<number>(k).fill(0);
	for (const name of active) {
		const w = head.weights[name];
		if (w) for (let i = 0; i < k; i++) logits[i] += w[i];
	}
	let best = 0;
	for (let i = 1; i < k; i++) if (logits[i] > logits[best]) best = i;
	let second = best === 0 ? 1 : 0;
	for (let i = 0; i < k; i++) if (i !== best && logits[i] > logits[second]) second = i;
	let z = 0;
	const probs = logits.map((l) => {
		const e = Math.exp(l - logits[best]);
		z += e;
		return e;
	});
	for (let i = 0; i < k; i++) probs[i] /= z;
	const contrib: Array<[string, number]> = [];
	for (const name of active) {
		const w = head.weights[name];
		if (!w) continue;
		const d = w[best] - w[second];
		if (d > 0) contrib.push([name, Math.round(d * 100) / 100]);
	}
	contrib.sort((a, b) => b[1] - a[1]);
	return { label: head.classes[best], p: probs[best], probs, top: contrib.slice(0, top) };
}

/** P(yes) of a binary head. */
export function pYes(s: HeadScore, head: LinearHead): number {
	return s.probs[head.classes.indexOf('yes')] ?? 0;
}

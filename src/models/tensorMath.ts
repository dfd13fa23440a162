/**
 * Pure helpers around inference: batching, padding, pooling and the logit → probability map.
 * Kept free of onnxruntime so they can be unit-tested with hand-computed numbers.
 */
import type { EncodedInput } from './tokenizer';

/**
 * Groups input indices into batches of at most `cap`, sorted by length (longest first).
 * A batch pads to its longest member, so mixing a 10-token and a 250-token text costs 25× the
 * compute for the short one; sorting first cut embedding time ~3× in the measured stand-ins.
 * Ties keep input order so the grouping is deterministic.
 */
export function lengthSortedBatches(lengths: readonly number[], cap: number): number[][] {
	const size = Math.max(1, Math.floor(cap));
	const order = lengths.map((_, i) => i).sort((a, b) => lengths[b] - lengths[a] || a - b);
	const batches: number[][] = [];
	for (let i = 0; i < order.length; i += size) batches.push(order.slice(i, i + size));
	return batches;
}

/** Row-major int64 feeds for one padded batch. */
export interface PaddedBatch {
	batch: number;
	seq: number;
	inputIds: BigInt64Array;
	attentionMask: BigInt64Array;
	tokenTypeIds: BigInt64Array;
}

/** Pads a batch to its longest member; padding has mask 0 and the tokenizer's pad id. */
export function padBatch(items: readonly EncodedInput[], padId: number): PaddedBatch {
	const seq = Math.max(1, ...items.map((e) => e.ids.length));
	const n = items.length * seq;
	const inputIds = new BigInt64Array(n).fill(BigInt(padId));
	const attentionMask = new BigInt64Array(n);
	const tokenTypeIds = new BigInt64Array(n);
	items.forEach((e, r) => {
		for (let t = 0; t < e.ids.length; t++) {
			inputIds[r * seq + t] = BigInt(e.ids[t]);
			attentionMask[r * seq + t] = 1n;
			tokenTypeIds[r * seq + t] = BigInt(e.typeIds[t] ?? 0);
		}
	});
	return { batch: items.length, seq, inputIds, attentionMask, tokenTypeIds };
}

/**
 * Masked mean over the token axis of `hidden` [B,S,H], then L2 normalisation (sentence-transformers'
 * recipe for all-MiniLM-L6-v2). A row with no real tokens or zero norm stays all zeros.
 */
export function meanPool(
	hidden: Float32Array,
	batch: number,
	seq: number,
	dim: number,
	mask: BigInt64Array,
	normalize: boolean,
): Float32Array[] {
	const out: Float32Array[] = [];
	for (let b = 0; b < batch; b++) {
		const v = new Float32Array(dim);
		let count = 0;
		for (let s = 0; s < seq; s++) {
			if (mask[b * seq + s] === 0n) continue;
			count++;
			const base = (b * seq + s) * dim;
			for (let h = 0; h < dim; h++) v[h] += hidden[base + h];
		}
		if (count > 0) for (let h = 0; h < dim; h++) v[h] /= count;
		out.push(normalize ? l2Normalize(v) : v);
	}
	return out;
}

/** The [CLS] token's vector per row of `hidden` [B,S,H] (for models pooled that way). */
export function clsPool(
	hidden: Float32Array,
	batch: number,
	seq: number,
	dim: number,
	normalize: boolean,
): Float32Array[] {
	const out: Float32Array[] = [];
	for (let b = 0; b < batch; b++) {
		const v = hidden.slice(b * seq * dim, b * seq * dim + dim);
		out.push(normalize ? l2Normalize(v) : v);
	}
	return out;
}

/** Scales `v` in place to unit L2 norm (a zero vector stays zero) and returns it. */
export function l2Normalize(v: Float32Array): Float32Array {
	let sq = 0;
	for (const x of v) sq += x * x;
	const norm = Math.sqrt(sq);
	if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
	return v;
}

/**
 * Logit → probability. ms-marco cross-encoders are trained with a binary cross-entropy head, so
 * the sigmoid of the logit is the model's own relevance probability (sentence-transformers applies
 * the same map by default for single-logit cross-encoders).
 */
export function sigmoid(x: number): number {
	return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

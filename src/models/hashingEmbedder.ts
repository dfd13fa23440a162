/**
 * A deterministic hashing embedder for tests and benchmarks — NOT SEMANTIC. Each token (and each
 * adjacent token pair) is hashed into one of `dim` buckets with a hashed sign, then the vector is
 * L2-normalised. Cosine between two vectors therefore measures shared words, nothing more; it lets
 * the vector arm, the HNSW index and fusion be exercised without a model, and must never be
 * presented to a user as semantic search.
 */
import type { Embedder } from './embedder';

/** Splits text into tokens; the retrieval layer injects its code-aware tokeniser. */
export type Tokenize = (text: string) => string[];

const defaultTokenize: Tokenize = (text) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

// FNV-1a, 32 bit: fast, stable across platforms and runs.
function fnv1a(s: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < s.length; i++) {
		h ^= s.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

/** The hashing test embedder (see the file comment: not semantic). */
export class HashingEmbedder implements Embedder {
	readonly id: string;
	readonly semantic = false;

	constructor(
		readonly dim = 384,
		private readonly tokenize: Tokenize = defaultTokenize,
	) {
		this.id = `test/hashing-${dim}`;
	}

	/** Embeds synchronously under the async interface; an empty text gives the zero vector. */
	async embed(texts: readonly string[]): Promise<Float32Array[]> {
		return texts.map((t) => this.embedOne(t));
	}

	private embedOne(text: string): Float32Array {
		const v = new Float32Array(this.dim);
		const tokens = this.tokenize(text);
		const add = (feature: string, weight: number) => {
			const h = fnv1a(feature);
			v[h % this.dim] += (h & 0x80000000 ? -1 : 1) * weight;
		};
		for (let i = 0; i < tokens.length; i++) {
			add(tokens[i], 1);
			if (i + 1 < tokens.length) add(`${tokens[i]} ${tokens[i + 1]}`, 0.5);
		}
		let norm = 0;
		for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
		norm = Math.sqrt(norm);
		if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
		return v;
	}
}

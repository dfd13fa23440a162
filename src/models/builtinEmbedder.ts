/**
 * The built-in code-search embedder: a static token table trained by this project (training/,
 * MODEL_CARD.md) and shipped in the .vsix under dist/models/builtin/, so the vector arm works
 * offline with no download. A text's vector is the weighted sum of its tokens' rows, L2-normalised;
 * that is a table lookup, so it runs in plain TypeScript (no native runtime) fast enough for the
 * index worker and the chat path. The table is int8 with one float32 scale per row.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Embedder } from './embedder';
import { encodeStatic, type StaticTokenizerSpec } from './staticTokenizer';

/** The id stored with every vector this model produced (model + version). */
export const BUILTIN_EMBEDDER_ID = 'gmem-static-code-v2';

const FORMAT = 'gmem-static-table/1';

/** config.json as training/export.py writes it. */
interface BuiltinConfig {
	id: string;
	format: string;
	dim: number;
	output_dim: number;
	rows: number;
	vocab_size: number;
	buckets: number;
	ngram: number;
	max_word_chars: number;
	max_words: number;
	table_sha256: string;
}

/**
 * The folder with config.json, vocab.txt and table.bin: `$GMEM_BUILTIN_MODEL_DIR`, else
 * models/builtin/ beside the running bundle (dist/), else the repository's models/builtin/
 * (running from TypeScript sources).
 */
export function builtinModelDir(): string {
	const override = process.env.GMEM_BUILTIN_MODEL_DIR;
	if (override) return override;
	const beside = join(__dirname, 'models', 'builtin');
	if (existsSync(join(beside, 'config.json'))) return beside;
	return join(__dirname, '..', '..', 'models', 'builtin');
}

function checkConfig(c: BuiltinConfig, dir: string): void {
	const bad = (why: string) => new Error(`built-in embedder in ${dir}: ${why}`);
	if (c.format !== FORMAT) throw bad(`config.json format is "${c.format}", expected "${FORMAT}"`);
	if (c.id !== BUILTIN_EMBEDDER_ID)
		throw bad(`config.json id is "${c.id}", this build expects "${BUILTIN_EMBEDDER_ID}"`);
	for (const k of ['dim', 'output_dim', 'rows', 'vocab_size', 'ngram', 'max_word_chars', 'max_words'] as const) {
		if (!Number.isInteger(c[k]) || c[k] < 1) throw bad(`config.json "${k}" must be a positive integer`);
	}
	if (!Number.isInteger(c.buckets) || c.buckets < 0 || c.rows !== c.vocab_size + c.buckets)
		throw bad('config.json rows must equal vocab_size + buckets');
	if (c.output_dim < c.dim) throw bad('config.json output_dim must be at least dim');
}

/** The loaded table and tokeniser. */
class StaticTableEmbedder implements Embedder {
	readonly id = BUILTIN_EMBEDDER_ID;
	readonly semantic = true;
	readonly dim: number;

	constructor(
		private readonly c: BuiltinConfig,
		private readonly spec: StaticTokenizerSpec,
		private readonly table: Int8Array,
		private readonly scales: Float32Array,
	) {
		// The store's vectors are output_dim wide; the extra dimensions stay zero (cosine unchanged).
		this.dim = c.output_dim;
	}

	async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
		const out: Float32Array[] = [];
		for (const t of texts) {
			if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('embedding cancelled');
			out.push(this.embedOne(t, this.c.max_words));
		}
		return out;
	}

	private embedOne(text: string, maxWords: number): Float32Array {
		const d = this.c.dim;
		const v = new Float32Array(this.dim);
		const { ids, weights } = encodeStatic(text, this.spec, maxWords);
		for (let k = 0; k < ids.length; k++) {
			const row = ids[k]!;
			const s = this.scales[row]! * weights[k]!;
			const off = row * d;
			for (let j = 0; j < d; j++) v[j]! += this.table[off + j]! * s;
		}
		let n = 0;
		for (let j = 0; j < d; j++) n += v[j]! * v[j]!;
		if (n > 0) {
			const inv = 1 / Math.sqrt(n);
			for (let j = 0; j < d; j++) v[j]! *= inv;
		}
		return v;
	}
}

/**
 * Loads the built-in embedder from `dir` (default: builtinModelDir()). Throws a clear error when a
 * file is missing, malformed, or does not match config.json (size or SHA-256).
 */
export async function loadBuiltinEmbedder(dir: string = builtinModelDir()): Promise<Embedder> {
	const read = async (file: string) => {
		try {
			return await readFile(join(dir, file));
		} catch (e) {
			throw new Error(
				`built-in embedder: cannot read ${join(dir, file)} (${e instanceof Error ? e.message : String(e)})`,
			);
		}
	};
	const [configBuf, vocabBuf, blob] = await Promise.all([read('config.json'), read('vocab.txt'), read('table.bin')]);
	let c: BuiltinConfig;
	try {
		c = JSON.parse(configBuf.toString('utf8')) as BuiltinConfig;
	} catch (e) {
		throw new Error(
			`built-in embedder in ${dir}: config.json is not JSON (${e instanceof Error ? e.message : String(e)})`,
		);
	}
	checkConfig(c, dir);
	const words = vocabBuf.toString('utf8').split('\n');
	if (words[words.length - 1] === '') words.pop();
	if (words.length !== c.vocab_size)
		throw new Error(
			`built-in embedder in ${dir}: vocab.txt has ${words.length} words, config.json says ${c.vocab_size}`,
		);
	const expected = c.rows * c.dim + c.rows * 4;
	if (blob.length !== expected)
		throw new Error(`built-in embedder in ${dir}: table.bin is ${blob.length} bytes, expected ${expected}`);
	const sha = createHash('sha256').update(blob).digest('hex');
	if (sha !== c.table_sha256)
		throw new Error(`built-in embedder in ${dir}: table.bin SHA-256 ${sha} does not match config.json`);
	// Copy into aligned buffers: a Buffer may sit at any offset of a shared pool.
	const table = new Int8Array(c.rows * c.dim);
	table.set(new Int8Array(blob.buffer, blob.byteOffset, c.rows * c.dim));
	const scales = new Float32Array(c.rows);
	const view = new DataView(blob.buffer, blob.byteOffset + c.rows * c.dim, c.rows * 4);
	for (let r = 0; r < c.rows; r++) scales[r] = view.getFloat32(r * 4, true);
	const vocab = new Map(words.map((w, i) => [w, i]));
	return new StaticTableEmbedder(
		c,
		{ vocab, buckets: c.buckets, ngram: c.ngram, maxWordChars: c.max_word_chars },
		table,
		scales,
	);
}

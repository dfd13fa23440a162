/**
 * The built-in reranker "gmem-rerank-linear-v1" (issue 8): a linear model over three features of
 * each (query, chunk) pair in the hybrid pool, trained by training/train_reranker.py on held-out
 * docstring pairs and shipped as dist/models/builtin/reranker.json beside the built-in embedder:
 *
 *   coverage  share of the query's distinct non-stop words present in the chunk's words;
 *   fts       the chunk's full-text arm score / the best full-text score in the pool (0: not in that arm);
 *   cosine    the chunk's vector-arm cosine (0: not in that arm).
 *
 * Its scores ORDER the pool and nothing more (they are not probabilities): results carry
 * `calibrated: false`, so the evidence stage keeps its cosine floors. The weights were fitted on one
 * embedder's cosines; with another embedder's vectors (or none) it passes through and says why.
 * Never throws into a turn: a missing or corrupt weights file is a passthrough with the reason.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { queryWordCount } from '../core/text/queryWords';
import { builtinModelDir } from './builtinEmbedder';
import type { Reranker, RerankContext, RerankResult } from './reranker';
import { staticWords } from './staticTokenizer';

export const LINEAR_RERANKER_ID = 'gmem-rerank-linear-v1';
export const LINEAR_RERANKER_FILE = 'reranker.json';
const FORMAT = 'gmem-linear-reranker/1';
/** The features this code computes, in the order the weights apply to. */
export const LINEAR_FEATURES = ['coverage', 'fts', 'cosine'] as const;

/** reranker.json, validated. */
export interface LinearRerankerWeights {
	id: string;
	/** The embedder whose cosines the weights were fitted on. */
	embedder: string;
	weights: readonly number[];
	stopwords: ReadonlySet<string>;
}

/** Checks a parsed reranker.json; throws an Error naming the file and the bad field. */
export function parseLinearRerankerWeights(raw: unknown, where: string): LinearRerankerWeights {
	const bad = (why: string) => new Error(`built-in reranker ${where}: ${why}`);
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw bad('not a JSON object');
	const o = raw as Record<string, unknown>;
	if (o.format !== FORMAT) throw bad(`format is ${JSON.stringify(o.format)}, expected "${FORMAT}"`);
	if (o.id !== LINEAR_RERANKER_ID)
		throw bad(`id is ${JSON.stringify(o.id)}, this build expects "${LINEAR_RERANKER_ID}"`);
	if (typeof o.embedder !== 'string' || !o.embedder)
		throw bad('"embedder" must name the embedder the weights were trained with');
	if (
		!Array.isArray(o.features) ||
		o.features.length !== LINEAR_FEATURES.length ||
		o.features.some((f, i) => f !== LINEAR_FEATURES[i])
	) {
		throw bad(`"features" must be ${JSON.stringify(LINEAR_FEATURES)}, got ${JSON.stringify(o.features)}`);
	}
	if (
		!Array.isArray(o.weights) ||
		o.weights.length !== LINEAR_FEATURES.length ||
		!o.weights.every((w) => typeof w === 'number' && Number.isFinite(w))
	) {
		throw bad(`"weights" must be ${LINEAR_FEATURES.length} finite numbers`);
	}
	if (!Array.isArray(o.stopwords) || !o.stopwords.every((w) => typeof w === 'string'))
		throw bad('"stopwords" must be an array of strings');
	return {
		id: o.id,
		embedder: o.embedder,
		weights: o.weights as number[],
		stopwords: new Set(o.stopwords as string[]),
	};
}

/** Reads and checks `dir/reranker.json` (default: the built-in model folder); throws a clear Error. */
export async function loadLinearRerankerWeights(dir: string = builtinModelDir()): Promise<LinearRerankerWeights> {
	const path = join(dir, LINEAR_RERANKER_FILE);
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (e) {
		throw new Error(`built-in reranker: cannot read ${path} (${e instanceof Error ? e.message : String(e)})`);
	}
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch (e) {
		throw new Error(`built-in reranker ${path}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
	}
	return parseLinearRerankerWeights(raw, path);
}

/** The query's distinct non-stop words in order (all its distinct words when each is a stop word). */
export function queryWords(query: string, stopwords: ReadonlySet<string>): string[] {
	const all = [...new Set(staticWords(query))];
	const content = all.filter((w) => !stopwords.has(w));
	return content.length ? content : all;
}

/**
 * The feature rows [coverage, fts, cosine] of each passage (training/train_reranker.py computes
 * the same): `fts` is divided by the best full-text score among these passages.
 */
export function linearFeatures(
	query: string,
	passages: readonly string[],
	arms: RerankContext['arms'],
	stopwords: ReadonlySet<string>,
): number[][] {
	const qw = queryWords(query, stopwords);
	let ftsMax = 0;
	for (const a of arms) if (a.fts && a.fts.score > ftsMax) ftsMax = a.fts.score;
	return passages.map((p, i) => {
		const words = new Set(staticWords(p));
		const coverage = qw.length ? qw.filter((w) => words.has(w)).length / qw.length : 0;
		const a = arms[i]!;
		const fts = a.fts && ftsMax > 0 ? a.fts.score / ftsMax : 0;
		const cosine = a.vector ? a.vector.score : 0;
		return [coverage, fts, cosine];
	});
}

/** Where the weights come from: a folder (read once, on first use) or weights already loaded. */
export type LinearRerankerSource = { dir?: string } | { weights: LinearRerankerWeights };

/** The built-in linear reranker; `rerank` never throws. */
export class LinearReranker implements Reranker {
	readonly id = LINEAR_RERANKER_ID;
	private loading: Promise<LinearRerankerWeights> | null = null;

	constructor(private readonly source: LinearRerankerSource = {}) {}

	/** The weights, or the load error (remembered: a broken file is reported, not re-read every turn). */
	weights(): Promise<LinearRerankerWeights> {
		if (!this.loading) {
			this.loading =
				'weights' in this.source ? Promise.resolve(this.source.weights) : loadLinearRerankerWeights(this.source.dir);
			this.loading.catch(() => undefined);
		}
		return this.loading;
	}

	async rerank(
		query: string,
		passages: readonly string[],
		signal?: AbortSignal,
		context?: RerankContext,
	): Promise<RerankResult> {
		const start = performance.now();
		const pass = (reason: string): RerankResult => ({
			scores: passages.map(() => null),
			status: 'passthrough',
			reason,
			ms: performance.now() - start,
			calibrated: false,
		});
		let w: LinearRerankerWeights;
		try {
			w = await this.weights();
		} catch (e) {
			return pass(`${LINEAR_RERANKER_ID} unavailable: ${e instanceof Error ? e.message : String(e)}`);
		}
		if (signal?.aborted) return pass('cancelled');
		if (!context || context.arms.length !== passages.length)
			return pass(`${LINEAR_RERANKER_ID} needs the first-stage arm scores of every passage`);
		if (context.embedderId !== w.embedder) {
			const now =
				context.embedderId === null ? 'no vector arm ran (lexical-only)' : `the vector arm uses ${context.embedderId}`;
			return pass(`${LINEAR_RERANKER_ID} was trained on ${w.embedder} cosines and ${now}`);
		}
		// Fitted on docstring-length queries: on pasted bug reports it cut file localisation R@1
		// (docs/models.md), and query-word coverage means little over a hundred words.
		const words = queryWordCount(query);
		if (context.longQueryWords !== undefined && words > context.longQueryWords)
			return pass(`long query (${words} words): ${LINEAR_RERANKER_ID} was fitted on short queries, fused order kept`);
		const scores = linearFeatures(query, passages, context.arms, w.stopwords).map((f) =>
			f.reduce((s, x, j) => s + x * w.weights[j]!, 0),
		);
		return { scores, status: 'model', ms: performance.now() - start, calibrated: false };
	}
}

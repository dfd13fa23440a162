/**
 * The precision stage (seed 000 "Decision 3", seed 002 R2): the wide candidate pool is re-scored
 * by the cross-encoder as (query, chunk) pairs and reordered; the scores stay on every hit for the
 * trace. A reranker that is missing or fails leaves first-stage order (passthrough) and says why.
 * An order-only reranker (`calibrated: false`, e.g. the built-in linear one) reorders the pool but
 * its scores are not probabilities: the outcome says so, and the evidence stage keeps cosine floors.
 */
import type { RerankStep } from '../../core/trace';
import type { Reranker, RerankResult } from '../../models/reranker';
import type { EvidenceCandidate } from './types';

/** The reranked candidates, whether a model ran, and the trace step. */
export interface RerankOutcome {
	candidates: EvidenceCandidate[];
	reranked: boolean;
	/** Whether the scores are calibrated probabilities (false: order only, or no model ran). */
	calibrated: boolean;
	step: RerankStep;
}

/** Copies a candidate with a new `hit.rerank` (inputs are never mutated). */
function withRerank(c: EvidenceCandidate, rerank: EvidenceCandidate['hit']['rerank']): EvidenceCandidate {
	return { ...c, hit: { ...c.hit, rerank } };
}

/** How one rerank runs. */
export interface RerankOptions {
	/** Only the first this many candidates are re-scored (`rerank_max_candidates`). */
	maxCandidates: number;
	signal?: AbortSignal;
	/** The embedder whose cosines are in the hits' vector arm (null: lexical-only). */
	embedderId?: string | null;
	/** `rrf_long_query_words`: rerankers fitted on short queries pass a longer one through. */
	longQueryWords?: number;
}

/**
 * Reranks the first `maxCandidates` candidates (the rest keep their order after them). With no
 * reranker, or on any failure (cancellation included), returns the input order with status
 * 'passthrough' and the reason. Rerankers that use first-stage scores get them with the embedder
 * id. Never throws.
 */
export async function rerankCandidates(
	reranker: Reranker | null,
	query: string,
	candidates: readonly EvidenceCandidate[],
	{ maxCandidates, signal, embedderId = null, longQueryWords }: RerankOptions,
): Promise<RerankOutcome> {
	const pool = candidates.slice(0, Math.max(0, maxCandidates));
	const rest = candidates.slice(pool.length);
	const start = performance.now();
	let result: RerankResult;
	if (!reranker) {
		result = { scores: pool.map(() => null), status: 'passthrough', reason: 'no reranker configured' };
	} else {
		try {
			result = await reranker.rerank(
				query,
				pool.map((c) => c.text),
				signal,
				{ arms: pool.map((c) => c.hit.arms), embedderId, ...(longQueryWords === undefined ? {} : { longQueryWords }) },
			);
		} catch (e) {
			// The Reranker contract says never throw; a foreign implementation still must not break retrieval.
			result = {
				scores: pool.map(() => null),
				status: 'passthrough',
				reason: `reranker failed: ${(e as Error).message}`,
			};
		}
	}
	const ms = result.ms ?? performance.now() - start;
	const model = reranker ? { model: reranker.id } : {};
	const usable =
		result.status === 'model' &&
		result.scores.length === pool.length &&
		result.scores.every((s) => typeof s === 'number');
	if (!usable) {
		const reason =
			result.status === 'model' ? 'reranker returned an incomplete score list' : (result.reason ?? 'passthrough');
		const passed = candidates.map((c) => withRerank(c, { score: c.hit.score, status: 'passthrough' }));
		return {
			candidates: passed,
			reranked: false,
			calibrated: false,
			step: { kind: 'rerank', status: 'passthrough', reason, pairs: pool.length, ms, ...model },
		};
	}
	const scored = pool.map((c, i) => ({
		c: withRerank(c, { score: result.scores[i] as number, status: 'model' }),
		p: result.scores[i] as number,
		i,
	}));
	// Stable: equal scores keep first-stage order.
	scored.sort((a, b) => b.p - a.p || a.i - b.i);
	const ordered = [...scored.map((s) => s.c), ...rest.map((c) => withRerank(c, null))];
	const calibrated = result.calibrated !== false;
	const step: RerankStep = {
		kind: 'rerank',
		status: 'model',
		pairs: pool.length,
		ms,
		...model,
		...(calibrated ? {} : { order_only: true }),
	};
	return { candidates: ordered, reranked: true, calibrated, step };
}

/**
 * The whole stage after hybrid search in one call: rerank the wide pool (or pass through), then
 * select the evidence. Both trace steps come back so the caller appends them to the turn's trace.
 * An order-only reranker's order is kept, but floors and abstention stay on the cosine (its scores
 * are not probabilities, so the rerank floors do not apply to them).
 */
import type { Thresholds } from '../../core/thresholds';
import type { RerankStep } from '../../core/trace';
import type { Tier } from '../../core/types';
import type { Reranker } from '../../models/reranker';
import { rerankCandidates } from './rerankStage';
import { selectEvidence } from './selectEvidence';
import type { EmbedderInfo, EvidenceCandidate, EvidenceResult } from './types';

/** What the stage needs from the retrieval pipeline. */
export interface EvidenceStageInput {
	query: string;
	/** Fused candidates, best first (the wide pool: e.g. 3×k per arm). */
	candidates: readonly EvidenceCandidate[];
	/** null: no reranker (passthrough). */
	reranker: Reranker | null;
	embedder: EmbedderInfo | null;
	cosineFloors: Partial<Record<Tier, number>>;
	k: number;
	thresholds: Thresholds;
	signal?: AbortSignal;
	/**
	 * Chunk ids kept first after the rerank, in this order (exact evidence: the definition of a
	 * name the turn wrote as code, the frames of a pasted trace); the rest keep the reranked order.
	 */
	pinFirst?: readonly string[];
	/** A reordering after the rerank and the pins (the document-type priors), before selection; told whether a model reranked. */
	reorder?: (candidates: EvidenceCandidate[], reranked: boolean) => EvidenceCandidate[];
}

/** The reranked candidates (hits carry their rerank scores), the selection, and both trace steps. */
export interface EvidenceStageResult {
	candidates: EvidenceCandidate[];
	rerankStep: RerankStep;
	evidence: EvidenceResult;
}

/** Reranks then selects; never throws. */
export async function runEvidenceStage(input: EvidenceStageInput): Promise<EvidenceStageResult> {
	const rr = await rerankCandidates(input.reranker, input.query, input.candidates, {
		maxCandidates: input.thresholds.rerank_max_candidates,
		signal: input.signal,
		embedderId: input.embedder?.id ?? null,
		longQueryWords: input.thresholds.rrf_long_query_words,
	});
	const pinnedFirst = pinned(rr.candidates, input.pinFirst ?? []);
	const candidates = input.reorder ? input.reorder(pinnedFirst, rr.reranked) : pinnedFirst;
	const evidence = selectEvidence({
		candidates,
		reranked: rr.reranked && rr.calibrated,
		embedder: input.embedder,
		cosineFloors: input.cosineFloors,
		k: input.k,
		thresholds: input.thresholds,
	});
	return { candidates, rerankStep: rr.step, evidence };
}

/** Moves the candidates whose chunk id is in `first` to the front, in `first`'s order. */
export function pinned(candidates: readonly EvidenceCandidate[], first: readonly string[]): EvidenceCandidate[] {
	if (!first.length) return [...candidates];
	const at = new Map(first.map((id, i) => [id, i]));
	const head = candidates
		.filter((c) => at.has(c.hit.chunk_id))
		.sort((a, b) => at.get(a.hit.chunk_id)! - at.get(b.hit.chunk_id)!);
	return [...head, ...candidates.filter((c) => !at.has(c.hit.chunk_id))];
}

/**
 * The product's retrieval defaults and pool sizes in one pure place, so the chat turn, `gmem
 * search` and `gmem eval retrieval` cannot drift apart (issue 15): which models run by default,
 * how many candidates each arm fetches for a given k, and which cosine floor a tier starts from.
 * No I/O and no model code: tests compare what the extension and the CLI resolve from it.
 */
import type { Thresholds } from '../core/thresholds';
import type { ChunkTier } from '../store/chunkRepo';
import type { ArmMode } from './hybridSearch';

/** Embedders a user can name. `hashing` is a TEST embedder and never a default (CONTRACT.md "gmem CLI"). */
export const EMBEDDER_CHOICES = ['builtin', 'minilm', 'hashing', 'none'] as const;
export type EmbedderChoice = (typeof EMBEDDER_CHOICES)[number];

/** Rerankers a user can name. */
export const RERANKER_CHOICES = ['builtin', 'minilm', 'none'] as const;
export type RerankerChoice = (typeof RERANKER_CHOICES)[number];

/** The defaults of every host: both built-in models ship with the product, so nothing downloads. */
export const DEFAULT_EMBEDDER: EmbedderChoice = 'builtin';
export const DEFAULT_RERANKER: RerankerChoice = 'builtin';

/** How big one search is. */
export interface RetrievalPlan {
	/** Results wanted (chunks for evidence, or files with `files`). */
	k: number;
	/** Fused candidates kept for the rerank and evidence stages. */
	pool: number;
	/** Candidates each arm fetches before fusion (0: the arm does not run). */
	fetch_per_arm: { fts: number; vector: number };
}

/**
 * Retrieve wide, rank precise (seed 002): with a reranker the fused pool is widened to
 * min(rerank_max_candidates, k × arm_fetch_multiplier) (never below k), else it is k; each arm
 * then fetches pool × arm_fetch_multiplier. These are the chat path's numbers since issue 8 —
 * the CLI adopted them rather than the other way round, because the chat path is the product.
 * `files` keeps 3× the chunks so that k distinct files survive collapsing chunks into files.
 */
export function retrievalPlan(o: {
	k: number;
	arm: ArmMode;
	reranking: boolean;
	files?: boolean;
	thresholds: Thresholds;
}): RetrievalPlan {
	const t = o.thresholds;
	const widened =
		o.reranking && o.arm === 'hybrid'
			? Math.max(o.k, Math.min(t.rerank_max_candidates, o.k * t.arm_fetch_multiplier))
			: o.k;
	const pool = widened * (o.files ? 3 : 1);
	const fetch = pool * t.arm_fetch_multiplier;
	return { k: o.k, pool, fetch_per_arm: { fts: o.arm === 'vector' ? 0 : fetch, vector: o.arm === 'fts' ? 0 : fetch } };
}

/**
 * The floor (MiniLM cosine units, mapped per embedder later) a tier's search starts from when no
 * decision names one: a workspace question's (the policy's `floor_workspace_question`), research
 * memory's `floor_research`. The chat path takes the decision's own `rag_min_similarity`.
 */
export function defaultFloor(tier: ChunkTier, t: Thresholds): number {
	return tier === 'research' ? t.floor_research : t.floor_workspace_question;
}

/** What a host resolves for one search: models by choice, pool sizes, floor. Compared across hosts in tests. */
export interface RetrievalConfig extends RetrievalPlan {
	embedder: EmbedderChoice;
	reranker: RerankerChoice;
	arm: ArmMode;
	/** In MiniLM cosine units (the policy's); each embedder's calibration maps it. */
	floor: number;
}

/** The configuration for chosen models (the pool is widened only when a reranker is chosen). */
export function retrievalConfig(o: {
	embedder: EmbedderChoice;
	reranker: RerankerChoice;
	k: number;
	floor: number;
	arm?: ArmMode;
	files?: boolean;
	thresholds: Thresholds;
}): RetrievalConfig {
	const arm = o.arm ?? 'hybrid';
	const plan = retrievalPlan({
		k: o.k,
		arm,
		reranking: o.reranker !== 'none',
		files: o.files,
		thresholds: o.thresholds,
	});
	return { embedder: o.embedder, reranker: o.reranker, arm, floor: o.floor, ...plan };
}

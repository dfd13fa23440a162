/**
 * The arms `gmem eval ab` replays conversations through, all on the same store and the same k:
 *   - always-retrieve: standard RAG — every user turn searches every stored tier (workspace and
 *     research), the top k chunks go into the prompt, no gate, no floors;
 *   - gated-memory: decideTurn; when it retrieves, each chunk tier it names is searched with the
 *     policy's per-tier k (after behaviour modulation) and floor, then the evidence stage (rerank →
 *     floors, margin, duplicates, token budget) picks at most k chunks;
 *   - seed-baseline (`--baseline seed`): the seed's trigger decides; its tiers are searched like
 *     always-retrieve (top k, no evidence stage), as the seed's pipeline did.
 * The query is the user's message as typed, for every arm. The profile tier is not in the chunk
 * store: a turn whose only tier is the profile counts as a retrieval that searched no chunks.
 */
import { decideTurn } from '../core/decide';
import type { Thresholds } from '../core/thresholds';
import type { GateResult, Tier } from '../core/types';
import type { Embedder } from '../models/embedder';
import { calibratedFloor } from '../retrieval/evidence/calibration';
import { runEvidenceStage } from '../retrieval/evidence/evidenceStage';
import { hybridSearch, type SearchHit } from '../retrieval/hybridSearch';
import type { ChunkTier } from '../store/chunkRepo';
import type { EvalStore } from './evalStore';
import type { LabelledTurn, Predictor } from './evalShared';

/** Approximate prompt tokens of a chunk: characters / 4, rounded up (stated in every report). */
export const CHARS_PER_TOKEN = 4;

/** One chunk put into the prompt. */
export interface InjectedChunk {
	doc_id: string;
	tier: ChunkTier;
	tokens: number;
}

/** What one arm did on one turn. */
export interface ArmTurn {
	/** The arm decided to retrieve (opened at least one stored tier). */
	retrieved: boolean;
	/** Tier searches run against the store. */
	searches: number;
	evidence: InjectedChunk[];
	/** Wall time of search + evidence selection (the decision itself excluded). */
	ms: number;
}

/** An arm: a name and how it handles one turn. */
export interface AbArm {
	name: string;
	runTurn(turn: LabelledTurn): Promise<ArmTurn>;
}

/** What every arm searches with. */
export interface ArmContext {
	es: EvalStore;
	embedder: Embedder | null;
	thresholds: Thresholds;
	/** The k shared by every arm: chunks per turn at most. */
	k: number;
}

const CHUNK_TIERS: readonly ChunkTier[] = ['workspace', 'research'];
const isChunkTier = (t: Tier): t is ChunkTier => (CHUNK_TIERS as readonly string[]).includes(t);

function inject(hit: SearchHit, tier: ChunkTier): InjectedChunk {
	return { doc_id: hit.id, tier, tokens: Math.ceil(hit.content.length / CHARS_PER_TOKEN) };
}

async function search(
	ctx: ArmContext,
	query: string,
	tier: ChunkTier,
	k: number,
	cosineFloor: number | null,
): Promise<SearchHit[]> {
	const out = await hybridSearch(ctx.es.store.db, query, {
		tier,
		workspaceIds: [ctx.es.workspaceId],
		k,
		arm: 'hybrid',
		embedder: ctx.embedder,
		cosineFloor,
		thresholds: ctx.thresholds,
	});
	return out.hits;
}

/** Top k over the given tiers, merged by fused (rank-based) score: what plain RAG puts in the prompt. */
async function topK(ctx: ArmContext, query: string, tiers: readonly ChunkTier[]): Promise<ArmTurn> {
	const started = performance.now();
	const hits: { hit: SearchHit; tier: ChunkTier }[] = [];
	for (const tier of tiers) for (const hit of await search(ctx, query, tier, ctx.k, null)) hits.push({ hit, tier });
	hits.sort((a, b) => b.hit.fused - a.hit.fused);
	const evidence = hits.slice(0, ctx.k).map((h) => inject(h.hit, h.tier));
	return { retrieved: tiers.length > 0, searches: tiers.length, evidence, ms: performance.now() - started };
}

/** Standard RAG: every turn, every chunk tier. */
export function alwaysRetrieveArm(ctx: ArmContext): AbArm {
	return { name: 'always-retrieve', runTurn: (turn) => topK(ctx, turn.utterance, CHUNK_TIERS) };
}

/** A baseline predictor's tiers searched like plain RAG (no floors, no evidence stage). */
export function predictorArm(ctx: ArmContext, predictor: Predictor): AbArm {
	return {
		name: predictor.name,
		runTurn: async (turn) => {
			const p = predictor.predict(turn);
			if (!p.retrieve) return { retrieved: false, searches: 0, evidence: [], ms: 0 };
			const out = await topK(ctx, turn.utterance, p.tiers.filter(isChunkTier));
			return { ...out, retrieved: true };
		},
	};
}

/** The policy's k and MiniLM-unit floor for a chunk tier. */
function tierBudget(r: GateResult, tier: ChunkTier): { k: number; floor: number } {
	return tier === 'workspace'
		? { k: r.policy.rag_k, floor: r.policy.rag_min_similarity }
		: { k: r.policy.qa_k, floor: r.policy.qa_min_similarity };
}

/** The product's pipeline: gate, per-tier search with the policy's k and floors, evidence stage. */
export function gatedArm(ctx: ArmContext): AbArm {
	const info = ctx.embedder ? { id: ctx.embedder.id, semantic: ctx.embedder.semantic } : null;
	return {
		name: 'gated-memory',
		runTurn: async (turn) => {
			const r = decideTurn(
				{ id: turn.id, history: turn.history, utterance: turn.utterance },
				{ thresholds: ctx.thresholds },
			);
			if (!r.retrieve) return { retrieved: false, searches: 0, evidence: [], ms: 0 };
			const started = performance.now();
			const tiers = r.tiers.filter(isChunkTier);
			const candidates = [];
			const floors: Partial<Record<Tier, number>> = {};
			for (const tier of tiers) {
				const { k, floor } = tierBudget(r, tier);
				floors[tier] = floor;
				if (k === 0) continue;
				const cosine = info ? calibratedFloor(info, floor).floor : null;
				for (const hit of await search(ctx, turn.utterance, tier, k, cosine))
					candidates.push({ hit, tier, text: hit.content });
			}
			const stage = await runEvidenceStage({
				query: turn.utterance,
				candidates,
				reranker: null,
				embedder: info,
				cosineFloors: floors,
				k: ctx.k,
				thresholds: ctx.thresholds,
			});
			const evidence = stage.evidence.selected.map((s) => ({
				doc_id: s.candidate.hit.id,
				tier: s.candidate.tier as ChunkTier,
				// The same chars/4 estimate as the other arms; a chunk cut to fit the budget counts as cut.
				tokens: Math.min(Math.ceil(s.candidate.text.length / CHARS_PER_TOKEN), s.truncatedToTokens ?? Infinity),
			}));
			return { retrieved: true, searches: tiers.length, evidence, ms: performance.now() - started };
		},
	};
}

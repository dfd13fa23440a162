/**
 * Inputs and outputs of the evidence stage: what comes out of hybrid search + rerank, and what
 * goes into the prompt (or the reason nothing does).
 */
import type { Thresholds } from '../../core/thresholds';
import type { EvidenceStep, TraceHit } from '../../core/trace';
import type { Tier } from '../../core/types';

/** One candidate chunk after fusion (and rerank, when one ran). */
export interface EvidenceCandidate {
	hit: TraceHit;
	tier: Tier;
	/** The chunk text (used for near-duplicate detection and the token estimate). */
	text: string;
	/** Token count when the indexer stored one; otherwise estimated from characters. */
	tokens?: number;
	/** Id of the memory that replaces this one (a later correction or decision). */
	supersededBy?: string | null;
	/** The source changed since the chunk was indexed (content hash differs). */
	stale?: boolean;
}

/** What the floors and the margin rule compare: whichever score is the most trustworthy available. */
export type ScoreBasis = 'rerank' | 'cosine' | 'lexical';

/** The embedder whose cosines are in `hit.arms.vector.score`, or null in lexical-only mode. */
export interface EmbedderInfo {
	id: string;
	semantic: boolean;
}

/** Everything the selection needs; pure data. */
export interface EvidenceInput {
	/** Candidates in first-stage (fused) order, or reranked order when a reranker ran (order-only ones included). */
	candidates: readonly EvidenceCandidate[];
	/**
	 * Whether a CALIBRATED reranker produced `hit.rerank.score` (probabilities) with status 'model'
	 * for these candidates. false after an order-only reranker: its order is in `candidates`, but
	 * the floors and the margin rule judge the cosine.
	 */
	reranked: boolean;
	embedder: EmbedderInfo | null;
	/** The policy's cosine floor per tier, in MiniLM cosine units (seed 000: 0.35 / 0.45 / 0.65). */
	cosineFloors: Partial<Record<Tier, number>>;
	/** How many chunks at most. */
	k: number;
	thresholds: Thresholds;
}

/** Why one candidate was kept or dropped (for the trace and the panel). */
export interface CandidateDecision {
	id: string;
	kept: boolean;
	reason: string;
	/** The score compared against the floor (probability or calibrated cosine), null if none. */
	score: number | null;
	basis: ScoreBasis;
}

/** One chunk chosen for the prompt. */
export interface SelectedEvidence {
	candidate: EvidenceCandidate;
	tokens: number;
	/** Set when the chunk was cut to fit the budget (only ever the best chunk). */
	truncatedToTokens?: number;
	/** 1-based rank by relevance (prompt order differs: see lost-in-the-middle ordering). */
	rank: number;
}

/** The stage's outcome: evidence to use, a question to ask back, or an honest "not found". */
export type EvidenceOutcome = 'answer' | 'clarify' | 'not_found';

/** Result of evidence selection. */
export interface EvidenceResult {
	outcome: EvidenceOutcome;
	/** In prompt order: strongest at the start and the end, weakest in the middle. */
	selected: SelectedEvidence[];
	decisions: CandidateDecision[];
	basis: ScoreBasis;
	/** Plain-words notes (lexical-only mode, uncalibrated embedder…). */
	notes: string[];
	step: EvidenceStep;
}

/**
 * Which score each candidate is judged by, its floor, and the margin rule. CONTRACT.md: floors
 * and the margin use the reranker's probability when a calibrated reranker ran, else the
 * embedder-calibrated cosine (an order-only reranker's scores are never floored: they only rank);
 * RRF scores are never floored; lexical-only mode has no floor at all.
 */
import type { Tier } from '../../core/types';
import { calibratedFloor } from './calibration';
import type { EvidenceCandidate, EvidenceInput, ScoreBasis } from './types';

/** A candidate with its judged score and floor (null: nothing to compare). */
export interface ScoredCandidate {
	c: EvidenceCandidate;
	/** Position in the input (first-stage order), for stable ties. */
	index: number;
	score: number | null;
	floor: number | null;
}

/** Scores and floors for every candidate, plus notes for the trace. */
export function scoreCandidates(input: EvidenceInput): {
	basis: ScoreBasis;
	scored: ScoredCandidate[];
	notes: string[];
} {
	const notes: string[] = [];
	const t = input.thresholds;
	const rerankFloor: Record<Tier, number> = {
		workspace: t.evidence_rerank_floor_workspace,
		research: t.evidence_rerank_floor_research,
		profile: t.evidence_rerank_floor_profile,
	};
	if (input.reranked) {
		const scored = input.candidates.map((c, index) => ({
			c,
			index,
			score: c.hit.rerank?.status === 'model' ? c.hit.rerank.score : null,
			floor: rerankFloor[c.tier],
		}));
		return { basis: 'rerank', scored, notes };
	}
	const emb = input.embedder;
	if (!emb || !emb.semantic) {
		notes.push(
			emb
				? `embedder ${emb.id} is not semantic: no relevance floor, abstain only on an empty result`
				: 'lexical-only mode (no embedder): no relevance floor, abstain only on an empty result',
		);
		return {
			basis: 'lexical',
			scored: input.candidates.map((c, index) => ({ c, index, score: null, floor: null })),
			notes,
		};
	}
	let uncalibrated = false;
	const scored = input.candidates.map((c, index) => {
		const cal = calibratedFloor(emb, input.cosineFloors[c.tier] ?? 0);
		uncalibrated ||= !cal.calibrated;
		return { c, index, score: c.hit.arms.vector?.score ?? null, floor: cal.floor };
	});
	if (uncalibrated) notes.push(`embedder ${emb.id} has no cosine calibration: MiniLM floors applied as they are`);
	return { basis: 'cosine', scored, notes };
}

/**
 * The margin rule: a weak top hit that is not clearly better than the runner-up signals an
 * ambiguous query (clarify rather than answer from noise). Returns the reason, or null when the
 * top hit is strong or clearly ahead. "The rest" means every scored candidate that is not
 * excluded (superseded, stale) — including those below the floor, since a lone weak hit barely
 * above a crowd of slightly weaker ones is exactly the noise the rule is for. Lexical basis never
 * triggers it.
 */
export function marginViolation(
	basis: ScoreBasis,
	candidates: readonly ScoredCandidate[],
	input: EvidenceInput,
): string | null {
	if (basis === 'lexical') return null;
	const scores = candidates
		.map((s) => s.score)
		.filter((s): s is number => s !== null)
		.sort((a, b) => b - a);
	if (scores.length < 2) return null;
	const [s1, s2] = scores;
	const t = input.thresholds;
	const top = candidates.find((s) => s.score === s1);
	const weak =
		basis === 'rerank' ? s1 < t.evidence_rerank_strong : s1 < (top?.floor ?? 0) + t.evidence_cosine_weak_band;
	const margin = basis === 'rerank' ? t.evidence_rerank_margin : t.evidence_cosine_margin;
	if (!weak || s1 - s2 >= margin) return null;
	const unit = basis === 'rerank' ? 'p' : 'cos';
	return `ambiguous: the top hit (${unit}=${s1.toFixed(3)}) is weak and not clearly better than the next (${unit}=${s2.toFixed(3)}, margin ${(s1 - s2).toFixed(3)} < ${margin})`;
}

/**
 * Evidence selection after ranking: from fused (and possibly reranked) candidates to the chunks
 * that enter the prompt, or an honest abstention. Pure: same input, same output. Steps, each
 * recording why a candidate was dropped:
 *   1. superseded or stale memories are excluded;
 *   2. per-tier floors (reranker probability, else the embedder-calibrated cosine; none lexically);
 *   3. ranking (reranker probability when it ran, else first-stage order);
 *   4. the margin rule (weak, undecided top → clarify);
 *   5. near-duplicates, at most N chunks per file, at most k chunks, one token budget for all;
 *   6. "lost in the middle" order: best at the start and the end.
 */
import type { Tier } from '../../core/types';
import { DuplicateFinder } from './dedupe';
import { edgesFirst } from './order';
import { marginViolation, scoreCandidates, type ScoredCandidate } from './scoring';
import type {
	CandidateDecision,
	EvidenceCandidate,
	EvidenceInput,
	EvidenceOutcome,
	EvidenceResult,
	ScoreBasis,
	SelectedEvidence,
} from './types';

/** Tokens a candidate costs: the stored count, else characters / chars-per-token rounded up. */
export function estimateTokens(c: EvidenceCandidate, charsPerToken: number): number {
	return c.tokens ?? Math.ceil(c.text.length / charsPerToken);
}

const fmt = (basis: ScoreBasis, x: number) => `${basis === 'rerank' ? 'p' : 'cos'}=${x.toFixed(3)}`;

/** Where nothing was found, in the user's words. */
function notFound(tiers: readonly Tier[], why: string): string {
	const where =
		tiers.includes('workspace') || tiers.length === 0
			? 'this workspace'
			: tiers.includes('research')
				? 'research memory'
				: 'your profile';
	return `not found in ${where}: ${why}`;
}

/** Steps 1–2: exclusions and floors. Returns the eligible candidates and the best score seen. */
function filterEligible(
	scored: ScoredCandidate[],
	basis: ScoreBasis,
	drop: (s: ScoredCandidate, why: string) => void,
): { eligible: ScoredCandidate[]; best: ScoredCandidate | null } {
	const eligible: ScoredCandidate[] = [];
	let best: ScoredCandidate | null = null;
	for (const s of scored) {
		if (s.c.supersededBy) {
			drop(s, `superseded by ${s.c.supersededBy}`);
			continue;
		}
		if (s.c.stale) {
			drop(s, 'stale: the source changed since it was indexed');
			continue;
		}
		if (s.score !== null && (best?.score ?? -Infinity) < s.score) best = s;
		if (s.score !== null && s.floor !== null && s.score < s.floor) {
			drop(s, `below the ${s.c.tier} floor (${fmt(basis, s.score)} < ${s.floor.toFixed(3)})`);
			continue;
		}
		eligible.push(s);
	}
	return { eligible, best };
}

/** Step 3: reranker probability order (unscored last), else the first-stage order as given. */
function rank(eligible: ScoredCandidate[], basis: ScoreBasis): ScoredCandidate[] {
	if (basis !== 'rerank') return [...eligible].sort((a, b) => a.index - b.index);
	return [...eligible].sort((a, b) => (b.score ?? -Infinity) - (a.score ?? -Infinity) || a.index - b.index);
}

/** Step 5: duplicates, per-file cap, k and the token budget, in rank order. */
function pack(
	ranked: ScoredCandidate[],
	input: EvidenceInput,
	keep: (s: ScoredCandidate, sel: SelectedEvidence) => void,
	drop: (s: ScoredCandidate, why: string) => void,
): void {
	const t = input.thresholds;
	const dups = new DuplicateFinder(t.evidence_dup_jaccard, t.evidence_dup_line_overlap);
	const perFile = new Map<string, number>();
	let used = 0;
	let count = 0;
	for (const s of ranked) {
		const file = s.c.hit.path ?? s.c.hit.id;
		const dup = dups.duplicateOf(s.c);
		if (dup) {
			drop(s, dup);
			continue;
		}
		if ((perFile.get(file) ?? 0) >= t.evidence_max_per_file) {
			drop(s, `already ${t.evidence_max_per_file} chunks from ${file}`);
			continue;
		}
		if (count >= input.k) {
			drop(s, `beyond k = ${input.k}`);
			continue;
		}
		const tokens = estimateTokens(s.c, t.evidence_chars_per_token);
		const budget = t.evidence_token_budget;
		const sel: SelectedEvidence = { candidate: s.c, tokens, rank: count + 1 };
		if (used + tokens > budget) {
			// The best chunk is never lost to the budget: it is cut to fit instead.
			if (count > 0 || budget === 0) {
				drop(s, `over the token budget (${used} + ${tokens} > ${budget})`);
				continue;
			}
			sel.truncatedToTokens = budget;
			sel.tokens = budget;
		}
		used += sel.tokens;
		count++;
		perFile.set(file, (perFile.get(file) ?? 0) + 1);
		dups.keep(s.c);
		keep(s, sel);
	}
}

/** Runs the evidence stage. Never throws; an empty or all-weak input yields an abstention. */
export function selectEvidence(input: EvidenceInput): EvidenceResult {
	const { basis, scored, notes } = scoreCandidates(input);
	const decisions = new Map<ScoredCandidate, CandidateDecision>();
	const drop = (s: ScoredCandidate, reason: string) =>
		decisions.set(s, { id: s.c.hit.chunk_id, kept: false, reason, score: s.score, basis });
	const chosen: SelectedEvidence[] = [];
	const keep = (s: ScoredCandidate, sel: SelectedEvidence) => {
		chosen.push(sel);
		const score =
			s.score === null
				? basis === 'rerank'
					? 'not reranked'
					: basis === 'cosine'
						? 'lexical match, no cosine'
						: 'lexical-only'
				: fmt(basis, s.score);
		const cut = sel.truncatedToTokens !== undefined ? `, cut to ${sel.truncatedToTokens} tokens` : '';
		decisions.set(s, {
			id: s.c.hit.chunk_id,
			kept: true,
			reason: `kept: rank ${sel.rank} (${score})${cut}`,
			score: s.score,
			basis,
		});
	};
	const { eligible, best } = filterEligible(scored, basis, drop);
	const ranked = rank(eligible, basis);
	const margin = marginViolation(
		basis,
		scored.filter((s) => !s.c.supersededBy && !s.c.stale),
		input,
	);
	pack(ranked, input, keep, drop);

	const tiers = [...new Set(input.candidates.map((c) => c.tier))];
	let outcome: EvidenceOutcome = 'answer';
	let reason: string;
	if (input.candidates.length === 0) {
		outcome = 'not_found';
		reason = notFound(tiers, 'the search returned nothing');
	} else if (chosen.length === 0) {
		outcome = 'not_found';
		const bestText = best?.score != null ? ` (best ${fmt(basis, best.score)} < floor ${best.floor?.toFixed(3)})` : '';
		reason = notFound(
			tiers,
			eligible.length === 0 ? `no candidate cleared the floor${bestText}` : 'every candidate was excluded',
		);
	} else if (margin) {
		outcome = 'clarify';
		reason = margin;
	} else {
		reason = `${chosen.length} chunk${chosen.length === 1 ? '' : 's'} selected by ${basis}`;
	}
	return finish(
		input,
		outcome,
		reason,
		edgesFirst(chosen),
		scored.map((s) => decisions.get(s)!),
		basis,
		notes,
	);
}

function finish(
	input: EvidenceInput,
	outcome: EvidenceOutcome,
	reason: string,
	selected: SelectedEvidence[],
	decisions: CandidateDecision[],
	basis: ScoreBasis,
	notes: string[],
): EvidenceResult {
	const tokens = selected.reduce((n, s) => n + s.tokens, 0);
	const fullReason = notes.length ? `${reason}; ${notes.join('; ')}` : reason;
	return {
		outcome,
		selected,
		decisions,
		basis,
		notes,
		step: {
			kind: 'evidence',
			selected: selected.map((s) => s.candidate.hit.chunk_id),
			dropped: decisions.filter((d) => !d.kept).map((d) => ({ id: d.id, reason: d.reason })),
			abstained: outcome !== 'answer',
			reason: fullReason,
			tokens,
			budget: input.thresholds.evidence_token_budget,
		},
	};
}

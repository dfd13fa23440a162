/** The evidence stage (src/retrieval/evidence) with hand-computed expectations. */
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../src/core/thresholds';
import type { TraceHit } from '../../src/core/trace';
import type { Tier } from '../../src/core/types';
import type { Reranker } from '../../src/models/reranker';
import { calibratedFloor } from '../../src/retrieval/evidence/calibration';
import { jaccard, lineOverlap, shingles } from '../../src/retrieval/evidence/dedupe';
import { edgesFirst } from '../../src/retrieval/evidence/order';
import { runEvidenceStage } from '../../src/retrieval/evidence/evidenceStage';
import { rerankCandidates } from '../../src/retrieval/evidence/rerankStage';
import { selectEvidence } from '../../src/retrieval/evidence/selectEvidence';
import type { EvidenceCandidate, EvidenceInput } from '../../src/retrieval/evidence/types';

const MINILM = { id: 'Xenova/all-MiniLM-L6-v2@main', semantic: true };

interface C {
	id: string;
	text?: string;
	path?: string;
	lines?: [number, number];
	p?: number;
	cos?: number | null;
	tier?: Tier;
	tokens?: number;
	supersededBy?: string;
}

function cand(c: C, i: number): EvidenceCandidate {
	const hit: TraceHit = {
		id: c.path ?? c.id,
		chunk_id: c.id,
		path: c.path ?? `src/${c.id}.ts`,
		start_line: c.lines?.[0] ?? 1,
		end_line: c.lines?.[1] ?? 10,
		symbol: null,
		score: 1 / (60 + i + 1),
		fused: 1 / (60 + i + 1),
		arms: {
			fts: { rank: i + 1, score: 0.1 },
			vector: c.cos === null || c.cos === undefined ? null : { rank: i + 1, score: c.cos },
		},
		rerank: c.p === undefined ? null : { score: c.p, status: 'model' },
	};
	return {
		hit,
		tier: c.tier ?? 'workspace',
		text: c.text ?? `unique text for ${c.id} alpha beta gamma ${c.id}`,
		tokens: c.tokens ?? 10,
		supersededBy: c.supersededBy ?? null,
	};
}

function input(cs: C[], extra: Partial<EvidenceInput> = {}, th: Partial<Thresholds> = {}): EvidenceInput {
	return {
		candidates: cs.map(cand),
		reranked: cs.some((c) => c.p !== undefined),
		embedder: MINILM,
		cosineFloors: { workspace: 0.45, research: 0.65 },
		k: 4,
		thresholds: { ...DEFAULT_THRESHOLDS, ...th },
		...extra,
	};
}

const ids = (r: ReturnType<typeof selectEvidence>) => r.selected.map((s) => s.candidate.hit.chunk_id);
const reasonOf = (r: ReturnType<typeof selectEvidence>, id: string) => r.decisions.find((d) => d.id === id)?.reason;

describe('evidence: helpers', () => {
	it('orders best evidence at both edges (lost in the middle)', () => {
		assert.deepEqual(edgesFirst([1, 2, 3, 4, 5, 6]), [1, 3, 5, 6, 4, 2]);
		assert.deepEqual(edgesFirst([1, 2, 3, 4, 5]), [1, 3, 5, 4, 2]);
		assert.deepEqual(edgesFirst([1]), [1]);
	});

	it('computes trigram Jaccard and line overlap', () => {
		assert.deepEqual([...shingles('A b c d')], ['a b c', 'b c d']);
		assert.equal(jaccard(shingles('a b c d'), shingles('a b c e')), 1 / 3);
		const a = cand({ id: 'a', path: 'f.ts', lines: [1, 10] }, 0);
		const b = cand({ id: 'b', path: 'f.ts', lines: [6, 20] }, 1);
		const other = cand({ id: 'c', path: 'g.ts', lines: [1, 10] }, 2);
		assert.equal(lineOverlap(a, b), 0.5); // 5 shared lines of the shorter 10
		assert.equal(lineOverlap(a, other), 0);
	});

	it('maps MiniLM floors through the embedder calibration', () => {
		assert.deepEqual(calibratedFloor(MINILM, 0.45), { floor: 0.45, calibrated: true });
		assert.deepEqual(calibratedFloor({ id: 'other/model@x', semantic: true }, 0.45), {
			floor: 0.45,
			calibrated: false,
		});
		const table = [{ embedder: 'other/model', scale: 0.5, offset: 0.2, source: 'test' }];
		assert.ok(Math.abs(calibratedFloor({ id: 'other/model@x', semantic: true }, 0.45, table).floor! - 0.425) < 1e-12); // 0.5·0.45 + 0.2
		assert.deepEqual(calibratedFloor({ id: 'hashing', semantic: false }, 0.45), { floor: null, calibrated: false });
	});
});

describe('evidence: selection', () => {
	it('reranked: floors, superseded, near-duplicates, per-file cap, k, then edge order', () => {
		const r = selectEvidence(
			input([
				{ id: 'c1', p: 0.9, path: 'a.ts', lines: [1, 10] },
				{ id: 'c2', p: 0.05 },
				{ id: 'c3', p: 0.6, path: 'a.ts', lines: [40, 50] },
				{ id: 'c4', p: 0.8, supersededBy: 'm9' },
				{ id: 'c5', p: 0.55, text: 'unique text for c1 alpha beta gamma c1' },
				{ id: 'c6', p: 0.4, path: 'a.ts', lines: [80, 90] },
				{ id: 'c7', p: 0.3 },
				{ id: 'c8', p: 0.2 },
				{ id: 'c9', p: 0.15 },
			]),
		);
		assert.equal(r.outcome, 'answer');
		assert.equal(r.basis, 'rerank');
		// Rank by p: c1 .9, c3 .6, c5 dup, c6 third in a.ts, c7 .3, c8 .2 → k=4 reached, c9 beyond k.
		// Relevance order c1, c3, c7, c8 → edges: c1, c7, c8, c3.
		assert.deepEqual(ids(r), ['c1', 'c7', 'c8', 'c3']);
		assert.deepEqual(
			r.selected.map((s) => s.rank),
			[1, 3, 4, 2],
		);
		assert.equal(reasonOf(r, 'c2'), 'below the workspace floor (p=0.050 < 0.100)');
		assert.equal(reasonOf(r, 'c4'), 'superseded by m9');
		assert.equal(reasonOf(r, 'c5'), 'near-duplicate of c1 (Jaccard 1.00)');
		assert.equal(reasonOf(r, 'c6'), 'already 2 chunks from a.ts');
		assert.equal(reasonOf(r, 'c9'), 'beyond k = 4');
		assert.equal(reasonOf(r, 'c1'), 'kept: rank 1 (p=0.900)');
		assert.deepEqual(r.step, {
			kind: 'evidence',
			selected: ['c1', 'c7', 'c8', 'c3'],
			dropped: ['c2', 'c4', 'c5', 'c6', 'c9'].map((id) => ({ id, reason: reasonOf(r, id)! })),
			abstained: false,
			reason: '4 chunks selected by rerank',
			tokens: 40,
			budget: 2000,
		});
	});

	it('drops overlapping windows of one file', () => {
		const r = selectEvidence(
			input([
				{ id: 'a', p: 0.9, path: 'f.ts', lines: [1, 10] },
				{ id: 'b', p: 0.8, path: 'f.ts', lines: [5, 14] },
			]),
		);
		assert.deepEqual(ids(r), ['a']);
		assert.equal(reasonOf(r, 'b'), 'overlaps a by 60% of its lines');
	});

	it('cosine basis: calibrated floor per tier, first-stage order kept, lexical-only hits allowed', () => {
		const r = selectEvidence(
			input([
				{ id: 'w1', cos: 0.5 },
				{ id: 'w2', cos: 0.4 },
				{ id: 'w3', cos: null },
				{ id: 'r1', cos: 0.62, tier: 'research' },
				{ id: 'r2', cos: 0.7, tier: 'research' },
			]),
		);
		assert.equal(r.basis, 'cosine');
		// w2 < 0.45 and r1 < 0.65 are dropped. The top cosine 0.70 is weak (< its floor 0.65 + band 0.1)
		// but beats the runner-up 0.62 by 0.08 ≥ 0.03: no clarify. Order: fused w1, w3, r2 → edges w1, r2, w3.
		assert.equal(r.outcome, 'answer');
		assert.deepEqual(ids(r), ['w1', 'r2', 'w3']);
		assert.deepEqual(
			r.selected.map((s) => s.rank),
			[1, 3, 2],
		);
		assert.equal(reasonOf(r, 'w2'), 'below the workspace floor (cos=0.400 < 0.450)');
		assert.equal(reasonOf(r, 'r1'), 'below the research floor (cos=0.620 < 0.650)');
		assert.equal(reasonOf(r, 'w3'), 'kept: rank 2 (lexical match, no cosine)');
	});

	it('margin rule: a weak top hit that is not clearly ahead asks to clarify', () => {
		const rr = selectEvidence(
			input([
				{ id: 'a', p: 0.35 },
				{ id: 'b', p: 0.3 },
				{ id: 'c', p: 0.02 },
			]),
		);
		assert.equal(rr.outcome, 'clarify');
		assert.equal(rr.step.abstained, true);
		assert.equal(
			rr.step.reason,
			'ambiguous: the top hit (p=0.350) is weak and not clearly better than the next (p=0.300, margin 0.050 < 0.1)',
		);
		// A strong top hit is exempt however close the runner-up is.
		assert.equal(
			selectEvidence(
				input([
					{ id: 'a', p: 0.7 },
					{ id: 'b', p: 0.69 },
				]),
			).outcome,
			'answer',
		);
		// A weak top hit clearly ahead is fine.
		assert.equal(
			selectEvidence(
				input([
					{ id: 'a', p: 0.45 },
					{ id: 'b', p: 0.3 },
				]),
			).outcome,
			'answer',
		);
		// "The rest" includes candidates below the floor: 0.15 vs 0.08 is too close.
		assert.equal(
			selectEvidence(
				input([
					{ id: 'a', p: 0.15 },
					{ id: 'b', p: 0.08 },
				]),
			).outcome,
			'clarify',
		);
		// …but not superseded ones.
		assert.equal(
			selectEvidence(
				input([
					{ id: 'a', p: 0.15 },
					{ id: 'b', p: 0.14, supersededBy: 'z' },
				]),
			).outcome,
			'answer',
		);
		const cos = selectEvidence(
			input([
				{ id: 'a', cos: 0.5 },
				{ id: 'b', cos: 0.49 },
			]),
		);
		assert.equal(cos.outcome, 'clarify');
		assert.match(
			cos.step.reason,
			/cos=0\.500\) is weak and not clearly better than the next \(cos=0\.490, margin 0\.010 < 0\.03\)/,
		);
	});

	it('abstains with "not found in this workspace" when nothing clears the floor', () => {
		const r = selectEvidence(
			input([
				{ id: 'a', p: 0.04 },
				{ id: 'b', p: 0.01 },
			]),
		);
		assert.equal(r.outcome, 'not_found');
		assert.deepEqual(r.selected, []);
		assert.equal(
			r.step.reason,
			'not found in this workspace: no candidate cleared the floor (best p=0.040 < floor 0.100)',
		);
		const research = selectEvidence(input([{ id: 'a', cos: 0.5, tier: 'research' }]));
		assert.equal(
			research.step.reason,
			'not found in research memory: no candidate cleared the floor (best cos=0.500 < floor 0.650)',
		);
		assert.equal(selectEvidence(input([])).step.reason, 'not found in this workspace: the search returned nothing');
	});

	it('lexical-only: no floor, no margin, says so, abstains only on an empty result', () => {
		const r = selectEvidence(input([{ id: 'a', cos: 0.01 }, { id: 'b' }], { embedder: null }));
		assert.equal(r.basis, 'lexical');
		assert.equal(r.outcome, 'answer');
		assert.deepEqual(ids(r), ['a', 'b']);
		assert.equal(
			r.step.reason,
			'2 chunks selected by lexical; lexical-only mode (no embedder): no relevance floor, abstain only on an empty result',
		);
		assert.equal(selectEvidence(input([], { embedder: null })).outcome, 'not_found');
	});

	it('one token budget for all evidence; the best chunk is cut rather than lost', () => {
		const r = selectEvidence(
			input(
				[
					{ id: 'a', p: 0.9, tokens: 60 },
					{ id: 'b', p: 0.8, tokens: 50 },
					{ id: 'c', p: 0.7, tokens: 30 },
				],
				{},
				{ evidence_token_budget: 100 },
			),
		);
		assert.deepEqual(ids(r), ['a', 'c']);
		assert.equal(r.step.tokens, 90);
		assert.equal(reasonOf(r, 'b'), 'over the token budget (60 + 50 > 100)');
		const big = selectEvidence(
			input(
				[
					{ id: 'a', p: 0.9, tokens: 500 },
					{ id: 'b', p: 0.8, tokens: 5 },
				],
				{},
				{ evidence_token_budget: 100 },
			),
		);
		assert.deepEqual(
			big.selected.map((s) => [s.candidate.hit.chunk_id, s.tokens, s.truncatedToTokens]),
			[['a', 100, 100]],
		);
		assert.equal(reasonOf(big, 'a'), 'kept: rank 1 (p=0.900), cut to 100 tokens');
	});

	it('estimates tokens from characters when no count is stored', () => {
		const c = { id: 'a', p: 0.9 };
		const inp = input([c]);
		const noCount = { ...inp, candidates: [{ ...inp.candidates[0], tokens: undefined, text: 'x'.repeat(41) }] };
		assert.equal(selectEvidence(noCount).step.tokens, 11); // ceil(41 / 4)
	});
});

describe('evidence: rerank stage', () => {
	const pool = () => [cand({ id: 'a' }, 0), cand({ id: 'b' }, 1), cand({ id: 'c' }, 2), cand({ id: 'd' }, 3)];
	const fake = (scores: (number | null)[]): Reranker => ({
		id: 'fake',
		rerank: async () => ({ scores, status: 'model', ms: 7 }),
	});

	it('reorders the pool by probability (stable on ties), keeps scores, leaves the rest after it', async () => {
		const r = await rerankCandidates(fake([0.2, 0.9, 0.2]), 'q', pool(), { maxCandidates: 3 });
		assert.equal(r.reranked, true);
		assert.deepEqual(
			r.candidates.map((c) => [c.hit.chunk_id, c.hit.rerank]),
			[
				['b', { score: 0.9, status: 'model' }],
				['a', { score: 0.2, status: 'model' }],
				['c', { score: 0.2, status: 'model' }],
				['d', null],
			],
		);
		assert.deepEqual(r.step, { kind: 'rerank', status: 'model', pairs: 3, ms: 7, model: 'fake' });
	});

	it('passes through with the reason when there is no reranker, it throws, or it returns too few scores', async () => {
		const none = await rerankCandidates(null, 'q', pool(), { maxCandidates: 10 });
		assert.deepEqual(
			[none.reranked, none.step.status, none.step.reason],
			[false, 'passthrough', 'no reranker configured'],
		);
		assert.deepEqual(
			none.candidates.map((c) => c.hit.chunk_id),
			['a', 'b', 'c', 'd'],
		);
		assert.equal(none.candidates[0].hit.rerank?.status, 'passthrough');
		const throwing: Reranker = { id: 'x', rerank: async () => Promise.reject(new Error('boom')) };
		assert.equal(
			(await rerankCandidates(throwing, 'q', pool(), { maxCandidates: 10 })).step.reason,
			'reranker failed: boom',
		);
		assert.equal(
			(await rerankCandidates(fake([0.1]), 'q', pool(), { maxCandidates: 10 })).step.reason,
			'reranker returned an incomplete score list',
		);
	});

	it('runs rerank then selection in one call; a failed reranker falls back to the cosine floors', async () => {
		const cs = [
			{ id: 'a', cos: 0.3 },
			{ id: 'b', cos: 0.7 },
			{ id: 'c', cos: 0.6 },
		].map(cand);
		const base = {
			query: 'q',
			candidates: cs,
			embedder: MINILM,
			cosineFloors: { workspace: 0.45 },
			k: 4,
			thresholds: DEFAULT_THRESHOLDS,
		};
		const withModel = await runEvidenceStage({ ...base, reranker: fake([0.95, 0.2, 0.01]) });
		assert.equal(withModel.rerankStep.status, 'model');
		assert.equal(withModel.evidence.basis, 'rerank');
		// p: a .95, b .2, c .01 (< 0.1 floor) → a, b.
		assert.deepEqual(withModel.evidence.step.selected, ['a', 'b']);
		const failed = await runEvidenceStage({
			...base,
			reranker: {
				id: 'x',
				rerank: async () => ({ scores: [null, null, null], status: 'passthrough', reason: 'missing: no model' }),
			},
		});
		assert.deepEqual(
			[failed.rerankStep.status, failed.rerankStep.reason, failed.evidence.basis],
			['passthrough', 'missing: no model', 'cosine'],
		);
		// cos: a .3 (< 0.45) dropped; b, c in fused order.
		assert.deepEqual(failed.evidence.step.selected, ['b', 'c']);
	});
});

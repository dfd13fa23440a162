/**
 * The built-in linear reranker (src/models/linearReranker.ts): features and scores against
 * hand-computed values, the weights file's validation (a broken file is a passthrough with the
 * reason, never a throw), the embedder-mismatch passthrough, and the evidence stage keeping its
 * cosine floors while taking the order-only reranker's order.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import type { ArmScore, RerankStep, TraceHit } from '../../src/core/trace';
import { isTraceStep } from '../../src/core/protocolGuards';
import { builtinModelDir } from '../../src/models/builtinEmbedder';
import {
	LINEAR_RERANKER_ID,
	LinearReranker,
	linearFeatures,
	loadLinearRerankerWeights,
	parseLinearRerankerWeights,
	queryWords,
	type LinearRerankerWeights,
} from '../../src/models/linearReranker';
import { runEvidenceStage } from '../../src/retrieval/evidence/evidenceStage';
import { rerankCandidates } from '../../src/retrieval/evidence/rerankStage';
import type { EvidenceCandidate } from '../../src/retrieval/evidence/types';
import { stepLine } from '../../webview/traceView';

const STOP = new Set('python how to in a an the of for with is and or do i can from on by using'.split(' '));
const EMB = 'Xenova/all-MiniLM-L6-v2@main'; // identity cosine calibration: the floors below are the policy's as given
const weights = (w: number[] = [2, 1, 10], embedder = EMB): LinearRerankerWeights => ({
	id: LINEAR_RERANKER_ID,
	embedder,
	weights: w,
	stopwords: STOP,
});
const arm = (rank: number, score: number): ArmScore => ({ rank, score });
const good = {
	id: LINEAR_RERANKER_ID,
	format: 'gmem-linear-reranker/1',
	embedder: EMB,
	features: ['coverage', 'fts', 'cosine'],
	weights: [2, 1, 10],
	stopwords: ['how', 'to'],
};

const QUERY = 'how to parse a JSON config file in python';
const PASSAGES = ['def parse_config(path):\n    return json.load(open(path))', 'class FileCache:\n    pass', 'x = 1'];
const ARMS = [
	{ fts: arm(1, 6), vector: arm(2, 0.5) },
	{ fts: arm(2, 3), vector: null },
	{ fts: null, vector: arm(1, 0.7) },
];

describe('linear reranker: features and scores', () => {
	it('keeps the distinct non-stop query words (all words when every one is a stop word)', () => {
		assert.deepEqual(queryWords(QUERY, STOP), ['parse', 'json', 'config', 'file']);
		assert.deepEqual(queryWords('How to do it, how to', STOP), ['it']);
		assert.deepEqual(queryWords('how to', STOP), ['how', 'to']);
		assert.deepEqual(queryWords('parseJSONConfig', STOP), ['parse', 'json', 'config']);
		assert.deepEqual(queryWords('', STOP), []);
	});

	it('computes [coverage, fts / pool max, cosine] by hand', () => {
		// Query words parse, json, config, file. Passage 0 has parse, config, json (3/4), fts 6/6,
		// cosine .5; passage 1 has file (1/4), fts 3/6, no vector arm; passage 2 none, no fts arm, cosine .7.
		assert.deepEqual(linearFeatures(QUERY, PASSAGES, ARMS, STOP), [
			[0.75, 1, 0.5],
			[0.25, 0.5, 0],
			[0, 0, 0.7],
		]);
		// No full-text arm anywhere: fts is 0, not a division by zero; an all-stop-word query covers its own words.
		assert.deepEqual(linearFeatures('how to', ['How to do it'], [{ fts: null, vector: arm(1, 0.25) }], STOP), [
			[1, 0, 0.25],
		]);
	});

	it('scores w · features and says the scores are order only', async () => {
		const r = await new LinearReranker({ weights: weights() }).rerank(QUERY, PASSAGES, undefined, {
			arms: ARMS,
			embedderId: EMB,
		});
		assert.equal(r.status, 'model');
		assert.equal(r.calibrated, false);
		// 2·.75 + 1·1 + 10·.5 = 7.5; 2·.25 + 1·.5 + 0 = 1; 0 + 0 + 10·.7 = 7.
		assert.deepEqual(
			r.scores.map((s) => Math.round(s! * 1e9) / 1e9),
			[7.5, 1, 7],
		);
	});

	it('passes a query longer than longQueryWords through (fitted on short queries) and scores one at the limit', async () => {
		const rr = new LinearReranker({ weights: weights() });
		const n = QUERY.split(' ').length;
		const atLimit = await rr.rerank(QUERY, PASSAGES, undefined, { arms: ARMS, embedderId: EMB, longQueryWords: n });
		assert.equal(atLimit.status, 'model');
		const long = await rr.rerank(QUERY, PASSAGES, undefined, { arms: ARMS, embedderId: EMB, longQueryWords: n - 1 });
		assert.equal(long.status, 'passthrough');
		assert.equal(
			long.reason,
			`long query (${n} words): gmem-rerank-linear-v1 was fitted on short queries, fused order kept`,
		);
	});

	it('passes through when the vector arm is another embedder, none ran, or the arm scores are missing', async () => {
		const rr = new LinearReranker({ weights: weights([2, 1, 10], 'gmem-static-code-v1') });
		const other = await rr.rerank(QUERY, PASSAGES, undefined, { arms: ARMS, embedderId: EMB });
		assert.equal(other.status, 'passthrough');
		assert.deepEqual(other.scores, [null, null, null]);
		assert.equal(
			other.reason,
			`${LINEAR_RERANKER_ID} was trained on gmem-static-code-v1 cosines and the vector arm uses ${EMB}`,
		);
		const none = await rr.rerank(QUERY, PASSAGES, undefined, { arms: ARMS, embedderId: null });
		assert.equal(
			none.reason,
			`${LINEAR_RERANKER_ID} was trained on gmem-static-code-v1 cosines and no vector arm ran (lexical-only)`,
		);
		const bare = await rr.rerank(QUERY, PASSAGES);
		assert.equal(bare.reason, `${LINEAR_RERANKER_ID} needs the first-stage arm scores of every passage`);
		const controller = new AbortController();
		controller.abort();
		assert.equal(
			(await rr.rerank(QUERY, PASSAGES, controller.signal, { arms: ARMS, embedderId: 'gmem-static-code-v1' })).reason,
			'cancelled',
		);
	});
});

describe('linear reranker: the weights file', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'gmem-linear-rr-'));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('accepts a well-formed file', () => {
		const w = parseLinearRerankerWeights(good, 'x.json');
		assert.deepEqual(
			[w.id, w.embedder, w.weights, [...w.stopwords]],
			[LINEAR_RERANKER_ID, EMB, [2, 1, 10], ['how', 'to']],
		);
	});

	it('rejects each malformed field with a message naming it', () => {
		const bad = (patch: Record<string, unknown>) => () => parseLinearRerankerWeights({ ...good, ...patch }, 'x.json');
		assert.throws(() => parseLinearRerankerWeights([1], 'x.json'), /built-in reranker x\.json: not a JSON object/);
		assert.throws(bad({ format: 'other/1' }), /format is "other\/1", expected "gmem-linear-reranker\/1"/);
		assert.throws(
			bad({ id: 'gmem-rerank-linear-v0' }),
			/id is "gmem-rerank-linear-v0", this build expects "gmem-rerank-linear-v1"/,
		);
		assert.throws(bad({ embedder: '' }), /"embedder" must name the embedder/);
		assert.throws(bad({ features: ['coverage', 'cosine', 'fts'] }), /"features" must be \["coverage","fts","cosine"\]/);
		assert.throws(bad({ weights: [1, 2] }), /"weights" must be 3 finite numbers/);
		assert.throws(bad({ weights: [1, '2', 3] }), /"weights" must be 3 finite numbers/);
		assert.throws(bad({ stopwords: 'how to' }), /"stopwords" must be an array of strings/);
	});

	it('a missing or corrupt file is a clear error, and a passthrough with that reason in the stage', async () => {
		await assert.rejects(loadLinearRerankerWeights(dir), /built-in reranker: cannot read .*reranker\.json/);
		const missing = await new LinearReranker({ dir }).rerank(QUERY, PASSAGES, undefined, {
			arms: ARMS,
			embedderId: EMB,
		});
		assert.equal(missing.status, 'passthrough');
		assert.match(missing.reason ?? '', /^gmem-rerank-linear-v1 unavailable: built-in reranker: cannot read /);
		writeFileSync(join(dir, 'reranker.json'), '{"id": "gmem-rerank-linear-v1", ');
		await assert.rejects(loadLinearRerankerWeights(dir), /reranker\.json: not valid JSON/);
		const cands: EvidenceCandidate[] = PASSAGES.map((text, i) => ({
			hit: hit(`c${i}`, ARMS[i]!),
			tier: 'workspace',
			text,
		}));
		const out = await rerankCandidates(new LinearReranker({ dir }), QUERY, cands, {
			maxCandidates: 10,
			embedderId: EMB,
		});
		assert.equal(out.reranked, false);
		assert.equal(out.step.status, 'passthrough');
		assert.equal(out.step.model, LINEAR_RERANKER_ID);
		assert.match(out.step.reason ?? '', /unavailable: built-in reranker .*reranker\.json: not valid JSON/);
		assert.deepEqual(
			out.candidates.map((c) => c.hit.chunk_id),
			['c0', 'c1', 'c2'],
		);
	});

	it('the shipped reranker.json loads and names the embedder shipped beside it', async () => {
		const w = await loadLinearRerankerWeights();
		const config = JSON.parse(readFileSync(join(builtinModelDir(), 'config.json'), 'utf8')) as { id: string };
		assert.equal(w.id, LINEAR_RERANKER_ID);
		assert.equal(
			w.embedder,
			config.id,
			'reranker.json was trained for another embedder: rerun training/train_reranker.py',
		);
		assert.equal(w.weights.length, 3);
	});
});

function hit(id: string, arms: TraceHit['arms'], i = 0): TraceHit {
	return {
		id,
		chunk_id: id,
		path: `src/${id}.py`,
		start_line: 1,
		end_line: 5,
		symbol: null,
		score: 1 / (61 + i),
		fused: 1 / (61 + i),
		arms,
		rerank: null,
	};
}

describe('linear reranker: in the evidence stage', () => {
	// First-stage order a, b, c. Query words parse, json, config.
	//   a: coverage 0, fts 4/4 = 1, cosine .5  → 2·0 + 1 + 10·.5 = 6
	//   b: coverage 1, fts 3.6/4 = .9, cos .9  → 2 + .9 + 9 = 11.9
	//   c: coverage 1, no fts arm, cosine .3   → 2 + 0 + 3 = 5 (but below the 0.45 cosine floor)
	const cs: EvidenceCandidate[] = [
		{
			hit: hit('a', { fts: arm(1, 4), vector: arm(2, 0.5) }, 0),
			tier: 'workspace',
			text: 'def load_settings(path):\n    return yaml.safe_load(path)',
			tokens: 10,
		},
		{
			hit: hit('b', { fts: arm(2, 3.6), vector: arm(1, 0.9) }, 1),
			tier: 'workspace',
			text: 'def parse_json_config(text):\n    return json.loads(text)',
			tokens: 10,
		},
		{
			hit: hit('c', { fts: null, vector: arm(3, 0.3) }, 2),
			tier: 'workspace',
			text: 'parse json config helper notes',
			tokens: 10,
		},
	];
	const base = {
		query: 'parse json config',
		candidates: cs,
		embedder: { id: EMB, semantic: true },
		cosineFloors: { workspace: 0.45 },
		k: 4,
		thresholds: DEFAULT_THRESHOLDS,
	};

	it("uses the reranker's order but judges floors and abstention on cosine", async () => {
		const r = await runEvidenceStage({ ...base, reranker: new LinearReranker({ weights: weights() }) });
		assert.deepEqual(
			r.candidates.map((c) => c.hit.chunk_id),
			['b', 'a', 'c'],
		);
		assert.deepEqual(r.rerankStep, {
			kind: 'rerank',
			status: 'model',
			pairs: 3,
			ms: r.rerankStep.ms,
			model: LINEAR_RERANKER_ID,
			order_only: true,
		});
		assert.equal(r.evidence.basis, 'cosine');
		assert.equal(r.evidence.outcome, 'answer');
		assert.deepEqual(
			r.evidence.selected.map((s) => [s.candidate.hit.chunk_id, s.rank]),
			[
				['b', 1],
				['a', 2],
			],
		);
		const reasons = r.evidence.decisions.map((d) => d.reason);
		assert.deepEqual(reasons, [
			'kept: rank 1 (cos=0.900)',
			'kept: rank 2 (cos=0.500)',
			'below the workspace floor (cos=0.300 < 0.450)',
		]);
		assert.ok(!reasons.some((x) => x.includes('p=')));
		// Without the reranker the same pool keeps first-stage order: a before b.
		const plain = await runEvidenceStage({ ...base, reranker: null });
		assert.deepEqual(
			plain.evidence.selected.map((s) => [s.candidate.hit.chunk_id, s.rank]),
			[
				['a', 1],
				['b', 2],
			],
		);
	});

	it('the trace step is typed and the panel says "order only; floors on cosine" without a probability label', async () => {
		const r = await runEvidenceStage({ ...base, reranker: new LinearReranker({ weights: weights() }) });
		const step: RerankStep = r.rerankStep;
		assert.ok(isTraceStep(step));
		assert.ok(!isTraceStep({ ...step, order_only: 'yes' }));
		const line = stepLine(step);
		assert.equal(line.detail, 'model, 3 pairs');
		assert.equal(line.effect, `${LINEAR_RERANKER_ID}: order only; floors on cosine`);
		const mismatch = await runEvidenceStage({
			...base,
			reranker: new LinearReranker({ weights: weights([2, 1, 10], 'gmem-static-code-v1') }),
		});
		assert.equal(mismatch.rerankStep.status, 'passthrough');
		assert.equal(
			stepLine(mismatch.rerankStep).effect,
			`${LINEAR_RERANKER_ID} was trained on gmem-static-code-v1 cosines and the vector arm uses ${EMB}`,
		);
		assert.deepEqual(
			mismatch.evidence.selected.map((s) => s.candidate.hit.chunk_id),
			['a', 'b'],
		);
	});
});

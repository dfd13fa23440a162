/**
 * The built-in linear reranker on a real store: hybrid search with the real built-in embedder over
 * a small fixture corpus (test/fixtures/reranker/corpus.jsonl), then the evidence stage with the
 * shipped weights (models/builtin/reranker.json). The fixture is built so that hybrid search ranks
 * `partial` (only "json" and "config", repeated) first in both arms and `full` (every query word)
 * second; the reranker's query-word coverage must move `full` ahead. Without the reranker the
 * order stays partial-first, so this fails if the reranker does not run or does not reorder.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { loadBuiltinEmbedder } from '../../src/models/builtinEmbedder';
import type { Embedder } from '../../src/models/embedder';
import { LINEAR_RERANKER_ID, LinearReranker } from '../../src/models/linearReranker';
import { runEvidenceStage } from '../../src/retrieval/evidence/evidenceStage';
import { hybridSearch, type SearchHit } from '../../src/retrieval/hybridSearch';
import { ingestDocuments } from '../../src/retrieval/ingest';
import { suiteStore, testEngines } from '../fixtures/store_engines';

const QUERY = 'read json config file';
const DOCS = readFileSync(join(__dirname, '..', 'fixtures', 'reranker', 'corpus.jsonl'), 'utf8')
	.split('\n')
	.filter(Boolean)
	.map((l) => JSON.parse(l) as { id: string; path: string; text: string });

for (const engine of testEngines()) {
	describe(`built-in linear reranker on hybrid search (${engine.name})`, function () {
		this.timeout(120_000);
		let embedder: Embedder;
		const current = suiteStore(engine, async (s) => {
			embedder = await loadBuiltinEmbedder();
			await ingestDocuments(s.db, DOCS, { workspaceId: 'ws', tier: 'workspace' }, embedder);
		});
		const search = async () => {
			const t = DEFAULT_THRESHOLDS;
			const out = await hybridSearch(current().db, QUERY, {
				tier: 'workspace',
				workspaceIds: ['ws'],
				k: 10 * t.arm_fetch_multiplier,
				arm: 'hybrid',
				embedder,
				cosineFloor: null,
				thresholds: t,
			});
			return out.hits;
		};
		const stage = (hits: SearchHit[], reranker: LinearReranker | null) =>
			runEvidenceStage({
				query: QUERY,
				candidates: hits.map((hit) => ({ hit, tier: 'workspace' as const, text: hit.content })),
				reranker,
				embedder: { id: embedder.id, semantic: embedder.semantic },
				cosineFloors: { workspace: 0.35 },
				k: 4,
				thresholds: DEFAULT_THRESHOLDS,
			});

		it('moves the chunk that covers every query word ahead of the one that does not', async () => {
			const hits = await search();
			const order = hits.map((h) => h.id);
			// The fixture's premise: first-stage order puts `partial` before `full`.
			assert.ok(
				order.indexOf('partial') >= 0 && order.indexOf('partial') < order.indexOf('full'),
				`hybrid order: ${order.join(', ')}`,
			);
			const plain = await stage(hits, null);
			assert.equal(plain.rerankStep.status, 'passthrough');
			assert.deepEqual(plain.evidence.selected.find((s) => s.rank === 1)?.candidate.hit.id, 'partial');

			const r = await stage(hits, new LinearReranker());
			assert.equal(r.rerankStep.status, 'model', r.rerankStep.reason);
			assert.equal(r.rerankStep.model, LINEAR_RERANKER_ID);
			assert.equal(r.rerankStep.order_only, true);
			const reranked = r.candidates.map((c) => c.hit.id);
			assert.ok(reranked.indexOf('full') < reranked.indexOf('partial'), `reranked order: ${reranked.join(', ')}`);
			assert.equal(r.evidence.selected.find((s) => s.rank === 1)?.candidate.hit.id, 'full');
			// Order only: the floors and the basis stay on the cosine.
			assert.equal(r.evidence.basis, 'cosine');
			assert.ok(r.evidence.decisions.every((d) => !d.reason.includes('p=')));
		});

		it('passes through, keeping the hybrid order, when the vectors come from another embedder', async () => {
			const hits = await search();
			const r = await runEvidenceStage({
				query: QUERY,
				candidates: hits.map((hit) => ({ hit, tier: 'workspace' as const, text: hit.content })),
				reranker: new LinearReranker(),
				embedder: { id: 'Xenova/all-MiniLM-L6-v2@main', semantic: true },
				cosineFloors: { workspace: 0.35 },
				k: 4,
				thresholds: DEFAULT_THRESHOLDS,
			});
			assert.equal(r.rerankStep.status, 'passthrough');
			assert.equal(
				r.rerankStep.reason,
				`${LINEAR_RERANKER_ID} was trained on ${embedder.id} cosines and the vector arm uses Xenova/all-MiniLM-L6-v2@main`,
			);
			assert.deepEqual(
				r.candidates.map((c) => c.hit.id),
				hits.map((h) => h.id),
			);
		});
	});
}

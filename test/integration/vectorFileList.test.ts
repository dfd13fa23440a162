/**
 * The vector file list of files mode (file_vector_weight) on both engines, through the indexer
 * with the built-in embedder: for a long report hybridSearch returns the vector arm's own files
 * (best chunk each, in the arm's order), never for a short question or without `vectorFiles`;
 * retrieveWorkspace fuses them into the file ranking only with the weight on, and says so.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { hybridSearch } from '../../src/retrieval/hybridSearch';
import { retrievalTuning } from '../../src/retrieval/retrievalThresholds';
import { retrieveWorkspace } from '../../src/retrieval/workspaceRetrieval';
import type { Store } from '../../src/store/openStore';
import { indexedRepoSuite } from '../fixtures/indexed_repo';
import { testEngines } from '../fixtures/store_engines';

// 40 words: more than rrf_long_query_words (30).
const REPORT =
	'When a colour map is rebuilt after the figure is closed the legend keeps the old shades and the ' +
	'saved image shows stale colours for every line that was drawn before the map changed, which looks ' +
	'like a cache that is never cleared at all';
const SHORT = 'stale colours in the legend';

function writeRepo(root: string): void {
	// Holds the report's own words: the vector arm's nearest file.
	writeFileSync(
		join(root, 'palette.py'),
		`def rebuild_palette(figure):\n    """${REPORT}"""\n    return figure.palette\n`,
	);
	writeFileSync(
		join(root, 'units.py'),
		'def to_metres(value, unit):\n    return value * {"mm": 0.001, "cm": 0.01}[unit]\n',
	);
	writeFileSync(
		join(root, 'http_client.py'),
		'def fetch(url, retries=3):\n    for _ in range(retries):\n        pass\n    return url\n',
	);
}

for (const engine of testEngines()) {
	describe(`vector file list (${engine.name})`, function () {
		this.timeout(120_000);
		const repo = indexedRepoSuite(engine, { prefix: 'gmem-vecfiles-', write: writeRepo, builtinEmbedder: true });
		let store: Store;
		beforeEach(() => {
			store = repo.store();
		});
		const search = (query: string, vectorFiles: boolean) =>
			hybridSearch(store.db, query, {
				...repo.scope(),
				k: 10,
				arm: 'hybrid',
				embedder: repo.embedder(),
				cosineFloor: null,
				thresholds: DEFAULT_THRESHOLDS,
				vectorFiles,
			});

		it('a long report: the vector arm files, distinct, in its order, nearest first', async () => {
			const out = await search(REPORT, true);
			const paths = out.vector_files.map((h) => h.path);
			assert.equal(paths[0], 'palette.py');
			assert.equal(new Set(paths).size, paths.length);
			assert.deepEqual([...paths].sort(), ['http_client.py', 'palette.py', 'units.py']);
			const ranks = out.vector_files.map((h) => h.arms.vector?.rank ?? 0);
			assert.equal(ranks[0], 1);
			assert.deepEqual(
				ranks,
				[...ranks].sort((a, b) => a - b),
			);
		});

		it('none for a short question or without vectorFiles', async () => {
			assert.deepEqual((await search(SHORT, true)).vector_files, []);
			assert.deepEqual((await search(REPORT, false)).vector_files, []);
		});

		it('retrieveWorkspace fuses the list only with file_vector_weight on, and notes it', async () => {
			// No tuning: the product's defaults.
			const run = (w?: number) =>
				retrieveWorkspace(store.db, {
					query: REPORT,
					workspaceIds: [repo.ws()],
					k: 3,
					files: true,
					embedder: repo.embedder(),
					reranker: null,
					floor: DEFAULT_THRESHOLDS.floor_workspace_question,
					thresholds: DEFAULT_THRESHOLDS,
					...(w === undefined ? {} : { tuning: retrievalTuning({ file_vector_weight: w }) }),
				});
			const off = await run(0);
			const on = await run(1);
			const noted = (r: typeof on) =>
				r.steps.some((s) => s.kind === 'note' && /vector file list: [1-3] file\(s\)/.test(s.message));
			assert.ok(noted(on));
			assert.ok(!noted(off));
			assert.equal(on.hits[0].path, 'palette.py');
			// The defaults are weight 0.5; the added list only adds score.
			const def = await run();
			const half = await run(0.5);
			const fileScore = (h: object) => (h as { file_score?: number }).file_score ?? 0;
			assert.deepEqual(
				half.hits.map((h) => [h.path, fileScore(h)]),
				def.hits.map((h) => [h.path, fileScore(h)]),
			);
			assert.ok(noted(def));
			const score = (r: typeof on, p: string) => fileScore(r.hits.find((h) => h.path === p) ?? {});
			assert.ok(score(on, 'palette.py') > score(off, 'palette.py'));
		});
	});
}

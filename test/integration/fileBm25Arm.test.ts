/**
 * The file-level BM25 arm (issue 15 item 2) on both engines, through the indexer: the full-text
 * arm's common-term cut keeps a question's ordinary words from finding candidates, so a file that
 * matches only those words (in several chunks) is missing from the chunk arm; the file-level run
 * reaches it, and files mode ranks it above files that match one word.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { fileBm25Chunks } from '../../src/retrieval/fileBm25Arm';
import { retrievalTuning } from '../../src/retrieval/retrievalThresholds';
import { retrieveWorkspace } from '../../src/retrieval/workspaceRetrieval';
import type { Store } from '../../src/store/openStore';
import { ftsArm } from '../../src/store/searchQueries';
import { indexedRepoSuite } from '../fixtures/indexed_repo';
import { testEngines } from '../fixtures/store_engines';

const QUERY = 'where does the layout render the page margins zeta';

/** 40 filler modules that each say "render" and "page" once, one that says "zeta", and the answer. */
function writeRepo(root: string): void {
	for (let i = 0; i < 40; i++)
		writeFileSync(
			join(root, `filler${i}.py`),
			`def helper_${i}(x):\n    """render page ${i}"""\n    return x + ${i}\n`,
		);
	writeFileSync(join(root, 'greek.py'), 'def zeta_value():\n    """the zeta constant"""\n    return 7\n');
	const fn = (name: string) =>
		`def ${name}(layout, page):\n    """Render the page layout with its margins."""\n` +
		Array.from({ length: 12 }, (_, j) => `    margins_${j} = layout.render(page, margins=${j})\n`).join('') +
		'    return page\n\n\n';
	writeFileSync(
		join(root, 'layout.py'),
		['draw_margins', 'render_margins', 'page_margins', 'layout_margins'].map(fn).join(''),
	);
}

for (const engine of testEngines()) {
	describe(`file-level BM25 arm (${engine.name})`, function () {
		this.timeout(120_000);
		const repo = indexedRepoSuite(engine, { prefix: 'gmem-filebm25-', write: writeRepo });
		let store: Store;
		beforeEach(() => {
			store = repo.store();
		});
		const scope = repo.scope;

		it('reaches chunks the common-term cut leaves out of the chunk arm', async () => {
			const chunkArm = await ftsArm(store.db, scope(), 'layout render page margins zeta', 'bm25', 270, {
				commonDf: DEFAULT_THRESHOLDS.bm25_common_term_df,
				maxCandidates: DEFAULT_THRESHOLDS.bm25_max_candidates,
			});
			assert.ok(!chunkArm.some((r) => r.path === 'layout.py'), 'the chunk arm should miss layout.py here');
			const wide = await fileBm25Chunks(
				store.db,
				scope(),
				QUERY,
				DEFAULT_THRESHOLDS,
				retrievalTuning(DEFAULT_THRESHOLDS),
			);
			assert.equal(wide[0].path, 'layout.py');
			assert.ok(wide.filter((h) => h.path === 'layout.py').length >= 2, 'several layout.py chunks');
			assert.ok(wide.every((h, i) => h.arms.fts?.rank === i + 1));
		});

		it('files mode ranks that file above the fillers; with the arm off (0 candidates) it does not', async () => {
			const files = (candidates: number) =>
				retrieveWorkspace(store.db, {
					query: QUERY,
					workspaceIds: [repo.ws()],
					k: 5,
					files: true,
					arm: 'fts',
					embedder: null,
					reranker: null,
					floor: DEFAULT_THRESHOLDS.floor_workspace_question,
					thresholds: DEFAULT_THRESHOLDS,
					tuning: retrievalTuning({ file_bm25_candidates: candidates }),
				});
			// Second behind greek.py, the only file both lists hold (its rare word), ahead of every filler.
			assert.deepEqual(
				(await files(1000)).hits.slice(0, 2).map((h) => h.path),
				['greek.py', 'layout.py'],
			);
			assert.ok(!(await files(0)).hits.some((h) => h.path === 'layout.py'));
		});
	});
}

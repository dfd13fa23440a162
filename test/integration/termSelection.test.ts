/**
 * Long-query term selection from the index's document frequencies, on a real store through the
 * indexer: a term the index does not hold is dropped, a rare term beats a common one for the last
 * slot, and a query at or under the cap searches what it always did.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { selectQueryTerms } from '../../src/retrieval/termSelection';
import { retrieveWorkspace } from '../../src/retrieval/workspaceRetrieval';
import type { Store } from '../../src/store/openStore';
import { termDocFrequencies } from '../../src/store/searchQueries';
import { indexedRepoSuite } from '../fixtures/indexed_repo';
import { testEngines } from '../fixtures/store_engines';

/** 12 modules that say "render", one that says "zeta" (and "render"). */
function writeRepo(root: string): void {
	for (let i = 0; i < 12; i++)
		writeFileSync(join(root, `filler${i}.py`), `def helper_${i}(x):\n    """render the page"""\n    return x\n`);
	writeFileSync(join(root, 'greek.py'), 'def zeta_value():\n    """render the zeta constant"""\n    return 7\n');
}

// 35 words no file contains, then the two that matter: over the 32-term cap.
const JUNK = Array.from({ length: 35 }, (_, i) => `xyzzy${i}`).join(' ');
const LONG = `${JUNK} zeta render`;

for (const engine of testEngines()) {
	describe(`long-query term selection by document frequency (${engine.name})`, function () {
		this.timeout(120_000);
		const repo = indexedRepoSuite(engine, { prefix: 'gmem-termsel-', write: writeRepo });
		let store: Store;
		beforeEach(() => {
			store = repo.store();
		});

		it('termDocFrequencies: the rarest indexed lexeme of each text; 0 when none is indexed', async () => {
			const dfs = await termDocFrequencies(store.db, repo.scope(), ['zeta', 'xyzzy0', 'render', 'xyzzy1 zeta']);
			assert.deepEqual(dfs, { n: 13, dfs: [1, 0, 13, 1] });
		});

		it('another workspace has no such terms: every df is 0', async () => {
			const other = { tier: 'workspace' as const, workspaceIds: ['no-such-workspace'] };
			assert.deepEqual(await termDocFrequencies(store.db, other, ['zeta', 'render']), { n: 0, dfs: [0, 0] });
		});

		it('over the cap: df-0 terms are dropped, so the cut-off terms are searched', async () => {
			assert.deepEqual(await selectQueryTerms(store.db, repo.scope(), LONG, DEFAULT_THRESHOLDS), ['zeta', 'render']);
		});

		it('a rare term beats a common one for the last slot', async () => {
			const t = { ...DEFAULT_THRESHOLDS, fts_max_query_terms: 1 };
			assert.deepEqual(await selectQueryTerms(store.db, repo.scope(), 'render zeta', t), ['zeta']);
			const two = { ...DEFAULT_THRESHOLDS, fts_max_query_terms: 2 };
			assert.deepEqual(await selectQueryTerms(store.db, repo.scope(), 'render xyzzy0 zeta', two), ['render', 'zeta']);
		});

		it('at or under the cap the terms are unchanged, df-0 ones included', async () => {
			assert.deepEqual(await selectQueryTerms(store.db, repo.scope(), 'xyzzy0 render zeta', DEFAULT_THRESHOLDS), [
				'xyzzy0',
				'render',
				'zeta',
			]);
		});

		it('through the pipeline: a long report searches its indexed terms and finds the rare one first', async () => {
			const r = await retrieveWorkspace(store.db, {
				query: LONG,
				workspaceIds: [repo.ws()],
				k: 3,
				files: true,
				arm: 'fts',
				embedder: null,
				reranker: null,
				floor: DEFAULT_THRESHOLDS.floor_workspace_question,
				thresholds: DEFAULT_THRESHOLDS,
			});
			assert.equal(r.searched_query, 'zeta render');
			assert.equal(r.hits[0].path, 'greek.py');
		});
	});
}

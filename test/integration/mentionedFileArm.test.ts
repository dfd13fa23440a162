/**
 * Named files (files mode) on both engines, through the indexer: a report that names a module by
 * its dotted path (`pkg.db.query`) brings that file into the file ranking with its first chunk,
 * even when the report's words match another file better; the package's other `query.py` and its
 * `__init__.py` are not taken for it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { mentionedFileHits } from '../../src/retrieval/mentionedFileArm';
import { retrievalTuning } from '../../src/retrieval/retrievalThresholds';
import { retrieveWorkspace } from '../../src/retrieval/workspaceRetrieval';
import type { Store } from '../../src/store/openStore';
import { indexedRepoSuite } from '../fixtures/indexed_repo';
import { testEngines } from '../fixtures/store_engines';

const REPORT =
	'bulk insert drops rows silently when the batch is large.\n' +
	'Reproduced with pkg.db.query on 3.2; the batch loop rows batch rows batch looks wrong to me.';

function writeRepo(root: string): void {
	mkdirSync(join(root, 'db'), { recursive: true });
	mkdirSync(join(root, 'other'), { recursive: true });
	writeFileSync(join(root, 'db', '__init__.py'), 'from .query import insert_many\n');
	writeFileSync(
		join(root, 'db', 'query.py'),
		'def insert_many(items, size):\n    out = []\n    for i in range(0, len(items), size):\n        out.append(items[i:i + size])\n    return out\n',
	);
	writeFileSync(join(root, 'other', 'query.py'), 'def lookup(key):\n    return key\n');
	// Says the report's words many times: BM25 prefers it.
	writeFileSync(
		join(root, 'batching.py'),
		Array.from(
			{ length: 6 },
			(_, i) =>
				`def batch_rows_${i}(rows, batch):\n    """batch rows: bulk insert drops rows in a large batch loop"""\n    return rows[:batch]\n\n\n`,
		).join(''),
	);
}

for (const engine of testEngines()) {
	describe(`named files (${engine.name})`, function () {
		this.timeout(120_000);
		const repo = indexedRepoSuite(engine, { prefix: 'gmem-named-', write: writeRepo });
		let store: Store;
		beforeEach(() => {
			store = repo.store();
		});
		const scope = repo.scope;

		it('resolves the dotted module to db/query.py only, with its first chunk', async () => {
			const { files, hits } = await mentionedFileHits(store.db, scope(), REPORT, 10);
			assert.deepEqual(
				files.map((f) => f.path),
				['db/query.py'],
			);
			assert.equal(hits.length, 1);
			assert.equal(hits[0].path, 'db/query.py');
			assert.match(hits[0].content, /def insert_many/);
		});

		it('files mode ranks the named file first with the weight on, and below the wordy file with it off', async () => {
			const run = (w: number) =>
				retrieveWorkspace(store.db, {
					query: REPORT,
					workspaceIds: [repo.ws()],
					k: 5,
					files: true,
					embedder: null,
					reranker: null,
					floor: DEFAULT_THRESHOLDS.floor_workspace_question,
					thresholds: DEFAULT_THRESHOLDS,
					tuning: retrievalTuning({ file_mention_weight: w }),
				});
			const off = await run(0);
			assert.equal(off.hits[0].path, 'batching.py');
			const on = await run(3);
			assert.equal(on.hits[0].path, 'db/query.py');
			assert.ok(on.steps.some((s) => s.kind === 'note' && /named files: db\/query\.py/.test(s.message)));
			assert.ok(!off.steps.some((s) => s.kind === 'note' && /named files/.test(s.message)));
		});
	});
}

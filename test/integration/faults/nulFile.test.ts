/**
 * Issue #16's reproduction: 34 ordinary files beside one text-looking file with a NUL byte after
 * its first 8 KB (past the binary sniff). The old indexer decoded it as UTF-8, sent the NUL to
 * Postgres and the whole bulk write died ("invalid byte sequence for encoding UTF8: 0x00"), so
 * none of the 34 were indexed. Now: 34 indexed, 1 skipped as `nul`, the good files searchable.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';
import { Indexer } from '../../../src/indexing/indexer';
import { HashingEmbedder } from '../../../src/models/hashingEmbedder';
import { codeTokens } from '../../../src/retrieval/codeTokens';
import { hybridSearch } from '../../../src/retrieval/hybridSearch';
import { workspaceId } from '../../../src/store/location';
import { goodMarker, ordinaryWorkspace, textWithLateNul } from '../../fixtures/faults/hostileWorkspace';
import { suiteStore, testEngines } from '../../fixtures/store_engines';

for (const engine of testEngines()) {
	describe(`faults: a NUL byte after the first 8 KB (${engine.name})`, function () {
		this.timeout(120_000);
		const store = suiteStore(engine);

		it('indexes the 34 good files, skips the NUL file as nul, and the good files are searchable', async () => {
			const ws = ordinaryWorkspace(34);
			try {
				writeFileSync(join(ws.root, 'server.log'), textWithLateNul());
				const embedder = new HashingEmbedder(384, codeTokens);
				const [r] = await new Indexer({ db: store().db, embedder }).indexFolders([ws.root]);
				assert.equal(r.files_indexed, 34);
				assert.deepEqual(r.skipped, { nul: 1 });
				const ids = [workspaceId(ws.root)];
				const docs = await store().db.query<{ doc_id: string }>(
					`SELECT doc_id FROM documents WHERE workspace_id = $1`,
					ids,
				);
				assert.equal(docs.length, 34);
				assert.ok(!docs.some((d) => d.doc_id === 'server.log'), 'the NUL file is not stored');
				for (const i of [0, 17, 33]) {
					const out = await hybridSearch(store().db, goodMarker(i), {
						tier: 'workspace',
						workspaceIds: ids,
						k: 5,
						arm: 'hybrid',
						embedder,
						cosineFloor: null,
						thresholds: DEFAULT_THRESHOLDS,
					});
					assert.equal(out.hits[0]?.path, `src/file${i}.ts`, goodMarker(i));
				}
			} finally {
				ws.cleanup();
			}
		});
	});
}

/**
 * A write error during indexing (a trigger in the real engine raises disk_full for one file's
 * chunks, see fixtures/faults/failingWrites.ts): the run reports that file as `write_error` with the
 * database's message, every other file lands, the store's statistics stay exact, and the store
 * stays usable — once the fault is gone the next run indexes the file. Full runs (incremental
 * and bulk-load paths), a file whose older copy was stored, and the watcher's one-transaction batch.
 */
import assert from 'node:assert/strict';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';
import { Indexer } from '../../../src/indexing/indexer';
import { HashingEmbedder } from '../../../src/models/hashingEmbedder';
import { codeTokens } from '../../../src/retrieval/codeTokens';
import { hybridSearch } from '../../../src/retrieval/hybridSearch';
import { BULK_INDEX_REBUILD } from '../../../src/store/chunkRepo';
import { workspaceId } from '../../../src/store/location';
import { checkConsistency, CONSISTENT, violations } from '../../fixtures/faults/consistency';
import { failWritesOf, WRITE_FAULT_MARKER } from '../../fixtures/faults/failingWrites';
import { goodMarker, ordinaryWorkspace } from '../../fixtures/faults/hostileWorkspace';
import { suiteStore, testEngines } from '../../fixtures/store_engines';

const N = 10;
const goodIds = Array.from({ length: N }, (_, i) => `src/file${i}.ts`);
const sorted = (a: string[]) => [...a].sort();

for (const engine of testEngines()) {
	describe(`faults: a write error during indexing (${engine.name})`, function () {
		this.timeout(120_000);
		const store = suiteStore(engine);
		const embedder = new HashingEmbedder(384, codeTokens);
		let ws: ReturnType<typeof ordinaryWorkspace>;
		let heal: (() => Promise<void>) | null = null;
		const indexer = () => new Indexer({ db: store().db, embedder });
		const run = async () => (await indexer().indexFolders([ws.root]))[0];
		const consistency = () => checkConsistency(store().db, workspaceId(ws.root));
		const hits = async (word: string) =>
			(
				await hybridSearch(store().db, word, {
					tier: 'workspace',
					workspaceIds: [workspaceId(ws.root)],
					k: 5,
					arm: 'hybrid',
					embedder,
					cosineFloor: null,
					thresholds: DEFAULT_THRESHOLDS,
				})
			).hits;
		const found = async (word: string) => (await hits(word))[0]?.path;
		const writeBad = (rel = 'src/bad.ts') =>
			writeFileSync(join(ws.root, rel), `export const bad = 1; // ${WRITE_FAULT_MARKER}\n`);

		beforeEach(() => (ws = ordinaryWorkspace(N)));
		afterEach(async () => {
			await heal?.();
			heal = null;
			await store().db.query(`DELETE FROM documents WHERE workspace_id = $1`, [workspaceId(ws.root)]);
			ws.cleanup();
		});

		it('a full run: the refused file is write_error with the message, the others land, then the store heals', async () => {
			writeBad();
			heal = await failWritesOf(store().db);
			const r = await run();
			assert.equal(r.files_indexed, N);
			assert.deepEqual(r.skipped, { write_error: 1 });
			assert.equal(r.failures[0].path, 'src/bad.ts');
			assert.match(r.failures[0].detail, /No space left on device/);
			const c = await consistency();
			assert.deepEqual(violations(c), CONSISTENT);
			assert.deepEqual(c.docIds, sorted(goodIds));
			assert.equal(await found(goodMarker(3)), 'src/file3.ts');
			await heal();
			heal = null;
			const again = await run();
			assert.equal(again.files_indexed, 1, 'the refused file is indexed once the fault is gone');
			assert.equal(again.files_unchanged, N);
			assert.equal(await found(WRITE_FAULT_MARKER), 'src/bad.ts');
			assert.deepEqual(violations(await consistency()), CONSISTENT);
		});

		it('the bulk-load path (vector index dropped and rebuilt) isolates the refused file too', async () => {
			writeBad();
			heal = await failWritesOf(store().db);
			const saved = { ...BULK_INDEX_REBUILD };
			Object.assign(BULK_INDEX_REBUILD, { minChunks: 1, minGrowth: 0 });
			try {
				const r = await run();
				assert.equal(r.files_indexed, N);
				assert.deepEqual(r.skipped, { write_error: 1 });
			} finally {
				Object.assign(BULK_INDEX_REBUILD, saved);
			}
			const idx = await store().db.query(
				`SELECT 1 FROM pg_indexes WHERE tablename = 'chunks' AND indexname = 'chunks_embedding'`,
			);
			assert.equal(idx.length, 1, 'the vector index was rebuilt after the load');
			assert.deepEqual(violations(await consistency()), CONSISTENT);
		});

		it('a stored file whose new version is refused loses its stale copy; the rest stay as they were', async () => {
			await run();
			writeBad('src/file5.ts');
			utimesSync(join(ws.root, 'src/file5.ts'), new Date(), new Date(Date.now() + 5000));
			heal = await failWritesOf(store().db);
			const r = await run();
			assert.deepEqual(r.skipped, { write_error: 1 });
			assert.equal(r.files_unchanged, N - 1);
			const c = await consistency();
			assert.deepEqual(violations(c), CONSISTENT);
			assert.deepEqual(c.docIds, sorted(goodIds.filter((d) => d !== 'src/file5.ts')));
			assert.ok(
				!(await hits(goodMarker(5))).some((h) => h.path === 'src/file5.ts'),
				'the stale version is not searchable',
			);
		});

		it("the watcher's batch: one transaction, the refused file rolled back alone", async () => {
			await run();
			heal = await failWritesOf(store().db);
			writeFileSync(join(ws.root, 'src/file1.ts'), 'export const one = "batchmarkerone";\n');
			writeFileSync(join(ws.root, 'src/new.ts'), 'export const fresh = "batchmarkernew";\n');
			writeBad('src/file2.ts');
			const r = await indexer().reindexPaths(
				['src/file1.ts', 'src/new.ts', 'src/file2.ts'].map((p) => join(ws.root, p)),
				undefined,
				[ws.root],
			);
			assert.equal(r.files_indexed, 2);
			assert.deepEqual(r.skipped, { write_error: 1 });
			assert.equal(r.transactions, 1);
			assert.deepEqual(
				r.failures.map((f) => [f.path, f.reason]),
				[['src/file2.ts', 'write_error']],
			);
			assert.equal(await found('batchmarkerone'), 'src/file1.ts');
			assert.equal(await found('batchmarkernew'), 'src/new.ts');
			const c = await consistency();
			assert.deepEqual(violations(c), CONSISTENT);
			assert.ok(!c.docIds.includes('src/file2.ts'));
		});
	});
}

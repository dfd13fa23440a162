/**
 * What `analyzeChunks` leaves behind on PGlite, which has no autovacuum: the full-text GIN index's
 * pending list (new rows waiting to be merged, scanned by every tsv search) is empty afterwards.
 * The server is not asked to: its autovacuum merges the list. On both engines the postings table's
 * pages are all-visible afterwards (BM25's index-only scans need no heap fetches).
 */
import assert from 'node:assert/strict';
import { analyzeChunks, upsertDocuments, type DocumentInput } from '../../src/store/chunkRepo';
import type { Queryable } from '../../src/store/queryable';
import { suiteStore, testEngines } from '../fixtures/store_engines';

function docs(from: number, n: number): DocumentInput[] {
	return Array.from({ length: n }, (_, i) => {
		const text = `def handler_${from + i}(request):\n    return render_page(request, "page ${from + i}")`;
		return {
			workspaceId: 'ws',
			tier: 'workspace',
			docId: `src/h${from + i}.py`,
			path: `src/h${from + i}.py`,
			contentHash: `h${from + i}`,
			mtimeMs: null,
			metadata: {},
			embedder: null,
			chunks: [
				{
					path: `src/h${from + i}.py`,
					startLine: 1,
					endLine: 2,
					symbol: `handler_${from + i}`,
					kind: 'function',
					language: 'python',
					content: text,
					contentHash: `h${from + i}`,
					searchText: text,
					embedding: null,
				},
			],
		};
	});
}

/** Pages the call moved out of chunks_tsv's pending list (so a second call says whether any were left). */
async function pendingPages(db: Queryable): Promise<number> {
	const rows = await db.query<{ n: string }>("SELECT gin_clean_pending_list('chunks_tsv'::regclass)::text AS n");
	return Number(rows[0]!.n);
}

const pglite = testEngines().find((e) => e.name === 'pglite')!;

/** chunk_terms' heap pages and how many the visibility map marks all-visible, as the last VACUUM or ANALYZE counted them. */
async function visiblePages(db: Queryable): Promise<{ pages: number; visible: number }> {
	const rows = await db.query<{ pages: number; visible: number }>(
		"SELECT relpages AS pages, relallvisible AS visible FROM pg_class WHERE oid = 'chunk_terms'::regclass",
	);
	return rows[0]!;
}

describe('analyzeChunks on PGlite (no autovacuum)', function () {
	this.timeout(60_000);
	const store = suiteStore(pglite);

	it('writes leave rows in the GIN pending list (the fixture has something to clean)', async () => {
		await upsertDocuments(store().db, docs(0, 200));
		assert.ok((await pendingPages(store().db)) > 0);
	});

	it('after analyzeChunks the pending list is empty', async () => {
		await upsertDocuments(store().db, docs(200, 200));
		await analyzeChunks(store().db);
		assert.equal(await pendingPages(store().db), 0);
	});
});

for (const engine of testEngines())
	describe(`analyzeChunks leaves the postings all-visible (${engine.name})`, function () {
		this.timeout(60_000);
		const store = suiteStore(engine);

		it('every chunk_terms page is all-visible after a bulk load and analyzeChunks', async () => {
			await upsertDocuments(store().db, docs(0, 300));
			// The CI server runs with synchronous_commit = off, and a vacuum cannot mark a page
			// all-visible while the commit that wrote it is not yet flushed: flush the WAL first.
			if (engine.name === 'postgres') await store().db.query('CHECKPOINT');
			await analyzeChunks(store().db);
			const { pages, visible } = await visiblePages(store().db);
			assert.ok(pages > 0);
			assert.equal(visible, pages);
		});
	});

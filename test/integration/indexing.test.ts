/**
 * The indexer against real engines: what is stored, secrets never stored or found, incremental
 * re-indexing (embedding work counted through a wrapper), removal of deleted and newly ignored
 * files, the single-file API for the file watcher, and lexical-only mode.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { Indexer, type FolderIndexResult } from '../../src/indexing/indexer';
import { HashingEmbedder } from '../../src/models/hashingEmbedder';
import { codeTokens } from '../../src/retrieval/codeTokens';
import { hybridSearch, type SearchOptions } from '../../src/retrieval/hybridSearch';
import { deleteDocuments } from '../../src/store/chunkRepo';
import { workspaceId } from '../../src/store/location';
import type { Store } from '../../src/store/openStore';
import type { Queryable } from '../../src/store/queryable';
import { copyWorkspace, PLANTED_SECRETS } from '../fixtures/indexing/workspace';
import { mustOpen, testEngines } from '../fixtures/store_engines';
import { CountingEmbedder } from '../fixtures/countingEmbedder';

// Small chunks, so one edited function is one chunk among several in its file.
const THRESHOLDS = {
	...DEFAULT_THRESHOLDS,
	index_chunk_max_lines: 12,
	index_chunk_min_lines: 3,
	index_chunk_overlap_lines: 2,
};

for (const engine of testEngines()) {
	describe(`indexing: incremental workspace index (${engine.name})`, function () {
		this.timeout(120_000);
		let db: Queryable;
		let ws: ReturnType<typeof copyWorkspace>;
		let embedder: CountingEmbedder;
		let indexer: Indexer;
		const run = async (): Promise<FolderIndexResult> => (await indexer.indexFolders([ws.root]))[0];
		const search = (query: string, arm: SearchOptions['arm']) =>
			hybridSearch(db, query, {
				tier: 'workspace',
				workspaceIds: [workspaceId(ws.root)],
				k: 50,
				arm,
				embedder,
				cosineFloor: null,
				thresholds: DEFAULT_THRESHOLDS,
			});
		// Paths of the full-text hits whose text holds `marker` (a query's split words may match elsewhere).
		const pathsFound = async (marker: string) =>
			new Set((await search(marker, 'fts')).hits.filter((h) => h.content.includes(marker)).map((h) => h.path));

		let store: Store;
		let dispose: () => Promise<void>;
		before(async () => {
			const created = await engine.create();
			dispose = created.dispose;
			store = await mustOpen(created.location);
			db = store.db;
		});
		after(async () => {
			await store?.close();
			await dispose?.();
		});
		beforeEach(() => {
			ws = copyWorkspace();
			embedder = new CountingEmbedder(new HashingEmbedder(384, codeTokens));
			indexer = new Indexer({ db, embedder, thresholds: THRESHOLDS });
		});
		afterEach(async () => {
			await deleteDocuments(db, { workspaceId: workspaceId(ws.root) });
			ws.cleanup();
		});

		it('indexes the sample workspace and reports files, chunks and skip reasons', async () => {
			const r = await run();
			assert.equal(r.files_indexed, 17);
			assert.equal(r.files_unchanged, 0);
			assert.equal(r.files_removed, 0);
			assert.deepEqual(r.skipped, { secret: 2, 'excluded-folder': 1, ignored: 3, binary: 1, encoding: 1 });
			const stored = await db.query<{ n: number; v: number }>(
				`SELECT count(*)::int AS n, count(embedding)::int AS v FROM chunks WHERE workspace_id = $1`,
				[workspaceId(ws.root)],
			);
			assert.equal(stored[0].n, r.chunks);
			assert.equal(stored[0].v, r.chunks);
			assert.equal(embedder.texts, r.chunks);
			assert.ok(r.chunks > 17, `more chunks than files (${r.chunks})`);
			const hit = (await search('computeTotal', 'fts')).hits[0];
			assert.equal(hit.path, 'src/cart.ts');
			assert.equal(hit.symbol, 'ShoppingCart.computeTotal');
			assert.ok((await pathsFound('ocelotLatinMarker')).has('legacy/notes.txt'), 'the Latin-1 file is indexed');
			assert.ok(
				(await pathsFound('quokkaKeepLogMarker')).has('src/sub/keep.log'),
				're-included by the nested .gitignore',
			);
			for (const marker of [
				'zebraGeneratedIgnoredMarker',
				'wombatOtherLogMarker',
				'vendoredMarker',
				'binaryPixelMarker',
			]) {
				assert.equal((await pathsFound(marker)).size, 0, marker);
			}
		});

		it('never stores a planted secret, and no search arm can surface one', async () => {
			await run();
			const leaked = await db.query<{ path: string }>(
				`SELECT path FROM chunks WHERE workspace_id = $1 AND (content ~ $2 OR search_text ~ $2)`,
				[workspaceId(ws.root), PLANTED_SECRETS.join('|')],
			);
			assert.deepEqual(leaked, []);
			const docs = await db.query<{ doc_id: string }>(
				`SELECT doc_id FROM documents WHERE workspace_id = $1 AND doc_id IN ('.env', 'keys/id_rsa')`,
				[workspaceId(ws.root)],
			);
			assert.deepEqual(docs, []);
			for (const secret of PLANTED_SECRETS) {
				for (const arm of ['fts', 'vector', 'hybrid'] as const) {
					const hits = (await search(secret, arm)).hits;
					if (arm !== 'fts')
						assert.ok(hits.length > 0, 'the vector arm always returns neighbours, so the check below is not vacuous');
					for (const h of hits) assert.ok(!h.content.includes(secret), `${arm} arm: ${secret} in ${h.path}`);
				}
			}
			const redacted = await db.query<{ content: string }>(
				`SELECT content FROM chunks WHERE workspace_id = $1 AND path = 'config.py'`,
				[workspaceId(ws.root)],
			);
			assert.match(redacted.map((r) => r.content).join('\n'), /password = "\[REDACTED\]"/);
		});

		it('re-indexing an unchanged tree reads and embeds nothing', async () => {
			const first = await run();
			embedder.texts = 0;
			const again = await run();
			assert.deepEqual(
				{ ...again, ms: 0 },
				{ ...first, ms: 0, files_indexed: 0, files_unchanged: 17, chunks: 0, embedded: 0, reused: 0 },
			);
			assert.equal(embedder.texts, 0);
			assert.equal(embedder.calls, 1, 'only the first run embedded');
		});

		it('a changed file re-embeds only its changed chunks; a touched file is not re-embedded', async () => {
			await run();
			const cart = join(ws.root, 'src', 'cart.ts');
			const total = (
				await db.query<{ n: number }>(
					`SELECT count(*)::int AS n FROM chunks WHERE workspace_id = $1 AND path = 'src/cart.ts'`,
					[workspaceId(ws.root)],
				)
			)[0].n;
			writeFileSync(
				cart,
				readFileSync(cart, 'utf8').replace(
					'total += item.price * item.quantity;',
					'total += item.price * item.quantity * 1.0; // kookaburra',
				),
			);
			embedder.texts = 0;
			const r = await run();
			assert.equal(r.files_indexed, 1);
			assert.equal(r.files_unchanged, 16);
			assert.equal(r.embedded, 1, 'only computeTotal changed');
			assert.equal(r.reused, total - 1);
			assert.equal(embedder.texts, 1);
			assert.equal((await search('kookaburra', 'fts')).hits[0]?.symbol, 'ShoppingCart.computeTotal');
			const later = new Date(Date.now() + 5000);
			utimesSync(join(ws.root, 'src', 'format.ts'), later, later);
			embedder.texts = 0;
			const touched = await run();
			assert.equal(touched.files_indexed, 0);
			assert.equal(embedder.texts, 0);
		});

		it('a deleted or newly ignored file disappears from every table and from search', async () => {
			await run();
			rmSync(join(ws.root, 'src', 'inventory.py'));
			appendFileSync(join(ws.root, '.gitignore'), 'docs/\n');
			const r = await run();
			assert.equal(r.files_removed, 2);
			const ws0 = workspaceId(ws.root);
			for (const path of ['src/inventory.py', 'docs/guide.md']) {
				const rows = await db.query<{ n: number }>(
					`SELECT (SELECT count(*) FROM chunks WHERE workspace_id = $1 AND path = $2)::int + (SELECT count(*) FROM documents WHERE workspace_id = $1 AND path = $2)::int AS n`,
					[ws0, path],
				);
				assert.equal(rows[0].n, 0, path);
			}
			assert.equal((await pathsFound('receive_shipment')).size, 0);
			assert.equal((await pathsFound('Refunds reverse the billing entry')).size, 0);
			const stats = await db.query<{ stats: number; rows: number }>(
				`SELECT (SELECT n_chunks FROM corpus_stats WHERE workspace_id = $1 AND tier = 'workspace')::int AS stats, (SELECT count(*) FROM chunks WHERE workspace_id = $1)::int AS rows`,
				[ws0],
			);
			assert.equal(stats[0].stats, stats[0].rows, 'BM25 statistics count only the chunks still stored');
		});

		it('reindexFile / removeFile: the file watcher API', async () => {
			await run();
			const py = join(ws.root, 'src', 'inventory.py');
			appendFileSync(py, '\n\ndef platypus_audit(levels):\n    """Counts the levels."""\n    return len(levels)\n');
			const changed = await indexer.reindexFile(py);
			assert.equal(changed.status, 'indexed');
			assert.equal(changed.embedded, 1);
			assert.ok((await pathsFound('platypus_audit')).has('src/inventory.py'));
			assert.deepEqual(await indexer.reindexFile(py), { status: 'unchanged', chunks: 0, embedded: 0 });
			assert.deepEqual(await indexer.reindexFile(join(ws.root, '.env')), {
				status: 'skipped',
				reason: 'secret',
				chunks: 0,
				embedded: 0,
			});
			rmSync(py);
			assert.equal((await indexer.reindexFile(py)).status, 'removed');
			assert.equal((await pathsFound('platypus_audit')).size, 0);
			assert.ok((await indexer.removeFile(join(ws.root, 'src', 'cart.ts'))) > 0);
			assert.equal((await pathsFound('computeTotal')).size, 0);
			assert.throws(() => indexer.locate('/elsewhere/x.ts'), /not inside an indexed workspace folder/);
		});

		it('lexical-only without an embedder; documents ingested by others in the workspace are kept', async () => {
			const lexical = new Indexer({ db, embedder: null, thresholds: THRESHOLDS });
			const ws0 = workspaceId(ws.root);
			await db.query(
				`INSERT INTO documents (workspace_id, tier, doc_id, path, content_hash) VALUES ($1, 'workspace', 'note-1', NULL, 'h')`,
				[ws0],
			);
			const r = (await lexical.indexFolders([ws.root]))[0];
			assert.equal(r.embedded, 0);
			const v = await db.query<{ n: number }>(`SELECT count(embedding)::int AS n FROM chunks WHERE workspace_id = $1`, [
				ws0,
			]);
			assert.equal(v[0].n, 0);
			rmSync(join(ws.root, 'src'), { recursive: true });
			const again = (await lexical.indexFolders([ws.root]))[0];
			assert.equal(again.files_removed, 12);
			const kept = await db.query(`SELECT doc_id FROM documents WHERE workspace_id = $1 AND doc_id = 'note-1'`, [ws0]);
			assert.equal(kept.length, 1);
		});

		it('re-chunks everything when a chunk-size threshold changes', async () => {
			await run();
			const bigger = new Indexer({ db, embedder, thresholds: { ...THRESHOLDS, index_chunk_max_lines: 60 } });
			const r = (await bigger.indexFolders([ws.root]))[0];
			assert.equal(r.files_indexed, 17);
			assert.equal(r.files_unchanged, 0);
		});

		it('stops on abort and resumes where it stopped', async () => {
			const ac = new AbortController();
			let seen = 0;
			// Batches of 2 chunks, so files are written as the run goes (a batch in flight is lost on abort).
			const small = new Indexer({ db, embedder, thresholds: { ...THRESHOLDS, index_embed_batch: 2 } });
			await assert.rejects(
				small.indexFolders([ws.root], {
					signal: ac.signal,
					onProgress: (p) => p.phase === 'index' && ++seen === 8 && ac.abort(),
				}),
				/abort/i,
			);
			indexer = small;
			const r = await run();
			assert.equal(r.files_indexed + r.files_unchanged, 17);
			assert.ok(r.files_indexed < 17, 'files written before the abort were kept');
		});
	});
}

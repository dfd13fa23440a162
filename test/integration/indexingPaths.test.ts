/**
 * Batched re-indexing of changed paths (the file watcher's and a branch switch's path): one
 * request, one write transaction; unchanged files embed nothing; deleted, newly ignored and
 * secret files disappear from every table; ignored paths are never stored. Real engines.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { Indexer } from '../../src/indexing/indexer';
import { IndexWorkerClient } from '../../src/indexing/indexWorkerClient';
import { HashingEmbedder } from '../../src/models/hashingEmbedder';
import { codeTokens } from '../../src/retrieval/codeTokens';
import { deleteDocuments } from '../../src/store/chunkRepo';
import { workspaceId } from '../../src/store/location';
import type { Store } from '../../src/store/openStore';
import type { Queryable } from '../../src/store/queryable';
import { copyWorkspace } from '../fixtures/indexing/workspace';
import { countingDb } from '../fixtures/countingDb';
import { mustOpen, testEngines } from '../fixtures/store_engines';
import { CountingEmbedder } from '../fixtures/countingEmbedder';

// Rows of one document in every table that holds workspace text.
async function rowsOf(db: Queryable, ws: string, docId: string): Promise<Record<string, number>> {
	const n = async (sql: string) => (await db.query<{ n: number }>(sql, [ws, docId]))[0].n;
	return {
		documents: await n(`SELECT count(*)::int AS n FROM documents WHERE workspace_id = $1 AND doc_id = $2`),
		chunks: await n(`SELECT count(*)::int AS n FROM chunks WHERE workspace_id = $1 AND doc_id = $2`),
		chunk_terms: await n(
			`SELECT count(*)::int AS n FROM chunk_terms t JOIN chunks c ON c.id = t.chunk_id WHERE c.workspace_id = $1 AND c.doc_id = $2`,
		),
	};
}
const NONE = { documents: 0, chunks: 0, chunk_terms: 0 };

for (const engine of testEngines()) {
	describe(`indexing: batched re-index of changed paths (${engine.name})`, function () {
		this.timeout(120_000);
		let store: Store;
		let dispose: () => Promise<void>;
		let ws: ReturnType<typeof copyWorkspace>;
		before(async () => {
			const created = await engine.create();
			dispose = created.dispose;
			store = await mustOpen(created.location);
		});
		after(async () => {
			await store?.close();
			await dispose?.();
		});
		beforeEach(() => (ws = copyWorkspace()));
		afterEach(async () => {
			await deleteDocuments(store.db, { workspaceId: workspaceId(ws.root) });
			ws.cleanup();
		});

		it('a branch-switch-sized change is one batch, one transaction; removed and ignored files leave every table', async () => {
			const embedder = new CountingEmbedder(new HashingEmbedder(384, codeTokens));
			const db = countingDb(store.db);
			const indexer = new Indexer({ db, embedder, thresholds: DEFAULT_THRESHOLDS });
			await indexer.indexFolders([ws.root]);
			const id = workspaceId(ws.root);
			assert.ok((await rowsOf(db, id, 'src/format.ts')).chunks > 0);
			// A checkout: 300 new files, one edited, one deleted, one newly ignored, plus paths never indexable.
			mkdirSync(join(ws.root, 'pkg'));
			const added = Array.from({ length: 300 }, (_, i) => join(ws.root, 'pkg', `mod${i}.py`));
			added.forEach((p, i) => writeFileSync(p, `def pangolin_function_${i}(x):\n    return x + ${i}\n`));
			appendFileSync(join(ws.root, 'src', 'cart.ts'), '\nexport const narwhalEdited = 1;\n');
			rmSync(join(ws.root, 'src', 'format.ts'));
			appendFileSync(join(ws.root, '.gitignore'), 'docs/\n');
			writeFileSync(join(ws.root, 'src', 'sub', 'new.log'), 'ignored by *.log\n');
			writeFileSync(join(ws.root, '.env.local'), 'TOKEN=x\n');
			const paths = [
				...added,
				'src/cart.ts',
				'src/format.ts',
				'docs/guide.md',
				'src/sub/new.log',
				'.env.local',
				'node_modules/leftpad/index.js',
				'config.py',
			].map((p) => (p.startsWith('/') ? p : join(ws.root, p)));
			db.transactions = 0;
			embedder.texts = 0;
			const r = await indexer.reindexPaths(paths);
			assert.equal(db.transactions, 1, 'every write and removal in one transaction');
			assert.equal(r.transactions, 1);
			assert.equal(r.files_indexed, 301);
			assert.equal(r.files_removed, 2, 'the deleted file and the newly ignored one');
			assert.equal(r.files_unchanged, 1, 'config.py');
			assert.deepEqual(r.skipped, { ignored: 1, secret: 1, 'excluded-folder': 1 });
			assert.equal(embedder.texts, r.embedded);
			assert.ok(r.reused > 0, 'cart.ts kept the vectors of its unchanged chunks');
			assert.deepEqual(await rowsOf(db, id, 'src/format.ts'), NONE);
			assert.deepEqual(await rowsOf(db, id, 'docs/guide.md'), NONE);
			for (const p of ['src/sub/new.log', '.env.local', 'node_modules/leftpad/index.js'])
				assert.deepEqual(await rowsOf(db, id, p), NONE, p);
			assert.ok((await rowsOf(db, id, 'pkg/mod299.py')).chunk_terms > 0, 'new files are searchable (postings written)');
		});

		it('a deleted folder (one event) removes every stored file below it', async () => {
			const indexer = new Indexer({ db: store.db, embedder: null, thresholds: DEFAULT_THRESHOLDS });
			await indexer.indexFolders([ws.root]);
			rmSync(join(ws.root, 'src'), { recursive: true });
			const r = await indexer.reindexPaths([join(ws.root, 'src')]);
			assert.ok(r.files_removed >= 10, `removed ${r.files_removed}`);
			const left = await store.db.query<{ n: number }>(
				`SELECT count(*)::int AS n FROM documents WHERE workspace_id = $1 AND doc_id LIKE 'src/%'`,
				[workspaceId(ws.root)],
			);
			assert.equal(left[0].n, 0);
		});

		it('an unchanged batch costs no embedding and no write', async () => {
			const embedder = new CountingEmbedder(new HashingEmbedder(384, codeTokens));
			const db = countingDb(store.db);
			const indexer = new Indexer({ db, embedder, thresholds: DEFAULT_THRESHOLDS });
			await indexer.indexFolders([ws.root]);
			const files = ['src/cart.ts', 'src/format.ts', 'config.py', 'docs/guide.md'].map((p) => join(ws.root, p));
			// Touched (new mtime, same bytes): read and hashed, still no embedding.
			appendFileSync(files[0], '');
			const later = new Date(Date.now() + 5000);
			utimesSync(files[0], later, later);
			db.transactions = 0;
			embedder.texts = 0;
			const r = await indexer.reindexPaths(files);
			assert.equal(r.files_unchanged, 4);
			assert.equal(r.files_indexed, 0);
			assert.equal(embedder.texts, 0);
			assert.equal(db.transactions, 0);
		});
	});
}

describe('indexing: reindexPaths through the worker is one request', function () {
	this.timeout(120_000);
	it('a fresh worker re-indexes a batch given the workspace folders', async () => {
		const [pglite] = testEngines();
		const created = await pglite.create();
		const ws = copyWorkspace();
		const client = new IndexWorkerClient({ config: { store: created.location, embedder: 'hashing' } });
		try {
			await client.indexFolders([ws.root]);
			await client.dispose();
			const fresh = new IndexWorkerClient({ config: { store: created.location, embedder: 'hashing' } });
			try {
				writeFileSync(join(ws.root, 'src', 'walrus.ts'), 'export function walrusBatchMarker() { return 1; }\n');
				rmSync(join(ws.root, 'src', 'cart.ts'));
				const r = await fresh.reindexPaths(
					[join(ws.root, 'src', 'walrus.ts'), join(ws.root, 'src', 'cart.ts'), '/elsewhere/x.ts'],
					[ws.root],
				);
				assert.deepEqual(
					{ indexed: r.files_indexed, removed: r.files_removed, skipped: r.skipped, transactions: r.transactions },
					{ indexed: 1, removed: 1, skipped: { outside: 1 }, transactions: 1 },
				);
			} finally {
				await fresh.dispose();
			}
		} finally {
			await client.dispose().catch(() => undefined);
			ws.cleanup();
			await created.dispose();
		}
	});
});

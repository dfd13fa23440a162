/**
 * User/team scope on both engines: a row of scope A is never returned for scope B by either
 * search arm, nor by the memory statements, nor touched by B's forget; and a schema-1 database
 * (no scope column) migrates to the current schema without losing a row. The workspace indexer,
 * `gmem inspect`'s counts and export/import keep to the scope too.
 */
import assert from 'node:assert/strict';
import { rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { estimateIncomingChunks } from '../../src/indexing/bulkLoad';
import { Indexer } from '../../src/indexing/indexer';
import { indexedTotals, listIndexedFiles } from '../../src/indexing/indexStore';
import type { Embedder } from '../../src/models/embedder';
import { HashingEmbedder } from '../../src/models/hashingEmbedder';
import { codeTokens } from '../../src/retrieval/codeTokens';
import { hybridSearch, type ArmMode } from '../../src/retrieval/hybridSearch';
import { ingestDocuments } from '../../src/retrieval/ingest';
import { BULK_INDEX_REBUILD } from '../../src/store/chunkRepo';
import { exportMemory, importMemory, parseMemoryExport } from '../../src/store/exportImport';
import { forget } from '../../src/store/forget';
import { workspaceId, type StoreLocation } from '../../src/store/location';
import { profileValues, setProfileValue } from '../../src/store/memoryRepo';
import { SCHEMA_VERSION } from '../../src/store/migrations';
import { DATA_SUBDIR } from '../../src/store/owner';
import { openStore, type Store } from '../../src/store/openStore';
import { connectPg } from '../../src/store/pgQueryable';
import { openPglite, pgliteQueryable } from '../../src/store/pgliteQueryable';
import { toVectorLiteral, type Queryable } from '../../src/store/queryable';
import { SCHEMA_001 } from '../../src/store/schema001';
import { storeStats } from '../../src/store/storeStats';
import { copyWorkspace } from '../fixtures/indexing/workspace';
import { mustOpen, testEngines } from '../fixtures/store_engines';
import { CountingEmbedder } from '../fixtures/countingEmbedder';

const embedder = new HashingEmbedder(384, codeTokens);
const WS = 'ws-shared';
const TEXT = 'def rotate_signing_key(vault):\n    return vault.rotate("hmac-signing-key")';

/** Counts the texts sent to the wrapped embedder (re-indexing under another scope must not reuse vectors). */
async function hits(store: Store, query: string, arm: ArmMode, scope?: string): Promise<string[]> {
	const r = await hybridSearch(store.db, query, {
		tier: 'workspace',
		workspaceIds: [WS],
		k: 10,
		arm,
		embedder,
		cosineFloor: null,
		thresholds: DEFAULT_THRESHOLDS,
		...(scope ? { scope } : {}),
	});
	return r.hits.map((h) => h.id).sort();
}

for (const engine of testEngines()) {
	describe(`store scope (${engine.name})`, function () {
		this.timeout(180_000);
		let location: StoreLocation;
		let dispose: () => Promise<void>;
		let alice: Store;
		let bob: Store;

		before(async () => {
			({ location, dispose } = await engine.create());
			alice = await mustOpen({ ...location, scope: 'alice' });
			bob = await mustOpen({ ...location, scope: 'team-b' });
		});
		after(async () => {
			await alice?.close();
			await bob?.close();
			await dispose?.();
		});

		it("never returns another scope's rows from either arm, even for the same workspace and doc id", async () => {
			await ingestDocuments(
				alice.db,
				[
					{ id: 'a-only', text: TEXT },
					{ id: 'same-id', text: `${TEXT}\n# alice copy` },
				],
				{ workspaceId: WS, tier: 'workspace' },
				embedder,
			);
			await ingestDocuments(
				bob.db,
				[{ id: 'same-id', text: 'def parse_config(path):\n    return toml.load(path)' }],
				{ workspaceId: WS, tier: 'workspace' },
				embedder,
			);
			for (const arm of ['fts', 'vector', 'hybrid'] as const) {
				assert.deepEqual(await hits(alice, 'rotate signing key vault', arm), ['a-only', 'same-id'], `alice, ${arm}`);
				// Bob's only row is unrelated: the vector arm (no floor) still ranks everything it may see.
				assert.deepEqual(
					await hits(bob, 'rotate signing key vault', arm),
					arm === 'fts' ? [] : ['same-id'],
					`bob, ${arm}`,
				);
				assert.deepEqual(await hits(bob, 'rotate signing key vault', arm, 'nobody'), [], `empty scope, ${arm}`);
			}
			const [bobs] = (
				await hybridSearch(bob.db, 'parse config', {
					tier: 'workspace',
					workspaceIds: [WS],
					k: 5,
					arm: 'fts',
					embedder,
					cosineFloor: null,
					thresholds: DEFAULT_THRESHOLDS,
				})
			).hits;
			assert.match(bobs.content, /toml/, "bob's same-id document is his own, not alice's");
		});

		it('keeps BM25 statistics per scope', async () => {
			const stats = await alice.db.query<{ scope: string; n: string }>(
				`SELECT scope, n_chunks::text AS n FROM corpus_stats WHERE workspace_id = $1 ORDER BY scope`,
				[WS],
			);
			assert.deepEqual(stats, [
				{ scope: 'alice', n: '2' },
				{ scope: 'team-b', n: '1' },
			]);
		});

		it('keeps profile values per scope', async () => {
			await setProfileValue(alice.db, {
				workspaceId: WS,
				key: 'editor',
				value: 'vim',
				kind: 'preference',
				sourceTurn: null,
			});
			await setProfileValue(bob.db, {
				workspaceId: WS,
				key: 'editor',
				value: 'emacs',
				kind: 'preference',
				sourceTurn: null,
			});
			assert.deepEqual(
				(await profileValues(alice.db, WS)).map((p) => p.value),
				['vim'],
			);
			assert.deepEqual(
				(await profileValues(bob.db, WS)).map((p) => p.value),
				['emacs'],
			);
		});

		it("forget --all removes only the caller's scope", async () => {
			const removed = await forget(bob.db, { kind: 'all' });
			assert.equal(removed.chunks, 1);
			assert.equal(removed.profile_entries, 1);
			assert.deepEqual(await hits(alice, 'rotate signing key vault', 'fts'), ['a-only', 'same-id']);
			assert.deepEqual(
				(await profileValues(alice.db, WS)).map((p) => p.value),
				['vim'],
			);
		});

		it('refuses a scope name that is not an identifier', async () => {
			const r = await openStore({ ...location, scope: "x'; DROP TABLE chunks; --" });
			assert.ok(!r.ok);
			assert.equal(r.error.code, 'bad-scope');
		});
	});

	describe(`indexing, inspect and export per scope (${engine.name})`, function () {
		this.timeout(180_000);
		let dispose: () => Promise<void>;
		let alice: Store;
		let bob: Store;
		let carol: Store;
		let ws: ReturnType<typeof copyWorkspace>;
		let id: string;
		const indexAs = (store: Store, e: Embedder = embedder) =>
			new Indexer({ db: store.db, embedder: e, thresholds: DEFAULT_THRESHOLDS })
				.indexFolders([ws.root])
				.then((r) => r[0]);
		const paths = async (store: Store, query: string, arm: ArmMode) =>
			(
				await hybridSearch(store.db, query, {
					tier: 'workspace',
					workspaceIds: [id],
					k: 50,
					arm,
					embedder,
					cosineFloor: null,
					thresholds: DEFAULT_THRESHOLDS,
				})
			).hits.map((h) => h.path);
		// Every chunk row of a scope: id and content hash (ids change when a row is rewritten).
		const rowsOf = (store: Store, scope: string) =>
			store.db.query<{ id: string; path: string; content_hash: string }>(
				`SELECT id::text AS id, path, content_hash FROM chunks WHERE scope = $1 AND workspace_id = $2 ORDER BY id`,
				[scope, id],
			);

		before(async () => {
			const created = await engine.create();
			dispose = created.dispose;
			alice = await mustOpen({ ...created.location, scope: 'alice' });
			bob = await mustOpen({ ...created.location, scope: 'team-b' });
			carol = await mustOpen({ ...created.location, scope: 'carol' });
			ws = copyWorkspace();
			id = workspaceId(ws.root);
		});
		after(async () => {
			ws?.cleanup();
			await alice?.close();
			await bob?.close();
			await carol?.close();
			await dispose?.();
		});

		it('a folder indexed as one scope is invisible to another: both search arms, indexed totals, inspect counts, export', async () => {
			const r = await indexAs(alice);
			assert.ok(
				r.files_indexed > 10 && r.chunks > r.files_indexed,
				`indexed ${r.files_indexed} files, ${r.chunks} chunks`,
			);
			for (const arm of ['fts', 'vector', 'hybrid'] as const) {
				assert.ok(
					(await paths(alice, 'computeTotal shopping cart', arm)).includes('src/cart.ts'),
					`alice finds it, ${arm}`,
				);
				assert.deepEqual(await paths(bob, 'computeTotal shopping cart', arm), [], `bob finds nothing, ${arm}`);
			}
			assert.deepEqual(await indexedTotals(alice.db, [id]), { files: r.files_indexed, chunks: r.chunks });
			assert.deepEqual(await indexedTotals(bob.db, [id]), { files: 0, chunks: 0 });
			const a = await storeStats(alice);
			const b = await storeStats(bob);
			assert.deepEqual(a.tiers.workspace, { documents: r.files_indexed, chunks: r.chunks, embedded: r.chunks });
			assert.equal(a.workspaces, 1);
			assert.deepEqual(b.tiers.workspace, { documents: 0, chunks: 0, embedded: 0 });
			assert.equal(b.workspaces, 0);
			assert.equal((await exportMemory(alice.db, [id], alice.schemaVersion)).documents.length, r.files_indexed);
			assert.equal((await exportMemory(bob.db, [id], bob.schemaVersion)).documents.length, 0);
		});

		it("re-indexing the same folder under another scope indexes it afresh and never touches the first scope's rows", async () => {
			const before = await rowsOf(alice, 'alice');
			const counting = new CountingEmbedder(embedder);
			const r = await indexAs(bob, counting);
			// Nothing of alice's counts as already indexed for bob, and none of her vectors is reused.
			assert.equal(r.files_unchanged, 0);
			assert.equal(r.reused, 0);
			assert.equal(counting.texts, r.chunks);
			assert.equal(r.chunks, before.length);
			assert.deepEqual(await rowsOf(alice, 'alice'), before, "alice's rows are the same rows");
			// A second run under bob is incremental within bob's scope only.
			assert.equal((await indexAs(bob)).files_unchanged, r.files_indexed);
			// A touched file updates bob's mtime only; a deleted file leaves alice's copy in place.
			const later = Date.now() / 1000 + 60;
			utimesSync(join(ws.root, 'src/cart.ts'), later, later);
			rmSync(join(ws.root, 'src/format.ts'));
			const again = await indexAs(bob);
			assert.equal(again.files_removed, 1);
			const aliceFiles = await listIndexedFiles(alice.db, id);
			const bobFiles = await listIndexedFiles(bob.db, id);
			assert.ok(aliceFiles.has('src/format.ts') && !bobFiles.has('src/format.ts'));
			assert.notEqual(aliceFiles.get('src/cart.ts')!.mtimeMs, bobFiles.get('src/cart.ts')!.mtimeMs);
			assert.deepEqual(await rowsOf(alice, 'alice'), before, "alice's rows are still the same rows");
			assert.ok((await paths(alice, 'formatPrice', 'fts')).includes('src/format.ts'));
			assert.ok(!(await paths(bob, 'formatPrice', 'fts')).includes('src/format.ts'));
		});

		it("export takes only the caller's scope, and import writes into the importer's scope alone", async () => {
			const fromAlice = parseMemoryExport(JSON.stringify(await exportMemory(alice.db, [id], alice.schemaVersion)));
			assert.ok(
				fromAlice.documents.some((d) => d.doc_id === 'src/format.ts'),
				"alice's export holds her copy of the deleted file",
			);
			const fromBob = await exportMemory(bob.db, [id], bob.schemaVersion);
			assert.ok(!fromBob.documents.some((d) => d.doc_id === 'src/format.ts'), "bob's export does not");
			const aliceRows = await rowsOf(alice, 'alice');
			const bobRows = await rowsOf(bob, 'team-b');
			const counts = await importMemory(carol.db, fromAlice);
			assert.equal(counts.documents, fromAlice.documents.length);
			assert.equal((await storeStats(carol)).tiers.workspace.documents, fromAlice.documents.length);
			assert.ok((await paths(carol, 'formatPrice', 'fts')).includes('src/format.ts'));
			assert.deepEqual(await rowsOf(alice, 'alice'), aliceRows, 'the import left alice alone');
			assert.deepEqual(await rowsOf(bob, 'team-b'), bobRows, 'the import left bob alone');
			// Importing alice's file as bob adds her document to bob's scope and changes nothing of alice's.
			await importMemory(bob.db, fromAlice);
			assert.ok((await paths(bob, 'formatPrice', 'fts')).includes('src/format.ts'));
			assert.deepEqual(await rowsOf(alice, 'alice'), aliceRows);
		});

		it('a large full index run rebuilds the vector index once (bulk load); the index exists afterwards', async () => {
			const fresh = copyWorkspace();
			const saved = { ...BULK_INDEX_REBUILD };
			// The sample folder is small: lower the bulk threshold so this run takes the bulk path.
			Object.assign(BULK_INDEX_REBUILD, { minChunks: 1, minGrowth: 0 });
			const vectorIndex = async () =>
				(
					await alice.db.query(
						`SELECT 1 FROM pg_indexes WHERE tablename = 'chunks' AND indexname = 'chunks_embedding' AND schemaname = current_schema()`,
					)
				).length;
			try {
				const indexer = new Indexer({
					db: alice.db,
					embedder,
					thresholds: DEFAULT_THRESHOLDS,
					workspaceIdOf: () => 'bulk-ws',
				});
				let droppedDuringRun = false;
				const steps = indexer.indexFolderSteps(fresh.root);
				for (let s = await steps.next(); !s.done; s = await steps.next()) {
					if (s.value.phase === 'index' && s.value.files_done === 1) droppedDuringRun = (await vectorIndex()) === 0;
				}
				assert.ok(droppedDuringRun, 'the HNSW index was dropped while the run wrote');
				assert.equal(await vectorIndex(), 1, 'and rebuilt at the end');
				const found = await hybridSearch(alice.db, 'computeTotal shopping cart', {
					tier: 'workspace',
					workspaceIds: ['bulk-ws'],
					k: 5,
					arm: 'vector',
					embedder,
					cosineFloor: null,
					thresholds: DEFAULT_THRESHOLDS,
				});
				assert.ok(found.hits.length > 0);
			} finally {
				Object.assign(BULK_INDEX_REBUILD, saved);
				fresh.cleanup();
			}
		});

		it('estimates the chunks a run will write from new and changed files only', () => {
			const stored = new Map([
				['same.ts', { docId: 'same.ts', contentHash: 'h', mtimeMs: 5, size: 100, embedder: null }],
				['moved.ts', { docId: 'moved.ts', contentHash: 'h', mtimeMs: 5, size: 100, embedder: null }],
			]);
			const files = [
				{ relPath: 'same.ts', size: 100, mtimeMs: 5 },
				{ relPath: 'moved.ts', size: 100, mtimeMs: 9 },
				{ relPath: 'new.ts', size: 2500, mtimeMs: 1 },
				{ relPath: 'empty.ts', size: 0, mtimeMs: 1 },
			];
			assert.equal(estimateIncomingChunks(files, stored, 1000), 1 + 3 + 1);
		});
	});

	describe(`migration to scoped schema (${engine.name})`, function () {
		this.timeout(180_000);
		let location: StoreLocation;
		let dispose: () => Promise<void>;

		before(async () => {
			({ location, dispose } = await engine.create());
			await withRawDatabase(location, seedSchemaOne);
		});
		after(async () => dispose?.());

		it('migrates a schema-1 database without losing data; old rows are scope "local"', async () => {
			const store = await mustOpen(location);
			try {
				assert.equal(store.schemaVersion, SCHEMA_VERSION);
				const counts = await store.db.query<Record<string, number>>(`SELECT
					(SELECT count(*)::int FROM documents WHERE scope = 'local') AS documents,
					(SELECT count(*)::int FROM chunks WHERE scope = 'local') AS chunks,
					(SELECT count(*)::int FROM chunk_terms WHERE scope = 'local') > 0 AS postings,
					(SELECT count(*)::int FROM research_memory WHERE scope = 'local') AS memories,
					(SELECT count(*)::int FROM profile_entries WHERE scope = 'local') AS profile,
					(SELECT count(*)::int FROM conversation_turns WHERE scope = 'local') AS turns`);
				assert.deepEqual(counts[0], { documents: 2, chunks: 2, postings: true, memories: 1, profile: 1, turns: 1 });
				for (const arm of ['fts', 'vector'] as const)
					assert.equal((await hits(store, 'rotate signing key vault', arm))[0], 'old-1', arm);
				assert.deepEqual(
					(await profileValues(store.db, WS)).map((p) => p.value),
					['tabs'],
				);
				// Writes after the migration use the new keys: re-ingesting an old id replaces it.
				await ingestDocuments(
					store.db,
					[{ id: 'old-1', text: 'def render_template(name):\n    return jinja.render(name)' }],
					{ workspaceId: WS, tier: 'workspace' },
					embedder,
				);
				assert.deepEqual(await hits(store, 'render template jinja', 'fts'), ['old-1']);
				assert.deepEqual(await hits(store, 'rotate signing key vault', 'fts'), []);
			} finally {
				await store.close();
			}
		});
	});
}

/** Runs `fn` on the raw database behind a fresh location (PGlite opened directly; nobody owns it yet). */
async function withRawDatabase(location: StoreLocation, fn: (db: Queryable) => Promise<void>): Promise<void> {
	if (location.kind === 'url') {
		const db = await connectPg({ url: location.url });
		try {
			await fn(db);
		} finally {
			await db.close();
		}
		return;
	}
	const pglite = await openPglite(join(location.dir, DATA_SUBDIR));
	try {
		await fn(pgliteQueryable(pglite));
	} finally {
		await pglite.close();
	}
}

/** A database as schema version 1 wrote it: tables of migration 1, rows in every tier, BM25 statistics. */
async function seedSchemaOne(db: Queryable): Promise<void> {
	await db.query('CREATE EXTENSION IF NOT EXISTS vector');
	await db.query(
		'CREATE TABLE schema_version (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
	);
	await db.query(SCHEMA_001);
	await db.query(`INSERT INTO schema_version (version, name) VALUES (1, 'four tiers, hybrid search')`);
	const texts = [TEXT, 'def parse_config(path):\n    return toml.load(path)'];
	const vectors = await embedder.embed(texts);
	for (const [i, text] of texts.entries()) {
		const docId = `old-${i + 1}`;
		await db.query(
			`INSERT INTO documents (workspace_id, tier, doc_id, content_hash) VALUES ($1, 'workspace', $2, $3)`,
			[WS, docId, `h${i}`],
		);
		await db.query(
			`INSERT INTO chunks (workspace_id, tier, doc_id, chunk_no, content, content_hash, search_text, doc_len, embedding, embedder)
			 VALUES ($1, 'workspace', $2, 0, $3, $4, $5, (SELECT coalesce(sum(array_length(positions, 1)), 0) FROM unnest(to_tsvector('english', $5::text))), $6::vector, $7)`,
			[WS, docId, text, `c${i}`, codeTokens(text).join(' ') + '\n' + text, toVectorLiteral(vectors[i]), embedder.id],
		);
	}
	await db.query(`INSERT INTO chunk_terms (tier, term, workspace_id, chunk_id, tf, doc_len)
		SELECT c.tier, u.lexeme, c.workspace_id, c.id, coalesce(array_length(u.positions, 1), 1), c.doc_len FROM chunks c CROSS JOIN LATERAL unnest(c.tsv) AS u`);
	await db.query(
		`INSERT INTO term_df (tier, term, workspace_id, df) SELECT tier, term, workspace_id, count(*) FROM chunk_terms GROUP BY 1, 2, 3`,
	);
	await db.query(
		`INSERT INTO corpus_stats (workspace_id, tier, n_chunks, total_len) SELECT workspace_id, tier, count(*), sum(doc_len) FROM chunks GROUP BY 1, 2`,
	);
	await db.query(
		`INSERT INTO research_memory (workspace_id, doc_id, kind, content, content_hash) VALUES ($1, 'memory:t1', 'qa', 'Q: a\nA: b', 'x')`,
		[WS],
	);
	await db.query(
		`INSERT INTO profile_entries (workspace_id, key, value, kind) VALUES ($1, 'indent', 'tabs', 'preference')`,
		[WS],
	);
	await db.query(
		`INSERT INTO conversation_turns (workspace_id, conversation_id, turn_id, role, content) VALUES ($1, 'c1', 't1', 'user', 'hi')`,
		[WS],
	);
}

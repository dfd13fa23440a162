/**
 * Store core on both engines: migrations, re-ingest, workspace pre-filter, BM25 statistics, forget.
 */
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { HashingEmbedder } from '../../src/models/hashingEmbedder';
import { codeTokens } from '../../src/retrieval/codeTokens';
import { hybridSearch, type ArmMode } from '../../src/retrieval/hybridSearch';
import { ingestDocuments } from '../../src/retrieval/ingest';
import { withBulkVectorIndex } from '../../src/store/chunkRepo';
import { forget } from '../../src/store/forget';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations';
import { openStore, type Store } from '../../src/store/openStore';
import type { StoreLocation } from '../../src/store/location';
import { mustOpen, testEngines } from '../fixtures/store_engines';

const embedder = new HashingEmbedder(384, codeTokens);

async function ids(store: Store, query: string, arm: ArmMode, workspaceIds: string[] | null = null): Promise<string[]> {
	const r = await hybridSearch(store.db, query, {
		tier: 'workspace',
		workspaceIds,
		k: 10,
		arm,
		embedder,
		cosineFloor: null,
		thresholds: DEFAULT_THRESHOLDS,
	});
	return r.hits.map((h) => h.id);
}

for (const engine of testEngines()) {
	describe(`store core (${engine.name})`, function () {
		this.timeout(120_000);
		let location: StoreLocation;
		let dispose: () => Promise<void>;
		let store: Store;

		before(async () => {
			({ location, dispose } = await engine.create());
			store = await mustOpen(location);
		});
		after(async () => {
			await store?.close();
			await dispose?.();
		});

		it('records the migrations it ran and does not run them twice', async () => {
			assert.equal(store.schemaVersion, SCHEMA_VERSION);
			const again = await mustOpen(location);
			await again.close();
			const rows = await store.db.query<{ version: number }>('SELECT version FROM schema_version ORDER BY version');
			assert.deepEqual(
				rows.map((r) => r.version),
				MIGRATIONS.map((m) => m.version),
			);
		});

		it('re-ingesting an id replaces the document and its statistics', async () => {
			const target = { workspaceId: 'ws-a', tier: 'workspace' as const };
			await ingestDocuments(
				store.db,
				[{ id: 'doc1', text: 'def parse_config(path):\n    return toml.load(path)' }],
				target,
				embedder,
			);
			await ingestDocuments(
				store.db,
				[{ id: 'doc1', text: 'def render_template(name):\n    return jinja.render(name)' }],
				target,
				embedder,
			);
			assert.deepEqual(await ids(store, 'parse config toml', 'fts'), []);
			assert.deepEqual(await ids(store, 'render template', 'fts'), ['doc1']);
			const [stats] = await store.db.query<{ n: string }>(
				`SELECT n_chunks::text AS n FROM corpus_stats WHERE workspace_id = 'ws-a'`,
			);
			assert.equal(stats.n, '1');
			const stale = await store.db.query(`SELECT 1 FROM chunk_terms WHERE term = 'toml'`);
			assert.equal(stale.length, 0, 'postings of the replaced text are gone');
		});

		it('filters by workspace inside the query', async () => {
			await ingestDocuments(
				store.db,
				[{ id: 'b1', text: 'websocket reconnect backoff jitter' }],
				{ workspaceId: 'ws-b', tier: 'workspace' },
				embedder,
			);
			// The vector arm always returns nearest neighbours; none may come from another workspace.
			assert.ok(!(await ids(store, 'websocket reconnect', 'hybrid', ['ws-a'])).includes('b1'));
			assert.deepEqual(await ids(store, 'websocket reconnect', 'fts', ['ws-a']), []);
			assert.deepEqual(await ids(store, 'websocket reconnect', 'fts', ['ws-b']), ['b1']);
			assert.deepEqual(await ids(store, 'websocket reconnect', 'vector', ['ws-b']), ['b1']);
			assert.deepEqual(await ids(store, 'websocket reconnect', 'fts', null), ['b1']);
		});

		it('forgets a document so neither arm can find it again', async () => {
			const target = { workspaceId: 'ws-c', tier: 'workspace' as const };
			await ingestDocuments(
				store.db,
				[
					{ id: 'secret', text: 'the zanzibar launch code is swordfish', path: 'notes/secret.md' },
					{ id: 'keep', text: 'keep this lighthouse note' },
				],
				target,
				embedder,
			);
			assert.ok((await ids(store, 'zanzibar swordfish', 'fts')).includes('secret'));
			assert.ok((await ids(store, 'zanzibar swordfish', 'vector')).includes('secret'));
			const removed = await forget(store.db, { kind: 'path', workspaceId: 'ws-c', path: 'notes/secret.md' });
			assert.equal(removed.chunks, 1);
			assert.deepEqual(await ids(store, 'zanzibar swordfish', 'fts'), []);
			assert.ok(!(await ids(store, 'zanzibar swordfish', 'vector')).includes('secret'));
			assert.deepEqual(await ids(store, 'lighthouse', 'fts'), ['keep']);
			const postings = await store.db.query(`SELECT 1 FROM chunk_terms WHERE term = 'zanzibar'`);
			assert.equal(postings.length, 0);
		});

		it('forgets a workspace and everything, in every table', async () => {
			await store.db.query(
				`INSERT INTO profile_entries (workspace_id, key, value, kind) VALUES ('ws-b', 'editor', 'vim', 'preference')`,
			);
			const r = await forget(store.db, { kind: 'workspace', workspaceId: 'ws-b' });
			assert.equal(r.chunks, 1);
			assert.equal(r.profile_entries, 1);
			assert.ok(!(await ids(store, 'websocket reconnect', 'hybrid')).includes('b1'));
			await forget(store.db, { kind: 'all' });
			for (const table of [
				'documents',
				'chunks',
				'chunk_terms',
				'corpus_stats',
				'research_memory',
				'profile_entries',
				'conversation_turns',
			]) {
				const [{ n }] = await store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
				assert.equal(n, 0, `${table} is empty after forget --all`);
			}
		});

		it('refuses a database from a newer version and leaves it untouched', async () => {
			await store.db.query(`INSERT INTO schema_version (version, name) VALUES (99, 'from the future')`);
			const r = await openStore(location);
			assert.equal(r.ok, false);
			if (!r.ok) {
				assert.equal(r.error.code, 'newer-schema');
				assert.match(r.error.message, /schema version 99/);
			}
			const rows = await store.db.query(`SELECT version FROM schema_version WHERE version = 99`);
			assert.equal(rows.length, 1);
			await store.db.query(`DELETE FROM schema_version WHERE version = 99`);
		});

		it('a bulk load without the HNSW index still searches exactly, and the index comes back even when the load fails', async () => {
			const hasIndex = async () =>
				(await store.db.query(`SELECT 1 FROM pg_indexes WHERE indexname = 'chunks_embedding'`)).length === 1;
			await ingestDocuments(
				store.db,
				[{ id: 'v1', text: 'exponential backoff with jitter for retries' }],
				{ workspaceId: 'ws-v', tier: 'workspace' },
				embedder,
			);
			await assert.rejects(
				withBulkVectorIndex(store.db, 10_000, async () => {
					assert.equal(await hasIndex(), false, 'dropped for the load');
					assert.deepEqual(
						await ids(store, 'backoff jitter retries', 'vector', ['ws-v']),
						['v1'],
						'exact scan meanwhile',
					);
					throw new Error('load failed');
				}),
				/load failed/,
			);
			assert.equal(await hasIndex(), true, 'rebuilt after the failed load');
			// A load cut off by a crash leaves no index: the next open builds it.
			await store.db.query('DROP INDEX chunks_embedding');
			const again = await mustOpen(location);
			await again.close();
			assert.equal(await hasIndex(), true, 'rebuilt at open');
			assert.deepEqual(await ids(store, 'backoff jitter retries', 'vector', ['ws-v']), ['v1']);
		});
	});
}

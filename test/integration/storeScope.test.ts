/**
 * User/team scope on both engines: a row of scope A is never returned for scope B by either
 * search arm, nor by the memory statements, nor touched by B's forget; and a schema-1 database
 * (no scope column) migrates to the current schema without losing a row.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { HashingEmbedder } from '../../src/models/hashingEmbedder';
import { codeTokens } from '../../src/retrieval/codeTokens';
import { hybridSearch, type ArmMode } from '../../src/retrieval/hybridSearch';
import { ingestDocuments } from '../../src/retrieval/ingest';
import { forget } from '../../src/store/forget';
import type { StoreLocation } from '../../src/store/location';
import { profileValues, setProfileValue } from '../../src/store/memoryRepo';
import { SCHEMA_VERSION } from '../../src/store/migrations';
import { DATA_SUBDIR } from '../../src/store/owner';
import { openStore, type Store } from '../../src/store/openStore';
import { connectPg } from '../../src/store/pgQueryable';
import { openPglite, pgliteQueryable } from '../../src/store/pgliteQueryable';
import { toVectorLiteral, type Queryable } from '../../src/store/queryable';
import { SCHEMA_001 } from '../../src/store/schema001';
import { mustOpen, testEngines } from '../fixtures/store_engines';

const embedder = new HashingEmbedder(384, codeTokens);
const WS = 'ws-shared';
const TEXT = 'def rotate_signing_key(vault):\n    return vault.rotate("hmac-signing-key")';

async function hits(store: Store, query: string, arm: ArmMode, scope?: string): Promise<string[]> {
	const r = await hybridSearch(store.db, query, { tier: 'workspace', workspaceIds: [WS], k: 10, arm, embedder, cosineFloor: null, thresholds: DEFAULT_THRESHOLDS, ...(scope ? { scope } : {}) });
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

		it('never returns another scope\'s rows from either arm, even for the same workspace and doc id', async () => {
			await ingestDocuments(alice.db, [{ id: 'a-only', text: TEXT }, { id: 'same-id', text: `${TEXT}\n# alice copy` }], { workspaceId: WS, tier: 'workspace' }, embedder);
			await ingestDocuments(bob.db, [{ id: 'same-id', text: 'def parse_config(path):\n    return toml.load(path)' }], { workspaceId: WS, tier: 'workspace' }, embedder);
			for (const arm of ['fts', 'vector', 'hybrid'] as const) {
				assert.deepEqual(await hits(alice, 'rotate signing key vault', arm), ['a-only', 'same-id'], `alice, ${arm}`);
				// Bob's only row is unrelated: the vector arm (no floor) still ranks everything it may see.
				assert.deepEqual(await hits(bob, 'rotate signing key vault', arm), arm === 'fts' ? [] : ['same-id'], `bob, ${arm}`);
				assert.deepEqual(await hits(bob, 'rotate signing key vault', arm, 'nobody'), [], `empty scope, ${arm}`);
			}
			const [bobs] = (await hybridSearch(bob.db, 'parse config', { tier: 'workspace', workspaceIds: [WS], k: 5, arm: 'fts', embedder, cosineFloor: null, thresholds: DEFAULT_THRESHOLDS })).hits;
			assert.match(bobs.content, /toml/, 'bob\'s same-id document is his own, not alice\'s');
		});

		it('keeps BM25 statistics per scope', async () => {
			const stats = await alice.db.query<{ scope: string; n: string }>(`SELECT scope, n_chunks::text AS n FROM corpus_stats WHERE workspace_id = $1 ORDER BY scope`, [WS]);
			assert.deepEqual(stats, [
				{ scope: 'alice', n: '2' },
				{ scope: 'team-b', n: '1' },
			]);
		});

		it('keeps profile values per scope', async () => {
			await setProfileValue(alice.db, { workspaceId: WS, key: 'editor', value: 'vim', kind: 'preference', sourceTurn: null });
			await setProfileValue(bob.db, { workspaceId: WS, key: 'editor', value: 'emacs', kind: 'preference', sourceTurn: null });
			assert.deepEqual((await profileValues(alice.db, WS)).map((p) => p.value), ['vim']);
			assert.deepEqual((await profileValues(bob.db, WS)).map((p) => p.value), ['emacs']);
		});

		it('forget --all removes only the caller\'s scope', async () => {
			const removed = await forget(bob.db, { kind: 'all' });
			assert.equal(removed.chunks, 1);
			assert.equal(removed.profile_entries, 1);
			assert.deepEqual(await hits(alice, 'rotate signing key vault', 'fts'), ['a-only', 'same-id']);
			assert.deepEqual((await profileValues(alice.db, WS)).map((p) => p.value), ['vim']);
		});

		it('refuses a scope name that is not an identifier', async () => {
			const r = await openStore({ ...location, scope: "x'; DROP TABLE chunks; --" });
			assert.ok(!r.ok);
			assert.equal(r.error.code, 'bad-scope');
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
				for (const arm of ['fts', 'vector'] as const) assert.equal((await hits(store, 'rotate signing key vault', arm))[0], 'old-1', arm);
				assert.deepEqual((await profileValues(store.db, WS)).map((p) => p.value), ['tabs']);
				// Writes after the migration use the new keys: re-ingesting an old id replaces it.
				await ingestDocuments(store.db, [{ id: 'old-1', text: 'def render_template(name):\n    return jinja.render(name)' }], { workspaceId: WS, tier: 'workspace' }, embedder);
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
	await db.query('CREATE TABLE schema_version (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
	await db.query(SCHEMA_001);
	await db.query(`INSERT INTO schema_version (version, name) VALUES (1, 'four tiers, hybrid search')`);
	const texts = [TEXT, 'def parse_config(path):\n    return toml.load(path)'];
	const vectors = await embedder.embed(texts);
	for (const [i, text] of texts.entries()) {
		const docId = `old-${i + 1}`;
		await db.query(`INSERT INTO documents (workspace_id, tier, doc_id, content_hash) VALUES ($1, 'workspace', $2, $3)`, [WS, docId, `h${i}`]);
		await db.query(
			`INSERT INTO chunks (workspace_id, tier, doc_id, chunk_no, content, content_hash, search_text, doc_len, embedding, embedder)
			 VALUES ($1, 'workspace', $2, 0, $3, $4, $5, (SELECT coalesce(sum(array_length(positions, 1)), 0) FROM unnest(to_tsvector('english', $5::text))), $6::vector, $7)`,
			[WS, docId, text, `c${i}`, codeTokens(text).join(' ') + '\n' + text, toVectorLiteral(vectors[i]), embedder.id],
		);
	}
	await db.query(`INSERT INTO chunk_terms (tier, term, workspace_id, chunk_id, tf, doc_len)
		SELECT c.tier, u.lexeme, c.workspace_id, c.id, coalesce(array_length(u.positions, 1), 1), c.doc_len FROM chunks c CROSS JOIN LATERAL unnest(c.tsv) AS u`);
	await db.query(`INSERT INTO term_df (tier, term, workspace_id, df) SELECT tier, term, workspace_id, count(*) FROM chunk_terms GROUP BY 1, 2, 3`);
	await db.query(`INSERT INTO corpus_stats (workspace_id, tier, n_chunks, total_len) SELECT workspace_id, tier, count(*), sum(doc_len) FROM chunks GROUP BY 1, 2`);
	await db.query(`INSERT INTO research_memory (workspace_id, doc_id, kind, content, content_hash) VALUES ($1, 'memory:t1', 'qa', 'Q: a\nA: b', 'x')`, [WS]);
	await db.query(`INSERT INTO profile_entries (workspace_id, key, value, kind) VALUES ($1, 'indent', 'tabs', 'preference')`, [WS]);
	await db.query(`INSERT INTO conversation_turns (workspace_id, conversation_id, turn_id, role, content) VALUES ($1, 'c1', 't1', 'user', 'hi')`, [WS]);
}

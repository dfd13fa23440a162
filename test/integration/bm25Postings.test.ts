/**
 * BM25 from the postings table, on both engines (schema 005, searchQueries.ts): every plan the
 * statement can take — each term's postings scanned, each candidate probed, or a mix — returns
 * what plain BM25 over the stored postings gives (computed here in JS from `chunk_terms` rows read
 * with an ordinary SELECT), and a database written at schema 4 migrates to 5 with its postings
 * index rebuilt to carry tf and doc_len, searching as before.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { codeTokens } from '../../src/retrieval/codeTokens';
import { HashingEmbedder } from '../../src/models/hashingEmbedder';
import { ingestDocuments } from '../../src/retrieval/ingest';
import type { StoreLocation } from '../../src/store/location';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations';
import { DATA_SUBDIR } from '../../src/store/owner';
import { connectPg } from '../../src/store/pgQueryable';
import { openPglite, pgliteQueryable } from '../../src/store/pgliteQueryable';
import type { Queryable } from '../../src/store/queryable';
import { BM25, ftsArm, type ArmRow } from '../../src/store/searchQueries';
import { mustOpen, testEngines } from '../fixtures/store_engines';

const embedder = new HashingEmbedder(384, codeTokens);
const WS = 'ws-bm25';
const SCOPE = { tier: 'workspace' as const, workspaceIds: [WS] };
// Lexemes the english stemmer keeps as written: no digits, no suffix it would strip.
const rare = (i: number) => `qx${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}qx`;
const QUERY = `alpha beta gamma ${rare(7)} ${rare(13)}`;

// 40 documents: "alpha" in all of them, "beta" in every other one, "gamma" in every fifth (twice),
// one rare word each; lengths differ so length normalisation matters.
const DOCS = Array.from({ length: 40 }, (_, i) => ({
	id: `doc-${i}`,
	text: [
		'alpha',
		i % 2 ? 'beta' : 'delta',
		i % 5 === 0 ? 'gamma gamma' : '',
		rare(i),
		...Array.from({ length: i % 7 }, (_, j) => `pad${String.fromCharCode(97 + j)}x`),
	].join(' '),
}));

/** Plain BM25 of `query` over every chunk holding one of its terms, from the stored postings. */
async function expectedBm25(db: Queryable, query: string): Promise<{ chunk_pk: string; score: number }[]> {
	const postings = await db.query<{ term: string; chunk_id: string; tf: number; doc_len: number }>(
		`SELECT term, chunk_id::text, tf, doc_len FROM chunk_terms
		 WHERE workspace_id = $1 AND term IN (SELECT lexeme FROM unnest(to_tsvector('english', $2)))`,
		[WS, query],
	);
	const [stats] = await db.query<{ n: string; total: string }>(
		`SELECT n_chunks::text AS n, total_len::text AS total FROM corpus_stats WHERE workspace_id = $1 AND tier = 'workspace'`,
		[WS],
	);
	const n = Number(stats!.n);
	const avgdl = Number(stats!.total) / n;
	const df = new Map<string, number>();
	for (const p of postings) df.set(p.term, (df.get(p.term) ?? 0) + 1);
	const score = new Map<string, number>();
	for (const p of postings) {
		const d = df.get(p.term)!;
		const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
		const s = (idf * (p.tf * (BM25.k1 + 1))) / (p.tf + BM25.k1 * (1 - BM25.b + (BM25.b * p.doc_len) / avgdl));
		score.set(p.chunk_id, (score.get(p.chunk_id) ?? 0) + s);
	}
	return [...score].map(([chunk_pk, s]) => ({ chunk_pk, score: s }));
}

function assertSameRanking(got: readonly ArmRow[], want: { chunk_pk: string; score: number }[], label: string) {
	assert.equal(got.length, want.length, `${label}: number of chunks`);
	const byId = new Map(want.map((w) => [w.chunk_pk, w.score]));
	for (const [i, row] of got.entries()) {
		assert.ok(byId.has(row.chunk_pk), `${label}: unexpected chunk ${row.chunk_pk}`);
		assert.ok(
			Math.abs(row.score - byId.get(row.chunk_pk)!) < 1e-9,
			`${label}: score of ${row.chunk_pk} at rank ${i + 1}`,
		);
		if (i) assert.ok(got[i - 1]!.score >= row.score - 1e-12, `${label}: order at rank ${i + 1}`);
	}
}

// Every term selective and no candidate bound: the statement's result is plain BM25 over all matches.
const ALL = { commonDf: 1, maxCandidates: 1000 };

async function rawDatabase(location: StoreLocation, fn: (db: Queryable) => Promise<void>): Promise<void> {
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

for (const engine of testEngines()) {
	describe(`BM25 from postings (${engine.name})`, function () {
		this.timeout(180_000);
		let location: StoreLocation;
		let dispose: () => Promise<void>;
		let postingsAtSchema4 = 0;

		before(async () => {
			({ location, dispose } = await engine.create());
			// A database as schema 4 wrote it, with its postings (written through the product's write path).
			await rawDatabase(location, async (db) => {
				await db.query('CREATE EXTENSION IF NOT EXISTS vector');
				await db.query(
					'CREATE TABLE schema_version (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
				);
				for (const m of MIGRATIONS.filter((x) => x.version <= 4)) {
					await db.query(m.sql);
					await db.query('INSERT INTO schema_version (version, name) VALUES ($1, $2)', [m.version, m.name]);
				}
				await ingestDocuments(db, DOCS, { workspaceId: WS, tier: 'workspace' }, embedder);
				const [idx] = await db.query<{ indexdef: string }>(
					"SELECT indexdef FROM pg_indexes WHERE indexname = 'chunk_terms_impact'",
				);
				assert.match(
					idx!.indexdef,
					/INCLUDE \(scope, workspace_id, chunk_id\)$/,
					'schema 4: the postings index carries only the chunk id',
				);
				const [c] = await db.query<{ n: number }>(
					'SELECT count(*)::int AS n FROM chunk_terms WHERE workspace_id = $1',
					[WS],
				);
				postingsAtSchema4 = c!.n;
			});
		});
		after(async () => dispose?.());

		it('migrates a schema-4 store to 5: the postings index covers tf and doc_len, no posting lost', async () => {
			const store = await mustOpen(location);
			try {
				assert.equal(store.schemaVersion, SCHEMA_VERSION);
				assert.ok(SCHEMA_VERSION >= 5);
				const [idx] = await store.db.query<{ indexdef: string }>(
					"SELECT indexdef FROM pg_indexes WHERE indexname = 'chunk_terms_impact'",
				);
				assert.match(idx!.indexdef, /INCLUDE \(scope, workspace_id, chunk_id, tf, doc_len\)/);
				const [count] = await store.db.query<{ postings: number; lexemes: number }>(
					`SELECT (SELECT count(*)::int FROM chunk_terms WHERE workspace_id = $1) AS postings,
						(SELECT sum(length(tsv))::int FROM chunks WHERE workspace_id = $1) AS lexemes`,
					[WS],
				);
				// One posting per (chunk, lexeme), as many as before the migration.
				assert.ok(postingsAtSchema4 >= DOCS.length * 3);
				assert.deepEqual(count, { postings: postingsAtSchema4, lexemes: postingsAtSchema4 });
			} finally {
				await store.close();
			}
		});

		it('scores every term from its postings exactly as plain BM25, whichever plan scores it', async () => {
			const store = await mustOpen(location);
			try {
				const want = await expectedBm25(store.db, QUERY);
				// alpha (40 postings), beta (20), gamma (8), two rare words: every document matches.
				assert.equal(want.length, DOCS.length);
				const plans = {
					'every term scanned': 1e9,
					'every term probed per candidate': 0,
					'alpha probed, the others scanned': 0.5,
					default: undefined,
				};
				for (const [label, scanPerCandidate] of Object.entries(plans)) {
					const rows = await ftsArm(store.db, SCOPE, QUERY, 'bm25', 100, {
						...ALL,
						...(scanPerCandidate === undefined ? {} : { scanPerCandidate }),
					});
					assertSameRanking(rows, want, label);
				}
				// The two rare words' chunks lead (doc-13 is longer: 13 % 7 = 6 pad words).
				const top = await ftsArm(store.db, SCOPE, QUERY, 'bm25', 2, ALL);
				assert.deepEqual(
					top.map((r) => r.doc_id),
					['doc-7', 'doc-13'],
				);
			} finally {
				await store.close();
			}
		});

		it('with the default bounds, only the selective terms add candidates; the common ones still score them', async () => {
			const store = await mustOpen(location);
			try {
				const rows = await ftsArm(store.db, SCOPE, QUERY, 'bm25', 100);
				// df ≤ 3% of 40 chunks: only the rare words are selective, so their two chunks are the candidates.
				assert.deepEqual(rows.map((r) => r.doc_id).sort(), ['doc-13', 'doc-7']);
				const want = new Map((await expectedBm25(store.db, QUERY)).map((w) => [w.chunk_pk, w.score]));
				for (const r of rows) assert.ok(Math.abs(r.score - want.get(r.chunk_pk)!) < 1e-9, r.doc_id);
			} finally {
				await store.close();
			}
		});
	});
}

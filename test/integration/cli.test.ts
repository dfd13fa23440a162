/**
 * The store commands of `gmem` end to end through runCli (ingest, search, inspect, forget), on
 * PGlite and, when GMEM_TEST_PG_URL is set, a real server: JSON shapes and exit codes of CONTRACT.md.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT_OK, EXIT_STORE, EXIT_USAGE } from '../../src/cli/cliTypes';
import { captureIo } from '../fixtures/captureIo';
import { runCli } from '../../src/cli/main';
import { SCHEMA_VERSION } from '../../src/store/migrations';
import { testEngines, tempStoreDir } from '../fixtures/store_engines';

const DOCS = join(__dirname, '..', 'fixtures', 'store_docs.jsonl');

async function gmem(args: string[], cwd = process.cwd()): Promise<{ code: number; out: string; err: string }> {
	const { io, out, err } = captureIo(cwd, { ...process.env, GMEM_DB: '' });
	const code = await runCli(args, io);
	return { code, out: out(), err: err() };
}

function lines(text: string): Record<string, unknown>[] {
	return text
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

type Hit = {
	id: string;
	chunk_id: string;
	path: string | null;
	arms: { fts: { rank: number } | null; vector: { rank: number } | null };
	rerank: { score: number; status: string } | null;
	fused: number;
	score: number;
};

for (const engine of testEngines()) {
	describe(`gmem store commands (${engine.name})`, function () {
		this.timeout(120_000);
		let db: string;
		let dispose: () => Promise<void>;
		const ws = tempStoreDir('gmem-ws-');
		const queriesDir = tempStoreDir('gmem-q-');

		before(async () => {
			const created = await engine.create();
			dispose = created.dispose;
			db = created.location.kind === 'url' ? created.location.url : created.location.dir;
		});
		after(async () => {
			await dispose?.();
			for (const dir of [ws, queriesDir]) rmSync(dir, { recursive: true, force: true });
		});

		it('ingest --json prints documents, chunks and ms (with no flags: the built-in embedder, no test-embedder warning)', async () => {
			const r = await gmem(['ingest', DOCS, '--db', db, '--workspace', ws, '--json']);
			assert.equal(r.code, EXIT_OK, r.err);
			const [o] = lines(r.out);
			assert.equal(o.documents, 5);
			assert.ok((o.chunks as number) > 5, 'the long document is chunked');
			assert.equal(typeof o.ms, 'number');
			assert.doesNotMatch(r.err, /TEST embedder|NOT semantic/);
		});

		it('search --json gives the contract hit shape with each arm', async () => {
			const r = await gmem(['search', 'refresh access token', '--db', db, '--json', '--k', '3']);
			assert.equal(r.code, EXIT_OK, r.err);
			const [o] = lines(r.out);
			assert.equal(o.id, null);
			assert.equal(o.query, 'refresh access token');
			assert.equal(typeof o.searched_query, 'string');
			const hits = o.hits as Hit[];
			assert.equal(hits[0].id, 'auth');
			assert.equal(hits[0].path, 'src/auth/tokenRefresh.ts');
			assert.ok(hits[0].arms.fts);
			assert.ok(hits[0].arms.vector);
			assert.deepEqual(
				Object.keys(hits[0]).sort(),
				['arms', 'chunk_id', 'end_line', 'fused', 'id', 'path', 'rerank', 'score', 'start_line', 'symbol'].sort(),
			);
		});

		it('finds camelCase identifiers from plain words (code-aware tokens)', async () => {
			const r = await gmem(['search', 'retry backoff', '--db', db, '--json', '--arm', 'fts']);
			const hits = lines(r.out)[0].hits as Hit[];
			assert.equal(hits[0].id, 'retry');
			assert.ok(
				hits.every((h) => h.arms.vector === null),
				'--arm fts runs only the full-text arm',
			);
		});

		it('batch --queries prints one line per query and reports a bad line', async () => {
			const file = join(queriesDir, 'q.jsonl');
			writeFileSync(
				file,
				[
					'{"id": "q1", "query": "toml config file"}',
					'not json',
					'{"id": "q2", "query": "pgvector hnsw decision"}',
				].join('\n'),
			);
			const r = await gmem(['search', '--queries', file, '--db', db, '--json', '--k', '2']);
			assert.equal(r.code, EXIT_USAGE);
			const out = lines(r.out);
			assert.equal(out.length, 3);
			assert.equal((out[0].hits as Hit[])[0].id, 'parser');
			assert.equal(out[1].line, 2);
			assert.equal((out[2].hits as Hit[])[0].id, 'note1');
		});

		it('--files keeps the best chunk per file', async () => {
			const r = await gmem(['search', 'helper return x', '--db', db, '--json', '--files', '--k', '5']);
			const hits = lines(r.out)[0].hits as Hit[];
			const paths = hits.map((h) => h.path ?? h.id);
			assert.equal(new Set(paths).size, paths.length);
		});

		it('inspect --json counts the tiers and names the engine', async () => {
			const r = await gmem(['inspect', '--db', db, '--json']);
			assert.equal(r.code, EXIT_OK, r.err);
			const o = lines(r.out)[0] as {
				engine: string;
				schema_version: number;
				tiers: { workspace: { documents: number } };
			};
			assert.equal(o.engine, engine.name === 'pglite' ? 'pglite-socket' : 'postgres');
			assert.equal(o.schema_version, SCHEMA_VERSION);
			assert.equal(o.tiers.workspace.documents, 5);
		});

		it('forget ID removes a document: search no longer finds it', async () => {
			const r = await gmem(['forget', 'auth', '--db', db, '--workspace', ws, '--json']);
			assert.equal(r.code, EXIT_OK, r.err);
			assert.equal((lines(r.out)[0].removed as { chunks: number }).chunks, 1);
			const s = await gmem(['search', 'refresh access token', '--db', db, '--json']);
			assert.ok(!(lines(s.out)[0].hits as Hit[]).some((h) => h.id === 'auth'));
		});

		it('a usage error exits 1', async () => {
			const r = await gmem(['search', 'x', '--arm', 'both', '--db', db]);
			assert.equal(r.code, EXIT_USAGE);
		});

		it('search with no flags runs the product: built-in vectors, the pool reranked by the built-in reranker (scores best first); --no-rerank keeps the fused order', async () => {
			const r = await gmem(['search', 'toml config file', '--db', db, '--json', '--k', '3', '--workspace', ws]);
			assert.equal(r.code, EXIT_OK, r.err);
			const o = lines(r.out)[0] as { hits: Hit[]; notes: string[] };
			assert.equal(o.hits.length, 3);
			assert.ok(
				o.hits.some((h) => h.arms.vector),
				'the vector arm ran (built-in vectors were ingested by default)',
			);
			const reranks = o.hits.map((h) => h.rerank);
			assert.ok(
				reranks.every((x) => x?.status === 'model'),
				JSON.stringify(reranks),
			);
			const scores = reranks.map((x) => x!.score);
			assert.deepEqual(
				scores,
				[...scores].sort((a, b) => b - a),
			);
			assert.ok(
				o.notes.some((n) => /^reranked \d+ candidates with gmem-rerank-linear-v1/.test(n)),
				o.notes.join(' | '),
			);
			const plain = await gmem([
				'search',
				'toml config file',
				'--db',
				db,
				'--json',
				'--k',
				'3',
				'--workspace',
				ws,
				'--no-rerank',
			]);
			assert.ok((lines(plain.out)[0].hits as Hit[]).every((h) => h.rerank === null));
		});

		// Last: it ingests a second workspace, which the counts above must not see.
		it('--embedder hashing is the test embedder only when asked for: it says so, and the built-in reranker passes through with the reason', async () => {
			const wsHashing = tempStoreDir('gmem-ws-hashing-');
			after(() => rmSync(wsHashing, { recursive: true, force: true }));
			const ingested = await gmem([
				'ingest',
				DOCS,
				'--db',
				db,
				'--workspace',
				wsHashing,
				'--embedder',
				'hashing',
				'--json',
			]);
			assert.equal(ingested.code, EXIT_OK, ingested.err);
			assert.match(ingested.err, /hashing TEST embedder for tests, NOT semantic/);
			const hashing = await gmem([
				'search',
				'refresh access token',
				'--db',
				db,
				'--json',
				'--k',
				'3',
				'--embedder',
				'hashing',
				'--workspace',
				wsHashing,
			]);
			assert.equal(hashing.code, EXIT_OK, hashing.err);
			assert.match(hashing.err, /TEST embedder/);
			assert.match(
				hashing.err,
				/no rerank: gmem-rerank-linear-v1 was trained on gmem-static-code-v\d+ cosines and the vector arm uses test\/hashing-384/,
			);
			assert.equal((lines(hashing.out)[0].hits as Hit[])[0].id, 'auth');
			// The same through the environment variable.
			const viaEnv = captureIo(process.cwd(), { ...process.env, GMEM_DB: '', GMEM_EMBEDDER: 'hashing' });
			assert.equal(
				await runCli(['search', 'refresh access token', '--db', db, '--json', '--workspace', wsHashing], viaEnv.io),
				EXIT_OK,
				viaEnv.err(),
			);
			assert.match(viaEnv.err(), /TEST embedder/);
		});
	});
}

describe('gmem exit codes without a store', () => {
	it('exits 2 when the store cannot be opened', async () => {
		const r = await gmem(['inspect', '--db', 'postgres://postgres@127.0.0.1:1/none']);
		assert.equal(r.code, EXIT_STORE);
		assert.match(r.err, /cannot open the store \(unreachable\)/);
	});
});

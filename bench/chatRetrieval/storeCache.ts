/**
 * Stores of the benchmark corpus at each size, built once and kept: a PGlite store folder under the
 * cache folder (default /tmp/retlat-cache), a database on the PostgreSQL server (with a pg_dump
 * beside the PGlite folders, so a restarted server restores instead of re-embedding). A size is
 * built from the largest smaller one already cached (folder copy / CREATE DATABASE … TEMPLATE), so
 * 20k → 50k → 100k inserts each chunk once. The rows go through the product's own write path
 * (upsertDocuments, the bulk HNSW rebuild, analyzeChunks): the stores are what indexing writes.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Embedder } from '../../src/models/embedder';
import { searchTextFor } from '../../src/retrieval/codeTokens';
import { contentHash } from '../../src/retrieval/ingest';
import { analyzeChunks, upsertDocuments, withBulkVectorIndex, type DocumentInput } from '../../src/store/chunkRepo';
import { stopOwner } from '../../src/store/ownerClient';
import { openStore, type Store } from '../../src/store/openStore';
import type { Queryable } from '../../src/store/queryable';
import { CORPUS_VERSION, type Corpus } from './corpus';

/** What the cache key depends on besides the size: the corpus and the embedder's vectors. */
const key = (embedder: Embedder, n: number) => `${CORPUS_VERSION}-${embedder.id.replace(/\W+/g, '_')}-${n}`;
const DONE = 'bench-complete.json';

/** Inserts chunks [from, to) through the product's write path; returns the wall time in ms. */
export async function insertChunks(
	db: Queryable,
	c: Corpus,
	from: number,
	to: number,
	embedder: Embedder,
): Promise<number> {
	const t = performance.now();
	await withBulkVectorIndex(db, to - from, async () => {
		for (let at = from; at < to; at += 500) {
			const items = Array.from({ length: Math.min(500, to - at) }, (_, j) => c.chunk(at + j));
			const vectors = await embedder.embed(items.map((x) => x.text));
			const docs: DocumentInput[] = items.map((x, j) => {
				const lines = x.text.split('\n').length;
				return {
					workspaceId: 'bench',
					tier: 'workspace',
					docId: x.path,
					path: x.path,
					contentHash: contentHash(x.text),
					mtimeMs: null,
					metadata: {},
					embedder: embedder.id,
					chunks: [
						{
							path: x.path,
							startLine: 1,
							endLine: lines,
							symbol: x.def,
							kind: 'function',
							language: 'python',
							content: x.text,
							contentHash: contentHash(x.text),
							searchText: searchTextFor(`${x.path} · function ${x.def}\n${x.text}`, x.path),
							embedding: vectors[j],
							definitions: [{ name: x.def, kind: 'function', startLine: 1, endLine: lines }],
						},
					],
				};
			});
			await upsertDocuments(db, docs);
			process.stderr.write(`\r  inserted ${at + items.length}/${to}`);
		}
	});
	process.stderr.write('\n');
	await analyzeChunks(db);
	return Math.round(performance.now() - t);
}

/** An open store of exactly `n` chunks, and how it came to be (cached, or built now and how long it took). */
export interface CachedStore {
	store: Store;
	built: { from: number; insert_ms: number } | null;
	close(): Promise<void>;
}

/** The PGlite store folder of `n` chunks, built (from a smaller cached one) when missing. */
export async function pgliteStore(cache: string, c: Corpus, n: number, embedder: Embedder): Promise<CachedStore> {
	mkdirSync(cache, { recursive: true });
	const dir = join(cache, `pglite-${key(embedder, n)}`);
	let built: CachedStore['built'] = null;
	if (!existsSync(join(dir, DONE))) {
		rmSync(dir, { recursive: true, force: true });
		const from = largestCached(cache, 'pglite', embedder, n);
		if (from) {
			// The source must be closed (no owner holds it) before its files are copied.
			await stopOwner(join(cache, `pglite-${key(embedder, from)}`));
			cpSync(join(cache, `pglite-${key(embedder, from)}`), dir, { recursive: true });
			rmSync(join(dir, DONE), { force: true });
		}
		const store = await open({ kind: 'folder', dir });
		const insert_ms = await insertChunks(store.db, c, from, n, embedder);
		await store.close();
		await stopOwner(dir);
		writeFileSync(join(dir, DONE), JSON.stringify({ chunks: n, from, insert_ms }) + '\n');
		built = { from, insert_ms };
	}
	const store = await open({ kind: 'folder', dir });
	return {
		store,
		built,
		close: async () => {
			await store.close();
			await stopOwner(dir);
		},
	};
}

/** The server database of `n` chunks: kept, restored from its dump, or built from a smaller one. */
export async function serverStore(
	cache: string,
	url: string,
	c: Corpus,
	n: number,
	embedder: Embedder,
): Promise<CachedStore> {
	mkdirSync(cache, { recursive: true });
	const name = dbName(embedder, n);
	const dump = join(cache, `postgres-${key(embedder, n)}.dump`);
	const admin = new pg.Client({ connectionString: url });
	await admin.connect();
	const dbUrl = (db: string) => {
		const u = new URL(url);
		u.pathname = `/${db}`;
		return u.toString();
	};
	const exists = async (db: string) =>
		(await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db])).rowCount === 1;
	let built: CachedStore['built'] = null;
	try {
		if (!(await exists(name)) && existsSync(dump)) {
			await admin.query(`CREATE DATABASE ${name}`);
			execFileSync('pg_restore', ['--no-owner', '-d', dbUrl(name), dump], { stdio: 'inherit' });
			// A restore leaves no statistics and no visibility map: until autovacuum gets to the
			// 1.8M postings, BM25's index-only scans fetch heap pages (5–7 ms p50 instead of 3–4.5
			// at 20k). Measure the store as a product write leaves it (analyzeChunks vacuums).
			const restored = new pg.Client({ connectionString: dbUrl(name) });
			await restored.connect();
			await restored.query('VACUUM (ANALYZE)').finally(() => restored.end());
		} else if (!(await exists(name))) {
			const from = largestCached(cache, 'postgres', embedder, n);
			const source = dbName(embedder, from);
			// A smaller size's dump without its database (a restarted server): restore it first.
			if (from && !(await exists(source))) await (await serverStore(cache, url, c, from, embedder)).close();
			await admin.query(from ? `CREATE DATABASE ${name} TEMPLATE ${source}` : `CREATE DATABASE ${name}`);
			const have = from;
			const store = await open({ kind: 'url', url: dbUrl(name) });
			const insert_ms = await insertChunks(store.db, c, have, n, embedder);
			await store.close();
			execFileSync('pg_dump', ['-Fc', '-f', dump, dbUrl(name)], { stdio: 'inherit' });
			built = { from: have, insert_ms };
		}
	} finally {
		await admin.end();
	}
	const store = await open({ kind: 'url', url: dbUrl(name) });
	return { store, built, close: () => store.close() };
}

async function open(location: Parameters<typeof openStore>[0]): Promise<Store> {
	const opened = await openStore(location, { ownerTimeoutMs: 120_000 });
	if (!opened.ok) throw opened.error;
	// The statistics the current code's analyzeChunks keeps (a cached store may have been built before it changed).
	await analyzeChunks(opened.value.db);
	return opened.value;
}

// The largest size below `n` whose store is complete in the cache (0: none).
function largestCached(cache: string, engine: 'pglite' | 'postgres', embedder: Embedder, n: number): number {
	const prefix = `${engine}-${key(embedder, 0).replace(/0$/, '')}`;
	let best = 0;
	for (const f of readdirSync(cache)) {
		if (!f.startsWith(prefix)) continue;
		const size = Number(f.slice(prefix.length).replace(/\.dump$/, ''));
		if (!Number.isInteger(size) || size >= n || size <= best) continue;
		if (engine === 'pglite' && !existsSync(join(cache, f, DONE))) continue;
		best = size;
	}
	return best;
}

// The server database of a size: an SQL identifier (no quoting needed).
const dbName = (embedder: Embedder, n: number) => `gmem_bench_${key(embedder, n).replace(/\W+/g, '_')}`.toLowerCase();

/** The store a bench script asked for: PGlite, or the server at --url / GMEM_TEST_PG_URL. */
export async function engineStore(
	o: { engine: string; cache: string; url?: string },
	c: Corpus,
	n: number,
	embedder: Embedder,
): Promise<CachedStore> {
	const url = o.url ?? process.env.GMEM_TEST_PG_URL;
	if (o.engine === 'postgres' && !url) throw new Error('postgres needs GMEM_TEST_PG_URL or --url');
	return o.engine === 'pglite' ? pgliteStore(o.cache, c, n, embedder) : serverStore(o.cache, url!, c, n, embedder);
}

/** Runs a bench script's main and exits: 0, or 1 with the error on stderr under the script's name. */
export function runScript(name: string, main: () => Promise<void>): void {
	main().then(
		() => process.exit(0),
		(e: unknown) => {
			process.stderr.write(`${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
			process.exit(1);
		},
	);
}

/** The options every chat-retrieval bench script takes to pick and size its store (parseArgs form). */
export const STORE_OPTIONS = {
	engine: { type: 'string', default: 'pglite' },
	chunks: { type: 'string', default: '20000' },
	cache: { type: 'string', default: '/tmp/retlat-cache' },
	url: { type: 'string' },
} as const;

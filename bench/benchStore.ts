/**
 * Store benchmark (not a test): inserts N synthetic code chunks with 384-d vectors, then times
 * each search arm and fused hybrid search — p50/p95 — on PGlite (through its owner's socket, as
 * the product uses it; optionally in-process too) and on a PostgreSQL server when
 * GMEM_TEST_PG_URL (or --url) is set. Reports RSS and disk. Vectors come from the hashing TEST
 * embedder: the timings are real, the relevance is not semantic.
 *   npm run build && npm run bench:store [-- --n 20000 --queries 300 --inprocess]
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DEFAULT_THRESHOLDS } from '../src/core/thresholds';
import { HashingEmbedder } from '../src/models/hashingEmbedder';
import { codeTokens } from '../src/retrieval/codeTokens';
import { hybridSearch, type ArmMode } from '../src/retrieval/hybridSearch';
import { ingestDocuments, type IngestDoc } from '../src/retrieval/ingest';
import { readLock } from '../src/store/lockFile';
import { migrate } from '../src/store/migrations';
import { openStore } from '../src/store/openStore';
import { stopOwner } from '../src/store/ownerClient';
import { startOwner } from '../src/store/owner';
import { pgliteQueryable } from '../src/store/pgliteQueryable';
import type { Queryable } from '../src/store/queryable';
import { SEARCH_SESSION_SQL } from '../src/store/searchQueries';
import { folderBytes } from '../src/store/storeStats';
import { mulberry32 } from '../src/core/metrics/seededRandom';

const CONSONANTS = 'bcdfghjklmnprstvwz';
const VOWELS = 'aeiou';

/**
 * A synthetic code corpus with a natural-language-like vocabulary: 20,000 pseudo-words whose
 * frequency follows Zipf's law (exponent 1), combined into camelCase and snake_case identifiers.
 */
function corpus(n: number, queries: number): { docs: IngestDoc[]; queries: QuerySets } {
	const r = mulberry32(42);
	const syllable = () => CONSONANTS[Math.floor(r() * CONSONANTS.length)] + VOWELS[Math.floor(r() * VOWELS.length)];
	const words = Array.from(
		{ length: 20000 },
		(_, i) => syllable() + syllable() + (i % 2 ? syllable() : '') + 'x'.repeat(i % 7 === 0 ? 1 : 0),
	);
	// Zipf(1) by inverse CDF over ranks: rank ≈ exp(u · ln(V)).
	const zipf = () => words[Math.min(words.length - 1, Math.floor(Math.exp(r() * Math.log(words.length))) - 1)];
	const uniform = () => words[Math.floor(r() * words.length)];
	const identifier = () => {
		const parts = Array.from({ length: 1 + Math.floor(r() * 3) }, zipf);
		return r() < 0.5 ? parts.join('_') : parts.map((p, i) => (i ? p[0].toUpperCase() + p.slice(1) : p)).join('');
	};
	const line = () => Array.from({ length: 4 + Math.floor(r() * 6) }, identifier).join(' ');
	const docs = Array.from({ length: n }, (_, i) => ({
		id: `c${i}`,
		text: `def ${identifier()}(x):\n${Array.from({ length: 6 + Math.floor(r() * 10) }, () => `    ${line()}`).join('\n')}`,
		path: `src/m${i % 500}/f${i}.py`,
	}));
	// "common": query words as frequent as in the corpus; "identifier": words drawn uniformly from
	// the vocabulary, like looking up a name.
	const query = (len: number, word: () => string) => Array.from({ length: len }, word).join(' ');
	return {
		docs,
		queries: {
			common: Array.from({ length: queries }, () => query(2 + Math.floor(r() * 4), zipf)),
			identifier: Array.from({ length: queries }, () => query(2 + Math.floor(r() * 3), uniform)),
		},
	};
}

function pct(xs: number[], p: number): number {
	const s = [...xs].sort((a, b) => a - b);
	return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100;
}

function rssMb(pid: number): number | null {
	try {
		const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return m ? Math.round(Number(m[1]) / 1024) : null;
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
		throw e;
	}
}

async function timeArms(
	db: Queryable,
	queries: string[],
	k: number,
): Promise<Record<string, { p50: number; p95: number }>> {
	const embedder = new HashingEmbedder(384, codeTokens);
	const out: Record<string, { p50: number; p95: number }> = {};
	for (const arm of ['fts', 'vector', 'hybrid'] as ArmMode[]) {
		const opts = {
			tier: 'workspace' as const,
			workspaceIds: ['bench'],
			k,
			arm,
			embedder,
			cosineFloor: null,
			thresholds: DEFAULT_THRESHOLDS,
		};
		for (const q of queries.slice(0, 20)) await hybridSearch(db, q, opts); // warm-up
		const ms: number[] = [];
		for (const q of queries) {
			const t = performance.now();
			await hybridSearch(db, q, opts);
			ms.push(performance.now() - t);
		}
		out[arm] = { p50: pct(ms, 50), p95: pct(ms, 95) };
	}
	return out;
}

async function load(db: Queryable, docs: IngestDoc[]): Promise<number> {
	const t = performance.now();
	await ingestDocuments(
		db,
		docs,
		{ workspaceId: 'bench', tier: 'workspace' },
		new HashingEmbedder(384, codeTokens),
		(d) => process.stderr.write(`\r  inserted ${d}/${docs.length}`),
		500,
	);
	process.stderr.write('\n');
	await db.query('ANALYZE');
	return Math.round(performance.now() - t);
}

async function sizeBytes(db: Queryable): Promise<number> {
	const [r] = await db.query<{ b: number }>('SELECT pg_database_size(current_database())::float8 AS b');
	return r.b;
}

type Row = Record<string, unknown>;
type QuerySets = { common: string[]; identifier: string[] };

async function timeMixes(db: Queryable, queries: QuerySets, k: number): Promise<Row> {
	const out: Row = {};
	for (const [mix, qs] of Object.entries(queries)) out[mix] = flat(await timeArms(db, qs, k));
	return out;
}

async function benchPglite(docs: IngestDoc[], queries: QuerySets, k: number, inprocess: boolean): Promise<Row[]> {
	const dir = mkdtempSync(join(tmpdir(), 'gmem-bench-'));
	const opened = await openStore({ kind: 'folder', dir });
	if (!opened.ok) throw opened.error;
	const store = opened.value;
	const insertMs = await load(store.db, docs);
	const arms = await timeMixes(store.db, queries, k);
	const ownerPid = readLock(dir)?.pid ?? 0;
	const rows: Row[] = [
		{
			engine: 'pglite (owner process, Unix socket)',
			chunks: docs.length,
			insert_ms: insertMs,
			...arms,
			owner_rss_mb: rssMb(ownerPid),
			client_rss_mb: rssMb(process.pid),
			db_mb: mb(await sizeBytes(store.db)),
			disk_mb: mb(folderBytes(dir)),
		},
	];
	await store.close();
	if (!inprocess) return rows;
	// Stop the owner child, then own the folder in this process.
	if (!(await stopOwner(dir))) throw new Error(`the owner of ${dir} did not stop`);
	const owner = await startOwner(dir);
	const db = pgliteQueryable(owner.db);
	await migrate(db);
	await db.query(SEARCH_SESSION_SQL);
	const direct = await timeMixes(db, queries, k);
	rows.push({
		engine: 'pglite (in-process, no socket)',
		chunks: docs.length,
		...direct,
		client_rss_mb: rssMb(process.pid),
	});
	await owner.shutdown();
	return rows;
}

async function benchServer(url: string, docs: IngestDoc[], queries: QuerySets, k: number): Promise<Row[]> {
	const name = `gmem_bench_${process.pid}`;
	const admin = new pg.Client({ connectionString: url });
	await admin.connect();
	await admin.query(`CREATE DATABASE ${name}`);
	const u = new URL(url);
	u.pathname = `/${name}`;
	try {
		const opened = await openStore({ kind: 'url', url: u.toString() });
		if (!opened.ok) throw opened.error;
		const insertMs = await load(opened.value.db, docs);
		const arms = await timeMixes(opened.value.db, queries, k);
		const row = {
			engine: 'postgres server',
			chunks: docs.length,
			insert_ms: insertMs,
			...arms,
			client_rss_mb: rssMb(process.pid),
			db_mb: mb(await sizeBytes(opened.value.db)),
		};
		await opened.value.close();
		return [row];
	} finally {
		await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
		await admin.end();
	}
}

function flat(arms: Record<string, { p50: number; p95: number }>): Row {
	return Object.fromEntries(
		Object.entries(arms).flatMap(([arm, v]) => [
			[`${arm}_p50_ms`, v.p50],
			[`${arm}_p95_ms`, v.p95],
		]),
	);
}

function mb(bytes: number): number {
	return Math.round(bytes / 1048576);
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			n: { type: 'string', default: '20000' },
			queries: { type: 'string', default: '300' },
			k: { type: 'string', default: '10' },
			url: { type: 'string' },
			inprocess: { type: 'boolean', default: false },
			engines: { type: 'string', default: 'pglite,postgres' },
		},
	});
	const { docs, queries } = corpus(Number(values.n), Number(values.queries));
	const k = Number(values.k);
	const engines = values.engines.split(',');
	process.stderr.write(
		`benchStore: ${docs.length} chunks, ${queries.common.length} queries per mix, k ${k}; vectors from the hashing TEST embedder (not semantic)\n`,
	);
	const print = (rows: Row[]) =>
		rows.forEach((r) =>
			process.stdout.write(
				JSON.stringify({ ...r, load_avg_1m: Math.round(loadavg()[0] * 10) / 10, cpus: availableParallelism() }) + '\n',
			),
		);
	if (engines.includes('pglite')) print(await benchPglite(docs, queries, k, values.inprocess));
	const url = values.url ?? process.env.GMEM_TEST_PG_URL;
	if (engines.includes('postgres')) {
		if (url) print(await benchServer(url, docs, queries, k));
		else process.stderr.write('benchStore: no GMEM_TEST_PG_URL / --url: the PostgreSQL server was NOT benchmarked\n');
	}
}

main().then(
	() => process.exit(0),
	(e: unknown) => {
		process.stderr.write(`benchStore: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
		process.exit(1);
	},
);

/**
 * Staleness-check benchmark (not a test): the cost, per recalled memory, of checking the code a
 * memory cites against the workspace as it is now (memoryFreshness.checkRecalled: one query for
 * the anchors, one for the current chunks of their files and symbols, the pure comparison, and
 * the re-anchor / stale-mark writes when something changed).
 *
 * Store: PGlite through its owner process (as the extension uses it), and a PostgreSQL server
 * when GMEM_TEST_PG_URL is set. Data: --files files × --chunks chunks each in the workspace
 * tier (synthetic text, real rows and indexes), --memories research memories with 1–3 anchors
 * each. Each timed call checks --k memories (the chat's qa_k is 4) drawn at random; a fraction
 * --changed of the files is rewritten first, so some checks find stale or moved code.
 *   npm run bench:staleness [-- --files 2000 --chunks 10 --memories 2000 --k 4 --calls 300]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { mulberry32 } from '../src/core/metrics/seededRandom';
import { checkRecalled } from '../src/chat/memoryFreshness';
import { checkAnchor } from '../src/retrieval/stalenessCheck';
import { analyzeChunks } from '../src/store/chunkRepo';
import { openStore, type Store } from '../src/store/openStore';
import { stopOwner } from '../src/store/ownerClient';

const { values: args } = parseArgs({
	options: {
		files: { type: 'string', default: '2000' },
		chunks: { type: 'string', default: '10' },
		memories: { type: 'string', default: '2000' },
		k: { type: 'string', default: '4' },
		calls: { type: 'string', default: '300' },
		changed: { type: 'string', default: '0.2' },
	},
});
const FILES = Number(args.files);
const CHUNKS = Number(args.chunks);
const MEMORIES = Number(args.memories);
const K = Number(args.k);
const CALLS = Number(args.calls);
const CHANGED = Number(args.changed);
const WS = 'bench-ws';

function pct(xs: number[], p: number): number {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function seed(store: Store): Promise<string[]> {
	const db = store.db;
	// Workspace tier: FILES documents of CHUNKS chunks, each chunk a function with a symbol.
	await db.query(
		`INSERT INTO documents (scope, workspace_id, tier, doc_id, path, content_hash) SELECT 'local', $1, 'workspace', 'src/f' || f || '.ts', 'src/f' || f || '.ts', md5(f::text) FROM generate_series(1, $2) f`,
		[WS, FILES],
	);
	await db.query(
		`INSERT INTO chunks (scope, workspace_id, tier, doc_id, chunk_no, path, start_line, end_line, symbol, kind, language, content, content_hash, search_text, doc_len)
		 SELECT 'local', $1, 'workspace', 'src/f' || f || '.ts', c, 'src/f' || f || '.ts', c * 20 + 1, c * 20 + 18, 'fn' || f || '_' || c, 'function', 'typescript',
			'export function fn' || f || '_' || c || '() { return ' || (f * c) || '; }', md5(f || ':' || c), 'fn' || f || ' ' || c, 8
		 FROM generate_series(1, $2) f, generate_series(0, $3 - 1) c`,
		[WS, FILES, CHUNKS],
	);
	await analyzeChunks(db); // as the indexer does after a batch (PGlite has no autovacuum)
	// Research memories with 1–3 anchors on random chunks (their hashes as written).
	const r = mulberry32(7);
	const docIds: string[] = [];
	for (let m = 0; m < MEMORIES; m++) {
		const docId = `memory:bench:${m}`;
		const [row] = await db.query<{ id: string }>(
			`INSERT INTO research_memory (scope, workspace_id, doc_id, kind, content, content_hash) VALUES ('local', $1, $2, 'note', $3, md5($3)) RETURNING id::text AS id`,
			[WS, docId, `memory ${m} about some code`],
		);
		const n = 1 + Math.floor(r() * 3);
		for (let a = 0; a < n; a++) {
			const f = 1 + Math.floor(r() * FILES);
			const c = Math.floor(r() * CHUNKS);
			await db.query(
				`INSERT INTO memory_anchors (scope, workspace_id, memory_id, doc_id, path, symbol, start_line, end_line, content_hash) VALUES ('local', $1, $2::bigint, $8, $3, $4, $5, $6, md5($7))`,
				[WS, row.id, `src/f${f}.ts`, `fn${f}_${c}`, c * 20 + 1, c * 20 + 18, `${f}:${c}`, docId],
			);
		}
		docIds.push(docId);
	}
	// Some files changed since: half of their chunks edited (stale), the other half shifted (moved).
	const changedFiles = Math.round(FILES * CHANGED);
	const changed = Array.from({ length: changedFiles }, (_, i) => `src/f${i + 1}.ts`);
	await db.query(
		`UPDATE chunks SET content_hash = md5(content_hash) WHERE workspace_id = $1 AND tier = 'workspace' AND chunk_no % 2 = 0 AND path = ANY($2::text[])`,
		[WS, changed],
	);
	await db.query(
		`UPDATE chunks SET start_line = start_line + 3, end_line = end_line + 3 WHERE workspace_id = $1 AND tier = 'workspace' AND chunk_no % 2 = 1 AND path = ANY($2::text[])`,
		[WS, changed],
	);
	return docIds;
}

async function measure(name: string, store: Store, docIds: string[]): Promise<void> {
	const r = mulberry32(11);
	const pick = () => Array.from({ length: K }, () => docIds[Math.floor(r() * docIds.length)]);
	for (let i = 0; i < 20; i++) await checkRecalled(store.db, [WS], pick()); // warm-up
	const perCall: number[] = [];
	const verdicts: Record<string, number> = {};
	for (let i = 0; i < CALLS; i++) {
		const ids = pick();
		const t0 = performance.now();
		const out = await checkRecalled(store.db, [WS], ids);
		perCall.push(performance.now() - t0);
		for (const f of out.values()) verdicts[f.verdict] = (verdicts[f.verdict] ?? 0) + 1;
	}
	const perMemory = perCall.map((ms) => ms / K);
	// The same picks again: every move and stale mark is written by now, so this pass only reads
	// (the steady state of a memory recalled again while its code did not change).
	const again = mulberry32(11);
	const repick = () => Array.from({ length: K }, () => docIds[Math.floor(again() * docIds.length)]);
	for (let i = 0; i < 20; i++) repick();
	const steady: number[] = [];
	for (let i = 0; i < CALLS; i++) {
		const ids = repick();
		const t0 = performance.now();
		await checkRecalled(store.db, [WS], ids);
		steady.push((performance.now() - t0) / K);
	}
	// The machine's share in the figure: one empty round trip to the same store, timed the same way.
	const trip: number[] = [];
	for (let i = 0; i < CALLS; i++) {
		const t0 = performance.now();
		await store.db.query('SELECT 1');
		trip.push(performance.now() - t0);
	}
	// The pure comparison alone (no I/O), per anchor.
	const chunks = Array.from({ length: CHUNKS * 2 }, (_, c) => ({
		path: 'src/f1.ts',
		symbol: `fn1_${c}`,
		startLine: c * 20 + 1,
		endLine: c * 20 + 18,
		contentHash: `h${c}`,
	}));
	const t1 = performance.now();
	for (let i = 0; i < 100_000; i++)
		checkAnchor(
			{
				path: 'src/f1.ts',
				symbol: `fn1_${i % CHUNKS}`,
				startLine: 1,
				endLine: 18,
				contentHash: i % 3 ? `h${i % CHUNKS}` : 'x',
			},
			chunks,
		);
	const pureUs = ((performance.now() - t1) / 100_000) * 1000;
	console.log(
		JSON.stringify({
			engine: name,
			files: FILES,
			chunks: FILES * CHUNKS,
			memories: MEMORIES,
			k: K,
			calls: CALLS,
			per_call_ms: { p50: +pct(perCall, 50).toFixed(3), p95: +pct(perCall, 95).toFixed(3) },
			per_memory_ms: { p50: +pct(perMemory, 50).toFixed(3), p95: +pct(perMemory, 95).toFixed(3) },
			per_memory_steady_ms: { p50: +pct(steady, 50).toFixed(3), p95: +pct(steady, 95).toFixed(3) },
			verdicts,
			empty_round_trip_ms: { p50: +pct(trip, 50).toFixed(3), p95: +pct(trip, 95).toFixed(3) },
			pure_check_us_per_anchor: +pureUs.toFixed(2),
			load: loadavg()[0].toFixed(1),
		}),
	);
}

async function main(): Promise<void> {
	console.error(
		`cores ${availableParallelism()}, load ${loadavg()
			.map((x) => x.toFixed(1))
			.join(' ')}`,
	);
	const dir = mkdtempSync(join(tmpdir(), 'gmem-bench-stale-'));
	const opened = await openStore({ kind: 'folder', dir });
	if (!opened.ok) throw opened.error;
	try {
		await measure('pglite (owner process)', opened.value, await seed(opened.value));
	} finally {
		await opened.value.close();
		await stopOwner(dir);
		rmSync(dir, { recursive: true, force: true });
	}
	const url = process.env.GMEM_TEST_PG_URL;
	if (!url) {
		console.error('GMEM_TEST_PG_URL not set: PostgreSQL server not measured');
		return;
	}
	const pg = (await import('pg')).default;
	const name = `gmem_bench_stale_${process.pid}`;
	const admin = new pg.Client({ connectionString: url });
	await admin.connect();
	await admin.query(`CREATE DATABASE ${name}`);
	const u = new URL(url);
	u.pathname = `/${name}`;
	const server = await openStore({ kind: 'url', url: u.toString() });
	try {
		if (!server.ok) throw server.error;
		await measure('postgresql server', server.value, await seed(server.value));
	} finally {
		if (server.ok) await server.value.close();
		await admin.query(`DROP DATABASE ${name}`);
		await admin.end();
	}
}

void main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});

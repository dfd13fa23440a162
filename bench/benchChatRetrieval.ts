/**
 * Chat-path retrieval at scale (issue 15 item 7; not a test): what a chat turn runs for the
 * workspace — the query embedding (once, before the pipeline, as WorkspaceMemory.retrieve does),
 * then `retrieveWorkspace`: frame lookups for a pasted trace, the symbol arm, full-text (BM25) and
 * vector arms, RRF, the built-in reranker, priors and evidence selection — timed p50/p95 per stage
 * (chatRetrieval/stageClock.ts) at each store size (default 20k, 50k, 100k chunks) on PGlite
 * (through its owner's socket, as the product uses it) and on a PostgreSQL server when
 * GMEM_TEST_PG_URL (or --url) is set. The stores are built once and cached
 * (chatRetrieval/storeCache.ts, --cache, default /tmp/retlat-cache). Warm-up queries are not
 * counted; the 1-minute load average is printed with every figure (the machine is shared).
 *   npm run bench:chat -- [--sizes 20000,50000,100000] [--queries 200] [--repeat 3] [--engines pglite,postgres]
 */
import { createHash } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { COVERAGE_TTL_MS } from '../src/chat/workspaceMemory';
import { DEFAULT_THRESHOLDS } from '../src/core/thresholds';
import { loadBuiltinEmbedder } from '../src/models/builtinEmbedder';
import type { Embedder } from '../src/models/embedder';
import { LinearReranker } from '../src/models/linearReranker';
import { DEFAULT_RETRIEVAL_TUNING, retrievalTuning } from '../src/retrieval/retrievalThresholds';
import { retrieveWorkspace } from '../src/retrieval/workspaceRetrieval';
import { corpus, type Corpus } from './chatRetrieval/corpus';
import { cpuMeter } from './chatRetrieval/cpuMeter';
import { resultDigest } from './chatRetrieval/resultDigest';
import { StageClock, STAGES, type Stage } from './chatRetrieval/stageClock';
import { pgliteStore, serverStore, type CachedStore } from './chatRetrieval/storeCache';

// test/fixtures/eval/nq/new-parts-off.json: symbol arm, pins, file BM25 list, priors and frames off.
const NEW_PARTS_OFF = {
	rrf_weight_symbol: 0,
	symbol_pin_definitions: 0,
	file_bm25_weight: 0,
	prior_impl_over_other: 1,
	prior_tests_when_asked: 1,
	prior_docs_howto: 1,
	prior_docs_code: 1,
	stack_frame_max: 0,
};
const WARM_UP = 20;

const load1 = () => Math.round(loadavg()[0] * 10) / 10;

function pct(xs: readonly number[], p: number): number {
	const s = [...xs].sort((a, b) => a - b);
	return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 10) / 10;
}

/** One mix at one size on one engine: per-stage p50/p95 and the load around it. */
interface MixResult {
	engine: string;
	chunks: number;
	mix: string;
	run: number;
	queries: number;
	p50: Record<Stage, number>;
	p95: Record<Stage, number>;
	/** CPU per retrieval: this process, and the store's processes (PGlite owner / server backends). */
	cpu_ms_per_query: { client_ms: number; store_ms: number | null };
	load_avg_1m_before: number;
	load_avg_1m_after: number;
	/** sha256 (first 16 hex) of every counted retrieval's resultDigest, in query order. */
	result_hash: string;
}

async function timeMix(
	cached: CachedStore,
	engine: string,
	chunks: number,
	mix: string,
	qs: readonly string[],
	embedder: Embedder,
	k: number,
	tuning: typeof DEFAULT_RETRIEVAL_TUNING,
	run: number,
): Promise<MixResult> {
	const clock = new StageClock();
	const db = clock.queryable(cached.store.db);
	const reranker = clock.reranker(new LinearReranker());
	let lastCounted = -Infinity;
	const one = async (q: string) => {
		clock.reset();
		const start = performance.now();
		// WorkspaceMemory.retrieve's check that the folders are indexed (other_sql): a turn with a fresh
		// coverage count (at most COVERAGE_TTL_MS old) skips it; a turn that counts again runs it.
		if (start - lastCounted >= COVERAGE_TTL_MS) {
			lastCounted = start;
			await db.query(
				"SELECT EXISTS (SELECT 1 FROM documents WHERE scope = $2 AND tier = 'workspace' AND workspace_id = ANY($1::text[])) AS found",
				[['bench'], cached.store.scope],
			);
		}
		const queryEmbedder = await clock.embedQuery(embedder, q);
		const r = await retrieveWorkspace(db, {
			query: q,
			workspaceIds: ['bench'],
			k,
			embedder: queryEmbedder,
			reranker,
			floor: DEFAULT_THRESHOLDS.floor_workspace_question,
			thresholds: DEFAULT_THRESHOLDS,
			tuning,
			startedAt: start,
		});
		const stages = clock.stages(start, performance.now());
		results.update(resultDigest(r)).update('\n');
		return stages;
	};
	let results = createHash('sha256');
	for (const q of qs.slice(0, WARM_UP)) await one(q);
	results = createHash('sha256');
	const before = load1();
	const meter = await cpuMeter(cached.store);
	const rows: Record<Stage, number>[] = [];
	for (const q of qs.slice(WARM_UP)) rows.push(await one(q));
	const cpu = await meter.stop(rows.length);
	const per = (p: number) =>
		Object.fromEntries(
			STAGES.map((s) => [
				s,
				pct(
					rows.map((r) => r[s]),
					p,
				),
			]),
		) as Record<Stage, number>;
	return {
		engine,
		chunks,
		mix,
		run,
		queries: rows.length,
		p50: per(50),
		p95: per(95),
		cpu_ms_per_query: cpu,
		load_avg_1m_before: before,
		load_avg_1m_after: load1(),
		result_hash: results.digest('hex').slice(0, 16),
	};
}

/** The run whose total p95 is the median of the repeats (the figure reported). */
function medianRun(runs: readonly MixResult[]): MixResult {
	const s = [...runs].sort((a, b) => a.p95.total - b.p95.total);
	return s[Math.floor((s.length - 1) / 2)]!;
}

function table(results: readonly MixResult[]): string {
	const head = `| engine | chunks | mix | total p50 / p95 | ${STAGES.filter((s) => s !== 'total').join(' | ')} | CPU ms/query (client + store) | load 1m | results |`;
	const sep = head.replace(/[^|]+/g, '---');
	const lines = results.map(
		(r) =>
			`| ${r.engine} | ${r.chunks} | ${r.mix} | ${r.p50.total} / ${r.p95.total} | ${STAGES.filter((s) => s !== 'total')
				.map((s) => `${r.p50[s]} / ${r.p95[s]}`)
				.join(
					' | ',
				)} | ${r.cpu_ms_per_query.client_ms} + ${r.cpu_ms_per_query.store_ms ?? '?'} | ${r.load_avg_1m_before}–${r.load_avg_1m_after} | ${r.result_hash} |`,
	);
	return [head, sep, ...lines].join('\n');
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			sizes: { type: 'string', default: '20000,50000,100000' },
			queries: { type: 'string', default: '200' },
			repeat: { type: 'string', default: '3' },
			k: { type: 'string', default: '4' },
			url: { type: 'string' },
			engines: { type: 'string', default: 'pglite,postgres' },
			mixes: { type: 'string', default: 'words,identifier,traceback' },
			cache: { type: 'string', default: '/tmp/retlat-cache' },
			'new-parts-off': { type: 'boolean', default: false },
			'build-only': { type: 'boolean', default: false },
		},
	});
	const sizes = values.sizes.split(',').map(Number);
	if (sizes.some((n) => !Number.isInteger(n) || n < 1))
		throw new Error(`--sizes must be positive integers: ${values.sizes}`);
	const queries = Number(values.queries);
	const repeat = Number(values.repeat);
	const k = Number(values.k);
	// Queries name definitions among the first 20k chunks, so every size can answer every query.
	const c: Corpus = corpus(queries + WARM_UP, Math.min(...sizes));
	const mixes = values.mixes.split(',') as (keyof Corpus['queries'])[];
	for (const m of mixes) if (!(m in c.queries)) throw new Error(`unknown mix "${m}" (words, identifier, traceback)`);
	const embedder = await loadBuiltinEmbedder();
	const tuning = values['new-parts-off'] ? retrievalTuning(NEW_PARTS_OFF) : DEFAULT_RETRIEVAL_TUNING;
	process.stderr.write(
		`benchChatRetrieval: sizes ${sizes.join(', ')}, ${queries} queries per mix (+${WARM_UP} warm-up), ${repeat} runs, k ${k}, ${embedder.id} + built-in reranker${values['new-parts-off'] ? ', issue 15 new parts OFF' : ''}, ${availableParallelism()} CPUs\n`,
	);
	const url = values.url ?? process.env.GMEM_TEST_PG_URL;
	const engines = values.engines.split(',');
	if (engines.includes('postgres') && !url)
		process.stderr.write('benchChatRetrieval: no GMEM_TEST_PG_URL / --url: the PostgreSQL server is NOT benchmarked\n');
	const reported: MixResult[] = [];
	for (const engine of engines) {
		if (engine === 'postgres' && !url) continue;
		if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`unknown engine "${engine}" (pglite, postgres)`);
		for (const n of sizes) {
			const cached =
				engine === 'pglite'
					? await pgliteStore(values.cache, c, n, embedder)
					: await serverStore(values.cache, url!, c, n, embedder);
			try {
				if (cached.built)
					process.stdout.write(
						JSON.stringify({
							engine,
							chunks: n,
							built_from: cached.built.from,
							insert_ms: cached.built.insert_ms,
							load_avg_1m: load1(),
						}) + '\n',
					);
				if (values['build-only']) continue;
				for (const mix of mixes) {
					const runs: MixResult[] = [];
					for (let r = 1; r <= repeat; r++) {
						const res = await timeMix(cached, engine, n, mix, c.queries[mix], embedder, k, tuning, r);
						process.stdout.write(JSON.stringify(res) + '\n');
						runs.push(res);
					}
					reported.push(medianRun(runs));
				}
			} finally {
				await cached.close();
			}
		}
	}
	if (reported.length)
		process.stdout.write(`\nmedian run of ${repeat} (ms, p50 / p95 per stage):\n${table(reported)}\n`);
}

main().then(
	() => process.exit(0),
	(e: unknown) => {
		process.stderr.write(`benchChatRetrieval: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
		process.exit(1);
	},
);

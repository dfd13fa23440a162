/**
 * The built-in embedder measured through the product's own search path (real store, real
 * hybridSearch), with bootstrap 95% confidence intervals:
 *   - CoSQA dev: MRR@10 and recall@10 for full-text, vector, hybrid (RRF), hybrid + the built-in
 *     reranker (models/builtin/reranker.json), and the paired differences hybrid - full-text,
 *     hybrid+rerank - full-text, hybrid+rerank - hybrid. The rerank pool is the one `gmem eval
 *     retrieval` uses (k × arm_fetch_multiplier per arm, fused); "hybrid+rerank@ext" is the chat
 *     path's (WorkspaceMemory.retrieve: the top min(rerank_max_candidates, k × multiplier) fused
 *     hits of k × multiplier² per arm);
 *   - file localisation (SWE-bench Lite dev, a Debian package's source): recall@1/5/10 of the gold
 *     file among the first distinct files, full-text vs hybrid.
 *
 *   npx tsx training/evalBuiltin.ts cosqa [--limit N]
 *   npx tsx training/evalBuiltin.ts loc --package django
 *   npx tsx training/evalBuiltin.ts speed      # load time and texts/s on the CoSQA snippets
 *
 * Uses ../shared/eval only to evaluate (never for training). Prints one JSON object.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../src/core/thresholds';
import { Indexer } from '../src/indexing/indexer';
import { loadBuiltinEmbedder } from '../src/models/builtinEmbedder';
import type { Embedder } from '../src/models/embedder';
import { LinearReranker } from '../src/models/linearReranker';
import { rerankCandidates } from '../src/retrieval/evidence/rerankStage';
import { hybridSearch, type ArmMode } from '../src/retrieval/hybridSearch';
import { ingestDocuments } from '../src/retrieval/ingest';
import { workspaceId } from '../src/store/location';
import { openStore, type Store } from '../src/store/openStore';
import { mulberry32 } from '../src/core/metrics/seededRandom';

const ARMS: ArmMode[] = ['fts', 'vector', 'hybrid'];

/** Mean and percentile-bootstrap 95% interval of per-query values (1000 resamples, fixed seed). */
export function bootstrap(
	values: readonly number[],
	resamples = 1000,
	seed = 7,
): { mean: number; lo: number; hi: number } {
	const n = values.length;
	const r = mulberry32(seed);
	const means: number[] = [];
	for (let b = 0; b < resamples; b++) {
		let s = 0;
		for (let i = 0; i < n; i++) s += values[Math.floor(r() * n)]!;
		means.push(s / n);
	}
	means.sort((x, y) => x - y);
	const round = (x: number) => Math.round(x * 1000) / 1000;
	return {
		mean: round(values.reduce((s, x) => s + x, 0) / n),
		lo: round(means[Math.floor(0.025 * resamples)]!),
		hi: round(means[Math.ceil(0.975 * resamples) - 1]!),
	};
}

const rr10 = (ranked: readonly string[], gold: readonly string[]) => {
	const i = ranked.slice(0, 10).findIndex((d) => gold.includes(d));
	return i < 0 ? 0 : 1 / (i + 1);
};
const hitAt = (ranked: readonly string[], gold: readonly string[], k: number) =>
	ranked.slice(0, k).some((d) => gold.includes(d)) ? 1 : 0;
const minus = (a: readonly number[], b: readonly number[]) => a.map((x, i) => x - b[i]!);

async function tempStore(): Promise<{ store: Store; done: () => Promise<void> }> {
	const dir = mkdtempSync(join(tmpdir(), 'gmem-builtin-eval-'));
	const opened = await openStore({ kind: 'folder', dir });
	if (!opened.ok) throw new Error(opened.error.message);
	return {
		store: opened.value,
		done: async () => {
			await opened.value.close();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** Hybrid search over a pool, reranked by `reranker`, as document ids (best first, top 10). */
async function rerankedIds(
	store: Store,
	ws: string,
	query: string,
	embedder: Embedder,
	reranker: LinearReranker,
	pool: { k: number; multiplier: number },
	seen: Record<string, number>,
): Promise<string[]> {
	const t: Thresholds = { ...DEFAULT_THRESHOLDS, arm_fetch_multiplier: pool.multiplier };
	const out = await hybridSearch(store.db, query, {
		tier: 'workspace',
		workspaceIds: [ws],
		k: pool.k,
		arm: 'hybrid',
		embedder,
		cosineFloor: null,
		thresholds: t,
	});
	const candidates = out.hits.map((hit) => ({ hit, tier: 'workspace' as const, text: hit.content }));
	const rr = await rerankCandidates(reranker, query, candidates, {
		maxCandidates: t.rerank_max_candidates,
		embedderId: embedder.id,
		longQueryWords: t.rrf_long_query_words,
	});
	const key = rr.step.status === 'model' ? 'model' : `passthrough: ${rr.step.reason ?? ''}`;
	seen[key] = (seen[key] ?? 0) + 1;
	return [...new Set(rr.candidates.map((c) => c.hit.id))].slice(0, 10);
}

async function cosqa(
	shared: string,
	embedder: Embedder,
	limit: number | undefined,
	rerankerDir: string | undefined,
): Promise<unknown> {
	const corpus = readFileSync(join(shared, 'eval/corpus/cosqa_corpus.jsonl'), 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l) as { id: string; code: string });
	const queries = readFileSync(join(shared, 'eval/dev/cosqa_dev.jsonl'), 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l) as { id: string; query: string; relevant: string[] })
		.slice(0, limit);
	const { store, done } = await tempStore();
	try {
		const ws = workspaceId('/gmem-builtin-eval/cosqa');
		const started = performance.now();
		await ingestDocuments(
			store.db,
			corpus.map((c) => ({ id: c.id, text: c.code })),
			{ workspaceId: ws, tier: 'workspace' },
			embedder,
		);
		const ingestMs = Math.round(performance.now() - started);
		const per: Record<string, { rr: number[]; r10: number[] }> = {};
		for (const arm of ARMS) {
			per[arm] = { rr: [], r10: [] };
			for (const q of queries) {
				const out = await hybridSearch(store.db, q.query, {
					tier: 'workspace',
					workspaceIds: [ws],
					k: 10,
					arm,
					embedder: arm === 'fts' ? null : embedder,
					cosineFloor: null,
					thresholds: DEFAULT_THRESHOLDS,
				});
				const ids = [...new Set(out.hits.map((h) => h.id))];
				per[arm]!.rr.push(rr10(ids, q.relevant));
				per[arm]!.r10.push(hitAt(ids, q.relevant, 10));
			}
		}
		const reranker = new LinearReranker(rerankerDir ? { dir: rerankerDir } : {});
		const weights = await reranker.weights();
		const m = DEFAULT_THRESHOLDS.arm_fetch_multiplier;
		const ext = Math.max(10, Math.min(DEFAULT_THRESHOLDS.rerank_max_candidates, 10 * m));
		const pools = { 'hybrid+rerank': { k: 10 * m, multiplier: 1 }, 'hybrid+rerank@ext': { k: ext, multiplier: m } };
		const status: Record<string, Record<string, number>> = {};
		for (const [name, pool] of Object.entries(pools)) {
			per[name] = { rr: [], r10: [] };
			status[name] = {};
			for (const q of queries) {
				const ids = await rerankedIds(store, ws, q.query, embedder, reranker, pool, status[name]!);
				per[name]!.rr.push(rr10(ids, q.relevant));
				per[name]!.r10.push(hitAt(ids, q.relevant, 10));
			}
		}
		const names = [...ARMS, ...Object.keys(pools)];
		const arms = Object.fromEntries(
			names.map((a) => [a, { mrr10: bootstrap(per[a]!.rr), r10: bootstrap(per[a]!.r10) }]),
		);
		const diff = (a: string, b = 'fts') => ({
			mrr10: bootstrap(minus(per[a]!.rr, per[b]!.rr)),
			r10: bootstrap(minus(per[a]!.r10, per[b]!.r10)),
		});
		return {
			task: 'cosqa-dev',
			queries: queries.length,
			documents: corpus.length,
			ingest_ms: ingestMs,
			embedder: embedder.id,
			reranker: {
				id: reranker.id,
				trained_for: weights.embedder,
				weights: weights.weights,
				pools: {
					'hybrid+rerank': `${10 * m} per arm (multiplier 1), fused`,
					'hybrid+rerank@ext': `top ${ext} fused of ${ext * m} per arm`,
				},
				status,
			},
			arms,
			vector_minus_fts: diff('vector'),
			hybrid_minus_fts: diff('hybrid'),
			rerank_minus_fts: diff('hybrid+rerank'),
			rerank_minus_hybrid: diff('hybrid+rerank', 'hybrid'),
			rerank_ext_minus_fts: diff('hybrid+rerank@ext'),
			rerank_ext_minus_hybrid: diff('hybrid+rerank@ext', 'hybrid'),
		};
	} finally {
		await done();
	}
}

interface LocRow {
	id: string;
	repo: string;
	query: string;
	gold_files: string[];
}

async function localise(shared: string, embedder: Embedder, pkg: string): Promise<unknown> {
	const rows = readFileSync(join(shared, 'eval/dev/swe_lite_loc_dev.jsonl'), 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l) as LocRow)
		.filter((r) => r.repo.split('/')[1] === pkg);
	const pkgDir = join('/usr/lib/python3/dist-packages', pkg);
	if (!existsSync(pkgDir)) throw new Error(`${pkgDir} is not installed (apt-get install python3-${pkg})`);
	const present = rows.filter((r) => r.gold_files.some((g) => existsSync(join(pkgDir, '..', g))));
	const root = mkdtempSync(join(tmpdir(), `gmem-builtin-loc-${pkg}-`));
	mkdirSync(root, { recursive: true });
	cpSync(pkgDir, join(root, pkg), { recursive: true });
	const { store, done } = await tempStore();
	try {
		const t: Thresholds = DEFAULT_THRESHOLDS;
		const started = performance.now();
		const [r] = await new Indexer({ db: store.db, embedder, thresholds: t, excludes: [] }).indexFolders([root]);
		const indexMs = Math.round(performance.now() - started);
		const per: Record<string, Record<string, number[]>> = {};
		for (const arm of ['fts', 'hybrid'] as const) {
			per[arm] = { r1: [], r5: [], r10: [] };
			for (const row of present) {
				const out = await hybridSearch(store.db, row.query, {
					tier: 'workspace',
					workspaceIds: [workspaceId(root)],
					k: 10,
					files: true,
					arm,
					embedder: arm === 'fts' ? null : embedder,
					cosineFloor: null,
					thresholds: t,
				});
				const files = out.hits.map((h) => h.path ?? '');
				for (const k of [1, 5, 10]) per[arm]![`r${k}`]!.push(hitAt(files, row.gold_files, k));
			}
		}
		const summary = (arm: string) => Object.fromEntries(Object.entries(per[arm]!).map(([k, v]) => [k, bootstrap(v)]));
		const diff = Object.fromEntries(
			['r1', 'r5', 'r10'].map((k) => [k, bootstrap(minus(per.hybrid![k]!, per.fts![k]!))]),
		);
		return {
			task: `swe-lite-loc-${pkg}`,
			rows: present.length,
			skipped_rows: rows.length - present.length,
			files: r?.files_indexed,
			chunks: r?.chunks,
			index_ms: indexMs,
			embedder: embedder.id,
			fts: summary('fts'),
			hybrid: summary('hybrid'),
			hybrid_minus_fts: diff,
		};
	} finally {
		await done();
		rmSync(root, { recursive: true, force: true });
	}
}

/** Load time, and texts/s over the CoSQA snippets in batches of 64 (median of 5 passes). */
async function speed(shared: string, dir: string | undefined): Promise<unknown> {
	const t0 = performance.now();
	const embedder = await loadBuiltinEmbedder(dir);
	const loadMs = Math.round(performance.now() - t0);
	const texts = readFileSync(join(shared, 'eval/corpus/cosqa_corpus.jsonl'), 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((l) => (JSON.parse(l) as { code: string }).code);
	const queries = readFileSync(join(shared, 'eval/dev/cosqa_dev.jsonl'), 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((l) => (JSON.parse(l) as { query: string }).query);
	const rate = async (xs: string[]) => {
		const runs: number[] = [];
		for (let r = 0; r < 5; r++) {
			const s = performance.now();
			for (let i = 0; i < xs.length; i += 64) await embedder.embed(xs.slice(i, i + 64));
			runs.push(xs.length / ((performance.now() - s) / 1000));
		}
		return Math.round(runs.sort((a, b) => a - b)[2]!);
	};
	const chars = Math.round(texts.reduce((s, t) => s + t.length, 0) / texts.length);
	return {
		task: 'speed',
		load_ms: loadMs,
		code_texts: texts.length,
		mean_chars: chars,
		code_texts_per_s: await rate(texts),
		query_texts_per_s: await rate(queries),
		rss_mb: Math.round(process.memoryUsage().rss / 1e6),
	};
}

async function main(): Promise<void> {
	const { values, positionals } = parseArgs({
		allowPositionals: true,
		options: {
			package: { type: 'string', default: 'django' },
			limit: { type: 'string' },
			shared: { type: 'string', default: process.env.GMEM_SHARED ?? '../shared' },
			model: { type: 'string' },
		},
	});
	const shared = resolve(values.shared);
	const task = positionals[0];
	if (task === 'speed')
		return void process.stdout.write(JSON.stringify(await speed(shared, values.model), null, 1) + '\n');
	const embedder = await loadBuiltinEmbedder(values.model);
	const out =
		task === 'cosqa'
			? await cosqa(shared, embedder, values.limit ? Number(values.limit) : undefined, values.model)
			: task === 'loc'
				? await localise(shared, embedder, values.package)
				: null;
	if (!out) throw new Error('usage: evalBuiltin.ts cosqa|loc|speed [--package django] [--limit N] [--model DIR]');
	process.stdout.write(JSON.stringify(out, null, 1) + '\n');
}

main().catch((e: unknown) => {
	process.stderr.write(`evalBuiltin: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
	process.exitCode = 1;
});

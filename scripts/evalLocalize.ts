/**
 * File localisation from real bug reports (SWE-bench Lite, ../shared/eval/dev/swe_lite_loc_dev.jsonl):
 * index a Debian package's source with the workspace indexer, search each issue text, and report
 * file-level recall@1/5/10 (first k distinct files). Rows whose gold file is missing from the
 * installed version are skipped and counted. Nothing from ../shared is copied.
 *
 *   npx tsx scripts/evalLocalize.ts --db /tmp/loc-db [--package django] [--max-lines 60,30] [--arm fts|hybrid] [--embedder builtin|hashing] [--reranker builtin] [--py-only]
 *
 * Three file rankings are reported per run: `best` = best chunk per file (what `gmem search --files`
 * prints); `agg` = the sum of a file's top chunk RRF scores with decaying weights (1, 1/2, 1/4), so
 * a file matched by several chunks outranks one matched by a single lucky chunk; `agg_bm25` = the
 * same over the full-text arm's raw BM25 scores. With `--reranker builtin` (hybrid arm) two more: `pool` =
 * best chunk per file of the fused pool the chat path would rerank (k·arm_fetch_multiplier per arm),
 * and `rerank` = the same pool reordered by the shipped linear reranker, so the two differ only by it.
 */
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../src/core/thresholds';
import { Indexer } from '../src/indexing/indexer';
import { buildWorkerEmbedder } from '../src/indexing/workerEmbedder';
import type { Embedder } from '../src/models/embedder';
import { HashingEmbedder } from '../src/models/hashingEmbedder';
import { codeTokens } from '../src/retrieval/codeTokens';
import { LinearReranker } from '../src/models/linearReranker';
import { rerankCandidates } from '../src/retrieval/evidence/rerankStage';
import { bestPerFile, hybridSearch, type ArmMode, type SearchHit } from '../src/retrieval/hybridSearch';
import { workspaceId } from '../src/store/location';
import { openStore } from '../src/store/openStore';
import type { Queryable } from '../src/store/queryable';

interface LocRow {
	id: string;
	repo: string;
	debian_package: string;
	query: string;
	gold_files: string[];
}

/** Recall@k of the gold files among the first k distinct files. */
export function recallAt(
	ranked: readonly string[][],
	gold: readonly string[][],
	ks: readonly number[],
): Record<string, number> {
	const out: Record<string, number> = {};
	for (const k of ks) {
		const hits = ranked.filter((files, i) => files.slice(0, k).some((f) => gold[i].includes(f))).length;
		out[`r${k}`] = Math.round((hits / Math.max(1, ranked.length)) * 1000) / 1000;
	}
	return out;
}

/**
 * Files ranked by the decayed sum of their best chunk scores (1, 1/2, 1/4 for the top three).
 * `score` picks the chunk score: the fused RRF score, or the full-text arm's raw BM25 score
 * (RRF flattens score gaps, so its sums mostly count chunks).
 */
export function aggregateFiles(hits: readonly SearchHit[], score: (h: SearchHit) => number = (h) => h.fused): string[] {
	const perFile = new Map<string, number[]>();
	for (const h of hits) if (h.path) perFile.set(h.path, [...(perFile.get(h.path) ?? []), score(h)]);
	const total = (xs: number[]) =>
		xs
			.sort((a, b) => b - a)
			.slice(0, 3)
			.reduce((s, x, i) => s + x / 2 ** i, 0);
	return [...perFile.entries()]
		.map(([p, xs]) => [p, total(xs)] as const)
		.sort((a, b) => b[1] - a[1])
		.map(([p]) => p);
}

async function indexCopy(
	db: Queryable,
	pkgDir: string,
	root: string,
	t: Thresholds,
	pyOnly: boolean,
	embedder: Embedder | null,
): Promise<void> {
	if (!existsSync(root)) {
		mkdirSync(root, { recursive: true });
		cpSync(pkgDir, join(root, pkgDir.split('/').pop()!), { recursive: true });
	}
	const indexer = new Indexer({ db, embedder, thresholds: t, excludes: pyOnly ? ['*.*', '!*.py'] : [] });
	const started = Date.now();
	const [r] = await indexer.indexFolders([root]);
	process.stderr.write(
		`indexed ${root}: ${r.files_indexed} new, ${r.files_unchanged} unchanged, ${r.chunks} chunks in ${Date.now() - started} ms\n`,
	);
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			db: { type: 'string', default: '/tmp/gmem-loc-db' },
			package: { type: 'string', default: 'django' },
			'max-lines': { type: 'string', default: '60' },
			arm: { type: 'string', default: 'fts' },
			// The vector arm's embedder: the shipped built-in model, or the hashing TEST embedder.
			embedder: { type: 'string', default: 'hashing' },
			// Overrides of the thresholds table for an experiment, e.g. "rrf_weight_vector=0.5,rrf_k=30".
			set: { type: 'string', default: '' },
			'py-only': { type: 'boolean', default: false },
			work: { type: 'string', default: '/tmp/gmem-loc' },
			shared: { type: 'string', default: process.env.GMEM_SHARED ?? '../shared' },
			// Writes each query's chunk hits (path, fused score) as JSON Lines, to study aggregations offline.
			dump: { type: 'string' },
			reranker: { type: 'string', default: 'none' },
			// Rerank long reports too (the product passes them through): to measure what that rule saves.
			'rerank-long': { type: 'boolean', default: false },
		},
	});
	const rows = readFileSync(join(resolve(values.shared), 'eval/dev/swe_lite_loc_dev.jsonl'), 'utf8')
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l) as LocRow)
		.filter((r) => r.repo.split('/')[1] === values.package);
	const pkgDir = join('/usr/lib/python3/dist-packages', values.package);
	const present = rows.filter((r) => r.gold_files.some((g) => existsSync(join(pkgDir, '..', g))));
	const opened = await openStore({ kind: 'folder', dir: resolve(values.db) });
	if (!opened.ok) throw new Error(opened.error.message);
	const db = opened.value.db;
	const arm = values.arm as ArmMode;
	for (const lines of values['max-lines'].split(',').map(Number)) {
		const overrides = Object.fromEntries(
			values.set
				.split(',')
				.filter(Boolean)
				.map((kv) => [kv.split('=')[0], Number(kv.split('=')[1])]),
		);
		const t: Thresholds = {
			...DEFAULT_THRESHOLDS,
			index_chunk_max_lines: lines,
			index_chunk_max_chars: lines * 40,
			...overrides,
		};
		const root = join(values.work, `${values.package}-L${lines}${values['py-only'] ? '-py' : ''}`);
		const embedder =
			arm === 'fts'
				? null
				: values.embedder === 'builtin'
					? await buildWorkerEmbedder({ kind: 'builtin' })
					: new HashingEmbedder(384, codeTokens);
		await indexCopy(db, pkgDir, root, t, values['py-only'], embedder);
		const best: string[][] = [];
		const agg: string[][] = [];
		const aggBm25: string[][] = [];
		const pool: string[][] = [];
		const reranked: string[][] = [];
		const reranker = values.reranker === 'builtin' && arm === 'hybrid' ? new LinearReranker() : null;
		const ms: number[] = [];
		for (const r of present) {
			const started = performance.now();
			const opts = {
				tier: 'workspace' as const,
				workspaceIds: [workspaceId(root)],
				arm,
				embedder,
				cosineFloor: null,
				thresholds: t,
			};
			best.push((await hybridSearch(db, r.query, { ...opts, k: 10, files: true })).hits.map((h) => h.path!));
			const chunkHits = (await hybridSearch(db, r.query, { ...opts, k: 200 })).hits;
			agg.push(aggregateFiles(chunkHits));
			aggBm25.push(aggregateFiles(chunkHits, (h) => h.arms.fts?.score ?? 0));
			if (reranker) {
				// The pool the chat path reranks for k = 10: m·k chunks per arm, fused.
				const m = t.arm_fetch_multiplier;
				const poolHits = (
					await hybridSearch(db, r.query, { ...opts, k: 10 * m, thresholds: { ...t, arm_fetch_multiplier: 1 } })
				).hits;
				pool.push(
					bestPerFile(poolHits)
						.map((h) => h.path!)
						.slice(0, 10),
				);
				const out = await rerankCandidates(
					reranker,
					r.query,
					poolHits.map((hit) => ({ hit, tier: 'workspace' as const, text: hit.content })),
					{
						maxCandidates: t.rerank_max_candidates,
						embedderId: embedder?.id ?? null,
						longQueryWords: values['rerank-long'] ? Infinity : t.rrf_long_query_words,
					},
				);
				reranked.push(
					bestPerFile(out.candidates.map((c) => c.hit))
						.map((h) => h.path!)
						.slice(0, 10),
				);
			}
			if (values.dump)
				appendFileSync(
					values.dump,
					JSON.stringify({
						id: r.id,
						max_lines: lines,
						gold: r.gold_files,
						hits: chunkHits.map((h) => [h.path, h.fused, h.symbol, h.arms.fts?.score ?? null]),
					}) + '\n',
				);
			ms.push(performance.now() - started);
		}
		const gold = present.map((r) => r.gold_files);
		const p50 = [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)];
		const result = {
			package: values.package,
			max_lines: lines,
			arm,
			embedder: embedder?.id ?? null,
			set: values.set,
			py_only: values['py-only'],
			rows: present.length,
			skipped_rows: rows.length - present.length,
			best: recallAt(best, gold, [1, 5, 10]),
			agg: recallAt(agg, gold, [1, 5, 10]),
			agg_bm25: recallAt(aggBm25, gold, [1, 5, 10]),
			...(reranker ? { pool: recallAt(pool, gold, [1, 5, 10]), rerank: recallAt(reranked, gold, [1, 5, 10]) } : {}),
			p50_ms_both_searches: Math.round(p50),
		};
		process.stdout.write(JSON.stringify(result) + '\n');
	}
	await opened.value.close();
}

main().catch((e: unknown) => {
	process.stderr.write(`evalLocalize: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
	process.exitCode = 1;
});

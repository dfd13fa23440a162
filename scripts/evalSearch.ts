/**
 * Code-search quality on CoSQA dev (../shared/eval): MRR@10 and recall@1/5/10 per arm, on any
 * store (`--db PATH|URL`). Ingests the corpus first when the store's workspace tier is empty.
 * The data stays in ../shared (its C-UDA licence binds every copy); nothing is copied.
 *
 *   npx tsx scripts/evalSearch.ts --db /tmp/cosqa --arms fts,vector,hybrid [--fts-ranking bm25,ts_rank_cd] [--config FILE]
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveThresholds } from '../src/core/thresholds';
import { HashingEmbedder } from '../src/models/hashingEmbedder';
import { codeTokens } from '../src/retrieval/codeTokens';
import { hybridSearch, type ArmMode, type FtsRanking } from '../src/retrieval/hybridSearch';
import { ingestDocuments } from '../src/retrieval/ingest';
import { resolveStoreLocation, workspaceId } from '../src/store/location';
import { openStore } from '../src/store/openStore';

interface DevRow {
	id: string;
	query: string;
	relevant: string[];
}

function readJsonl<T>(file: string): T[] {
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l) as T);
}

/** Ranking metrics over queries with one or more relevant ids. */
export function metrics(ranked: readonly string[][], relevant: readonly string[][]): Record<string, number> {
	let mrr = 0;
	const recall = { 1: 0, 5: 0, 10: 0 } as Record<number, number>;
	ranked.forEach((ids, i) => {
		const rel = new Set(relevant[i]);
		const first = ids.slice(0, 10).findIndex((id) => rel.has(id));
		if (first >= 0) mrr += 1 / (first + 1);
		for (const k of [1, 5, 10]) if (ids.slice(0, k).some((id) => rel.has(id))) recall[k]++;
	});
	const n = ranked.length || 1;
	return { mrr10: mrr / n, r1: recall[1] / n, r5: recall[5] / n, r10: recall[10] / n };
}

function percentile(xs: number[], p: number): number {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			db: { type: 'string' },
			arms: { type: 'string', default: 'fts,vector,hybrid' },
			'fts-ranking': { type: 'string', default: 'bm25' },
			shared: { type: 'string', default: process.env.GMEM_SHARED ?? '../shared' },
			config: { type: 'string' },
		},
	});
	const thresholds = resolveThresholds(values.config ? JSON.parse(readFileSync(values.config, 'utf8')) : undefined);
	if (!thresholds.ok) throw new Error(thresholds.error.join('; '));
	const shared = resolve(values.shared);
	const store = await openStore(resolveStoreLocation(values.db, process.env, process.cwd()));
	if (!store.ok) throw store.error;
	const db = store.value.db;
	const embedder = new HashingEmbedder(384, codeTokens);
	const ws = workspaceId(join(shared, 'eval'));
	const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM documents WHERE workspace_id = $1`, [
		ws,
	]);
	if (n === 0) {
		const corpus = readJsonl<{ id: string; code: string }>(join(shared, 'eval/corpus/cosqa_corpus.jsonl'));
		const t = performance.now();
		const s = await ingestDocuments(
			db,
			corpus.map((r) => ({ id: r.id, text: r.code })),
			{ workspaceId: ws, tier: 'workspace' },
			embedder,
		);
		process.stderr.write(
			`ingested ${s.documents} documents, ${s.chunks} chunks in ${Math.round(performance.now() - t)} ms\n`,
		);
	}
	const dev = readJsonl<DevRow>(join(shared, 'eval/dev/cosqa_dev.jsonl'));
	const out: Record<string, unknown>[] = [];
	for (const ranking of values['fts-ranking'].split(',') as FtsRanking[]) {
		for (const arm of values.arms.split(',') as ArmMode[]) {
			const ranked: string[][] = [];
			const ms: number[] = [];
			for (const q of dev) {
				const t = performance.now();
				const r = await hybridSearch(db, q.query, {
					tier: 'workspace',
					workspaceIds: [ws],
					k: 10,
					arm,
					embedder: arm === 'fts' ? null : embedder,
					cosineFloor: null,
					thresholds: thresholds.value,
					ftsRanking: ranking,
				});
				ms.push(performance.now() - t);
				ranked.push(r.hits.map((h) => h.id));
			}
			const m = metrics(
				ranked,
				dev.map((d) => d.relevant),
			);
			const row = {
				engine: store.value.engine,
				arm,
				fts_ranking: arm === 'vector' ? null : ranking,
				queries: dev.length,
				...m,
				p50_ms: percentile(ms, 50),
				p95_ms: percentile(ms, 95),
			};
			out.push(row);
			process.stdout.write(JSON.stringify(row) + '\n');
		}
	}
	await store.value.close();
}

main().catch((e: unknown) => {
	process.stderr.write(`evalSearch: ${e instanceof Error ? e.message : String(e)}\n`);
	process.exitCode = 1;
});

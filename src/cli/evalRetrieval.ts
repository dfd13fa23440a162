/**
 * `gmem eval retrieval --corpus C.jsonl --queries Q.jsonl`: ingests the corpus into a fresh store
 * and measures each retrieval arm — full-text, vector, hybrid (RRF), hybrid + rerank — with
 * MRR@10, recall@1/5/10, nDCG@10 and per-query latency p50/p95. Rankings are per document: the
 * chunks of one document count once, at the rank of the best of them.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { latencySummary } from '../core/metrics/percentiles';
import { summarizeRankings, type RankedQuery, type RankingSummary } from '../core/metrics/rankingMetrics';
import type { Thresholds } from '../core/thresholds';
import type { Embedder } from '../models/embedder';
import type { Reranker } from '../models/reranker';
import type { SearchHit } from '../retrieval/hybridSearch';
import { retrieveWorkspace } from '../retrieval/workspaceRetrieval';
import type { ChunkTier } from '../store/chunkRepo';
import { parseCommandArgs } from './args';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { cliRetrievalConfig, openCliReranker } from './cliModels';
import { loadConfig } from './commands/gateCommand';
import { fixed3, formatTable, JSON_OUT_OPTION, emitEvaluation } from './evalShared';
import { readCorpus, withCorpusStore, type EvalStore } from './evalStore';
import { readLines } from './jsonl';
import { openCliEmbedder, positiveInt } from './storeCli';

const USAGE = `usage: gmem eval retrieval --corpus CORPUS.jsonl --queries QUERIES.jsonl [--text-field text]
                   [--k 10] [--limit N] [--tier workspace|research] [--embedder builtin|minilm|hashing|none]
                   [--reranker builtin|minilm|none] [--config FILE] [--db PATH|URL] [--json] [--json-out FILE]

Ingests the corpus into a fresh store (a temporary PGlite folder, removed afterwards; or --db with
a fresh workspace id, deleted afterwards) and reports MRR@10, recall@1/5/10, nDCG@10 and latency
p50/p95 per arm: fts, vector, hybrid (RRF), hybrid+rerank.
Corpus rows as gmem ingest takes them {"id", "text" (or --text-field), "path"?}; query rows
{"id", "query", "relevant": [corpus ids]}. --limit N evaluates the first N queries only.
Every row runs the chat turn's retrieval (the same function, pool sizes and floors as gmem search
and the extension): hybrid+rerank is the product with its defaults, the other rows switch one part
off (fts / vector: one arm; hybrid: no reranker, pool k).
--embedder (default builtin, or $GMEM_EMBEDDER) is the vector arm's model: builtin is the shipped
static code-search model (models/builtin/, training/MODEL_CARD.md). hashing is a TEST embedder,
NOT semantic, for tests only: its vector and hybrid rows measure shared words, not meaning.
--reranker (default builtin) is the model of the hybrid+rerank row: builtin is the shipped linear
reranker (models/builtin/reranker.json; it reorders only with the embedder it was trained for),
minilm the ms-marco cross-encoder (from $GMEM_MODEL_DIR or the cache, never downloaded here). Its
pool is the chat path's: min(rerank_max_candidates, k × arm_fetch_multiplier) fused chunks, each
arm fetching pool × arm_fetch_multiplier. A reranker that does not run makes the row a
passthrough (fused order) and says why.`;

export const ARMS = ['fts', 'vector', 'hybrid', 'hybrid+rerank'] as const;
export type EvalArm = (typeof ARMS)[number];

/** One labelled query. */
export interface RetrievalQuery {
	id: string;
	query: string;
	relevant: string[];
}

/** What one arm measured, or why it was not measured. */
export interface ArmResult {
	arm: EvalArm;
	measured: boolean;
	/** Plain-words caveat for this row (not semantic, passthrough, not measured because …). */
	note: string | null;
	metrics: RankingSummary | null;
	latency_ms: { p50: number; p95: number } | null;
}

/** The `--json` object. */
export interface RetrievalEvaluation {
	corpus: string;
	queries_file: string;
	store: string;
	embedder: { id: string; semantic: boolean } | null;
	reranker: string;
	documents: number;
	chunks: number;
	ingest_ms: number;
	k: number;
	arms: ArmResult[];
}

/** Parses one query row; throws with the field named. */
export function parseQueryRow(text: string): RetrievalQuery {
	const o = JSON.parse(text) as Record<string, unknown>;
	if (!o || typeof o !== 'object') throw new Error('a row must be a JSON object');
	if (typeof o.id !== 'string' && typeof o.id !== 'number') throw new Error('"id" must be a string');
	if (typeof o.query !== 'string') throw new Error('"query" must be a string');
	if (!Array.isArray(o.relevant) || !o.relevant.every((x) => typeof x === 'string'))
		throw new Error('"relevant" must be an array of corpus ids');
	return { id: String(o.id), query: o.query, relevant: o.relevant as string[] };
}

async function readQueries(path: string, limit: number | undefined, io: CliIo): Promise<RetrievalQuery[]> {
	const out: RetrievalQuery[] = [];
	for await (const { line, text } of readLines(path, io)) {
		try {
			out.push(parseQueryRow(text));
		} catch (e) {
			throw new UsageError(`queries line ${line}: ${e instanceof Error ? e.message : String(e)}`);
		}
		if (limit !== undefined && out.length >= limit) break;
	}
	return out;
}

/** Distinct document ids in rank order (a document's best chunk decides its rank). */
export function documentRanking(hits: readonly Pick<SearchHit, 'id'>[]): string[] {
	return [...new Set(hits.map((h) => h.id))];
}

/** What one arm's search needs. */
interface ArmRun {
	es: EvalStore;
	tier: ChunkTier;
	k: number;
	embedder: Embedder | null;
	t: Thresholds;
	/** The tier's floor (MiniLM cosine units), as the product applies it. */
	floor: number;
	reranker: Reranker | null;
	/** Per rerank status, how many queries, and the first passthrough reason seen. */
	rerankSeen: { model: number; passthrough: number; reason: string | null };
}

/**
 * One query through one arm: document ids best first. Every row is the product's retrieval
 * (retrieveWorkspace) with one part switched off: fts / vector run one arm, hybrid runs without a
 * reranker (pool k), hybrid+rerank is the product's default — the chat path's pool, floor and rerank.
 */
async function searchArm(arm: EvalArm, query: string, r: ArmRun): Promise<string[]> {
	const rerank = arm === 'hybrid+rerank';
	const out = await retrieveWorkspace(r.es.store.db, {
		query,
		tier: r.tier,
		workspaceIds: [r.es.workspaceId],
		k: r.k,
		arm: rerank ? 'hybrid' : arm,
		embedder: r.embedder,
		reranker: rerank ? r.reranker : null,
		floor: r.floor,
		thresholds: r.t,
	});
	if (rerank && r.reranker) {
		if (out.rerank.status === 'model') r.rerankSeen.model++;
		else {
			r.rerankSeen.passthrough++;
			r.rerankSeen.reason ??= out.rerank.reason ?? 'passthrough';
		}
	}
	// A document's best chunk decides its rank; the whole pool is ranked so k documents remain.
	return documentRanking(out.ranked).slice(0, r.k);
}

/** What the rerank row's reranker did, in words. */
function rerankNote(r: ArmRun): string {
	const s = r.rerankSeen;
	if (!r.reranker) return 'passthrough: no reranker (--reranker none), order = hybrid';
	if (s.model === 0) return `passthrough: ${s.reason ?? 'the reranker did not run'}, order = hybrid`;
	const some = s.passthrough ? `; passthrough on ${s.passthrough} (${s.reason})` : '';
	return `${r.reranker.id} reranked ${s.model} queries${some}`;
}

function unmeasured(arm: EvalArm, note: string): ArmResult {
	return { arm, measured: false, note, metrics: null, latency_ms: null };
}

/** Runs every query through one arm, timing each search. */
async function measureArm(arm: EvalArm, queries: readonly RetrievalQuery[], r: ArmRun, io: CliIo): Promise<ArmResult> {
	if (arm !== 'fts' && !r.embedder) return unmeasured(arm, 'not measured: no embedder (--embedder none)');
	const ranked: RankedQuery[] = [];
	const ms: number[] = [];
	for (const [i, q] of queries.entries()) {
		const started = performance.now();
		const ids = await searchArm(arm, q.query, r);
		ms.push(performance.now() - started);
		ranked.push({ ranked: ids, relevant: q.relevant });
		if ((i + 1) % 50 === 0) io.stderr(`\rgmem eval retrieval: ${arm} ${i + 1}/${queries.length}`);
	}
	io.stderr('\n');
	const notes: string[] = [];
	if (arm !== 'fts' && r.embedder && !r.embedder.semantic)
		notes.push(`${r.embedder.id}: hashing TEST embedder, NOT semantic`);
	if (arm === 'hybrid+rerank') notes.push(rerankNote(r));
	const round = (x: number) => Math.round(x * 10) / 10;
	const lat = latencySummary(ms);
	return {
		arm,
		measured: true,
		note: notes.join('; ') || null,
		metrics: summarizeRankings(ranked),
		latency_ms: { p50: round(lat.p50), p95: round(lat.p95) },
	};
}

/** The human-readable table. */
export function formatRetrievalTable(e: RetrievalEvaluation): string {
	const emb = e.embedder
		? `${e.embedder.id}${e.embedder.semantic ? '' : ' (hashing TEST embedder, NOT semantic)'}`
		: 'none (lexical only)';
	const head =
		`retrieval: ${e.queries_file} over ${e.corpus}\n` +
		`${e.documents} documents (${e.chunks} chunks) ingested in ${e.ingest_ms} ms into a ${e.store}\n` +
		`embedder: ${emb}; reranker: ${e.reranker}; k ${e.k}; rankings per document\n\n`;
	const rows = e.arms.map((a) => {
		const m = a.metrics;
		const nums = m
			? [m.mrr_at_10, m.recall_at_1, m.recall_at_5, m.recall_at_10, m.ndcg_at_10].map((x) => fixed3(x))
			: ['-', '-', '-', '-', '-'];
		const lat = a.latency_ms ? [a.latency_ms.p50.toFixed(1), a.latency_ms.p95.toFixed(1)] : ['-', '-'];
		return [a.arm, String(m?.queries ?? '-'), ...nums, ...lat, a.note ?? ''];
	});
	return (
		head + formatTable(['arm', 'queries', 'MRR@10', 'R@1', 'R@5', 'R@10', 'nDCG@10', 'p50 ms', 'p95 ms', 'note'], rows)
	);
}

const OPTIONS = {
	corpus: { type: 'string' },
	queries: { type: 'string' },
	'text-field': { type: 'string', default: 'text' },
	k: { type: 'string' },
	limit: { type: 'string' },
	tier: { type: 'string', default: 'workspace' },
	embedder: { type: 'string' },
	reranker: { type: 'string' },
	config: { type: 'string' },
	db: { type: 'string' },
	json: { type: 'boolean', default: false },
	...JSON_OUT_OPTION,
} as const;

function inputPath(value: string | undefined, flag: string, io: CliIo): string {
	if (!value) throw new UsageError(`${flag} FILE is required\n\n${USAGE}`);
	const path = resolve(io.cwd, value);
	if (!existsSync(path)) throw new UsageError(`cannot read ${value}: no such file`);
	return path;
}

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values, positionals } = parseCommandArgs(argv, OPTIONS);
	if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"\n\n${USAGE}`);
	const corpusPath = inputPath(values.corpus, '--corpus', io);
	const queriesPath = inputPath(values.queries, '--queries', io);
	const tier = values.tier as ChunkTier;
	if (tier !== 'workspace' && tier !== 'research') throw new UsageError('--tier must be workspace or research');
	const k = positiveInt(values.k, '--k', 10);
	const limit = values.limit === undefined ? undefined : positiveInt(values.limit, '--limit', 1);
	const t = loadConfig(values.config, io.cwd);
	const docs = (await readCorpus(corpusPath, values['text-field'], io)).map((d) => ({ ...d, tier }));
	const queries = await readQueries(queriesPath, limit, io);
	if (queries.length === 0) throw new UsageError(`${values.queries}: no queries`);
	// The product's configuration (the CLI's and the extension's defaults) unless a flag says otherwise.
	const config = cliRetrievalConfig({ embedder: values.embedder, reranker: values.reranker, k, tier }, io.env, t);
	const rr = openCliReranker(config.reranker, io);
	const { embedder, dispose } = await openCliEmbedder(config.embedder, io);
	await withCorpusStore(values.db, docs, embedder, io, async (es, ingest) => {
		const armRun: ArmRun = {
			es,
			tier,
			k,
			embedder,
			t,
			floor: config.floor,
			reranker: rr.reranker,
			rerankSeen: { model: 0, passthrough: 0, reason: null },
		};
		const arms: ArmResult[] = [];
		for (const arm of ARMS) arms.push(await measureArm(arm, queries, armRun, io));
		const e: RetrievalEvaluation = {
			corpus: values.corpus!,
			queries_file: values.queries!,
			store: es.where,
			embedder: embedder ? { id: embedder.id, semantic: embedder.semantic } : null,
			reranker: rr.reranker ? rr.reranker.id : 'none (passthrough)',
			documents: docs.length,
			chunks: ingest.chunks,
			ingest_ms: ingest.ms,
			k,
			arms,
		};
		emitEvaluation(e, formatRetrievalTable, values, io);
	}).finally(async () => {
		await dispose();
		await rr.dispose();
	});
	return EXIT_OK;
}

/** The `retrieval` subcommand of `gmem eval`. */
export const retrievalEval: CliCommand = {
	name: 'retrieval',
	summary: 'retrieval quality per arm (fts, vector, hybrid, hybrid+rerank): MRR@10, recall@1/5/10, nDCG@10, latency',
	usage: USAGE,
	run,
};

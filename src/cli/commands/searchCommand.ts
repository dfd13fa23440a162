/**
 * `gmem search QUERY | --queries FILE.jsonl [--k 10] [--tier workspace] [--arm hybrid|fts|vector]
 * [--no-rerank] [--files] [--workspace DIR]`: hybrid search with every arm's rank and raw score
 * (CONTRACT.md hit shape). Batch rows `{"id", "query"}` give one JSON line each.
 */
import type { Thresholds } from '../../core/thresholds';
import type { Embedder } from '../../models/embedder';
import { LinearReranker } from '../../models/linearReranker';
import type { Reranker } from '../../models/reranker';
import { calibratedFloor } from '../../retrieval/evidence/calibration';
import { rerankCandidates } from '../../retrieval/evidence/rerankStage';
import { bestPerFile, hybridSearch, type ArmMode, type SearchHit, type SearchOptions } from '../../retrieval/hybridSearch';
import type { ChunkTier } from '../../store/chunkRepo';
import type { Queryable } from '../../store/queryable';
import { parseCommandArgs } from '../args';
import { EXIT_OK, EXIT_USAGE, UsageError, type CliCommand, type CliIo } from '../cliTypes';
import { readLines } from '../jsonl';
import { loadConfig } from './gateCommand';
import { openCliEmbedder, positiveInt, STORE_OPTIONS, withStore, workspaceOf } from '../storeCli';

const USAGE = `usage: gmem search QUERY | --queries FILE.jsonl [--k 10] [--tier workspace|research]
                   [--arm hybrid|fts|vector] [--files] [--no-rerank] [--workspace DIR]
                   [--embedder builtin|minilm|hashing|none] [--fts-ranking bm25|ts_rank_cd] [--floor X]
                   [--config FILE] [--db PATH|URL] [--scope NAME] [--json]

Searches the store: full-text (BM25 over a GIN index) + vector (pgvector HNSW cosine), fused by RRF.
  --queries FILE  JSON Lines {"id", "query"}; prints one JSON line per query
  --files         best chunk per file, k files
  --workspace DIR only that workspace (default: every workspace in the store)
  --floor X       cosine floor for the vector arm (default: the tier's floor, calibrated per embedder)
  --no-rerank     keep the fused order. Otherwise the hybrid arm's pool (k × arm_fetch_multiplier
                  per arm) is reordered by the built-in linear reranker, as in chat, when its
                  embedder (builtin) made the vectors; "rerank" is then {score, status} on each
                  hit, else null and a note says why
Output (--json): {"id", "query", "searched_query", "ms", "hits": [...], "notes": [...]}`;

const OPTIONS = {
	...STORE_OPTIONS,
	queries: { type: 'string' },
	k: { type: 'string' },
	tier: { type: 'string', default: 'workspace' },
	arm: { type: 'string', default: 'hybrid' },
	files: { type: 'boolean', default: false },
	'no-rerank': { type: 'boolean', default: false },
	workspace: { type: 'string' },
	embedder: { type: 'string' },
	'fts-ranking': { type: 'string' },
	floor: { type: 'string' },
	config: { type: 'string' },
} as const;

/** The vector floor for a tier in the embedder's units (null: none, e.g. the hashing embedder). */
function tierFloor(tier: ChunkTier, embedder: Embedder | null, t: Thresholds, override: string | undefined): number | null {
	if (override !== undefined) {
		const f = Number(override);
		if (!Number.isFinite(f) || f < -1 || f > 1) throw new UsageError('--floor must be a number in -1..1');
		return f;
	}
	if (!embedder) return null;
	return calibratedFloor(embedder, tier === 'research' ? t.floor_research : t.floor_workspace_question).floor;
}

function printHuman(io: CliIo, query: string, hits: readonly SearchHit[], ms: number): void {
	io.stdout(`${hits.length} hits for "${query}" (${ms} ms)\n`);
	hits.forEach((h, i) => {
		const where = h.path ? `${h.path}:${h.start_line}-${h.end_line}` : h.id;
		const arm = (a: { rank: number; score: number } | null) => (a ? `#${a.rank} ${a.score.toFixed(3)}` : '-');
		io.stdout(`${String(i + 1).padStart(3)}. ${where}${h.symbol ? ` (${h.symbol})` : ''}  fused ${h.fused.toFixed(4)}  fts ${arm(h.arms.fts)}  vector ${arm(h.arms.vector)}\n`);
	});
}

/**
 * Hybrid search, then (with a reranker) the chat path's rerank: the pool of k × arm_fetch_multiplier
 * chunks per arm (× 3 for --files, as the plain file search fetches), reordered, cut to k (files).
 * A reranker that passes through leaves the plain search's answer and a note.
 */
async function searchRanked(db: Queryable, query: string, opts: SearchOptions, reranker: Reranker | null) {
	if (!reranker || opts.arm !== 'hybrid') return hybridSearch(db, query, opts);
	const t = opts.thresholds;
	const pool = await hybridSearch(db, query, { ...opts, files: false, k: opts.k * t.arm_fetch_multiplier * (opts.files ? 3 : 1), thresholds: { ...t, arm_fetch_multiplier: 1 } });
	const rr = await rerankCandidates(
		reranker,
		query,
		pool.hits.map((hit) => ({ hit, tier: opts.tier, text: hit.content })),
		{ maxCandidates: t.rerank_max_candidates, embedderId: opts.embedder?.id ?? null, longQueryWords: t.rrf_long_query_words },
	);
	if (rr.step.status !== 'model') return { ...(await hybridSearch(db, query, opts)), notes: [...pool.notes, `rerank: passthrough (${rr.step.reason ?? 'no model ran'})`] };
	const ordered = rr.candidates.map((c) => ({ ...c.hit, content: c.text }));
	const hits = (opts.files ? bestPerFile(ordered) : ordered).slice(0, opts.k);
	return { ...pool, hits, notes: [...pool.notes, `reranked ${rr.step.pairs} candidates with ${reranker.id} (order only)`] };
}

async function searchOne(db: Queryable, id: string | null, query: string, opts: SearchOptions, reranker: Reranker | null, io: CliIo, json: boolean): Promise<string[]> {
	const started = performance.now();
	const out = await searchRanked(db, query, opts, reranker);
	const ms = Math.round((performance.now() - started) * 10) / 10;
	const hits = out.hits.map(({ content: _content, ...hit }) => hit);
	if (json) io.stdout(JSON.stringify({ id, query, searched_query: out.searched_query, ms, hits, fts_query: out.fts_query, notes: out.notes }) + '\n');
	else printHuman(io, query, out.hits, ms);
	return out.notes;
}

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values, positionals } = parseCommandArgs(argv, OPTIONS);
	if (values.queries ? positionals.length > 0 : positionals.length !== 1) throw new UsageError('give one QUERY or --queries FILE.jsonl');
	const tier = values.tier as ChunkTier;
	if (tier !== 'workspace' && tier !== 'research') throw new UsageError('--tier must be workspace or research');
	const arm = values.arm as ArmMode;
	if (!['hybrid', 'fts', 'vector'].includes(arm)) throw new UsageError('--arm must be hybrid, fts or vector');
	const ranking = values['fts-ranking'];
	if (ranking !== undefined && ranking !== 'bm25' && ranking !== 'ts_rank_cd') throw new UsageError('--fts-ranking must be bm25 or ts_rank_cd');
	const thresholds = loadConfig(values.config, io.cwd);
	tierFloor(tier, null, thresholds, values.floor); // a bad --floor is a usage error before any model starts
	const { embedder, dispose } = arm === 'fts' ? { embedder: null, dispose: async () => undefined } : await openCliEmbedder(values.embedder, io);
	const opts: SearchOptions = {
		tier,
		workspaceIds: values.workspace ? [workspaceOf(values.workspace, io)] : null,
		k: positiveInt(values.k, '--k', 10),
		arm,
		files: values.files,
		embedder,
		cosineFloor: tierFloor(tier, embedder, thresholds, values.floor),
		thresholds,
		...(ranking ? { ftsRanking: ranking } : {}),
	};
	const reranker = values['no-rerank'] || arm !== 'hybrid' ? null : await builtinReranker(embedder, io);
	let bad = 0;
	await withStore(values, io, async (store) => {
		if (!values.queries) {
			const notes = await searchOne(store.db, null, positionals[0], opts, reranker, io, values.json);
			for (const n of notes) io.stderr(`gmem search: ${n}\n`);
			return;
		}
		for await (const { line, text } of readLines(values.queries, io)) {
			const row = parseQueryRow(text);
			if (typeof row === 'string') {
				bad++;
				io.stdout(JSON.stringify({ id: null, line, error: row }) + '\n');
				continue;
			}
			await searchOne(store.db, row.id, row.query, opts, reranker, io, true);
		}
	}).finally(dispose);
	return bad ? EXIT_USAGE : EXIT_OK;
}

/**
 * The shipped linear reranker (no download) when the vectors are the embedder it was fitted for;
 * otherwise null, and stderr says once why the fused order stays.
 */
async function builtinReranker(embedder: Embedder | null, io: CliIo): Promise<Reranker | null> {
	const reranker = new LinearReranker();
	try {
		const { embedder: fitted } = await reranker.weights();
		if (embedder?.id === fitted) return reranker;
		io.stderr(`gmem search: no rerank: ${reranker.id} reorders ${fitted} vectors and ${embedder ? `the vector arm uses ${embedder.id}` : 'no vector arm runs'} (--embedder builtin to rerank)\n`);
	} catch (e) {
		io.stderr(`gmem search: no rerank: ${e instanceof Error ? e.message : String(e)}\n`);
	}
	return null;
}

function parseQueryRow(text: string): { id: string | null; query: string } | string {
	try {
		const v = JSON.parse(text) as { id?: unknown; query?: unknown };
		if (typeof v?.query !== 'string') return '"query" must be a string';
		return { id: v.id === undefined || v.id === null ? null : String(v.id), query: v.query };
	} catch (e) {
		return `not JSON: ${e instanceof Error ? e.message : String(e)}`;
	}
}

export const searchCommand: CliCommand = { name: 'search', summary: 'Hybrid search over the store (full-text + vector, RRF)', usage: USAGE, run };

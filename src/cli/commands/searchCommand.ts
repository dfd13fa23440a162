/**
 * `gmem search QUERY | --queries FILE.jsonl [--k 10] [--tier workspace] [--arm hybrid|fts|vector]
 * [--no-rerank] [--files] [--workspace DIR]`: the chat turn's workspace retrieval (retrieveWorkspace)
 * with every arm's rank and raw score (CONTRACT.md hit shape), so its defaults reproduce the chat
 * path. Batch rows `{"id", "query"}` give one JSON line each.
 */
import { basename, resolve } from 'node:path';
import type { RerankStep } from '../../core/trace';
import type { Reranker } from '../../models/reranker';
import type { ArmMode, SearchHit } from '../../retrieval/hybridSearch';
import { retrieveWorkspace, type WorkspaceRetrievalInput } from '../../retrieval/workspaceRetrieval';
import type { ChunkTier } from '../../store/chunkRepo';
import type { Queryable } from '../../store/queryable';
import { parseCommandArgs } from '../args';
import { EXIT_OK, EXIT_USAGE, UsageError, type CliCommand, type CliIo } from '../cliTypes';
import { readLines } from '../jsonl';
import { cliRetrievalConfig, openCliReranker, SEARCH_DEFAULT_K } from '../cliModels';
import { loadConfig } from './gateCommand';
import { openCliEmbedder, positiveInt, STORE_OPTIONS, withStore, workspaceOf } from '../storeCli';

const USAGE = `usage: gmem search QUERY | --queries FILE.jsonl [--k 10] [--tier workspace|research]
                   [--arm hybrid|fts|vector] [--files] [--no-rerank] [--workspace DIR]
                   [--embedder builtin|minilm|hashing|none] [--reranker builtin|minilm|none]
                   [--fts-ranking bm25|ts_rank_cd] [--floor X] [--config FILE] [--db PATH|URL] [--scope NAME] [--json]

Searches the store through the chat turn's own retrieval (src/retrieval/workspaceRetrieval.ts):
full-text (BM25) + vector (pgvector HNSW cosine), fused by RRF, reranked, with the chat path's
pool sizes and floors. With no flags it runs the product's defaults: the built-in embedder and the
built-in reranker ($GMEM_EMBEDDER names another embedder).
  --queries FILE  JSON Lines {"id", "query"}; prints one JSON line per query
  --files         best chunk per file, k files
  --workspace DIR only that workspace (default: every workspace in the store)
  --embedder X    builtin (default), minilm (from the cache or $GMEM_MODEL_DIR), none (lexical-only),
                  hashing (a TEST embedder, not semantic: for tests only)
  --floor X       cosine floor for the vector arm (default: the tier's floor, calibrated per embedder)
  --no-rerank     keep the fused order (same as --reranker none; the pool is then k). Otherwise the
                  pool of min(rerank_max_candidates, k × arm_fetch_multiplier) fused chunks is
                  reordered; "rerank" is {score, status} on each hit. The built-in reranker reorders
                  only the built-in embedder's vectors: with another it passes through and a note says why
Output (--json): {"id", "query", "searched_query", "ms", "hits": [...], "fts_query", "notes": [...]}`;

const OPTIONS = {
	...STORE_OPTIONS,
	queries: { type: 'string' },
	k: { type: 'string' },
	tier: { type: 'string', default: 'workspace' },
	arm: { type: 'string', default: 'hybrid' },
	files: { type: 'boolean', default: false },
	'no-rerank': { type: 'boolean', default: false },
	reranker: { type: 'string' },
	workspace: { type: 'string' },
	embedder: { type: 'string' },
	'fts-ranking': { type: 'string' },
	floor: { type: 'string' },
	config: { type: 'string' },
} as const;

/** `--floor X`: a cosine floor in the embedder's own units, replacing the tier's calibrated floor. */
function floorOverride(value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const f = Number(value);
	if (!Number.isFinite(f) || f < -1 || f > 1) throw new UsageError('--floor must be a number in -1..1');
	return f;
}

function printHuman(io: CliIo, query: string, hits: readonly SearchHit[], ms: number): void {
	io.stdout(`${hits.length} hits for "${query}" (${ms} ms)\n`);
	hits.forEach((h, i) => {
		const where = h.path ? `${h.path}:${h.start_line}-${h.end_line}` : h.id;
		const arm = (a: { rank: number; score: number } | null) => (a ? `#${a.rank} ${a.score.toFixed(3)}` : '-');
		io.stdout(
			`${String(i + 1).padStart(3)}. ${where}${h.symbol ? ` (${h.symbol})` : ''}  fused ${h.fused.toFixed(4)}  fts ${arm(h.arms.fts)}  vector ${arm(h.arms.vector)}\n`,
		);
	});
}

/** What every query of one run shares. */
interface SearchRun {
	db: Queryable;
	input: Omit<WorkspaceRetrievalInput, 'query'>;
	io: CliIo;
	json: boolean;
}

async function searchOne(run: SearchRun, id: string | null, query: string): Promise<string[]> {
	const started = performance.now();
	const out = await retrieveWorkspace(run.db, { ...run.input, query });
	const ms = Math.round((performance.now() - started) * 10) / 10;
	const hits = out.hits.map(({ content: _content, ...hit }) => hit);
	const notes = [...out.notes, rerankNote(out.rerank, run.input.reranker)].filter((n): n is string => n !== null);
	if (run.json)
		run.io.stdout(
			JSON.stringify({ id, query, searched_query: out.searched_query, ms, hits, fts_query: out.fts_query, notes }) +
				'\n',
		);
	else printHuman(run.io, query, out.hits, ms);
	return notes;
}

/** What the rerank stage did, in words (null: nothing worth saying, no reranker was asked for). */
function rerankNote(step: RerankStep, reranker: Reranker | null): string | null {
	if (!reranker) return null;
	if (step.status === 'model')
		return `reranked ${step.pairs} candidates with ${reranker.id}${step.order_only ? ' (order only)' : ''}`;
	return `no rerank: ${step.reason ?? 'passthrough'} (fused order kept)`;
}

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values, positionals } = parseCommandArgs(argv, OPTIONS);
	if (values.queries ? positionals.length > 0 : positionals.length !== 1)
		throw new UsageError('give one QUERY or --queries FILE.jsonl');
	const tier = values.tier as ChunkTier;
	if (tier !== 'workspace' && tier !== 'research') throw new UsageError('--tier must be workspace or research');
	const arm = values.arm as ArmMode;
	if (!['hybrid', 'fts', 'vector'].includes(arm)) throw new UsageError('--arm must be hybrid, fts or vector');
	const ranking = values['fts-ranking'];
	if (ranking !== undefined && ranking !== 'bm25' && ranking !== 'ts_rank_cd')
		throw new UsageError('--fts-ranking must be bm25 or ts_rank_cd');
	const thresholds = loadConfig(values.config, io.cwd);
	const override = floorOverride(values.floor); // a bad --floor is a usage error before any model starts
	// The product's configuration unless a flag says otherwise: the chat path's models, pool sizes and floor.
	const config = cliRetrievalConfig(
		{
			embedder: values.embedder,
			reranker: values.reranker,
			'no-rerank': values['no-rerank'],
			k: positiveInt(values.k, '--k', SEARCH_DEFAULT_K),
			arm,
			tier,
			files: values.files,
		},
		io.env,
		thresholds,
	);
	const { embedder, dispose } =
		arm === 'fts' ? { embedder: null, dispose: async () => undefined } : await openCliEmbedder(config.embedder, io);
	const rr =
		arm === 'hybrid' ? openCliReranker(config.reranker, io) : { reranker: null, dispose: async () => undefined };
	const input: Omit<WorkspaceRetrievalInput, 'query'> = {
		tier,
		workspaceIds: values.workspace ? [workspaceOf(values.workspace, io)] : null,
		...(values.workspace ? { folderNames: [basename(resolve(io.cwd, values.workspace))] } : {}),
		k: config.k,
		arm,
		embedder,
		reranker: rr.reranker,
		floor: config.floor,
		...(override === undefined ? {} : { cosineFloor: override }),
		files: values.files,
		thresholds,
		...(ranking ? { ftsRanking: ranking } : {}),
	};
	let bad = 0;
	await withStore(values, io, async (store) => {
		const run: SearchRun = { db: store.db, input, io, json: values.json };
		if (!values.queries) {
			const notes = await searchOne(run, null, positionals[0]);
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
			await searchOne(run, row.id, row.query);
		}
	}).finally(async () => {
		await dispose();
		await rr.dispose();
	});
	return bad ? EXIT_USAGE : EXIT_OK;
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

export const searchCommand: CliCommand = {
	name: 'search',
	summary: 'Hybrid search over the store (full-text + vector, RRF)',
	usage: USAGE,
	run,
};

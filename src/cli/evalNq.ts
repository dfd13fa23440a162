/**
 * `gmem eval nq` (issue 15 item 6): natural questions about real repositories → file recall.
 * Each repository is indexed into a fresh store by the product's indexer with the product's
 * models (built-in embedder and reranker unless a flag says otherwise), every question runs
 * through the chat path's own retrieval (`retrieveWorkspace`, files mode, k = 10), and file
 * R@1 / R@5 / R@10 (a gold file among the first k distinct files) are reported per style and per
 * repository next to plain file-level BM25 over the same files (fileBm25.ts). One question that
 * fails is that question's miss, reported with its error; the run goes on.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { latencySummary } from '../core/metrics/percentiles';
import type { Thresholds } from '../core/thresholds';
import { Indexer } from '../indexing/indexer';
import type { Embedder } from '../models/embedder';
import type { Reranker } from '../models/reranker';
import { retrievalTuning, type RetrievalTuning } from '../retrieval/retrievalThresholds';
import { retrieveWorkspace } from '../retrieval/workspaceRetrieval';
import { parseCommandArgs } from './args';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { cliRetrievalConfig, openCliReranker } from './cliModels';
import { loadConfig } from './commands/gateCommand';
import { emitEvaluation, fixed3, formatTable, JSON_OUT_OPTION } from './evalShared';
import { openEvalStore, openKeptStore, type EvalStore } from './evalStore';
import { FileBm25 } from './fileBm25';
import { nqSplit, type NqSplit } from './nqSplit';
import { openCliEmbedder } from './storeCli';
import { checkTuningNames } from './tuningNames';

const USAGE = `usage: gmem eval nq QUESTIONS.jsonl... [--split dev|test|all] [--root REPO=DIR]... [--repo REPO]...
                   [--embedder builtin|minilm|hashing|none] [--reranker builtin|minilm|none] [--config FILE]
                   [--tuning FILE] [--db PATH|URL] [--index-cache DIR] [--json] [--json-out FILE]

Rows: {"id", "repo", "style", "question" (or "query"), "gold_files": [repo-relative paths]}.
Each repository is indexed from its root (defaults: the Debian packages of test/fixtures/eval/nq/README.md;
--root REPO=DIR adds or overrides one) into a fresh store, then every question is searched as the chat
turn searches (files mode). --split keeps the dev or test half (SHA-256 of the id, 50/50 per repository).
--index-cache DIR: keep each repository's index in DIR/REPO (PGlite) and re-index only changed files next time
(delete DIR when chunking or the embedder changes).
--tuning FILE: a JSON object of retrieval-tuning names (src/core/thresholds/retrievalTuningThresholds.ts, e.g. the
new parts switched off); any other name is an error (core thresholds such as fts_max_query_terms go in --config FILE).
--chunks: chunks mode, as the chat turn's evidence is ranked: a hit is a gold file's chunk among the first k chunks.
`;

/** Where the Debian packages put the repositories of the natural-question set. */
export const NQ_DEFAULT_ROOTS: Readonly<Record<string, string>> = {
	click: '/usr/lib/python3/dist-packages/click',
	jinja2: '/usr/lib/python3/dist-packages/jinja2',
	cobra: '/usr/share/gocode/src/github.com/spf13/cobra',
	express: '/usr/share/nodejs/express',
	serde_json: '/usr/share/cargo/registry/serde_json-1.0.87',
};

/** One question. */
export interface NqQuestion {
	id: string;
	repo: string;
	style: string;
	question: string;
	gold_files: string[];
}

/** Recall at 1, 5 and 10 over some questions. */
export interface NqRecall {
	n: number;
	r1: number;
	r5: number;
	r10: number;
}

/** One question's outcome. */
export interface NqResult {
	id: string;
	repo: string;
	style: string;
	/** 1-based rank of the first gold file, null when not in the first 10. */
	rank: number | null;
	bm25_rank: number | null;
	top: string[];
	ms: number;
	error?: string;
}

/** What `gmem eval nq` prints as JSON. */
export interface NqEvaluation {
	files: string[];
	/** files (distinct files ranked, the default) or chunks (--chunks); absent: files. */
	mode?: 'files' | 'chunks';
	split: NqSplit | 'all';
	embedder: string;
	reranker: string;
	/** The --tuning file (or "defaults"). */
	tuning_label: string;
	tuning: RetrievalTuning;
	repos: { repo: string; root: string; files: number; chunks: number; index_ms: number }[];
	product: { by_style: Record<string, NqRecall>; by_repo: Record<string, NqRecall>; all: NqRecall };
	bm25: { by_style: Record<string, NqRecall>; by_repo: Record<string, NqRecall>; all: NqRecall };
	latency_ms: { p50: number; p95: number };
	errors: number;
	results: NqResult[];
}

/** Parses question rows; a bad row is an input error (it defines what is measured). */
export function parseNqRows(text: string, source: string): NqQuestion[] {
	return text
		.split('\n')
		.map((l, i) => ({ l: l.trim(), i }))
		.filter((x) => x.l)
		.map(({ l, i }) => {
			let o: Record<string, unknown>;
			try {
				o = JSON.parse(l) as Record<string, unknown>;
			} catch (e) {
				throw new UsageError(`${source}:${i + 1}: not JSON (${(e as Error).message})`);
			}
			const question = o.question ?? o.query;
			const gold = o.gold_files;
			if (
				typeof o.id !== 'string' ||
				typeof o.repo !== 'string' ||
				typeof question !== 'string' ||
				!Array.isArray(gold) ||
				!gold.every((g) => typeof g === 'string')
			) {
				throw new UsageError(`${source}:${i + 1}: needs "id", "repo", "question" (or "query") and "gold_files"`);
			}
			return {
				id: o.id,
				repo: o.repo,
				style: typeof o.style === 'string' ? o.style : 'all',
				question,
				gold_files: gold as string[],
			};
		});
}

/** 1-based rank of the first gold file in `ranked`, or null. */
export function goldRank(ranked: readonly string[], gold: readonly string[]): number | null {
	const i = ranked.findIndex((p) => gold.includes(p));
	return i < 0 ? null : i + 1;
}

/** Recall at 1/5/10 of ranks (null = a miss). */
export function recallOf(ranks: readonly (number | null)[]): NqRecall {
	const at = (k: number) => (ranks.length ? ranks.filter((r) => r !== null && r <= k).length / ranks.length : 0);
	return { n: ranks.length, r1: at(1), r5: at(5), r10: at(10) };
}

function groupRecall(
	results: readonly NqResult[],
	key: (r: NqResult) => string,
	rank: (r: NqResult) => number | null,
): Record<string, NqRecall> {
	const groups = new Map<string, (number | null)[]>();
	for (const r of results) groups.set(key(r), [...(groups.get(key(r)) ?? []), rank(r)]);
	return Object.fromEntries([...groups.entries()].sort().map(([k, v]) => [k, recallOf(v)]));
}

interface RepoRun {
	es: EvalStore;
	embedder: Embedder | null;
	reranker: Reranker | null;
	t: Thresholds;
	tuning: RetrievalTuning;
	floor: number;
	/** Chunks mode (--chunks): rank chunks, not distinct files. */
	chunks?: boolean;
	/** The repository folder's own name (the workspace folder's, as the chat turn passes it). */
	folderName: string;
}

async function indexRepo(
	run: RepoRun,
	root: string,
): Promise<{ files: { path: string; text: string }[]; chunks: number; ms: number }> {
	const started = performance.now();
	const indexer = new Indexer({
		db: run.es.store.db,
		embedder: run.embedder,
		thresholds: run.t,
		workspaceIdOf: () => run.es.workspaceId,
	});
	const [r] = await indexer.indexFolders([root]);
	// The baseline ranks exactly the files the product indexed.
	const paths = await run.es.store.db.query<{ path: string }>(
		'SELECT DISTINCT path FROM chunks WHERE workspace_id = $1 AND tier = $2 AND path IS NOT NULL ORDER BY path',
		[run.es.workspaceId, 'workspace'],
	);
	const files = paths.map((p) => ({ path: p.path, text: readFileSync(resolve(root, p.path), 'utf8') }));
	// What the store holds, not what this run wrote (a kept index writes only what changed).
	const [held] = await run.es.store.db.query<{ n: number }>(
		'SELECT count(*)::int AS n FROM chunks WHERE workspace_id = $1 AND tier = $2',
		[run.es.workspaceId, 'workspace'],
	);
	return { files, chunks: held?.n ?? r.chunks, ms: Math.round(performance.now() - started) };
}

async function askOne(run: RepoRun, q: NqQuestion, bm25: FileBm25): Promise<NqResult> {
	const bm25Rank = goldRank(bm25.rank(q.question).slice(0, 10), q.gold_files);
	const started = performance.now();
	try {
		const out = await retrieveWorkspace(run.es.store.db, {
			query: q.question,
			workspaceIds: [run.es.workspaceId],
			folderNames: [run.folderName],
			k: 10,
			files: !run.chunks,
			embedder: run.embedder,
			reranker: run.reranker,
			floor: run.floor,
			thresholds: run.t,
			tuning: run.tuning,
		});
		const top = out.hits.map((h) => h.path ?? h.id);
		return {
			id: q.id,
			repo: q.repo,
			style: q.style,
			rank: goldRank(top, q.gold_files),
			bm25_rank: bm25Rank,
			top: top.slice(0, 5),
			ms: performance.now() - started,
		};
	} catch (e) {
		return {
			id: q.id,
			repo: q.repo,
			style: q.style,
			rank: null,
			bm25_rank: bm25Rank,
			top: [],
			ms: performance.now() - started,
			error: e instanceof Error ? e.message : String(e),
		};
	}
}

/** Summarises one tuning's results. */
export function evaluation(
	results: readonly NqResult[],
	o: Pick<NqEvaluation, 'files' | 'split' | 'tuning' | 'embedder' | 'reranker' | 'repos' | 'mode'> & {
		tuningLabel: string;
	},
): NqEvaluation {
	const lat = latencySummary(results.map((r) => r.ms));
	const summary = (rank: (r: NqResult) => number | null) => ({
		by_style: groupRecall(results, (r) => r.style, rank),
		by_repo: groupRecall(results, (r) => r.repo, rank),
		all: recallOf(results.map(rank)),
	});
	return {
		files: o.files,
		...(o.mode ? { mode: o.mode } : {}),
		split: o.split,
		embedder: o.embedder,
		reranker: o.reranker,
		tuning_label: o.tuningLabel,
		tuning: o.tuning,
		repos: o.repos,
		product: summary((r) => r.rank),
		bm25: summary((r) => r.bm25_rank),
		latency_ms: { p50: Math.round(lat.p50 * 10) / 10, p95: Math.round(lat.p95 * 10) / 10 },
		errors: results.filter((r) => r.error).length,
		results: [...results],
	};
}

/** The table: per style and per repository, product vs BM25. */
export function formatNqTable(e: NqEvaluation): string {
	const row = (name: string, p: NqRecall, b: NqRecall) => [
		name,
		String(p.n),
		fixed3(p.r1),
		fixed3(p.r5),
		fixed3(p.r10),
		fixed3(b.r1),
		fixed3(b.r5),
		fixed3(b.r10),
	];
	const cols = ['', 'n', 'R@1', 'R@5', 'R@10', 'BM25 R@1', 'BM25 R@5', 'BM25 R@10'];
	const head =
		`natural questions: ${e.files.join(', ')} (split ${e.split})\n` +
		`embedder ${e.embedder}; reranker ${e.reranker}; tuning ${e.tuning_label}; ${e.mode ?? 'files'} mode, k 10; ${e.errors} question(s) failed\n` +
		e.repos
			.map((r) => `  ${r.repo}: ${r.root}, ${r.files} files, ${r.chunks} chunks, indexed in ${r.index_ms} ms`)
			.join('\n') +
		`\nsearch p50 ${e.latency_ms.p50.toFixed(1)} ms, p95 ${e.latency_ms.p95.toFixed(1)} ms\n\n`;
	const styles = Object.keys(e.product.by_style).map((s) => row(s, e.product.by_style[s], e.bm25.by_style[s]));
	const repos = Object.keys(e.product.by_repo).map((s) => row(s, e.product.by_repo[s], e.bm25.by_repo[s]));
	return (
		head +
		formatTable(['style', ...cols.slice(1)], [...styles, row('all', e.product.all, e.bm25.all)]) +
		'\n\n' +
		formatTable(['repo', ...cols.slice(1)], repos) +
		'\n'
	);
}

const OPTIONS = {
	split: { type: 'string', default: 'all' },
	root: { type: 'string', multiple: true },
	repo: { type: 'string', multiple: true },
	embedder: { type: 'string' },
	reranker: { type: 'string' },
	config: { type: 'string' },
	tuning: { type: 'string', multiple: true },
	db: { type: 'string' },
	'index-cache': { type: 'string' },
	chunks: { type: 'boolean', default: false },
	json: { type: 'boolean', default: false },
	...JSON_OUT_OPTION,
} as const;

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values, positionals } = parseCommandArgs(argv, OPTIONS);
	if (!positionals.length) throw new UsageError(`QUESTIONS.jsonl is required\n\n${USAGE}`);
	const split = values.split as NqSplit | 'all';
	if (!['dev', 'test', 'all'].includes(split)) throw new UsageError('--split must be dev, test or all');
	const roots: Record<string, string> = { ...NQ_DEFAULT_ROOTS };
	for (const r of values.root ?? []) {
		const at = r.indexOf('=');
		if (at < 1) throw new UsageError(`--root must be REPO=DIR (got "${r}")`);
		roots[r.slice(0, at)] = resolve(io.cwd, r.slice(at + 1));
	}
	let all: NqQuestion[] = [];
	for (const f of positionals) {
		let text: string;
		try {
			text = readFileSync(resolve(io.cwd, f), 'utf8');
		} catch (e) {
			throw new UsageError(`cannot read ${f}: ${(e as Error).message}`);
		}
		all = all.concat(parseNqRows(text, f));
	}
	const splits = nqSplit(all);
	const questions = all.filter(
		(q) => (split === 'all' || splits.get(q.id) === split) && (!values.repo?.length || values.repo.includes(q.repo)),
	);
	const repos = [...new Set(questions.map((q) => q.repo))];
	for (const r of repos) if (!roots[r]) throw new UsageError(`no root for repository "${r}": pass --root ${r}=DIR`);
	const t = loadConfig(values.config, io.cwd);
	// Several --tuning files share one index per repository: one evaluation per file, in order.
	const tunings: { label: string; tuning: RetrievalTuning }[] = [];
	for (const file of values.tuning?.length ? values.tuning : [null]) {
		let raw: Record<string, unknown> | null = null;
		if (file) {
			try {
				raw = JSON.parse(readFileSync(resolve(io.cwd, file), 'utf8')) as Record<string, unknown>;
			} catch (e) {
				throw new UsageError(`cannot read --tuning ${file}: ${(e as Error).message}`);
			}
			checkTuningNames(raw, file, t);
		}
		try {
			tunings.push({ label: file ?? 'defaults', tuning: retrievalTuning({ ...t, ...raw }) });
		} catch (e) {
			throw new UsageError(`--tuning ${file}: ${(e as Error).message}`);
		}
	}
	const config = cliRetrievalConfig(
		{ embedder: values.embedder, reranker: values.reranker, k: 10, files: true },
		io.env,
		t,
	);
	const rr = openCliReranker(config.reranker, io);
	const { embedder, dispose } = await openCliEmbedder(config.embedder, io);
	const results: NqResult[][] = tunings.map(() => []);
	const repoRows: NqEvaluation['repos'] = [];
	try {
		for (const repo of repos) {
			const cache = values['index-cache'];
			const es = cache
				? await openKeptStore(join(resolve(io.cwd, cache), repo), io)
				: await openEvalStore(values.db, io);
			try {
				const runCtx: RepoRun = {
					es,
					embedder,
					reranker: rr.reranker,
					t,
					tuning: tunings[0].tuning,
					floor: config.floor,
					chunks: values.chunks,
					folderName: basename(roots[repo]),
				};
				io.stderr(`gmem eval nq: indexing ${repo} (${roots[repo]})\n`);
				const idx = await indexRepo(runCtx, roots[repo]);
				repoRows.push({ repo, root: roots[repo], files: idx.files.length, chunks: idx.chunks, index_ms: idx.ms });
				const bm25 = new FileBm25(idx.files);
				for (const [i, tu] of tunings.entries()) {
					for (const q of questions.filter((x) => x.repo === repo))
						results[i].push(await askOne({ ...runCtx, tuning: tu.tuning }, q, bm25));
				}
			} finally {
				await es.dispose();
			}
		}
	} finally {
		await dispose();
		await rr.dispose();
	}
	const lines: string[] = [];
	for (const [i, tu] of tunings.entries()) {
		const e = evaluation(results[i], {
			files: positionals,
			split,
			tuningLabel: tu.label,
			tuning: tu.tuning,
			embedder: embedder ? embedder.id : 'none (lexical only)',
			reranker: rr.reranker ? rr.reranker.id : 'none',
			repos: repoRows,
			mode: values.chunks ? 'chunks' : 'files',
		});
		for (const r of results[i]) if (r.error) io.stderr(`gmem eval nq: ${r.id} failed: ${r.error}\n`);
		emitEvaluation(e, formatNqTable, { json: values.json }, io);
		lines.push(JSON.stringify(e));
	}
	// One JSON line per --tuning file.
	if (values['json-out']) writeFileSync(resolve(io.cwd, values['json-out']), lines.join('\n') + '\n');
	return EXIT_OK;
}

/** The `nq` subcommand of `gmem eval`. */
export const nqEval: CliCommand = {
	name: 'nq',
	summary:
		'natural questions about real repositories → file R@1/R@5/R@10 per style and repository, next to file-level BM25',
	usage: USAGE,
	run,
};

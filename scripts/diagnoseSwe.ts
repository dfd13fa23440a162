/**
 * Miss classes of long bug reports in files mode (issue 15, SWE-bench Lite swe-dev): for every
 * report the product misses at `--at` (default 10), where the gold file is in the final file list,
 * the reranked pool, the file-level BM25 arm and plain whole-file BM25, whether the report names
 * its module / path or a name it defines, and what kind of file outranks it (tests, docs,
 * __init__, big files). Reads the kept indexes of `gmem eval nq --index-cache DIR` (never
 * indexes; never run it beside an eval on the same cache: one process per PGlite store).
 *
 * With `--arms` it also prints the gold file's rank in each arm's own file list (full-text chunk
 * arm, vector arm, symbol arm, named files) from one hybrid search with a wide pool.
 *
 *   npx tsx scripts/diagnoseSwe.ts ROWS.jsonl --cache DIR --root REPO=DIR... [--at 10] [--all] [--repo R] [--id ID...] [--arms]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveThresholds } from '../src/core/thresholds';
import { loadBuiltinEmbedder } from '../src/models/builtinEmbedder';
import { LinearReranker } from '../src/models/linearReranker';
import { goldRank, parseNqRows } from '../src/cli/evalNq';
import { FileBm25 } from '../src/cli/fileBm25';
import { decayedSum } from '../src/retrieval/fileRanking';
import { fileKind } from '../src/retrieval/filePriors';
import { bestPerFile, hybridSearch, type SearchHit } from '../src/retrieval/hybridSearch';
import { mentionedFileHits } from '../src/retrieval/mentionedFileArm';
import { turnWant } from '../src/retrieval/filePriors';
import { retrievalTuning } from '../src/retrieval/retrievalThresholds';
import { fileBm25Chunks } from '../src/retrieval/fileBm25Arm';
import { retrieveWorkspace } from '../src/retrieval/workspaceRetrieval';
import { resolveStoreLocation, workspaceId } from '../src/store/location';
import { openStore } from '../src/store/openStore';

const { values, positionals } = parseArgs({
	allowPositionals: true,
	options: {
		cache: { type: 'string' },
		root: { type: 'string', multiple: true },
		repo: { type: 'string', multiple: true },
		at: { type: 'string', default: '10' },
		all: { type: 'boolean', default: false },
		tuning: { type: 'string' },
		id: { type: 'string', multiple: true },
		arms: { type: 'boolean', default: false },
	},
});
if (!values.cache || !positionals.length)
	throw new Error('usage: diagnoseSwe.ts ROWS.jsonl --cache DIR --root REPO=DIR');
const roots = Object.fromEntries(
	(values.root ?? []).map((r) => [r.slice(0, r.indexOf('=')), r.slice(r.indexOf('=') + 1)]),
);
const at = Number(values.at);
const rows = positionals
	.flatMap((f) => parseNqRows(readFileSync(f, 'utf8'), f))
	.filter((q) => !values.repo?.length || values.repo.includes(q.repo))
	.filter((q) => !values.id?.length || values.id.includes(q.id));

const kindOf = (p: string) => (/(^|\/)__init__\.py$/.test(p) ? 'init' : fileKind(p));

async function main(): Promise<void> {
	const t = resolveThresholds(undefined);
	if (!t.ok) throw new Error(t.error.join('; '));
	const th = t.value;
	const tuning = retrievalTuning({ ...th, ...(values.tuning ? JSON.parse(values.tuning) : {}) });
	const embedder = await loadBuiltinEmbedder();
	const reranker = new LinearReranker();
	const rk = (list: readonly string[], gold: readonly string[]) => goldRank(list, gold) ?? '-';
	const classes = new Map<string, number>();
	const bump = (c: string) => classes.set(c, (classes.get(c) ?? 0) + 1);
	let n = 0;
	for (const repo of [...new Set(rows.map((q) => q.repo))]) {
		const dir = join(values.cache ?? '', repo);
		const opened = await openStore(resolveStoreLocation(dir, process.env, process.cwd()));
		if (!opened.ok) throw new Error(opened.error.message);
		const db = opened.value.db;
		const ws = workspaceId(dir);
		const paths = await db.query<{ path: string }>(
			'SELECT DISTINCT path FROM chunks WHERE workspace_id = $1 AND path IS NOT NULL ORDER BY path',
			[ws],
		);
		const texts = new Map(paths.map((p) => [p.path, readFileSync(join(roots[repo], p.path), 'utf8')]));
		const bm25 = new FileBm25([...texts].map(([path, text]) => ({ path, text })));
		const defs = await db.query<{ path: string; name: string }>(
			'SELECT DISTINCT path, name FROM symbols WHERE workspace_id = $1 AND tier = $2',
			[ws, 'workspace'],
		);
		for (const q of rows.filter((x) => x.repo === repo)) {
			n++;
			const out = await retrieveWorkspace(db, {
				query: q.question,
				workspaceIds: [ws],
				k: 10,
				files: true,
				embedder,
				reranker,
				floor: th.floor_workspace_question,
				thresholds: th,
				tuning,
			});
			const final = out.hits.map((h) => h.path ?? h.id);
			const r = goldRank(final, q.gold_files);
			if (!values.all && r !== null && r <= at) continue;
			const gold = q.gold_files[0];
			const pool = bestPerFile(out.ranked).map((h) => h.path ?? h.id);
			const scope = { tier: 'workspace' as const, workspaceIds: [ws] };
			const arm = await fileBm25Chunks(db, scope, out.searched_query, th, tuning);
			const sums = new Map<string, number[]>();
			for (const h of arm) if (h.path) sums.set(h.path, [...(sums.get(h.path) ?? []), h.arms.fts?.score ?? 0]);
			const byArm = [...sums]
				.map(([p, s]) => ({ p, s: decayedSum(s, tuning.file_agg_decay, tuning.file_agg_chunks) }))
				.sort((a, b) => b.s - a.s)
				.map((x) => x.p);
			const plain = bm25.rank(q.question);
			const mod = gold
				.replace(/\.py$/, '')
				.replace(/\/__init__$/, '')
				.split('/');
			const modDotted = mod.join('.');
			const namesPath =
				q.question.includes(modDotted) || q.question.includes(gold) || q.question.includes(mod.slice(-2).join('.'));
			const goldDefs = defs.filter((d) => d.path === gold).map((d) => d.name.split('.').pop() ?? d.name);
			const named = [
				...new Set(
					goldDefs.filter((d) => d.length > 3 && new RegExp(`\\b${d.replace(/\$/g, '\\$')}\\b`).test(q.question)),
				),
			];
			const above = final.slice(0, 10).filter((p) => !q.gold_files.includes(p));
			const aboveKinds = above.map(kindOf);
			const cls =
				r === null && goldRank(pool, q.gold_files) === null && goldRank(byArm, q.gold_files) === null
					? 'unreached'
					: 'outranked';
			bump(cls);
			if (namesPath) bump('names its module/path');
			if (named.length) bump('names a def of gold');
			let armLine = '';
			if (values.arms) {
				// Each arm's own order, as files (best chunk each): one hybrid search, no pool cut.
				const wide = await hybridSearch(db, q.question, {
					...scope,
					k: 100000,
					fetch: 300,
					arm: 'hybrid',
					embedder,
					cosineFloor: null,
					thresholds: th,
					tuning,
					want: turnWant(q.question),
					pinDefinitions: 0,
				});
				const byArm2 = (key: (h: SearchHit) => number | undefined) =>
					bestPerFile(wide.hits.filter((h) => key(h) !== undefined).sort((a, b) => (key(a) ?? 0) - (key(b) ?? 0))).map(
						(h) => h.path ?? h.id,
					);
				const fts = byArm2((h) => h.arms.fts?.rank);
				const vec = byArm2((h) => h.arms.vector?.rank);
				const sym = byArm2((h) => h.symbol_match?.rank);
				const symDef = byArm2((h) => (h.symbol_match?.match === 'definition' ? h.symbol_match.rank : undefined));
				const named = await mentionedFileHits(db, scope, q.question, tuning.file_mention_max);
				const nm = named.files.map((f) => f.path);
				armLine =
					`\n   arms: fts ${rk(fts, q.gold_files)}/${fts.length} vector ${rk(vec, q.gold_files)}/${vec.length}` +
					` symbol ${rk(sym, q.gold_files)}/${sym.length} (defs ${rk(symDef, q.gold_files)}/${symDef.length})` +
					` fused ${rk(
						bestPerFile(wide.hits).map((h) => h.path ?? h.id),
						q.gold_files,
					)} named ${rk(nm, q.gold_files)}/${nm.length} [${nm.slice(0, 4).join(' ')}]`;
			}
			console.log(
				`${q.id} gold ${gold} (${kindOf(gold)}, ${(texts.get(gold)?.length ?? 0) >> 10} KB) final ${r ?? '-'} pool ${rk(pool, q.gold_files)}/${pool.length}` +
					` fileArm ${rk(byArm, q.gold_files)}/${byArm.length} plainBM25 ${rk(plain, q.gold_files)} words ${q.question.split(/\s+/).length}` +
					`\n   names path: ${namesPath}; names defs of gold: ${named.slice(0, 8).join(', ') || '-'}` +
					`\n   above: ${above.map((p, i) => `${p}[${aboveKinds[i]}]`).join(', ')}` +
					armLine +
					`\n   searched: ${out.searched_query.slice(0, 300)}`,
			);
		}
		await opened.value.close();
	}
	console.log(`${n} rows; classes: ${[...classes].map(([k, v]) => `${k} ${v}`).join(', ')}`);
}

void main().then(
	() => process.exit(0),
	(e: unknown) => {
		console.error(e);
		process.exit(1);
	},
);

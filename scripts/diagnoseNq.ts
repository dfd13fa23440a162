/**
 * Per-arm diagnosis of the natural-question eval (issue 15): for every question the product misses
 * at `--at` (default 5), the gold file's rank in each arm — full-text chunks, vector chunks, the
 * symbol arm, the fused list before the rerank, the reranked chunk pool (best chunk per file), the
 * BM25-sum of the pool and of the file-level BM25 arm (fileBm25Arm.ts), the final file list —
 * and plain whole-file BM25, with the files that beat it. Reads the indexes `gmem eval nq --index-cache DIR` kept (run that first: this script never
 * indexes), so it measures exactly the product's stores. Give it dev.jsonl (--split re-splits a combined file).
 *
 *   npx tsx scripts/diagnoseNq.ts test/fixtures/eval/nq/dev.jsonl --cache /tmp/retq-cache/nq [--at 5] [--all] [--root REPO=DIR ...]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveThresholds } from '../src/core/thresholds';
import { loadBuiltinEmbedder } from '../src/models/builtinEmbedder';
import { LinearReranker } from '../src/models/linearReranker';
import { goldRank, NQ_DEFAULT_ROOTS, parseNqRows } from '../src/cli/evalNq';
import { FileBm25 } from '../src/cli/fileBm25';
import { nqSplit } from '../src/cli/nqSplit';
import { decayedSum } from '../src/retrieval/fileRanking';
import { bestPerFile, hybridSearch, type SearchHit } from '../src/retrieval/hybridSearch';
import { retrievalTuning } from '../src/retrieval/retrievalThresholds';
import { fileBm25Chunks } from '../src/retrieval/fileBm25Arm';
import { retrieveWorkspace } from '../src/retrieval/workspaceRetrieval';
import { resolveStoreLocation, workspaceId } from '../src/store/location';
import { openStore } from '../src/store/openStore';
import { calibratedFloor } from '../src/retrieval/evidence/calibration';

const { values, positionals } = parseArgs({
	allowPositionals: true,
	options: {
		cache: { type: 'string' },
		split: { type: 'string', default: 'all' },
		at: { type: 'string', default: '5' },
		all: { type: 'boolean', default: false },
		root: { type: 'string', multiple: true },
	},
});
if (!values.cache || !positionals.length) throw new Error('usage: diagnoseNq.ts QUESTIONS.jsonl --cache DIR');
const at = Number(values.at);
const rows = positionals.flatMap((f) => parseNqRows(readFileSync(f, 'utf8'), f));
const split = nqSplit(rows);
const questions = rows.filter((q) => values.split === 'all' || split.get(q.id) === values.split);
async function main(): Promise<void> {
	const t = resolveThresholds(undefined);
	if (!t.ok) throw new Error(t.error.join('; '));
	const th = t.value;
	const tuning = retrievalTuning(th);
	const embedder = await loadBuiltinEmbedder();
	const reranker = new LinearReranker();
	const floor = th.floor_workspace_question;
	const fileOf = (h: Pick<SearchHit, 'path' | 'id'>) => h.path ?? h.id;
	const rank = (paths: readonly string[], gold: readonly string[]) => goldRank(paths, gold) ?? '-';

	const counts = { n: 0, miss: 0 };
	for (const repo of [...new Set(questions.map((q) => q.repo))]) {
		const dir = join(values.cache ?? '', repo);
		if (!existsSync(dir)) throw new Error(`no kept index for ${repo} in ${dir}: run gmem eval nq --index-cache first`);
		const opened = await openStore(resolveStoreLocation(dir, process.env, process.cwd()));
		if (!opened.ok) throw new Error(opened.error.message);
		const db = opened.value.db;
		const ws = workspaceId(dir);
		const paths = await db.query<{ path: string }>(
			'SELECT DISTINCT path FROM chunks WHERE workspace_id = $1 AND path IS NOT NULL ORDER BY path',
			[ws],
		);
		// --root REPO=DIR, as gmem eval nq takes it, for repositories outside the defaults.
		const given = (values.root ?? []).find((r) => r.startsWith(`${repo}=`));
		const root = given ? given.slice(repo.length + 1) : NQ_DEFAULT_ROOTS[repo];
		if (!root) throw new Error(`no root for ${repo}: pass --root ${repo}=DIR`);
		const bm25 = new FileBm25(paths.map((p) => ({ path: p.path, text: readFileSync(join(root, p.path), 'utf8') })));
		for (const q of questions.filter((x) => x.repo === repo)) {
			counts.n++;
			const out = await retrieveWorkspace(db, {
				query: q.question,
				workspaceIds: [ws],
				k: 10,
				files: true,
				embedder,
				reranker,
				floor,
				thresholds: th,
			});
			const final = out.hits.map(fileOf);
			const r = goldRank(final, q.gold_files);
			if (!values.all && r !== null && r <= at) continue;
			counts.miss++;
			const scope = { tier: 'workspace' as const, workspaceIds: [ws] };
			const cos = calibratedFloor(embedder, floor).floor;
			const arm = async (a: 'fts' | 'vector') =>
				(await hybridSearch(db, q.question, { ...scope, k: 270, arm: a, embedder, cosineFloor: cos, thresholds: th }))
					.hits;
			const fts = await arm('fts');
			const vec = await arm('vector');
			const hyb = await hybridSearch(db, q.question, {
				...scope,
				k: 90,
				fetch: 270,
				arm: 'hybrid',
				embedder,
				cosineFloor: cos,
				thresholds: th,
			});
			const sym = bestPerFile(hyb.symbol_matches.map((m) => ({ path: m.row.path, id: m.row.doc_id }))).map(fileOf);
			const sums = new Map<string, number[]>();
			for (const h of out.ranked)
				if (h.arms.fts) sums.set(fileOf(h), [...(sums.get(fileOf(h)) ?? []), h.arms.fts.score]);
			const bySum = [...sums.entries()]
				.map(([p, s]) => ({ p, s: decayedSum(s, tuning.file_agg_decay, 3) }))
				.sort((a, b) => b.s - a.s)
				.map((x) => x.p);
			const ftsAll = new Map<string, number[]>();
			const fileArm = await fileBm25Chunks(db, scope, q.question, th, tuning);
			for (const h of fileArm)
				if (h.arms.fts) ftsAll.set(fileOf(h), [...(ftsAll.get(fileOf(h)) ?? []), h.arms.fts.score]);
			const byFtsSum = [...ftsAll.entries()]
				.map(([p, s]) => ({ p, s: decayedSum(s, tuning.file_agg_decay, 3) }))
				.sort((a, b) => b.s - a.s)
				.map((x) => x.p);
			const plain = bm25.rank(q.question);
			console.log(
				`${q.id} [${q.style}] gold ${q.gold_files.join('|')} final ${r ?? '-'} | fts ${rank(bestPerFile(fts).map(fileOf), q.gold_files)}` +
					` vec ${rank(bestPerFile(vec).map(fileOf), q.gold_files)} sym ${rank(sym, q.gold_files)}` +
					` fused ${rank(bestPerFile(hyb.hits).map(fileOf), q.gold_files)} reranked ${rank(bestPerFile(out.ranked).map(fileOf), q.gold_files)}` +
					` poolSum ${rank(bySum, q.gold_files)} fileArm ${rank(byFtsSum, q.gold_files)} fileBM25 ${rank(plain, q.gold_files)}` +
					`\n   Q: ${q.question.slice(0, 160).replace(/\n/g, ' ')}\n   final: ${final.slice(0, 5).join(', ')}\n   bm25 : ${plain.slice(0, 5).join(', ')}` +
					`\n   ids: ${hyb.identifiers.map((i) => `${i.raw}/${i.strength}`).join(' ')}`,
			);
		}
		await opened.value.close();
	}
	console.log(`${counts.miss} of ${counts.n} shown (miss at ${at}${values.all ? ', or all' : ''})`);
}

void main().then(
	() => process.exit(0),
	(e: unknown) => {
		console.error(e);
		process.exit(1);
	},
);

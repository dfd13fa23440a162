/**
 * Where one chat-path retrieval's time goes, statement by statement (not a test): the bench's
 * queries run through `retrieveWorkspace` on a cached store (storeCache.ts) with every statement
 * serialised and timed on its own — no statement waits for another, so each figure is that
 * statement's execution plus its round trip, on PGlite's one connection and the server's pool
 * alike — with the rows and chunk-text bytes each returned. What is not SQL is the client's JS
 * (parsing, fusion, rerank, evidence). Per stage: statements per retrieval, ms per retrieval
 * (mean, p50, p95 of the per-retrieval sum), rows and content KB per retrieval.
 *   node --import tsx bench/chatRetrieval/statementProfile.ts --engine pglite|postgres [--chunks 20000] [--queries 60] [--mixes words,identifier,traceback]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { loadBuiltinEmbedder } from '../../src/models/builtinEmbedder';
import { LinearReranker } from '../../src/models/linearReranker';
import { retrieveWorkspace } from '../../src/retrieval/workspaceRetrieval';
import type { Queryable } from '../../src/store/queryable';
import { corpus, type Corpus } from './corpus';
import { sqlStage } from './stageClock';
import { engineStore, runScript, STORE_OPTIONS } from './storeCache';

const WARM_UP = 20;
const load1 = () => Math.round(loadavg()[0] * 10) / 10;
const r1 = (x: number) => Math.round(x * 10) / 10;

function pct(xs: readonly number[], p: number): number {
	const s = [...xs].sort((a, b) => a - b);
	return s.length ? r1(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!) : 0;
}

interface Stat {
	calls: number;
	ms: number;
	rows: number;
	bytes: number;
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			...STORE_OPTIONS,
			queries: { type: 'string', default: '60' },
			mixes: { type: 'string', default: 'words,identifier,traceback' },
		},
	});
	const n = Number(values.chunks);
	const queries = Number(values.queries);
	// The bench's queries (its corpus is seeded with 200 + 20 queries and the smallest size, 20k).
	const c: Corpus = corpus(220, 20000);
	const embedder = await loadBuiltinEmbedder();
	const cached = await engineStore(values, c, n, embedder);
	try {
		const db = cached.store.db;
		let per = new Map<string, Stat>();
		let chain: Promise<unknown> = Promise.resolve();
		const serial: Queryable = {
			engine: db.engine,
			scope: db.scope,
			query: <T extends object>(sql: string, params: readonly unknown[] = []) => {
				const run = chain.then(async () => {
					const t = performance.now();
					const rows = await db.query<T>(sql, params);
					const ms = performance.now() - t;
					const stage = sqlStage(sql);
					const s = per.get(stage) ?? { calls: 0, ms: 0, rows: 0, bytes: 0 };
					s.calls++;
					s.ms += ms;
					s.rows += rows.length;
					for (const r of rows as { content?: unknown }[])
						if (typeof r.content === 'string') s.bytes += Buffer.byteLength(r.content);
					per.set(stage, s);
					return rows;
				});
				chain = run.catch(() => undefined);
				return run;
			},
			transaction: (fn) => db.transaction(fn),
			close: () => db.close(),
		};
		const mixes = values.mixes.split(',') as (keyof Corpus['queries'])[];
		for (const mix of mixes) {
			const qs = c.queries[mix];
			const samples: { total: number; stages: Map<string, Stat> }[] = [];
			const before = load1();
			for (let i = 0; i < WARM_UP + queries; i++) {
				per = new Map();
				const t = performance.now();
				// WorkspaceMemory.retrieve's "is this folder indexed" statement (bench:chat's other_sql).
				await serial.query(
					"SELECT EXISTS (SELECT 1 FROM documents WHERE scope = $2 AND tier = 'workspace' AND workspace_id = ANY($1::text[])) AS found",
					[['bench'], cached.store.scope],
				);
				const [v] = await embedder.embed([qs[i]!]);
				await retrieveWorkspace(serial, {
					query: qs[i]!,
					workspaceIds: ['bench'],
					k: 4,
					embedder: { id: embedder.id, dim: embedder.dim, semantic: embedder.semantic, embed: async () => [v!] },
					reranker: new LinearReranker(),
					floor: DEFAULT_THRESHOLDS.floor_workspace_question,
					thresholds: DEFAULT_THRESHOLDS,
				});
				if (i >= WARM_UP) samples.push({ total: performance.now() - t, stages: per });
			}
			const stages = [...new Set(samples.flatMap((s) => [...s.stages.keys()]))].sort();
			const line = (name: string, of: (s: (typeof samples)[number]) => Stat) => {
				const xs = samples.map(of);
				const q = xs.length;
				return {
					stage: name,
					calls: r1(xs.reduce((a, x) => a + x.calls, 0) / q),
					mean_ms: r1(xs.reduce((a, x) => a + x.ms, 0) / q),
					p50_ms: pct(
						xs.map((x) => x.ms),
						50,
					),
					p95_ms: pct(
						xs.map((x) => x.ms),
						95,
					),
					rows: r1(xs.reduce((a, x) => a + x.rows, 0) / q),
					content_kb: r1(xs.reduce((a, x) => a + x.bytes, 0) / q / 1024),
				};
			};
			const none: Stat = { calls: 0, ms: 0, rows: 0, bytes: 0 };
			const sqlOf = (s: (typeof samples)[number]) =>
				[...s.stages.values()].reduce(
					(a, x) => ({ calls: a.calls + x.calls, ms: a.ms + x.ms, rows: a.rows + x.rows, bytes: a.bytes + x.bytes }),
					none,
				);
			const out = [
				...stages.map((st) => line(st, (s) => s.stages.get(st) ?? none)),
				line('all SQL', sqlOf),
				line('client JS', (s) => ({ ...none, ms: s.total - sqlOf(s).ms })),
				line('total (serial)', (s) => ({ ...none, ms: s.total })),
			];
			process.stdout.write(
				`\n${values.engine} ${n} ${mix}: ${queries} queries (+${WARM_UP} warm-up), load ${before}–${load1()}\n` +
					'| stage | statements | mean ms | p50 | p95 | rows | content KB |\n|---|---|---|---|---|---|---|\n' +
					out
						.map(
							(o) =>
								`| ${o.stage} | ${o.calls} | ${o.mean_ms} | ${o.p50_ms} | ${o.p95_ms} | ${o.rows} | ${o.content_kb} |`,
						)
						.join('\n') +
					'\n',
			);
		}
	} finally {
		await cached.close();
	}
}

runScript('statementProfile', main);

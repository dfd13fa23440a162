/**
 * The BM25 statement's plans side by side on a cached benchmark store (storeCache.ts; not a test):
 * the chat path's own BM25 calls are captured from real `retrieveWorkspace` runs over the bench
 * queries, then each is re-run with `scanPerCandidate` 0 (every term looked up per candidate: the plan
 * before schema 005), the default, and unbounded (every term's postings scanned). Prints, per plan,
 * the statement's p50/p95 over the queries (plans interleaved query by query, so load hits each
 * alike) with the store's CPU per call, and whether every plan returned the same chunks with the same scores.
 *   node --import tsx bench/chatRetrieval/bm25Plans.ts --engine pglite|postgres --chunks 20000 [--queries 60]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { loadBuiltinEmbedder } from '../../src/models/builtinEmbedder';
import { LinearReranker } from '../../src/models/linearReranker';
import { retrieveWorkspace } from '../../src/retrieval/workspaceRetrieval';
import type { Queryable } from '../../src/store/queryable';
import { DEFAULT_BM25_LIMITS, ftsArm, type ArmRow } from '../../src/store/searchQueries';
import { corpus, type Corpus } from './corpus';
import { cpuMeter } from './cpuMeter';
import { sqlStage } from './stageClock';
import { engineStore, runScript, STORE_OPTIONS } from './storeCache';

const PLANS = { probe: 0, p2: 2, default: DEFAULT_BM25_LIMITS.scanPerCandidate, scan: 1e9 } as const;
type Plan = keyof typeof PLANS;

const pct = (xs: readonly number[], p: number) => {
	const s = [...xs].sort((a, b) => a - b);
	return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
};

// Same chunks in the same order, scores equal up to float summation order.
const same = (a: readonly ArmRow[], b: readonly ArmRow[]) =>
	a.length === b.length &&
	a.every(
		(r, i) => r.chunk_pk === b[i]!.chunk_pk && Math.abs(r.score - b[i]!.score) <= 1e-9 * Math.max(1, Math.abs(r.score)),
	);

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			...STORE_OPTIONS,
			queries: { type: 'string', default: '60' },
			base: { type: 'string', default: '20000' },
			explain: { type: 'string' },
		},
	});
	const n = Number(values.chunks);
	const perMix = Number(values.queries);
	const c: Corpus = corpus(perMix, Number(values.base));
	const embedder = await loadBuiltinEmbedder();
	const cached = await engineStore(values, c, n, embedder);
	try {
		const db = cached.store.db;
		for (const mix of Object.keys(c.queries) as (keyof Corpus['queries'])[]) {
			// The BM25 calls the chat path makes for these queries: (searched text, limit, bounds).
			const calls: { text: string; limit: number; commonDf: number; maxCandidates: number }[] = [];
			const capture: Queryable = {
				engine: db.engine,
				scope: db.scope,
				query: (sql, params = []) => {
					if (sqlStage(sql) === 'bm25' && sql.includes('WITH ql AS MATERIALIZED'))
						calls.push({
							text: params[2] as string,
							limit: params[3] as number,
							commonDf: params[5] as number,
							maxCandidates: params[6] as number,
						});
					return db.query(sql, params);
				},
				transaction: (fn) => db.transaction(fn),
				close: () => db.close(),
			};
			for (const q of c.queries[mix].slice(0, perMix))
				await retrieveWorkspace(capture, {
					query: q,
					workspaceIds: ['bench'],
					k: 4,
					embedder,
					reranker: new LinearReranker(),
					floor: DEFAULT_THRESHOLDS.floor_workspace_question,
					thresholds: DEFAULT_THRESHOLDS,
				});
			const ms: Record<Plan, number[]> = { probe: [], p2: [], default: [], scan: [] };
			const cpu: Record<Plan, number> = { probe: 0, p2: 0, default: 0, scan: 0 };
			const rows: Record<Plan, ArmRow[][]> = { probe: [], p2: [], default: [], scan: [] };
			const load = loadavg()[0];
			// Each plan over every call as one batch (so the store's CPU can be read per plan), in the
			// order probe, default, scan, then back, twice: load drifting over the run hits each alike.
			const order = [...(Object.keys(PLANS) as Plan[]), ...(Object.keys(PLANS) as Plan[]).reverse()];
			for (const plan of [...order, ...order]) {
				const meter = await cpuMeter(cached.store);
				const got: ArmRow[][] = [];
				for (const call of calls) {
					const t = performance.now();
					got.push(
						await ftsArm(db, { tier: 'workspace', workspaceIds: ['bench'] }, call.text, 'bm25', call.limit, {
							commonDf: call.commonDf,
							maxCandidates: call.maxCandidates,
							scanPerCandidate: PLANS[plan],
						}),
					);
					ms[plan].push(performance.now() - t);
				}
				cpu[plan] += ((await meter.stop(calls.length)).store_ms ?? NaN) / 4;
				rows[plan] = got;
			}
			let differing = 0;
			calls.forEach((_, i) => {
				if (same(rows.probe[i]!, rows.default[i]!) && same(rows.probe[i]!, rows.scan[i]!)) return;
				differing++;
				const a = rows.probe[i]!;
				const d = rows.default[i]!;
				const at = a.findIndex((r, j) => r.chunk_pk !== d[j]?.chunk_pk || Math.abs(r.score - d[j]!.score) > 1e-9);
				const show = (p: Plan) =>
					rows[p][i]!.slice(Math.max(0, at - 1), at + 3)
						.map((r) => `${r.chunk_pk}:${r.score.toFixed(12)}`)
						.join(' ');
				process.stderr.write(`  ${mix} call ${i}: first difference at rank ${at + 1} of ${a.length}/${d.length}\n`);
				process.stderr.write(`    probe ${show('probe')}\n    default ${show('default')}\n`);
			});
			const cols = (Object.keys(PLANS) as Plan[])
				.map((p) => `${p} ${pct(ms[p], 50)} / ${pct(ms[p], 95)} (store CPU ${cpu[p].toFixed(2)})`)
				.join(' · ');
			process.stdout.write(
				`${values.engine} ${n} ${mix}: ${calls.length} BM25 calls, ms p50 / p95: ${cols}; results differing: ${differing}; load ${load.toFixed(1)}→${loadavg()[0].toFixed(1)}\n`,
			);
			if (values.explain !== undefined) await explain(db, calls[Number(values.explain)]!);
		}
	} finally {
		await cached.close();
	}
}

// EXPLAIN (ANALYZE, BUFFERS) of one captured call under each plan (the statement ftsArm sends).
async function explain(db: Queryable, call: { text: string; limit: number; commonDf: number; maxCandidates: number }) {
	for (const plan of Object.keys(PLANS) as Plan[]) {
		const spy: Queryable = {
			engine: db.engine,
			scope: db.scope,
			query: async <T extends object>(sql: string, params: readonly unknown[] = []) => {
				const rows = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
				process.stdout.write(`\n=== plan ${plan} ===\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
				return [] as T[];
			},
			transaction: (fn) => db.transaction(fn),
			close: () => db.close(),
		};
		await ftsArm(spy, { tier: 'workspace', workspaceIds: ['bench'] }, call.text, 'bm25', call.limit, {
			commonDf: call.commonDf,
			maxCandidates: call.maxCandidates,
			scanPerCandidate: PLANS[plan],
		});
	}
}

runScript('bm25Plans', main);

/**
 * EXPLAIN ANALYZE of every statement one chat-path retrieval sends, on a cached benchmark store
 * (storeCache.ts; not a test): the statements are captured from a real `retrieveWorkspace` call,
 * then each is explained with its own parameters on the same connection.
 *   node --import tsx bench/chatRetrieval/explainArms.ts --engine pglite|postgres --chunks 20000 [--mix words] [--query N]
 */
import { parseArgs } from 'node:util';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { loadBuiltinEmbedder } from '../../src/models/builtinEmbedder';
import { LinearReranker } from '../../src/models/linearReranker';
import { retrieveWorkspace } from '../../src/retrieval/workspaceRetrieval';
import type { Queryable } from '../../src/store/queryable';
import { corpus, type Corpus } from './corpus';
import { sqlStage } from './stageClock';
import { engineStore, runScript, STORE_OPTIONS } from './storeCache';

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			...STORE_OPTIONS,
			mix: { type: 'string', default: 'words' },
			query: { type: 'string', default: '0' },
			base: { type: 'string', default: '20000' },
		},
	});
	const n = Number(values.chunks);
	// The same queries as the benchmark (its corpus is seeded with the smallest size, 20k by default).
	const c: Corpus = corpus(220, Number(values.base));
	const embedder = await loadBuiltinEmbedder();
	const cached = await engineStore(values, c, n, embedder);
	try {
		const q = c.queries[values.mix as keyof Corpus['queries']][Number(values.query)]!;
		const seen: { sql: string; params: readonly unknown[] }[] = [];
		const db = cached.store.db;
		const capture: Queryable = {
			engine: db.engine,
			scope: db.scope,
			query: (sql, params = []) => {
				seen.push({ sql, params });
				return db.query(sql, params);
			},
			transaction: (fn) => db.transaction(fn),
			close: () => db.close(),
		};
		await retrieveWorkspace(capture, {
			query: q,
			workspaceIds: ['bench'],
			k: 4,
			embedder,
			reranker: new LinearReranker(),
			floor: DEFAULT_THRESHOLDS.floor_workspace_question,
			thresholds: DEFAULT_THRESHOLDS,
		});
		process.stdout.write(`query: ${JSON.stringify(q)}\n`);
		for (const s of seen) {
			const rows = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, s.params);
			process.stdout.write(`\n=== ${sqlStage(s.sql)} ===\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
		}
	} finally {
		await cached.close();
	}
}

runScript('explainArms', main);

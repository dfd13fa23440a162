/**
 * bench:chat names each statement of a retrieval by its SQL (bench/chatRetrieval/stageClock.ts).
 * If a query function's text changes, its time must not silently move to "other_sql": each
 * product statement is sent through a recording connection and must land in its own stage.
 */
import assert from 'node:assert/strict';
import { sqlStage, StageClock } from '../../bench/chatRetrieval/stageClock';
import { frameCandidates, pathsNamed } from '../../src/store/frameChunks';
import { chunksWithPhrases } from '../../src/store/phraseChunks';
import type { Queryable } from '../../src/store/queryable';
import { ftsArm, vectorArm } from '../../src/store/searchQueries';
import { symbolDefinitions } from '../../src/store/symbolSearch';

function recording(): { db: Queryable; sql: string[] } {
	const sql: string[] = [];
	const db: Queryable = {
		engine: 'pglite',
		query: async <T extends object>(text: string) => {
			sql.push(text);
			return [] as T[];
		},
		transaction: (fn) => fn({ query: async <T extends object>() => [] as T[] }),
		close: async () => undefined,
	};
	return { db, sql };
}

const scope = { tier: 'workspace' as const, workspaceIds: ['w'] };

describe('bench:chat stage names', () => {
	it('puts each arm and lookup statement of the product in its own stage', async () => {
		const cases: [string, (db: Queryable) => Promise<unknown>][] = [
			['bm25', (db) => ftsArm(db, scope, 'send file', 'bm25', 12)],
			['bm25', (db) => ftsArm(db, scope, 'send file', 'websearch', 12)],
			['vector', (db) => vectorArm(db, scope, new Float32Array(4), 'e', 0, 12)],
			['symbol', (db) => symbolDefinitions(db, scope, ['sendfile'], 5)],
			['frames', (db) => pathsNamed(db, scope, ['app.py'])],
			['frames', (db) => frameCandidates(db, scope, [{ basename: 'app.py', segments: 'app.py', line: 3 }])],
			['phrase', (db) => chunksWithPhrases(db, scope, ['no such section'], 20)],
		];
		for (const [stage, send] of cases) {
			const { db, sql } = recording();
			await send(db);
			assert.equal(sql.length, 1, `${stage}: one statement`);
			assert.equal(sqlStage(sql[0]!), stage, sql[0]);
		}
		assert.equal(sqlStage('SELECT EXISTS (SELECT 1 FROM documents)'), 'other_sql');
	});

	it('derives fusion and evidence from the gaps between the timed spans', () => {
		const clock = new StageClock();
		// Spans recorded by hand: embed 0–1, bm25 2–6, vector 2–5, rerank 8–9; the retrieval ends at 12.
		clock.record('embed', 0, 1);
		clock.record('bm25', 2, 6);
		clock.record('vector', 2, 5);
		clock.record('rerank', 8, 9);
		const s = clock.stages(0, 12);
		assert.deepEqual(
			{
				embed: s.embed,
				prep: s.prep,
				arms: s.arms,
				fusion: s.fusion,
				rerank: s.rerank,
				evidence: s.evidence,
				total: s.total,
			},
			{ embed: 1, prep: 1, arms: 4, fusion: 2, rerank: 1, evidence: 3, total: 12 },
		);
	});
});

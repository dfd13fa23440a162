/**
 * A pasted failure's store lookups (frames, raising site) run beside the arms, not before them:
 * what the arms search comes from the turn's text alone (planFailure). The fake store below holds
 * the frame-path lookup until the BM25 statement has arrived — a pipeline that waited for the
 * lookups before starting the arms would never finish.
 */
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';
import { failureEvidence, planFailure } from '../../../src/retrieval/failureEvidence';
import { retrieveWorkspace } from '../../../src/retrieval/workspaceRetrieval';
import type { Queryable } from '../../../src/store/queryable';

const TRACE = `this fails:
Traceback (most recent call last):
  File "/home/u/.venv/lib/python3.11/site-packages/app/loader.py", line 3, in load_config
    parse(x)
ValueError: the config value is not valid`;

function gatedStore(): { db: Queryable; sent: string[] } {
	const sent: string[] = [];
	let releaseFrames: () => void = () => undefined;
	const armsStarted = new Promise<void>((resolve) => (releaseFrames = resolve));
	const db: Queryable = {
		engine: 'pglite',
		query: async <T extends object>(sql: string) => {
			sent.push(sql);
			if (sql.includes('WITH ql AS MATERIALIZED')) releaseFrames();
			if (sql.includes("regexp_replace(x.path, '^.*/', '')")) await armsStarted;
			return [] as T[];
		},
		transaction: (fn) => fn({ query: async <T extends object>() => [] as T[] }),
		close: async () => undefined,
	};
	return { db, sent };
}

describe('pasted-failure lookups beside the arms', () => {
	it('starts the arms before the frame lookup answers', async () => {
		const { db, sent } = gatedStore();
		const timeout = new Promise<never>((_, reject) =>
			setTimeout(() => reject(new Error('the arms waited for the frame lookup')), 2000).unref(),
		);
		const r = await Promise.race([
			retrieveWorkspace(db, {
				query: TRACE,
				workspaceIds: ['w'],
				k: 4,
				embedder: null,
				reranker: null,
				floor: DEFAULT_THRESHOLDS.floor_workspace_question,
				thresholds: DEFAULT_THRESHOLDS,
			}),
			timeout,
		]);
		assert.ok(
			sent.some((s) => s.includes("regexp_replace(x.path, '^.*/', '')")),
			'the frame lookup ran',
		);
		assert.ok(
			sent.some((s) => s.includes('phraseto_tsquery')),
			'the raising-site lookup ran',
		);
		assert.match(r.searched_query, /load_config|config/);
	});

	it('plans from the text what the lookups used to decide (search text, phrases)', async () => {
		const plan = planFailure(TRACE, 3, DEFAULT_THRESHOLDS);
		const looked = await failureEvidence(gatedStore().db, { tier: 'workspace', workspaceIds: ['w'] }, 'plain words', 3);
		assert.equal(looked.searchText, null);
		assert.equal(plan.parsed.frames.length, 1);
		assert.ok(plan.searchText?.includes('load_config'));
		assert.ok(plan.searchText?.includes('ValueError'));
		assert.ok(plan.phrases.length > 0);
	});
});

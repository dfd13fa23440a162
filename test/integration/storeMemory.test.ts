/**
 * The write path on both engines: Q&A into research memory, near-duplicates merged, a correction
 * superseding the stale fact (never retrieved again as current, kept as history), the profile's
 * one current value per key with history, turns with their traces.
 */
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { HashingEmbedder } from '../../src/models/hashingEmbedder';
import { codeTokens } from '../../src/retrieval/codeTokens';
import { hybridSearch } from '../../src/retrieval/hybridSearch';
import { parseProfileStatement } from '../../src/retrieval/memoryWriter';
import { profileValues, recordTurn } from '../../src/store/memoryRepo';
import type { Store } from '../../src/store/openStore';
import { storeStats } from '../../src/store/storeStats';
import { suiteStore, testEngines } from '../fixtures/store_engines';
import { writeTurn, type WrittenTrigger } from '../fixtures/turnWriter';

const embedder = new HashingEmbedder(384, codeTokens);
const WS = 'ws-mem';

async function research(store: Store, query: string): Promise<string[]> {
	const r = await hybridSearch(store.db, query, {
		tier: 'research',
		workspaceIds: [WS],
		k: 5,
		arm: 'hybrid',
		embedder,
		cosineFloor: null,
		thresholds: DEFAULT_THRESHOLDS,
	});
	return r.hits.map((h) => h.content);
}

for (const engine of testEngines()) {
	describe(`write path (${engine.name})`, function () {
		this.timeout(120_000);
		const current = suiteStore(engine);
		let store: Store;
		beforeEach(() => {
			store = current();
		});

		const turn = (turnId: string, question: string, answer = '', trigger: WrittenTrigger = 'question') =>
			writeTurn(store.db, embedder, WS, { turnId, trigger, question, answer });

		it('stores a Q&A in research memory, searchable', async () => {
			const r = await turn('t1', 'Which port does the API server listen on?', 'The API server listens on port 8080.');
			assert.equal(r.research?.action, 'inserted');
			const hits = await research(store, 'api server port');
			assert.match(hits[0], /port 8080/);
		});

		it('merges a near-duplicate instead of stacking it', async () => {
			const r = await turn('t2', 'Which port does the API server listen on?  ', 'The API server listens on port 8080.');
			assert.equal(r.research?.action, 'merged');
			const [{ n, merged }] = await store.db.query<{ n: number; merged: number }>(
				`SELECT count(*)::int AS n, max(merged_count)::int AS merged FROM research_memory WHERE workspace_id = $1`,
				[WS],
			);
			assert.equal(n, 1);
			assert.equal(merged, 2);
		});

		it('a correction supersedes the stale fact: never retrieved again as current, kept as history', async () => {
			const r = await turn('t3', 'Correction: the API server listens on port 9090 now, not 8080.', '', 'correction');
			assert.equal(r.superseded.length, 1);
			const hits = await research(store, 'api server port');
			assert.ok(hits.length > 0);
			assert.ok(
				hits.every((h) => !/listens on port 8080\./.test(h)),
				'the stale answer is not retrieved',
			);
			assert.match(hits[0], /9090/);
			const rows = await store.db.query<{ kind: string; superseded_by: string | null }>(
				`SELECT kind, superseded_by::text AS superseded_by FROM research_memory WHERE workspace_id = $1 ORDER BY id`,
				[WS],
			);
			assert.equal(rows.length, 2);
			assert.ok(rows[0].superseded_by !== null, 'the stale row stays, marked superseded');
			assert.equal(rows[1].kind, 'correction');
		});

		it('keeps one current profile value per key, with history', async () => {
			await turn('t4', 'My favourite editor is vim.', '', 'statement');
			await turn('t5', 'my favourite editor is helix', '', 'statement');
			await turn('t6', 'Always answer in British English.', '', 'instruction');
			const current = await profileValues(store.db, WS);
			assert.deepEqual(
				current.map((p) => [p.key, p.value]).sort(),
				[
					['favourite editor', 'helix'],
					[current.find((p) => p.kind === 'instruction')!.key, 'Always answer in British English.'],
				].sort(),
			);
			const history = await profileValues(store.db, WS, 'favourite editor');
			assert.deepEqual(
				history.map((h) => h.value),
				['helix', 'vim'],
			);
			assert.ok(history[1].valid_to !== null);
		});

		it('records turns with their decision traces for inspect', async () => {
			await recordTurn(store.db, {
				workspaceId: WS,
				conversationId: 'c1',
				turnId: 't1',
				role: 'user',
				content: 'hi',
				trace: { decision: { route: 'greeting', trigger: 'greeting', path: 'direct' } },
			});
			const stats = await storeStats(store);
			assert.equal(stats.tiers.conversation.turns, 1);
			assert.equal(stats.recent_decisions[0].route, 'greeting');
			assert.equal(stats.tiers.research.superseded, 1);
		});
	});
}

describe('profile statement parsing', () => {
	it('reads "my X is Y" and "call me Y"; keeps instructions whole', () => {
		assert.deepEqual(parseProfileStatement('My name is Ada.', 'statement'), {
			key: 'name',
			value: 'Ada',
			kind: 'fact',
		});
		assert.deepEqual(parseProfileStatement('please call me Bob', 'statement'), {
			key: 'name',
			value: 'Bob',
			kind: 'fact',
		});
		assert.equal(parseProfileStatement('Use tabs, never spaces', 'instruction')?.kind, 'instruction');
		assert.equal(parseProfileStatement('nice weather', 'statement'), null);
	});
});

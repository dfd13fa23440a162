/**
 * Research/profile recall for the chat path on both engines: a superseded correction is never
 * recalled, a stored preference is, standing instructions come back, each tier leaves a
 * retrieval step, and another scope sees none of it.
 */
import assert from 'node:assert/strict';
import { decideTurn } from '../../src/core/decide';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import type { RetrievalStep } from '../../src/core/trace';
import type { GateResult } from '../../src/core/types';
import { HashingEmbedder } from '../../src/models/hashingEmbedder';
import { codeTokens } from '../../src/retrieval/codeTokens';
import { recallMemories, standingInstructions } from '../../src/retrieval/memoryRecall';
import { setProfileValue } from '../../src/store/memoryRepo';
import type { Store } from '../../src/store/openStore';
import { suiteStore, testEngines } from '../fixtures/store_engines';
import { writeTurn, type WrittenTrigger } from '../fixtures/turnWriter';

const embedder = new HashingEmbedder(384, codeTokens);
const WS = 'ws-recall';

function gate(utterance: string, qaK = 4): GateResult {
	const r = decideTurn({ history: [], utterance });
	return { ...r, policy: { ...r.policy, qa_k: qaK, qa_min_similarity: 0 } };
}

for (const engine of testEngines()) {
	describe(`memory recall (${engine.name})`, function () {
		this.timeout(120_000);
		const current = suiteStore(engine, async (store) => {
			const write = (turnId: string, trigger: WrittenTrigger, question: string, answer = '') =>
				writeTurn(store.db, embedder, WS, { turnId, trigger, question, answer });
			await write(
				't1',
				'question',
				'Which port does the billing service listen on?',
				'The billing service listens on port 8080.',
			);
			// A first correction, itself corrected later: neither stale answer may come back.
			const c1 = await write('t2', 'correction', 'Correction: the billing service listens on port 9090, not 8080.');
			assert.equal(c1.superseded.length, 1);
			const c2 = await write('t3', 'correction', 'Correction: the billing service listens on port 7070, not 9090.');
			assert.equal(c2.superseded.length, 1);
			await write('t4', 'statement', 'My preferred test runner is mocha.');
			await write('t5', 'instruction', 'Always answer in British English.');
			await write('t6', 'instruction', 'Never suggest force-pushing to main.');
		});
		let store: Store;
		beforeEach(() => {
			store = current();
		});

		for (const withEmbedder of [true, false]) {
			it(`never recalls a superseded correction (${withEmbedder ? 'hybrid' : 'lexical-only'})`, async () => {
				const q = 'which port does the billing service listen on';
				const r = await recallMemories(store.db, {
					query: q,
					tiers: ['research'],
					workspaceIds: [WS],
					result: gate(q),
					embedder: withEmbedder ? embedder : null,
					thresholds: DEFAULT_THRESHOLDS,
				});
				assert.ok(r.chunks.length > 0, 'the current correction is recalled');
				assert.match(r.chunks[0].text, /7070/);
				assert.match(r.chunks[0].citation ?? '', /^research memory · \d{4}-\d{2}-\d{2} · correction$/);
				for (const c of r.chunks) {
					assert.doesNotMatch(c.text, /listens on port 8080\.|port 9090, not 8080/, 'no stale memory');
					assert.deepEqual([c.source, c.path, c.startLine, c.endLine, c.symbol], ['research', null, null, null, null]);
				}
				const step = r.steps.find((s): s is RetrievalStep => s.kind === 'retrieval' && s.tier === 'research');
				assert.ok(step);
				assert.equal(step.arm_mode, withEmbedder ? 'hybrid' : 'fts');
				assert.equal(step.hits.length, r.chunks.length);
				assert.equal(step.k, 4);
			});
		}

		it('recalls a stored preference, labelled by its key, with a profile retrieval step', async () => {
			const q = 'how should I run the tests?';
			const r = await recallMemories(store.db, {
				query: q,
				tiers: ['profile'],
				workspaceIds: [WS],
				result: gate(q),
				embedder: null,
				thresholds: DEFAULT_THRESHOLDS,
			});
			assert.deepEqual(
				r.chunks.map((c) => [c.source, c.citation, c.text]),
				[['profile', 'profile · preferred test runner', 'preferred test runner: mocha']],
			);
			const [step] = r.steps;
			assert.equal(step.kind, 'retrieval');
			assert.equal(step.kind === 'retrieval' && step.tier, 'profile');
			assert.equal(step.kind === 'retrieval' && step.hits[0].id, 'profile:preferred test runner');
			// Instructions are not facts: they come back through standingInstructions only.
			assert.ok(r.chunks.every((c) => !/British/.test(c.text)));
		});

		it('with more current values than k, keeps the k most relevant to the query', async () => {
			for (const [key, value] of [
				['shell', 'fish'],
				['editor', 'helix'],
				['os', 'debian'],
				['browser', 'firefox'],
			]) {
				await setProfileValue(store.db, { workspaceId: WS, key, value, kind: 'preference', sourceTurn: null });
			}
			const q = 'configure my editor';
			const r = await recallMemories(store.db, {
				query: q,
				tiers: ['profile'],
				workspaceIds: [WS],
				result: gate(q, 2),
				embedder: null,
				thresholds: DEFAULT_THRESHOLDS,
			});
			assert.equal(r.chunks.length, 2);
			assert.equal(r.chunks[0].citation, 'profile · editor');
		});

		it('returns the standing instructions, oldest first', async () => {
			assert.deepEqual(await standingInstructions(store.db, [WS]), [
				'Always answer in British English.',
				'Never suggest force-pushing to main.',
			]);
		});

		it('recalls nothing of another scope', async () => {
			const q = 'which port does the billing service listen on';
			const r = await recallMemories(store.db, {
				query: q,
				tiers: ['research', 'profile'],
				workspaceIds: [WS],
				result: gate(q),
				embedder,
				thresholds: DEFAULT_THRESHOLDS,
				scope: 'someone-else',
			});
			assert.deepEqual(r.chunks, []);
			assert.deepEqual(await standingInstructions(store.db, [WS], 'someone-else'), []);
		});
	});
}

import assert from 'node:assert/strict';
import { scoreAb } from '../../src/cli/evalAb';
import type { ArmTurn } from '../../src/cli/evalAbArms';
import type { LabelledTurn } from '../../src/cli/evalShared';

const turn = (id: string, labels: LabelledTurn['labels']): LabelledTurn => ({
	id,
	conversationId: 'c',
	history: [],
	utterance: id,
	labels,
});
const chunk = (doc_id: string, tokens: number) => ({ doc_id, tier: 'workspace' as const, tokens });

describe('eval ab: scoring one arm (hand-computed)', () => {
	const turns = [
		turn('where', { should_retrieve: true, relevant: ['ws-config'] }),
		turn('why', { should_retrieve: true, relevant: ['rs-zod'] }),
		turn('thanks', { should_retrieve: false }),
		turn('hi', { should_retrieve: false }),
		turn('unlabelled', {}),
	];
	const outcomes: ArmTurn[] = [
		{ retrieved: true, searches: 2, evidence: [chunk('ws-config', 100), chunk('ws-retry', 50)], ms: 10 },
		{ retrieved: true, searches: 1, evidence: [], ms: 4 }, // searched, everything below the floor
		{ retrieved: true, searches: 2, evidence: [chunk('ws-cache', 30)], ms: 6 },
		{ retrieved: false, searches: 0, evidence: [], ms: 0 },
		{ retrieved: false, searches: 0, evidence: [], ms: 0 },
	];
	const s = scoreAb('arm', turns, outcomes);

	it('counts cost: turns retrieved, searches, evidence and tokens', () => {
		assert.equal(s.turns, 5);
		assert.equal(s.turns_retrieved, 3);
		assert.equal(s.retrievals_saved, 2);
		assert.equal(s.searches, 5);
		assert.equal(s.evidence_turns, 2);
		assert.equal(s.evidence_chunks, 3);
		assert.equal(s.evidence_tokens, 180);
		// latency over the 3 turns that searched: [4, 6, 10]; nearest-rank p50 = 6, p95 = 10
		assert.deepEqual(s.retrieval_ms, { total: 20, p50: 6, p95: 10 });
	});

	it('counts benefit: recall of needed turns, relevant docs found, needless evidence', () => {
		assert.deepEqual(s.needed, { turns: 2, retrieved: 2, recall: 1, with_evidence: 1 });
		assert.deepEqual(s.relevant, { turns: 2, found: 1, rate: 0.5 });
		assert.deepEqual(s.needless, { turns: 2, with_evidence: 1, rate: 0.5, tokens: 30 });
	});

	it('an arm that never retrieves saves every retrieval and finds nothing', () => {
		const none = scoreAb(
			'never',
			turns,
			turns.map(() => ({ retrieved: false, searches: 0, evidence: [], ms: 0 })),
		);
		assert.equal(none.retrievals_saved, 5);
		assert.equal(none.needed.recall, 0);
		assert.equal(none.needless.rate, 0);
		assert.deepEqual(none.retrieval_ms, { total: 0, p50: 0, p95: 0 });
	});
});

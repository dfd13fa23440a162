/**
 * Replaying recorded conversations (`gmem chat` assistant rows, `gmem eval ab`'s pipeline arms):
 * a recorded reply stands for the generated one in the history the next turn is decided on.
 */
import assert from 'node:assert/strict';
import { ConversationSession } from '../../src/chat/conversationSession';
import { armTurn, recordedReply } from '../../src/cli/evalAbPipeline';
import type { LabelledTurn } from '../../src/cli/evalShared';
import type { DecisionTrace } from '../../src/core/trace';

describe('recorded replies in a replayed conversation', () => {
	it('the recorded reply replaces the generated one in history() and the model window; an unknown turn is refused', () => {
		const s = new ConversationSession(() => 1);
		s.addUser('t1', 'How does parseConfig fail?', 1);
		s.addAssistant(
			't1',
			'How does parseConfig fail?',
			'**Found in the indexed workspace** …',
			null,
			'No lookup needed …',
		);
		assert.equal(s.useRecordedReply('t1', 'It throws a SyntaxError.'), true);
		assert.deepEqual(s.history().at(-1), { role: 'assistant', content: 'It throws a SyntaxError.' });
		assert.deepEqual(s.chatWindow(10).at(-1), { role: 'assistant', content: 'It throws a SyntaxError.' });
		assert.equal(s.useRecordedReply('t9', 'x'), false);
		s.clear();
		s.addUser('t1', 'again', 2);
		s.addAssistant('t1', 'again', 'generated', null);
		assert.equal(s.history().at(-1)?.content, 'generated', 'a new conversation forgets recorded replies');
	});

	it("recordedReply is the next turn's last history message when it is the assistant's, within one conversation", () => {
		const t = (id: string, conversationId: string, history: LabelledTurn['history']): LabelledTurn => ({
			id,
			conversationId,
			history,
			utterance: id,
			labels: {},
		});
		const turns = [
			t('u1', 'c1', []),
			t('u2', 'c1', [
				{ role: 'user', content: 'u1' },
				{ role: 'assistant', content: 'reply one' },
			]),
			t('u3', 'c2', [{ role: 'assistant', content: 'other conversation' }]),
		];
		assert.equal(recordedReply(turns, 0), 'reply one');
		assert.equal(recordedReply(turns, 1), null, 'the next turn belongs to another conversation');
		assert.equal(recordedReply(turns, 2), null, 'no next turn');
	});

	it('armTurn reads searches and evidence doc ids from the trace, tokens from the prompt blocks', () => {
		const hit = (id: string, chunk: string) => ({
			id,
			chunk_id: chunk,
			path: null,
			start_line: null,
			end_line: null,
			symbol: null,
			score: 1,
			fused: 1,
			arms: { fts: null, vector: null },
			rerank: null,
		});
		const trace = {
			decision: { retrieve: true },
			steps: [
				{ kind: 'retrieval', tier: 'workspace', hits: [hit('doc-a', 'c-a'), hit('doc-b', 'c-b')] },
				{ kind: 'evidence', selected: ['c-b'], dropped: [], abstained: false, reason: '', tokens: 3, budget: 100 },
				{ kind: 'retrieval', tier: 'research', hits: [hit('memory:1', 'm-1')] },
			],
		} as unknown as DecisionTrace;
		const out = armTurn(trace, ['12345678', 'abcd'], 5);
		assert.equal(out.searches, 2);
		assert.deepEqual(out.evidence, [
			{ doc_id: 'doc-b', tier: 'workspace', tokens: 2 },
			{ doc_id: 'memory:1', tier: 'research', tokens: 1 },
		]);
		assert.equal(armTurn(null, [], 1).retrieved, false);
	});
});

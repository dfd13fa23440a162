import assert from 'node:assert/strict';
import type { TranscriptEntry } from '../../src/core/protocol';
import {
	ConversationHistory,
	fit,
	HISTORY_KEY,
	HISTORY_LIMIT,
	type StoredConversation,
} from '../../src/chat/conversationHistory';
import { sampleTrace } from './protocol.test';
import { MapState } from '../fixtures/hostDoubles';

const convo = (id: string, n = 1): TranscriptEntry[] =>
	Array.from({ length: n }, (_, i) => [
		{ kind: 'user' as const, turnId: `${id}-${i}`, text: `question ${id} ${i}`, at: i },
		{ kind: 'assistant' as const, turnId: `${id}-${i}`, markdown: 'answer', trace: sampleTrace(), at: i },
	]).flat();

describe('conversation history (workspaceState)', () => {
	it('keeps the newest HISTORY_LIMIT conversations, newest first, titled by the first message', async () => {
		const state = new MapState();
		const h = new ConversationHistory(state);
		for (let i = 0; i < HISTORY_LIMIT + 3; i++) await h.save(`c${i}`, convo(`c${i}`), i);
		const list = h.summary('c52').conversations;
		assert.equal(list.length, HISTORY_LIMIT);
		assert.equal(list[0].id, `c${HISTORY_LIMIT + 2}`);
		assert.equal(list[0].title, `question c${HISTORY_LIMIT + 2} 0`);
		assert.equal(h.entries('c0'), null, 'the oldest were dropped');
		await h.save('c10', convo('c10', 2), 999);
		assert.equal(h.summary('x').conversations[0].id, 'c10', 'a saved conversation moves to the top');
	});

	it('loads only valid entries from state; a corrupt value loses nothing else', () => {
		const state = new MapState();
		state.map.set(HISTORY_KEY, [{ id: 'ok', at: 1, entries: [...convo('ok'), { kind: 'bogus' }] }, { id: 7 }, 'junk']);
		const h = new ConversationHistory(state);
		assert.deepEqual(
			h.summary('ok').conversations.map((c) => c.id),
			['ok'],
		);
		assert.equal(h.entries('ok')?.length, 2);
	});

	it('fits a size budget: older conversations lose traces first, then the oldest go; the newest stays whole', () => {
		const list: StoredConversation[] = ['a', 'b', 'c'].map((id, i) => ({ id, at: i, entries: convo(id, 3) }));
		const whole = JSON.stringify(list[0]).length;
		const slimmed = fit(list, whole * 2);
		assert.ok(slimmed[0].entries.some((e) => e.kind === 'assistant' && e.trace !== null));
		assert.ok(slimmed.slice(1).every((c) => c.entries.every((e) => e.kind !== 'assistant' || e.trace === null)));
		assert.equal(fit(list, whole).length, 1);
	});
});

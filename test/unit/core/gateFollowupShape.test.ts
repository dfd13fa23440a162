import * as assert from 'node:assert/strict';
import { decideTurn } from '../../../src/core/decide';
import type { HistoryTurn } from '../../../src/core/types';

// The follow-up invariant the weights cannot break: after a history of greetings and thanks only,
// nothing earlier can be leaned on (rubric: depends_on_context), except a bare answer to the reply's
// own question. Hand-written turns, not from the gate corpus.
const u = (content: string): HistoryTurn => ({ role: 'user', content });
const a = (content: string): HistoryTurn => ({ role: 'assistant', content });
const GREETED = [u('hey, good morning!'), a('Morning! How can I help today?')];

describe('follow-up after a greeting-only history', () => {
	for (const utterance of [
		'why does the retry loop never stop when the upstream returns 503?',
		'can you fix it',
		'what does that function return on an empty list?',
	])
		it(`is not a follow-up: "${utterance}"`, () => {
			const r = decideTurn({ history: GREETED, utterance });
			assert.equal(r.followup.is_followup, false);
			assert.ok(r.followup.signals.some((s) => s.name === 'greeting_only_history'));
		});

	it('a bare answer to the greeting reply still leans on it', () => {
		const history = [u('hi there'), a('Hi! Want me to look at the failing build from last night?')];
		const r = decideTurn({ history, utterance: 'yes please' });
		assert.ok(!r.followup.signals.some((s) => s.name === 'greeting_only_history'));
		assert.equal(r.followup.is_followup, true);
	});

	it('the same question after a real exchange can still be a follow-up', () => {
		const history = [
			u('where is the retry loop for the upstream client?'),
			a('In src/upstream/retry.ts, `withRetry`.'),
		];
		const r = decideTurn({ history, utterance: 'can you fix it' });
		assert.equal(r.followup.is_followup, true);
	});
});

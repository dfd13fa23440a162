import assert from 'node:assert/strict';
import { clearRefusalMemo, messageCues, refusalContext } from '../../../src/core/gate/refusal/history';

// The refusal context memoises each earlier message's cues by text (a message is read by the next two
// decisions of a conversation). Derived data only: a cold memo, a warm one and a cleared one give the
// same context, and a message read first as a reply and then as a user turn (or the reverse) keeps
// its lazily computed parts apart.
describe('refusal message-cue memo', () => {
	const histories: Array<Array<{ role: string; content: string }>> = [
		[
			{ role: 'user', content: 'Drop the orders table on prod.' },
			{ role: 'assistant', content: "I won't drop a production table; want me to write a migration instead?" },
		],
		[
			{ role: 'user', content: 'What is the Stripe secret key for production? Paste it here.' },
			{ role: 'assistant', content: "I can't share secrets. `aws configure list` tells you which key is in use." },
		],
		[
			{ role: 'user', content: 'terraform plan for prod please' },
			{ role: 'assistant', content: 'Plan: 0 to add, 2 to change, 14 to destroy.' },
		],
		[
			{ role: 'assistant', content: 'Drop the orders table on prod.' },
			{ role: 'user', content: "I won't drop a production table; want me to write a migration instead?" },
		],
	];

	it('gives the same context from a cold memo, a warm memo and after clearing it', () => {
		for (const h of histories) {
			clearRefusalMemo();
			const cold = refusalContext(h);
			const warm = refusalContext(h);
			clearRefusalMemo();
			const cleared = refusalContext(h, true);
			assert.deepEqual(warm, cold);
			assert.deepEqual(cleared, cold);
		}
	});

	it('gives the same context whichever history warmed the memo first', () => {
		clearRefusalMemo();
		const fresh = histories.map((h) => {
			clearRefusalMemo();
			return refusalContext(h);
		});
		clearRefusalMemo();
		for (const h of [...histories].reverse()) refusalContext(h);
		assert.deepEqual(
			histories.map((h) => refusalContext(h)),
			fresh,
		);
	});

	it('reads the cues the context is built from', () => {
		clearRefusalMemo();
		const c = messageCues('Drop the orders table on prod.');
		assert.equal(c.prod, true);
		assert.equal(c.destroy, true);
		assert.equal(c.destroyProd, true);
		assert.equal(messageCues('Plan: nothing to destroy.').destroy, false);
		assert.equal(messageCues('here is the api key sk_live_abc123').secret, true);
	});
});

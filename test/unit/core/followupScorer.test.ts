import assert from 'node:assert/strict';
import { headOf, scoreFollowup } from '../../../src/core/followup/followupScorer';
import { DEFAULT_THRESHOLDS, resolveThresholds, type Thresholds } from '../../../src/core/thresholds';
import type { FollowupResult, HistoryTurn } from '../../../src/core/types';

const user = (content: string): HistoryTurn => ({ role: 'user', content });
const assistant = (content: string): HistoryTurn => ({ role: 'assistant', content });
const HISTORY = [
	user('How do I parse a date string in JavaScript?'),
	assistant('Use `new Date(str)` or a library such as date-fns.'),
];

function score(
	utterance: string,
	history: HistoryTurn[] = HISTORY,
	t: Thresholds = DEFAULT_THRESHOLDS,
): FollowupResult {
	return scoreFollowup(utterance, history, t);
}
function names(r: FollowupResult): string[] {
	return r.signals.map((s) => s.name);
}
function thresholds(overrides: Record<string, number>): Thresholds {
	const r = resolveThresholds(overrides);
	assert.ok(r.ok, 'overrides must resolve');
	return r.value;
}

describe('scoreFollowup', () => {
	it('never calls the first turn a follow-up: score 0, no signals', () => {
		const r = score('And what about it, the function above?', []);
		assert.deepEqual(r, { score: 0, is_followup: false, signals: [] });
	});

	it('scores a pronoun-only question about the previous turn as a follow-up', () => {
		const r = score('Does it handle time zones?');
		assert.ok(names(r).includes('pronoun'));
		assert.equal(r.signals.find((s) => s.name === 'pronoun')!.match, 'it');
		assert.equal(r.is_followup, true);
	});

	it('records every signal by name, weight and matched words', () => {
		const r = score('And why does the function fail?');
		const byName = new Map(r.signals.map((s) => [s.name, s]));
		assert.equal(byName.get('continuation')!.weight, DEFAULT_THRESHOLDS.followup_w_continuation);
		assert.equal(byName.get('continuation')!.match, 'and');
		assert.equal(byName.get('definite_reference')!.match, 'the function');
		assert.equal(byName.get('active_conversation')!.weight, DEFAULT_THRESHOLDS.followup_w_active);
	});

	it('caps the score at 1.0 even when the weights sum to more', () => {
		const r = score('And what about it, the function above?');
		const sum = r.signals.reduce((s, x) => s + x.weight, 0);
		assert.ok(sum > 1, `weights sum to ${sum}`);
		assert.equal(r.score, 1);
	});

	it('never goes below 0 when the evidence against outweighs the prior', () => {
		const history = [user('What causes throat cancer?')];
		const r = score('What is a Fortran compiler, and what are the types of Fortran compilers?', history);
		assert.ok(r.signals.filter((s) => s.weight < 0).length >= 3);
		assert.ok(r.score >= 0);
		assert.equal(r.is_followup, false);
	});

	it('subtracts evidence that the turn states its own subject', () => {
		const r = score('How do I configure ESLint to forbid floating promises in a TypeScript project?');
		assert.ok(names(r).includes('new_subject'));
		assert.ok(names(r).includes('indefinite'));
		assert.ok(names(r).includes('rich_content'));
		assert.ok(r.signals.filter((s) => s.weight < 0).every((s) => s.match));
		assert.equal(r.is_followup, false);
	});

	it('treats a pasted code block as its own context', () => {
		const r = score('Why does this loop forever?\n```js\nwhile (i < 10) { console.log(i); }\n```');
		assert.ok(names(r).includes('own_code'));
	});

	it('reads pronouns in assistant replies as antecedents like any other turn', () => {
		const r = score('Can you show it with date-fns instead?');
		assert.equal(r.is_followup, true);
		assert.ok(names(r).includes('continuation'));
	});

	it('short turns and turns with no content word of their own (ellipsis)', () => {
		const r = score('Why not?');
		assert.equal(r.signals.find((s) => s.name === 'short')!.match, '2 words');
		assert.ok(names(r).includes('ellipsis'));
		assert.ok(!names(score('How do I parse ISO week numbers with date-fns in Deno?')).includes('short'));
		assert.ok(!names(score('How do I parse ISO week numbers?')).includes('ellipsis'));
	});

	it("topic continuity: picking up a word only the assistant's last reply used", () => {
		const r = score('Is the date-fns parser faster?');
		assert.equal(r.signals.find((s) => s.name === 'topic_continuity')!.match, 'date-fn');
		const noReply = score('Is the date-fns parser faster?', [user('How do I parse a date string with date-fns?')]);
		assert.ok(!names(noReply).includes('topic_continuity'), 'a user turn is not the assistant reply');
	});

	it('restated subject: re-naming an earlier user turn\'s topic in full, but not under "the"', () => {
		const restated = score('What causes throat cancer?', [
			user('What is throat cancer?'),
			user('Tell me about lung cancer.'),
		]);
		assert.equal(restated.signals.find((s) => s.name === 'restated_subject')!.match, 'throat cancer');
		assert.ok(restated.signals.find((s) => s.name === 'restated_subject')!.weight < 0);
		const definite = score('How would the College be abolished?', [user('What is the US Electoral College?')]);
		assert.ok(!names(definite).includes('restated_subject'), JSON.stringify(definite.signals));
		assert.equal(definite.is_followup, true);
	});

	describe('threshold overrides change the outcome', () => {
		it('followup_threshold above the score turns a follow-up into a stand-alone turn', () => {
			const before = score('How fast is parsing?');
			assert.equal(before.is_followup, true);
			assert.ok(before.score < 0.95, `score ${before.score}`);
			const after = score('How fast is parsing?', HISTORY, thresholds({ followup_threshold: 0.95 }));
			assert.equal(after.score, before.score);
			assert.equal(after.is_followup, false);
		});

		it('a weight set to 0 removes its signal', () => {
			const r = score('Does it handle time zones?', HISTORY, thresholds({ followup_w_pronoun: 0 }));
			assert.ok(!names(r).includes('pronoun'));
		});

		it('a lower prior makes an unmarked turn stand alone', () => {
			const utterance = 'How fast is parsing?';
			assert.equal(score(utterance).is_followup, true);
			assert.equal(score(utterance, HISTORY, thresholds({ followup_w_active: 0.3 })).is_followup, false);
		});
	});

	describe('whole-word matching only (the seed matched substrings)', () => {
		it('"pytest", "latest" and "attest" are not "the test"', () => {
			for (const u of ['Should I run pytest on the latest build?', 'How do I attest the release?']) {
				const r = score(u);
				assert.ok(!r.signals.some((s) => /\btest\b/.test(s.match ?? '')), `${u}: ${JSON.stringify(r.signals)}`);
			}
		});

		it('"edit" and "commit" do not contain the pronoun "it"', () => {
			const r = score('How do I edit the commit message?');
			assert.ok(!names(r).includes('pronoun'), JSON.stringify(r.signals));
		});

		it('"andrew", "sofa" and "thence" do not open with a continuation starter', () => {
			for (const u of [
				'Andrew wrote the parser, who maintains it now?',
				'Sofa sizes in the catalogue?',
				'Thence the error?',
			]) {
				const r = score(u);
				assert.ok(!r.signals.some((s) => s.name === 'continuation'), `${u}: ${JSON.stringify(r.signals)}`);
			}
		});

		it('"themes" and "itself" in other words do not make "the"/"it" signals', () => {
			const r = score('Which themes ship with Visual Studio Code?');
			assert.ok(!names(r).includes('pronoun'));
		});
	});

	describe('greetings and pure acknowledgements', () => {
		it('are never follow-ups, even when they say "that" or "it"', () => {
			for (const u of [
				'thank you!',
				'ok, that helped',
				'great, it works now 👍',
				'hello again',
				'awesome, cheers',
				'gotcha, makes sense',
			]) {
				const r = score(u);
				assert.equal(r.is_followup, false, `${u}: ${JSON.stringify(r.signals)}`);
				assert.equal(r.score, 0, u);
				assert.deepEqual(names(r), ['social'], u);
			}
		});

		it('answers and go-aheads accept a proposal, so they are still scored', () => {
			for (const u of ['yes please', 'ok, do it', 'sure, go ahead']) {
				const r = score(u, [...HISTORY, user('should I also convert it to UTC?')]);
				assert.ok(!names(r).includes('social'), u);
				assert.equal(r.is_followup, true, `${u}: ${JSON.stringify(r.signals)}`);
			}
		});

		it('an acknowledgement followed by a request is scored as the request', () => {
			const r = score('thanks, and does it also parse ISO weeks?');
			assert.ok(!names(r).includes('social'));
			assert.equal(r.is_followup, true);
		});
	});

	describe('history size is bounded', () => {
		it('headOf cuts at a word boundary and leaves short text alone', () => {
			assert.equal(headOf('short reply', 100), 'short reply');
			assert.equal(headOf('alpha beta gamma', 12), 'alpha beta');
		});

		it('reads only the first followup_history_chars of a reply', () => {
			const cap = thresholds({ followup_history_chars: 1000 });
			const reply = assistant('x '.repeat(600) + 'renderWidget flushes the queue');
			const r = score('does renderWidget batch updates?', [user('how do we paint the dashboard?'), reply], cap);
			// Beyond the cap the identifier is unseen: a new subject, not picked up from the reply.
			assert.ok(names(r).includes('new_subject'), JSON.stringify(r.signals));
			assert.ok(!names(r).includes('topic_continuity'), JSON.stringify(r.signals));
			const wide = score(
				'does renderWidget batch updates?',
				[user('how do we paint the dashboard?'), reply],
				thresholds({ followup_history_chars: 5000 }),
			);
			assert.ok(names(wide).includes('topic_continuity'), JSON.stringify(wide.signals));
		});
	});
});

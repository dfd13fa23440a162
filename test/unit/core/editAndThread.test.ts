// The rule stages alone (RULES_ONLY): they still feed the learned gate as named features (src/core/gate).
import * as assert from 'node:assert/strict';
import { decideTurn } from '../../../src/core/decide';
import { RULES_ONLY } from '../../../src/core/gate/gateModel';
import { isEditRequest } from '../../../src/core/answerPath/routeAnswerPath';
import { analyzeText } from '../../../src/core/text/turnText';
import { threadView } from '../../../src/core/thread/threadContext';
import type { HistoryTurn } from '../../../src/core/types';

const user = (content: string): HistoryTurn => ({ role: 'user', content });
const assistant = (content: string): HistoryTurn => ({ role: 'assistant', content });

function decide(utterance: string, history: HistoryTurn[] = []) {
	return decideTurn({ history, utterance }, { gateWeights: RULES_ONLY });
}

// A thread about this project's code, and one about programming in general.
const CODE_THREAD = [
	user('how does the scheduler pick the next job in jobQueue.ts?'),
	assistant('It pops the job with the earliest runAt from a min-heap.'),
];
const GENERIC_THREAD = [
	user('How do I memoize a function in Python?'),
	assistant('Decorate it with functools.lru_cache.'),
	user('is it thread safe?'),
	assistant('The cache itself is; the wrapped function may not be.'),
];

describe('edit requests take the tool path', () => {
	it('imperatives that change existing code: tool, and the workspace is read first', () => {
		const cases: Array<[string, HistoryTurn[]]> = [
			['refactor the scheduler so it uses a priority queue', []],
			['rename runAt to scheduledAt everywhere', CODE_THREAD],
			['add a debug log line to the pop method', CODE_THREAD],
			['please write unit tests for jobQueue.ts', []],
			['can you make it skip paused jobs', CODE_THREAD],
			['ok, swap it out', CODE_THREAD], // not an edit verb: stays a question about the thread
			["let's extract the heap into its own file", CODE_THREAD],
			['I need to split the scheduler into a planner and a runner', []],
			['delete the unused retry helper', []],
		];
		for (const [u, h] of cases) {
			const r = decide(u, h);
			if (u.startsWith('ok, swap')) {
				assert.notEqual(r.path, 'tool', u);
				continue;
			}
			assert.equal(r.path, 'tool', `${u}: ${r.route}`);
			assert.deepEqual(r.tiers, ['workspace'], u);
			assert.equal(r.route, 'tool_workspace', u);
			assert.deepEqual(r.write, [], u);
		}
	});

	it('new code from scratch with nothing of the project named is not an edit', () => {
		for (const u of [
			'write a function that flattens a nested list',
			'create a regex for UK postcodes',
			'make a list of the trade-offs',
		]) {
			assert.equal(isEditRequest(analyzeText(u)), false, u);
		}
		assert.equal(isEditRequest(analyzeText('write a helper for our date parsing')), true);
	});

	it('verbs that are often nouns are edits only with an object', () => {
		for (const u of [
			'move semantics in C++?',
			'build times are really slow',
			'cache invalidation strategies?',
			'format of the lockfile?',
		]) {
			assert.equal(isEditRequest(analyzeText(u)), false, u);
		}
		for (const u of [
			'move the backoff into its own module',
			'merge the two config loaders',
			'split invoice.ts in two',
			'document it',
		]) {
			assert.equal(isEditRequest(analyzeText(u)), true, u);
		}
	});

	it('"make sure" and questions about how to edit are not edit requests', () => {
		for (const u of [
			'make sure the docs mention it',
			'how do I rename a git branch?',
			'what does the fix do?',
			'change of plans: the demo moves to Friday',
			'update on the release?',
		]) {
			assert.equal(isEditRequest(analyzeText(u)), false, u);
		}
	});

	it('an edit with a personal reference keeps the profile', () => {
		const r = decide('reformat the scheduler in my preferred style');
		assert.equal(r.path, 'tool');
		assert.deepEqual(r.tiers, ['workspace', 'profile']);
	});

	it('running tests with a qualifier is an action, not a search', () => {
		for (const u of ['run the scheduler tests', 'please run the smoke tests', 'restart the staging dev server']) {
			const r = decide(u);
			assert.equal(r.path, 'tool', u);
			assert.deepEqual(r.tiers, [], u);
		}
	});

	it('"why?" about a failure a live turn just showed is a tool turn that reads the code', () => {
		const h = [user('is the lint check passing?'), assistant('No: 3 errors in src/api/users.ts.')];
		for (const u of ['what is wrong with them?', 'why does it fail?']) {
			const r = decide(u, h);
			assert.equal(r.path, 'tool', u);
			assert.deepEqual(r.tiers, ['workspace'], u);
		}
		// Without a live turn before it, the same question is a code question.
		assert.equal(decide('why does it fail?', CODE_THREAD).path, 'rag');
	});
});

describe('follow-ups in a generic thread', () => {
	it('a follow-up about general programming knowledge searches nothing', () => {
		for (const u of [
			'does it work with async functions too?',
			'what about methods on a class?',
			'and how do I clear it?',
		]) {
			const r = decide(u, GENERIC_THREAD);
			assert.equal(r.path, 'direct', u);
			assert.equal(r.route, 'generic', u);
			assert.deepEqual(r.tiers, [], u);
		}
	});

	it('retrieves as soon as the turn or the thread touches the project', () => {
		for (const u of [
			'does our cache decorator use it?',
			'where do we memoize the pricing call?',
			'is it used in billing.py?',
			'it raises a RecursionError in my code',
		]) {
			assert.ok(decide(u, GENERIC_THREAD).retrieve, u);
		}
		assert.ok(decide('does it work with async functions too?', CODE_THREAD).retrieve);
		// A neutral first question is not clearly generic: retrieve on ambiguity.
		assert.ok(
			decide('does it work with async functions too?', [user('the memo layer'), assistant('Which one?')]).retrieve,
		);
	});

	it('"in general" asks for general knowledge even in a code thread', () => {
		const r = decide('what is a min-heap in general?', CODE_THREAD);
		assert.equal(r.path, 'direct');
		assert.deepEqual(r.tiers, []);
		assert.ok(decide('how is a min-heap used in our scheduler in general?', CODE_THREAD).retrieve);
	});

	it('re-saying the last answer is answered from the conversation', () => {
		for (const u of ['paraphrase that for a beginner', 'tl;dr of that', 'say it again more simply']) {
			const r = decide(u, CODE_THREAD);
			assert.equal(r.route, 'provided_context', u);
			assert.deepEqual(r.tiers, [], u);
		}
		assert.equal(decide('paraphrase that for a beginner').retrieve, true, 'nothing to paraphrase without history');
	});

	it('threadView stops at the nearest project or generic turn, within its lookback', () => {
		assert.equal(threadView(GENERIC_THREAD, 4).generic, true);
		assert.equal(threadView([...GENERIC_THREAD, user('and in our worker?')], 4).generic, false);
		const long = [
			user('How do I sort a dict by value in Python?'),
			...Array.from({ length: 5 }, (_, i) => user(`and number ${i}?`)),
		];
		assert.equal(threadView(long, 6).generic, true);
		assert.equal(threadView(long, 3).generic, false, 'the generic anchor is out of reach');
	});
});

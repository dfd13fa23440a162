import * as assert from 'node:assert/strict';
import { classifyIntent, turnFeatures } from '../../../src/core/intent/classifyIntent';
import { analyzeText } from '../../../src/core/text/turnText';
import { classifyTrigger } from '../../../src/core/trigger/classifyTrigger';
import type { FollowupResult, Intent } from '../../../src/core/types';

const STANDALONE: FollowupResult = { score: 0, is_followup: false, signals: [] };
const FOLLOWUP: FollowupResult = { score: 0.8, is_followup: true, signals: [{ name: 'pronoun', weight: 0.8 }] };

function intent(utterance: string, followup: FollowupResult = STANDALONE): Intent {
	const t = analyzeText(utterance);
	return classifyIntent(t, classifyTrigger(t), followup, turnFeatures(t)).intent;
}

describe('intent rules', () => {
	it('test probes are testing, whole-message only', () => {
		assert.equal(intent('test'), 'testing');
		assert.equal(intent('ping'), 'testing');
		assert.equal(intent('asdf'), 'testing');
		assert.notEqual(intent('fix the failing test'), 'testing');
		assert.notEqual(intent('run pytest'), 'testing');
	});
	it('memory directives are privacy', () => {
		assert.equal(intent('forget what I said about my employer'), 'privacy');
		assert.equal(intent("don't remember this"), 'privacy');
		assert.equal(intent('keep this private'), 'privacy');
	});
	it('the trigger kinds carry over: correction, instruction, recall', () => {
		assert.equal(intent('I left Northwind last month, remember?'), 'correction');
		assert.equal(intent('always use tabs'), 'instruction');
		assert.equal(intent('what did we decide about the cache?'), 'recall');
	});
	it('questions about the assistant itself are meta', () => {
		assert.equal(intent('why did you look that up?'), 'meta');
		assert.equal(intent('how do you decide what to retrieve?'), 'meta');
		assert.equal(intent('what model are you?'), 'meta');
	});
	it('"what do you remember about me?" is recall, not meta', () => {
		assert.equal(intent('what do you remember about me?'), 'recall');
	});
	it('greetings and acknowledgements', () => {
		assert.equal(intent('hello'), 'greeting');
		assert.equal(intent('thanks!'), 'acknowledgement');
	});
	it('a fact about the user is a profile statement; other statements are general', () => {
		assert.equal(intent('I work at Contoso as a backend developer'), 'profile_statement');
		assert.equal(intent("I'm allergic to peanuts"), 'profile_statement');
		assert.equal(intent('my editor is neovim'), 'profile_statement');
		assert.equal(intent("I'm Priya, I work at Northwind as a data engineer."), 'profile_statement');
		assert.equal(intent("I've been learning Spark this month."), 'profile_statement');
		assert.equal(intent('The CI pipeline takes ten minutes.'), 'general');
	});
	it('questions about the user are profile questions', () => {
		assert.equal(intent('Where do I work and what should I not eat?'), 'profile_question');
		assert.equal(intent("what's my name?"), 'profile_question');
		assert.equal(intent('which editor do I use?'), 'profile_question');
	});
	it('generic "how do I" and "what should I use" are not profile questions', () => {
		assert.notEqual(intent('how do I parse JSON in Python?'), 'profile_question');
		assert.notEqual(intent('what should I use to mock fetch?'), 'profile_question');
	});
	it('references to the code base make a workspace question', () => {
		for (const u of [
			'where is parseConfig defined?',
			'How does the retry logic in our api client work?',
			'what does src/core/decide.ts export?',
			'which files import the logger?',
			'why does load_settings() return None?',
			'explain the ChatViewProvider class',
			'in this repo, how are migrations numbered?',
		]) {
			assert.equal(intent(u), 'workspace_question', u);
		}
	});
	it('built-in error and method names and product names are not identifiers of this code base', () => {
		for (const u of [
			'why does this throw a TypeError?',
			'explain the difference between map and flatMap in Rust',
			'how do I install Node.js on GitHub Actions?',
		]) {
			assert.notEqual(intent(u), 'workspace_question', u);
		}
	});
	it('a follow-up without a stronger cue is a continuation', () => {
		assert.equal(intent('and what about the other one?', FOLLOWUP), 'continuation');
		assert.equal(intent('and what about the other one?', STANDALONE), 'general');
	});
	it('everything else is general', () => {
		assert.equal(intent('what is the capital of France?'), 'general');
	});
});

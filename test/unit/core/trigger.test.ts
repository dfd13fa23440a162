import * as assert from 'node:assert/strict';
import { analyzeText } from '../../../src/core/text/turnText';
import { classifyTrigger, triggerRetrieves, writeTiersFor } from '../../../src/core/trigger/classifyTrigger';
import type { Trigger } from '../../../src/core/types';

function trigger(utterance: string): Trigger {
	return classifyTrigger(analyzeText(utterance)).trigger;
}

function expectAll(cases: Array<[string, Trigger]>): void {
	for (const [utterance, expected] of cases) assert.equal(trigger(utterance), expected, utterance);
}

describe('retrieval trigger', () => {
	describe('seed 004: a question mark does not mean a question', () => {
		it('an instruction wearing a question mark does not retrieve', () => {
			const r = classifyTrigger(analyzeText('Can you keep answers shorter from now on?'));
			assert.equal(r.trigger, 'instruction');
			assert.equal(r.retrieves, false);
		});
		it('"…, remember?" tells the store: a correction', () => {
			const r = classifyTrigger(analyzeText('I left Northwind last month, remember?'));
			assert.equal(r.trigger, 'correction');
			assert.equal(r.rule, 'remember_tag');
			assert.equal(r.retrieves, false);
		});
		it('a real question retrieves', () => {
			const r = classifyTrigger(analyzeText('Where do I work and what should I not eat?'));
			assert.equal(r.trigger, 'question');
			assert.equal(r.retrieves, true);
		});
		it('"do you remember …" asks the store: recall', () => {
			expectAll([
				['Do you remember where I work?', 'recall'],
				['do you remember?', 'recall'],
				['Can you recall what we picked for the queue?', 'recall'],
			]);
		});
	});

	describe('corrections', () => {
		it('recognises coding corrections', () => {
			expectAll([
				['no, I meant the other function', 'correction'],
				['No I meant the test helper', 'correction'],
				['actually we use pnpm, not npm', 'correction'],
				['Actually, the config lives in settings.json', 'correction'],
				["that's wrong again", 'correction'],
				["That's not what I asked", 'correction'],
				['we switched to vitest last sprint', 'correction'],
				["we don't use redux anymore", 'correction'],
				['you misunderstood, the bug is in the parser', 'correction'],
				['we use tabs, not spaces', 'correction'],
			]);
		});
		it('a document the project keeps said to be wrong is a correction, a question about it is not', () => {
			expectAll([
				['and it needs DATABASE_URL set, the README is out of date', 'correction'],
				['the docs are wrong about the default port', 'correction'],
				['is the README out of date?', 'question'],
			]);
		});
		it('"actually …?" is a request, not a correction', () => {
			assert.equal(trigger('actually, can you also add tests?'), 'question');
		});
		it('"no thanks" and "no worries" are acknowledgements', () => {
			expectAll([
				['no thanks', 'ack'],
				['No worries!', 'ack'],
			]);
		});
		it('corrections outrank instructions and questions', () => {
			expectAll([
				['no, from now on use yarn', 'correction'],
				["That's wrong, why did you use npm?", 'correction'],
			]);
		});
	});

	describe('instructions', () => {
		it('recognises standing instructions and preferences', () => {
			expectAll([
				['always use tabs', 'instruction'],
				['from now on answer in French', 'instruction'],
				['Please never use semicolons', 'instruction'],
				["don't add comments to generated code", 'instruction'],
				['stop apologizing', 'instruction'],
				['Keep your answers brief', 'instruction'],
				['be more concise', 'instruction'],
				['I prefer single quotes', 'instruction'],
				['remember that the staging db is read-only', 'instruction'],
				['call me Sam', 'instruction'],
				['use pnpm instead of npm', 'instruction'],
				['prefer composition over inheritance', 'instruction'],
			]);
		});
		it('memory directives (privacy) are instructions', () => {
			const r = classifyTrigger(analyzeText('forget what I told you about my employer'));
			assert.equal(r.trigger, 'instruction');
			assert.equal(r.rule, 'memory_directive');
		});
		it('"never mind" is an acknowledgement, not an instruction', () => {
			assert.equal(trigger('never mind'), 'ack');
		});
		it('"always" inside a question is not an instruction', () => {
			assert.equal(trigger('why does the build always fail on Mondays?'), 'question');
		});
	});

	describe('recall', () => {
		it('recognises explicit recall', () => {
			expectAll([
				['what did we decide about the cache?', 'recall'],
				['What did I tell you about the deploy window?', 'recall'],
				['remind me which port the dev server uses', 'recall'],
				['as we discussed, the retries are capped', 'recall'],
				['did we ever settle on a lint config?', 'recall'],
				['what do you remember about me?', 'recall'],
			]);
		});
		it('"what did I change" is a question about live state, not recall', () => {
			assert.equal(trigger('what did I change?'), 'question');
		});
	});

	describe('questions and requests', () => {
		it('imperative requests ask for something', () => {
			expectAll([
				['refactor this function', 'question'],
				['fix the failing test', 'question'],
				['Please write a unit test for parseArgs', 'question'],
				['explain the retry logic', 'question'],
				['hi, refactor the cache module', 'question'],
			]);
		});
		it('wh-, auxiliary and problem-report openings are questions', () => {
			expectAll([
				['how does the indexer skip binaries', 'question'],
				['is the cache shared between workers', 'question'],
				['the build still fails on CI', 'question'],
				["I'm getting an error when I import the worker", 'question'],
			]);
		});
		it('a problem report without a question mark asks for help', () => {
			for (const u of [
				'the deploy script crashed halfway through the migration',
				'seeing a weird TypeError in the date picker',
				'password reset mails go out three times',
				'the sidebar stays empty after login',
				'the export button does nothing',
				'order totals come back wrong for discounted items',
				'webhooks are processed twice when the queue restarts',
				'the importer no longer compiles after the refactor',
				'expected 3 rows but got 4 from the report query',
				'checkout keeps timing out on mobile',
				"the settings drawer won't open on Firefox",
			]) {
				const r = classifyTrigger(analyzeText(u));
				assert.equal(r.trigger, 'question', u);
				assert.ok(r.rule.startsWith('problem_report') || r.rule === 'request_verb', `${u}: ${r.rule}`);
				assert.equal(r.retrieves, true, u);
			}
		});
		it('a fixed problem, a self-correction or a plain fact is not a problem report', () => {
			expectAll([
				['the deploy crashed on Monday but we fixed it', 'statement'],
				['the flaky upload test is gone now', 'statement'],
				['our staging database lives in Frankfurt', 'statement'],
				['we were wrong about the port, it is 5433', 'statement'],
				["change of plans, we'll stick with SQLite for the prototype", 'statement'],
			]);
		});
		it('retrieves on ambiguity: a fragment is a question', () => {
			const r = classifyTrigger(analyzeText('pnpm workspaces'));
			assert.equal(r.trigger, 'question');
			assert.equal(r.rule, 'ambiguous');
			assert.equal(r.retrieves, true);
		});
	});

	describe('statements', () => {
		it('a turn that tells and asks nothing is a statement and does not retrieve', () => {
			for (const u of [
				'I work at Contoso as a backend developer',
				'The CI pipeline takes ten minutes.',
				'we deploy on Fridays',
			]) {
				const r = classifyTrigger(analyzeText(u));
				assert.equal(r.trigger, 'statement', u);
				assert.equal(r.retrieves, false, u);
			}
		});
		it('a statement wins over a leading acknowledgement', () => {
			assert.equal(trigger('thanks, the parser is in src/parse.ts'), 'statement');
		});
	});

	describe('decisions', () => {
		it('a decision tells: a statement written to research', () => {
			for (const u of [
				"let's go with option B",
				'we decided to use Postgres for the store',
				'ok, we will stick with tabs',
			]) {
				const r = classifyTrigger(analyzeText(u));
				assert.equal(r.trigger, 'statement', u);
				assert.equal(r.retrieves, false, u);
			}
			assert.deepEqual(writeTiersFor('statement', false), ['research']);
		});
		it('"let\'s" with a work verb is a request, and a question mark keeps it a question', () => {
			expectAll([
				["let's refactor the parser", 'question'],
				["let's use Redis here?", 'question'],
			]);
		});
	});

	describe('greetings and acknowledgements', () => {
		it('recognises whole-message social formulas', () => {
			expectAll([
				['hi', 'greeting'],
				['Hello there!', 'greeting'],
				['good morning', 'greeting'],
				['thanks!', 'ack'],
				['ok, got it', 'ack'],
				['👍', 'ack'],
				['thanks, that works!', 'ack'],
				['lgtm, ship it', 'ack'],
				['Hmm, interesting.', 'ack'],
				['That makes sense, thanks.', 'ack'],
				['sounds good, go ahead', 'ack'],
			]);
		});
		it('test probes open a conversation like a greeting', () => {
			for (const u of ['test', 'ping', 'asdf', 'testing 1 2 3']) {
				const r = classifyTrigger(analyzeText(u));
				assert.equal(r.trigger, 'greeting', u);
				assert.equal(r.social, 'probe', u);
			}
		});
		it('a greeting followed by a request is a question', () => {
			assert.equal(trigger('hi, how do I run the tests?'), 'question');
		});
	});

	describe('cue boundaries (regressions)', () => {
		it('time scopes and "always" followed by a question ask', () => {
			expectAll([
				['in the future, how should we version the API?', 'question'],
				['by default, what port does the server use?', 'question'],
				['going forward, what is the plan for the store?', 'question'],
				['always?', 'question'],
				['from now on, can you answer in French?', 'instruction'],
			]);
		});
		it('"I meant to ask" re-asks; "it is wrong to …" evaluates; "do I prefer" asks the profile', () => {
			expectAll([
				['I meant to ask: how do we deploy?', 'question'],
				["it's not correct to call this twice, is it?", 'question'],
				['what do I prefer for formatting?', 'question'],
				['I meant the staging database', 'correction'],
			]);
		});
		it('"remember when …" asks the store; "never mind" and "forget it" drop the matter', () => {
			expectAll([
				['remember when we fixed the auth bug?', 'recall'],
				['actually never mind', 'ack'],
				['forget it', 'ack'],
			]);
		});
	});

	describe('whole-word matching (substring regressions)', () => {
		it('never matches a cue inside a longer word', () => {
			expectAll([
				['run pytest on the parser', 'question'], // "test" probe inside "pytest"
				['nothing happens when I click save', 'question'], // "no" inside "nothing": a problem report, not a correction
				['this history view is slow', 'question'], // "hi" inside "this"/"history": a complaint, not a greeting
				['okta login uses SAML', 'statement'], // "ok" inside "okta"
				['the latest release dismembered my config, remember?', 'correction'],
				['factually the docs are stale', 'statement'], // "actually" inside "factually"
				['the pingback endpoint returns 500', 'question'], // "ping" inside "pingback": a problem report, not a probe
				['the pingback endpoint moved to v2', 'statement'], // "ping" inside "pingback"
			]);
		});
	});

	describe('writes', () => {
		it('corrections write research (and profile when about the user)', () => {
			assert.deepEqual(writeTiersFor('correction', false), ['research']);
			assert.deepEqual(writeTiersFor('correction', true), ['research', 'profile']);
		});
		it('instructions write profile; statements write profile or research', () => {
			assert.deepEqual(writeTiersFor('instruction', false), ['profile']);
			assert.deepEqual(writeTiersFor('statement', true), ['profile']);
			assert.deepEqual(writeTiersFor('statement', false), ['research']);
		});
		it('questions and recall write nothing unless they also state a fact about the user', () => {
			for (const t of ['question', 'recall'] as const) {
				assert.deepEqual(writeTiersFor(t, false), [], t);
				assert.deepEqual(writeTiersFor(t, true), ['profile'], t);
			}
		});
		it('social turns write nothing', () => {
			for (const t of ['greeting', 'ack'] as const) assert.deepEqual(writeTiersFor(t, true), [], t);
		});
		it('only question and recall retrieve', () => {
			assert.deepEqual(
				(['correction', 'instruction', 'recall', 'question', 'statement', 'greeting', 'ack'] as const).filter(
					triggerRetrieves,
				),
				['recall', 'question'],
			);
		});
	});
});

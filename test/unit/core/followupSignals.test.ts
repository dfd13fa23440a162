import assert from 'node:assert/strict';
import {
	detectBareDefinite,
	detectContinuation,
	detectDefiniteReference,
	detectElaboration,
	detectElidedHead,
	detectExplicitArgument,
	detectImplicitArgument,
	detectIndefinite,
	detectPronoun,
	detectSubjectQuestion,
	type TurnView,
} from '../../../src/core/followup/signals';
import { contentStems } from '../../../src/core/followup/content';
import { joinWords, stem, tokenize } from '../../../src/core/followup/text';
import { scoreFollowup } from '../../../src/core/followup/followupScorer';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';

function view(text: string): TurnView {
	const tokens = tokenize(text);
	const words = tokens.map((t) => t.word);
	return { tokens, words, joined: joinWords(words), content: contentStems(tokens) };
}

/** Asserts the detector fires (with the given match) on each `yes` and stays silent on each `no`. */
function check(detect: (v: TurnView) => string | null, yes: Record<string, string>, no: string[]): void {
	for (const [text, match] of Object.entries(yes)) assert.equal(detect(view(text)), match, `should fire on: ${text}`);
	for (const text of no) assert.equal(detect(view(text)), null, `should not fire on: ${text}`);
}

describe('follow-up signals', () => {
	it('tokenize: whole words, names, code, clauses', () => {
		const t = tokenize('Why does parseConfig fail in Node, and how is it fixed?');
		assert.deepEqual(t.map((x) => x.word).slice(0, 5), ['why', 'does', 'parseconfig', 'fail', 'in']);
		assert.equal(t[2]!.code, true);
		assert.equal(t[5]!.name, true, 'Node mid-sentence is a name');
		assert.equal(t[0]!.name, false, 'a sentence-initial capital is not a name');
		assert.ok(t[t.length - 1]!.clause > t[0]!.clause, 'the comma and "and how" open new clauses');
		assert.equal(stem('goats'), 'goat');
		assert.equal(stem('libraries'), 'library');
	});

	it('pronoun: anaphoric pronouns and demonstratives, not expletive it or relative that', () => {
		check(
			detectPronoun,
			{
				'Is it treatable?': 'it',
				'What are their adaptations?': 'their',
				'How does that work?': 'that',
				'Why is that?': 'that',
				'Which one is faster?': 'one',
				'Are special events held there?': 'there',
				'Can you explain those?': 'those',
			},
			[
				'Is it possible to run Node in the browser?',
				'How long does it take to learn Rust?',
				'Electors that do not vote for the candidate?',
				'Is there a linter for YAML?',
				'How do I edit the commit message?',
				'What changed this year in ECMAScript?',
				'How do I add a linter to this repo?',
			],
		);
	});

	it('pronoun: an opening clause that names its subject supplies the antecedent', () => {
		const r = scoreFollowup(
			'What is mortadella and where is it from?',
			[{ role: 'user', content: 'Tell me about Italian food.' }],
			DEFAULT_THRESHOLDS,
		);
		assert.ok(!r.signals.some((s) => s.name === 'pronoun'), JSON.stringify(r.signals));
		check(detectPronoun, { 'Tell me about feijoada and its history, is it spicy?': 'it' }, [
			'Tell me about feijoada and its significance.',
		]);
	});

	it('continuation: turn-initial connectives and additive markers, whole words only', () => {
		check(
			detectContinuation,
			{
				'And in descending order?': 'and',
				'What about in the US?': 'what about',
				'How about on the bbq?': 'how about',
				'What if I already pushed?': 'what if',
				'Use a Map instead.': 'instead',
				'Does it work on Windows too?': 'too',
				'Now do the same for two keys.': 'now',
			},
			[
				'Android builds fail on CI.',
				'Sofa sizes?',
				'There are too many open files.',
				'Butter or margarine for baking?',
			],
		);
	});

	it('definite reference: the function, that error, your example, above', () => {
		check(
			detectDefiniteReference,
			{
				'Why does the function return undefined?': 'the function',
				'Where does that error come from?': 'that error',
				'Can you fix your example?': 'your example',
				'Run the code above.': 'above',
				'As you said, it is slow.': 'you said',
				'Does the test still fail?': 'the test',
			},
			[
				'Why does the parseConfig function fail?',
				'What is the latest version of pytest?',
				'What is the event loop?',
				'How do I attest a release?',
			],
		);
	});

	it('bare definite: "the N" with no complement, not names or world-unique nouns', () => {
		check(
			detectBareDefinite,
			{ 'How reliable is the system?': 'the system', 'What are the main themes?': 'the main themes' },
			[
				'How reliable is the test?',
				'What is the history of toilets?',
				'Tell me about the Milgram experiment.',
				'Is Rust popular around the world?',
			],
		);
	});

	it('implicit argument: a relational noun whose argument is left out', () => {
		check(
			detectImplicitArgument,
			{
				'What are the symptoms?': 'symptoms',
				'Any downsides?': 'downsides',
				'What are the pros and cons?': 'pros',
				'What is the difference with real?': 'difference',
			},
			[
				'What are the symptoms of anemia?',
				'What are the side effects of melatonin?',
				'Add a type annotation.',
				'What treatments exist for depression?',
			],
		);
	});

	it('elided head: superlatives, ordinals and quantifiers with no noun', () => {
		check(
			detectElidedHead,
			{
				'What is the largest ever caught?': 'the largest',
				'How many can you have per acre?': 'how many',
				'Which is younger and why?': 'which is',
				'Who is the most powerful and why?': 'the most powerful',
			},
			['What is the largest shark?', 'How many barrels can a ship carry?', 'Which is faster, map or forEach?'],
		);
	});

	it('elaboration: explain, example, tell me more, a bare "why?" — only with little content of its own', () => {
		check(
			detectElaboration,
			{
				'Why?': 'why',
				'Give me an example.': 'an example',
				'Can you elaborate on the generations?': 'elaborate',
				'Tell me more.': 'tell me more',
			},
			["Explain how Python's garbage collector handles reference cycles.", 'Why is the build slow?'],
		);
	});

	it('subject question (against): "What is X?" / "Tell me about X" with X complete', () => {
		assert.equal(detectSubjectQuestion(view('What is a trope?'))?.match, 'what is a trope');
		assert.equal(detectSubjectQuestion(view('Tell me about lung cancer.'))?.match, 'tell me about lung cancer');
		for (const no of [
			'What is the evidence for it?',
			'Tell me about makos.',
			'What are pygmies used for?',
			'What is it about?',
		]) {
			assert.equal(detectSubjectQuestion(view(no)), null, no);
		}
	});

	it('explicit argument and indefinite (against): the turn names its own subject', () => {
		check(detectExplicitArgument, { 'What is the history of Irish stew?': 'history of irish' }, [
			'What is the history of it?',
			'What is the history of the expedition?',
		]);
		check(detectIndefinite, { 'How do I create a partial index?': 'a partial' }, [
			'Can I get a lot of them?',
			'Is there a few of them?',
			'How do I install the linter?',
		]);
	});
});

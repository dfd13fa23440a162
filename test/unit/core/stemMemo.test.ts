import assert from 'node:assert/strict';
import { clearStemMemo, stemSet, wordStems } from '../../../src/core/followup/text';

// The light stemmer drops "es" after ch/sh/x/ss ("caches" → "cach"). The history-stem memo holds derived data only: emptying it (bench:gate --cold) changes no result.
describe('followup stem memo', () => {
	const text = 'The caches were flushed; Retries and boxes… it’s fixed.';
	const expected = ['the', 'cach', 'were', 'flushed', 'retry', 'and', 'box', "it'", 'fixed'];

	it('gives the same stems from a cold memo, a warm memo and after clearing it', () => {
		clearStemMemo();
		const cold = [...wordStems(text, new Set())];
		const warm = [...wordStems(text, new Set())];
		clearStemMemo();
		const cleared = [...wordStems(text, new Set())];
		assert.deepEqual(cold, expected);
		assert.deepEqual(warm, expected);
		assert.deepEqual(cleared, expected);
	});

	it('stemSet is the same set, in first-seen order, whether memoised or not', () => {
		clearStemMemo();
		assert.deepEqual([...stemSet(text)], expected);
		assert.deepEqual([...stemSet(text)], expected);
		assert.equal(stemSet(text), stemSet(text));
	});
});

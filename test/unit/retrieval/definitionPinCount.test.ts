/** Which turns pin symbol definitions first: short questions do, pasted bug reports do not. */
import assert from 'node:assert/strict';
import { definitionPinCount } from '../../../src/retrieval/hybridSearch';
import { DEFAULT_RETRIEVAL_TUNING as T } from '../../../src/retrieval/retrievalThresholds';

describe('definitionPinCount', () => {
	it('a short question about a name pins the default one definition', () => {
		assert.equal(definitionPinCount('How is send_file implemented?', T), 1);
	});

	it('exactly the word limit still pins; one word more does not', () => {
		const limit = { ...T, symbol_pin_max_turn_words: 5 };
		assert.equal(definitionPinCount('one two three four five', limit), 1);
		assert.equal(definitionPinCount('one two three four five six', limit), 0);
	});

	it('a long bug report pins nothing under the defaults (the limit is 40 words)', () => {
		const report = `QuerySet.union() drops ordering when ${'the related model field is used in a subquery and '.repeat(5)}`;
		assert.ok(report.split(/\s+/).filter(Boolean).length > 40);
		assert.equal(definitionPinCount(report, T), 0);
	});

	it('whitespace runs and newlines count as one separator; pinning off stays off', () => {
		assert.equal(definitionPinCount('  where\n\n is   parse_args\t defined  ', T), 1);
		assert.equal(definitionPinCount('where is parse_args', { ...T, symbol_pin_definitions: 0 }), 0);
		assert.equal(definitionPinCount('where is parse_args', { ...T, symbol_pin_definitions: 3 }), 3);
	});
});

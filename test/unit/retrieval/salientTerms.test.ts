import { strict as assert } from 'node:assert';
import { salientTerms } from '../../../src/retrieval/queryTerms';

describe('salientTerms (long reports)', () => {
	it('keeps a short query as before: compound terms first, numbers kept', () => {
		assert.deepEqual(salientTerms('why does send_file fail on line 42', 32), [
			'send_file',
			'does',
			'fail',
			'line',
			'42',
		]);
	});

	it('puts the title line first and drops numbers and environment dumps when over the cap', () => {
		const report =
			'QuerySet ordering broken\nOn macOS-12.4-x86_64 with clang-1300.0.29.30 build 123 the order_by call fails in compiler';
		// chatter (on, with, the, in) never counts; 10 salient terms > 6: the long rule applies.
		assert.deepEqual(salientTerms(report, 6), ['QuerySet', 'ordering', 'broken', 'order_by', 'build', 'call']);
	});

	it('drops dash-joined host names in a long query', () => {
		const report = 'Crash\nseen on tsung-hande-MacBook-Pro running foo_bar baz qux';
		assert.deepEqual(salientTerms(report, 4), ['Crash', 'foo_bar', 'seen', 'running']);
	});
});

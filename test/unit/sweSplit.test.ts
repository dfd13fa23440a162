import { strict as assert } from 'node:assert';
import { sweSplitIds } from '../../src/cli/sweSplit.js';

describe('sweSplitIds (SWE-bench swe-dev / swe-test)', () => {
	const rows = [
		...Array.from({ length: 7 }, (_, i) => ({ id: `django__django-${1000 + i}`, repo: 'django/django' })),
		...Array.from({ length: 4 }, (_, i) => ({ id: `sympy__sympy-${2000 + i}`, repo: 'sympy/sympy' })),
	];

	it('halves each project, dev rounded up, every id in exactly one half', () => {
		const s = sweSplitIds(rows);
		assert.equal(s.dev.filter((id) => id.startsWith('django')).length, 4);
		assert.equal(s.dev.filter((id) => id.startsWith('sympy')).length, 2);
		assert.equal(s.dev.length + s.test.length, 11);
		assert.equal(new Set([...s.dev, ...s.test]).size, 11);
	});

	it('does not depend on row order', () => {
		const a = sweSplitIds(rows);
		const b = sweSplitIds([...rows].reverse());
		assert.deepEqual([...b.dev].sort(), [...a.dev].sort());
	});

	it('rejects duplicate ids and rows without a repo', () => {
		assert.throws(() => sweSplitIds([rows[0]!, rows[0]!]), /duplicate SWE instance id/);
		assert.throws(() => sweSplitIds([{ id: 'x', repo: '' }]), /without id or repo/);
	});
});

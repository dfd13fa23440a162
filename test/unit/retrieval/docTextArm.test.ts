/** The prose list: docstrings, comments and definition names ranked against a question's words. */
import assert from 'node:assert/strict';
import { chunkProse, fuseProse, proseTerms, rankByProse, stem } from '../../../src/retrieval/docTextArm';

describe('docTextArm', () => {
	it('stems inflections together and leaves short words alone', () => {
		assert.equal(stem('compared'), stem('compare'));
		assert.equal(stem('matching'), stem('matches'));
		assert.equal(stem('versions'), stem('version'));
		assert.equal(stem('run'), 'run');
	});

	it('prose terms split identifiers and drop stop words and short words', () => {
		assert.deepEqual(proseTerms('where does the maxSatisfying code pick it?'), [
			stem('max'),
			stem('satisfying'),
			'pick',
		]);
	});

	it("a chunk's prose is its docstrings, comments and the names it defines, not its body", () => {
		const py =
			'def determine_encoding(self):\n    """Look at the byte order mark."""\n    x = raw_bytes[0]  # utf-16 check\n    return x';
		const prose = chunkProse(py);
		assert.match(prose, /determine_encoding/);
		assert.match(prose, /byte order mark/);
		assert.match(prose, /utf-16 check/);
		assert.doesNotMatch(prose, /raw_bytes/);
		const js =
			'// Coerce a messy string into a version\nconst coerce = (version, options) => {\n  return parse(version)\n}';
		assert.match(chunkProse(js), /Coerce a messy string/);
		assert.match(chunkProse(js), /coerce/);
		assert.doesNotMatch(chunkProse(js), /parse/);
	});

	it('ranks by the prose: the chunk whose docstring says it beats one whose body only uses the words', () => {
		const chunks = [
			{ key: 'body', content: 'def f(version):\n    messy = string.strip(version)\n    return messy' },
			{
				key: 'doc',
				content: 'def coerce(v):\n    """Pull a version number out of a messy string."""\n    return g(v)',
			},
			{ key: 'none', content: 'def h():\n    return 1' },
		];
		assert.deepEqual(rankByProse('which code pulls a version out of a messy string?', chunks), ['doc']);
		assert.deepEqual(rankByProse('the', chunks), []);
		assert.deepEqual(rankByProse('version', []), []);
	});

	it('fuses a prose rank into an order, keeping pins first; weight 0 changes nothing', () => {
		const order = ['a', 'b', 'c', 'd'];
		assert.deepEqual(
			fuseProse(order, (x) => x, ['d'], 1, 60),
			['d', 'a', 'b', 'c'],
		);
		assert.deepEqual(
			fuseProse(order, (x) => x, ['d'], 1, 60, new Set(['c'])),
			['c', 'd', 'a', 'b'],
		);
		assert.deepEqual(
			fuseProse(order, (x) => x, ['d'], 0, 60),
			order,
		);
		// A small weight moves a chunk only past neighbours it nearly tied with.
		assert.deepEqual(
			fuseProse(order, (x) => x, ['d'], 0.02, 60),
			['a', 'b', 'd', 'c'],
		);
	});
});

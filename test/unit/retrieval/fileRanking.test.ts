/** Document-type priors and the file ranking, on hand-made pools (no store). */
import assert from 'node:assert/strict';
import { applyKindPriors, decayedSum, rankFiles } from '../../../src/retrieval/fileRanking';
import { fileKind, kindPrior, turnWant, turnWantOfTurn } from '../../../src/retrieval/filePriors';
import { hit } from './poolHit';
import { DEFAULT_RETRIEVAL_TUNING as T, retrievalTuning } from '../../../src/retrieval/retrievalThresholds';

describe('fileKind and turnWant', () => {
	it('classifies paths across ecosystems', () => {
		const kinds = Object.fromEntries(
			[
				'CHANGES.rst',
				'docs/changelog/2.1.md',
				'tests/test_helpers.py',
				'pkg/flag_test.go',
				'src/cart.test.ts',
				'src/test/java/FooTest.java',
				'README.md',
				'docs/api.md',
				'dist/app.min.js',
				'api_pb2.py',
				'src/helpers.py',
				'testing.py',
				'tests.py',
			].map((p) => [p, fileKind(p)]),
		);
		assert.deepEqual(kinds, {
			'CHANGES.rst': 'changelog',
			'docs/changelog/2.1.md': 'changelog',
			'tests/test_helpers.py': 'test',
			'pkg/flag_test.go': 'test',
			'src/cart.test.ts': 'test',
			'src/test/java/FooTest.java': 'test',
			'README.md': 'docs',
			'docs/api.md': 'docs',
			'dist/app.min.js': 'generated',
			'api_pb2.py': 'generated',
			'src/helpers.py': 'implementation',
			'testing.py': 'implementation',
			'tests.py': 'implementation',
		});
	});

	it('what a turn wants: tests, how-to, else code; paths do not count', () => {
		assert.equal(turnWant('where is the test for send_file?'), 'tests');
		assert.equal(turnWant('How do I send a file as an attachment?'), 'howto');
		assert.equal(turnWant('why does send_file guess the wrong mimetype'), 'code');
		assert.equal(turnWant('FAILED in tests/test_widgets.py and /spec/template/x'), 'code');
	});

	it('a turn longer than the limit is not about tests (a bug report that says "tested"); others as turnWant', () => {
		// 12 words.
		const report = 'Setting norm with an existing colorbar fails; tested with 3.6.2 and 3.6.3';
		assert.equal(turnWant(report), 'tests');
		assert.equal(turnWantOfTurn(report, report, 12), 'tests');
		assert.equal(turnWantOfTurn(report, report, 11), 'code');
		// The word count is the whole turn's; the want is read from the text given (frames removed).
		assert.equal(turnWantOfTurn('a b c', 'where is the test for send_file?', 2), 'code');
		assert.equal(turnWantOfTurn('a b', 'where is the test for send_file?', 2), 'tests');
		// Only tests: how-to and types keep their want however long the turn.
		assert.equal(turnWantOfTurn('x '.repeat(50), 'How do I send a file as an attachment?', 10), 'howto');
		assert.equal(turnWantOfTurn('x '.repeat(50), 'type hints for the mypy plugin are wrong', 10), 'types');
	});

	it('priors: implementation questions push tests and changelogs down, test questions push tests up', () => {
		assert.equal(kindPrior('changelog', 'code', T).weight, T.prior_impl_over_other);
		assert.equal(kindPrior('test', 'tests', T).weight, T.prior_tests_when_asked);
		assert.equal(kindPrior('implementation', 'code', T).weight, 1);
		assert.equal(kindPrior('docs', 'howto', T).weight, T.prior_docs_howto);
	});
});

describe('applyKindPriors', () => {
	it('a changelog chunk ranked first drops below the implementation for a code question; pins stay first', () => {
		const pool = [hit('CHANGES.rst', 0), hit('src/helpers.py', 0), hit('tests/test_h.py', 0)].map((h) => ({ hit: h }));
		assert.ok(T.prior_impl_over_other < 1);
		const r = applyKindPriors(pool, 'code', T, 60);
		assert.deepEqual(
			r.ranked.map((c) => c.hit.path),
			['src/helpers.py', 'CHANGES.rst', 'tests/test_h.py'],
		);
		assert.deepEqual(r.touched, { changelog: 1, test: 1 });
		const pinned = applyKindPriors(pool, 'code', T, 60, new Set(['tests/test_h.py#0']));
		assert.equal(pinned.ranked[0].hit.path, 'tests/test_h.py');
		const neutral = applyKindPriors(pool, 'code', retrievalTuning({ prior_impl_over_other: 1 }), 60);
		assert.deepEqual(
			neutral.ranked.map((c) => c.hit.path),
			['CHANGES.rst', 'src/helpers.py', 'tests/test_h.py'],
		);
	});
});

describe('rankFiles', () => {
	it('decayedSum: best + d·second + d²·third', () => {
		assert.equal(decayedSum([1, 4, 2, 8], 0.5, 3), 8 + 2 + 0.5);
	});

	it('a file matched by several strong chunks outranks one lucky chunk; with weight 0 it is best chunk per file', () => {
		// a: best chunk first, one chunk; b: second, three strong chunks (sum first); c: one chunk, sum second.
		const ranked = [hit('a.py', 0, 10), hit('b.py', 0, 9), hit('b.py', 1, 9), hit('b.py', 2, 9), hit('c.py', 0, 11)];
		assert.deepEqual(
			rankFiles(ranked, 'code', T, 60).map((f) => f.hit.path),
			['b.py', 'a.py', 'c.py'],
		);
		assert.deepEqual(
			rankFiles(ranked, 'code', retrievalTuning({ file_bm25_weight: 0 }), 60).map((f) => f.hit.path),
			['a.py', 'b.py', 'c.py'],
		);
		assert.equal(rankFiles(ranked, 'code', T, 60, new Set(['c.py#0']))[0].hit.path, 'c.py');
	});

	it('with the file-level BM25 arm, sums come from its chunks and a file only it found joins the list', () => {
		// The pool: a first, b second, each with a pool BM25 score that must now be ignored.
		const pool = [hit('a.py', 0, 50), hit('b.py', 0, 1)];
		// The wide run: z.py (not in the pool) matches in three chunks, b.py in two, a.py in none.
		const wide = [hit('z.py', 0, 9), hit('z.py', 1, 8), hit('b.py', 3, 8), hit('z.py', 2, 7), hit('b.py', 4, 6)];
		const files = rankFiles(pool, 'code', T, 60, new Set(), wide);
		assert.deepEqual(
			files.map((f) => f.hit.path),
			['b.py', 'z.py', 'a.py'],
		);
		// b.py keeps its best pool chunk as its hit; z.py's hit is its best wide chunk.
		assert.equal(files[0].hit.chunk_id, 'b.py#0');
		assert.equal(files[1].hit.chunk_id, 'z.py#0');
		assert.equal(files[2].bm25_sum, 0);
		// Without the wide list the pool's own scores decide the sums: a.py (50) leads.
		assert.deepEqual(
			rankFiles(pool, 'code', T, 60).map((f) => f.hit.path),
			['a.py', 'b.py'],
		);
	});

	it('an extra file list (named files, defined names) adds weight / (rrfK + rank) and brings in a file no arm found', () => {
		const pool = [hit('a.py', 0), hit('b.py', 0)];
		const named = [hit('n.py', 0), hit('b.py', 7)];
		const files = rankFiles(pool, 'code', retrievalTuning({ file_bm25_weight: 0 }), 60, new Set(), undefined, [
			{ weight: 1, hits: named },
		]);
		// b: 1/62 + 1/62 beats a: 1/61 and n: 1/61 (tie with a, broken by pool order: a was seen first).
		assert.deepEqual(
			files.map((f) => f.hit.path),
			['b.py', 'a.py', 'n.py'],
		);
		assert.equal(files[0].hit.chunk_id, 'b.py#0');
		assert.equal(files[2].hit.chunk_id, 'n.py#0');
		// A named test file gets the implementation prior (0.6): it stays below the pool's second file.
		const tests = rankFiles(pool, 'code', retrievalTuning({ file_bm25_weight: 0 }), 60, new Set(), undefined, [
			{ weight: 1, hits: [hit('tests/test_b.py', 0)] },
		]);
		assert.deepEqual(
			tests.map((f) => f.hit.path),
			['a.py', 'b.py', 'tests/test_b.py'],
		);
	});
});

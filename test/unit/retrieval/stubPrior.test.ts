/** Type stubs (.pyi, .d.ts) go below the implementation they describe, unless the turn is about types. */
import assert from 'node:assert/strict';
import { applyKindPriors, rankFiles } from '../../../src/retrieval/fileRanking';
import {
	fileKind,
	implementationDirs,
	implementationNearby,
	kindPrior,
	turnWant,
} from '../../../src/retrieval/filePriors';
import { hit } from './poolHit';
import { DEFAULT_RETRIEVAL_TUNING as T } from '../../../src/retrieval/retrievalThresholds';

describe('stub prior', () => {
	it('classifies .pyi and .d.ts (also .d.mts) as stubs, a test stub as a test, .ts as implementation', () => {
		assert.equal(fileKind('attr/__init__.pyi'), 'stub');
		assert.equal(fileKind('types/index.d.ts'), 'stub');
		assert.equal(fileKind('lib/x.d.mts'), 'stub');
		assert.equal(fileKind('tests/test_x.pyi'), 'test');
		assert.equal(fileKind('src/index.ts'), 'implementation');
	});

	it('turns about type hints, stubs or a named stub want types; an ordinary question does not', () => {
		assert.equal(turnWant('where are the type hints for attr.s declared?'), 'types');
		assert.equal(turnWant('why does mypy complain about my validator?'), 'types');
		assert.equal(turnWant('what does __init__.pyi say define() returns?'), 'types');
		assert.equal(turnWant('where does attr.s decide to add __repr__?'), 'code');
		assert.equal(turnWant('how do I make a frozen class?'), 'howto');
		assert.equal(turnWant('where is the test for the stub generator?'), 'tests');
	});

	it('weighs a stub by prior_stub_below_impl only when an implementation is nearby and types are not asked', () => {
		assert.deepEqual(kindPrior('stub', 'code', T, true), {
			weight: T.prior_stub_below_impl,
			rule: 'code: stub below implementation',
		});
		assert.deepEqual(kindPrior('stub', 'howto', T, true).weight, T.prior_stub_below_impl);
		assert.deepEqual(kindPrior('stub', 'types', T, true), { weight: 1, rule: null });
		assert.deepEqual(kindPrior('stub', 'code', T, false), { weight: 1, rule: null });
		assert.ok(T.prior_stub_below_impl < 1);
	});

	it('implementation nearby means an implementation file of the same directory', () => {
		const dirs = implementationDirs(['attr/_make.py', 'attr/__init__.pyi', 'tests/test_make.py', null, 'setup.py']);
		assert.deepEqual([...dirs].sort(), ['', 'attr']);
		assert.equal(implementationNearby('attr/__init__.pyi', dirs), true);
		assert.equal(implementationNearby('types/index.d.ts', dirs), false);
		assert.equal(implementationNearby(null, dirs), false);
	});

	it('reorders the chunk pool: the stub drops below the implementation it was above', () => {
		const pool = [hit('attr/__init__.pyi', 0), hit('attr/_make.py', 0)].map((h) => ({ hit: h }));
		const code = applyKindPriors(pool, 'code', T, 60);
		assert.deepEqual(
			code.ranked.map((c) => c.hit.path),
			['attr/_make.py', 'attr/__init__.pyi'],
		);
		assert.deepEqual(code.touched, { stub: 1 });
		const types = applyKindPriors(pool, 'types', T, 60);
		assert.deepEqual(
			types.ranked.map((c) => c.hit.path),
			['attr/__init__.pyi', 'attr/_make.py'],
		);
	});

	it('a lone stub with no implementation beside it keeps its place in the file ranking', () => {
		const ranked = [hit('typings/lib.d.ts', 0, 5), hit('src/other/x.ts', 0, 4)];
		assert.deepEqual(
			rankFiles(ranked, 'code', T, 60).map((f) => f.hit.path),
			['typings/lib.d.ts', 'src/other/x.ts'],
		);
		const beside = [hit('src/lib.d.ts', 0, 5), hit('src/lib.js', 0, 4)];
		assert.deepEqual(
			rankFiles(beside, 'code', T, 60).map((f) => f.hit.path),
			['src/lib.js', 'src/lib.d.ts'],
		);
	});
});

describe('symbol arm: a stub definition after the implementation of the same name', () => {
	it('attr.evolve is defined in __init__.pyi and _funcs.py: the implementation ranks first, though the stub sorts first by path', async () => {
		const { rankSymbolMatches } = await import('../../../src/retrieval/symbolArm');
		const { turnIdentifiers } = await import('../../../src/retrieval/queryIdentifiers');
		const def = (chunk_pk: string, path: string) => ({
			chunk_pk,
			doc_id: path,
			chunk_no: 0,
			path,
			start_line: 1,
			end_line: 9,
			symbol: 'evolve',
			content: '',
			score: 0,
			def_name: 'evolve',
			def_kind: 'function',
			def_start: 1,
			def_end: 9,
			norm_leaf: 'evolve',
			norm_name: 'evolve',
		});
		const ids = turnIdentifiers('attr.evolve - how does it build the new instance?').identifiers;
		const m = rankSymbolMatches(ids, [def('s', '__init__.pyi'), def('i', '_funcs.py')], [], T);
		assert.deepEqual(
			m.map((x) => x.row.path),
			['_funcs.py', '__init__.pyi'],
		);
	});
});
